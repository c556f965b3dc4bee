// Inputs that used to run something else than asked (a default scenario, a wrapped number) or
// fail with a message about the wrong thing: each now exits 2 with a message naming the real
// problem.
#include <gtest/gtest.h>

#include <fstream>
#include <string>

#include "tests/cli_util.hpp"

namespace {

using cachesim::test::run_cachesim;
using cachesim::test::temp_dir;

std::string write_file(const std::string& name, const std::string& bytes) {
    const std::string path = (temp_dir() / name).string();
    std::ofstream(path, std::ios::binary) << bytes;
    return path;
}

void expect_usage_error(const std::string& args, const std::string& message) {
    const auto r = run_cachesim(args);
    EXPECT_EQ(r.exit_code, 2) << args << "\n" << r.out;
    EXPECT_NE(r.err.find(message), std::string::npos) << args << "\nstderr: " << r.err;
}

TEST(CliMisreportedErrors, ConfigThatIsADirectory) {
    expect_usage_error("simulate --config '" + temp_dir().string() + "'", "is a directory, not a config file");
}

TEST(CliMisreportedErrors, ConfigLineNamingConfig) {
    const std::string inner = write_file("inner.cfg", "l1-size = 1K\n");
    const std::string outer = write_file("outer.cfg", "config = " + inner + "\n");
    expect_usage_error("simulate --config '" + outer + "'", "configs do not nest");
}

TEST(CliMisreportedErrors, ConfigUnknownOptionNamesTheFile) {
    const std::string path = write_file("unknown.cfg", "l1-sise = 1K\n");
    // Line 1 of the file; l1-size is one letter from l1-sise, written as the file writes options.
    expect_usage_error("simulate --config '" + path + "'",
                       "--config " + path + ": line 1: unrecognised option 'l1-sise' (did you mean l1-size = ...?)");
}

TEST(CliMisreportedErrors, PositionalArgument) {
    expect_usage_error("simulate trace.din", "unexpected argument 'trace.din'");
    expect_usage_error("diagram --out x.png extra", "unexpected argument 'extra'");
}

TEST(CliMisreportedErrors, GpuParameterWithTheThreadModel) {
    expect_usage_error("simulate --block 64", "--block is a GPU model parameter");
}

TEST(CliMisreportedErrors, WorkloadOptionsWithATrace) {
    const std::string din = write_file("one.din", "0 10\n");
    for (const std::string option : {"--workload matmul", "--size 8x8", "--schedule morton", "--stencil 3x3"}) {
        const std::string key = option.substr(0, option.find(' '));
        expect_usage_error("simulate --trace '" + din + "' " + option, key + " describes a built-in workload");
    }
}

TEST(CliMisreportedErrors, NegativeSeed) {
    expect_usage_error("simulate --seed -1", "--seed: '-1' is negative");
    expect_usage_error("simulate --l1-lines -4", "--l1-lines: '-4' is negative");
}

TEST(CliMisreportedErrors, ShortCstFileReadAsAuto) {
    const std::string path = write_file("short.cst", "CSTRACE");
    expect_usage_error("simulate --trace '" + path + "'", "a truncated cst trace");
}

TEST(CliMisreportedErrors, InfoOnADinFile) {
    const std::string path = write_file("info.din", "0 10\n");
    expect_usage_error("info '" + path + "'", "not a cachesim trace");
}

TEST(CliMisreportedErrors, SizeListOutsideASweep) {
    expect_usage_error("simulate --l1-size 1K,2K", "'1K,2K' is not a size");
}

}  // namespace

#include "traces/trace_format_writer.hpp"

namespace {

TEST(CliMisreportedErrors, InfoVerifyFindsAddressesOutsideTheirArray) {
    // One array of 16 x 1 elements of 4 bytes at 0x1000 (0x1000 .. 0x1040); the second access is
    // far past its end.
    cachesim::cst::TraceHeader header;
    header.elem_bytes = 4;
    header.arrays = {{"A", 0x1000, 4, 16, 1}};
    const std::string path = (temp_dir() / "outside.cst").string();
    {
        cachesim::cst::TraceWriter writer(path, header);
        cachesim::AccessBatch batch;
        batch.accesses = {{0x1000, 4, 0, false}, {0x7fff0000, 4, 0, false}};
        writer.append(batch);
        writer.finish();
    }
    const auto r = run_cachesim("info '" + path + "' --verify");
    EXPECT_EQ(r.exit_code, 2) << r.out;
    EXPECT_NE(r.err.find("step 1"), std::string::npos) << r.err;
    EXPECT_NE(r.err.find("outside array 'A'"), std::string::npos) << r.err;
}

// The GPU model's caches have 32 B sectors. A line set shorter, by hand or by a thread-model
// preset, used to fail on a sector size the user never gave; the message now names the line's
// option (and the preset that set it) and the way out, which runs.
TEST(CliMisreportedErrors, AGpuLineShorterThanItsSectorsNamesTheLine) {
    expect_usage_error("simulate --preset thesis-matmul --model gpu",
                       "--l1-line 16 is shorter than the GPU model's 32 B sectors (--preset thesis-matmul sets it");
    expect_usage_error("simulate --model gpu --size 64x64 --l2-line 16",
                       "--l2-line 16 is shorter than the GPU model's 32 B sectors; give --l2-sector 16");
    const auto r = run_cachesim("simulate --preset thesis-matmul --model gpu --l1-sector 16");
    EXPECT_EQ(r.exit_code, 0) << r.err;
}

}  // namespace
