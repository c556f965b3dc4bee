// cachesim trace / info / simulate --trace end to end: a written trace replays to the same
// counters as the built-in workload; bad files exit 2 with the byte offset; no half-written output.
#include <gtest/gtest.h>

#include <filesystem>
#include <fstream>

#include "tests/cli_util.hpp"

namespace cachesim {
namespace {

using test::run_cachesim;

const std::string kWorkload = "--workload matmul --size 48x40 --depth 24 --schedule zigzag:8";
const std::string kCaches = "--l1-size 2K --l1-line 64 --l1-ways 4 --l2-size 16K --l2-ways 8 --format csv";

std::string trace_path(const std::string& name) { return (test::temp_dir() / name).string(); }

// The simulate CSV row without its subject columns (workload fields vs trace path).
std::string counters_of(const std::string& csv) {
    const std::string row = csv.substr(csv.find('\n') + 1);
    return row.substr(row.find(",1,") );  // from the seed column on
}

TEST(CliTraceFile, TraceThenSimulateMatchesTheWorkload) {
    const std::string path = trace_path("mm.cst");
    const auto t = run_cachesim("trace " + kWorkload + " --out " + path + " --quiet");
    ASSERT_EQ(t.exit_code, 0) << t.err;
    EXPECT_NE(t.out.find("1920 threads x 49 = 94080 accesses"), std::string::npos) << t.out;
    const auto from_file = run_cachesim("simulate --trace " + path + " " + kCaches);  // auto-detected
    const auto explicit_format = run_cachesim("simulate --trace " + path + " --trace-format cst " + kCaches);
    const auto built_in = run_cachesim("simulate " + kWorkload + " " + kCaches);
    ASSERT_EQ(from_file.exit_code, 0) << from_file.err;
    ASSERT_EQ(built_in.exit_code, 0) << built_in.err;
    EXPECT_EQ(counters_of(from_file.out), counters_of(built_in.out));
    EXPECT_EQ(explicit_format.out, from_file.out);
}

TEST(CliTraceFile, ThrustBackendsWriteTheGeneratorsBytes) {
    const std::string generator = trace_path("gen.cst"), host = trace_path("host.cst");
    ASSERT_EQ(run_cachesim("trace -q " + kWorkload + " --backend generator -o " + generator).exit_code, 0);
    const auto r = run_cachesim("trace " + kWorkload + " --backend host -o " + host);
    if (r.exit_code == 2 && r.err.find("not available") != std::string::npos)
        GTEST_SKIP() << "built without Thrust: " << r.err;
    ASSERT_EQ(r.exit_code, 0) << r.err;
    EXPECT_NE(r.out.find("(Thrust, host backend)"), std::string::npos) << r.out;
    EXPECT_EQ(test::read_file(host), test::read_file(generator));
    const auto cuda = run_cachesim("trace -q " + kWorkload + " --backend cuda -o " + trace_path("cuda.cst"));
    if (cuda.exit_code == 0) EXPECT_EQ(test::read_file(trace_path("cuda.cst")), test::read_file(generator));
    else EXPECT_NE(cuda.err.find("--backend cuda: not available"), std::string::npos) << cuda.err;
}

TEST(CliTraceFile, InfoPrintsHeaderAndCounts) {
    const std::string path = trace_path("info.cst");
    ASSERT_EQ(run_cachesim("trace " + kWorkload + " -o " + path + " -q").exit_code, 0);
    const auto r = run_cachesim("info " + path + " --verify");
    ASSERT_EQ(r.exit_code, 0) << r.err;
    EXPECT_NE(r.out.find("cst version 2"), std::string::npos) << r.out;
    EXPECT_NE(r.out.find("accesses per step: at most 49"), std::string::npos) << r.out;  // 2 x 24 + 1
    // 48 x 40 = 1920 threads in blocks of 256 (the default): 8 blocks
    EXPECT_NE(r.out.find("launch:            grid 8x1x1, block 256x1x1"), std::string::npos) << r.out;
    EXPECT_NE(r.out.find("matmul 48x40, depth 24, zigzag:8"), std::string::npos) << r.out;
    EXPECT_NE(r.out.find("[2] C"), std::string::npos) << r.out;
    EXPECT_NE(r.out.find("92160 reads, 1920 writes"), std::string::npos) << r.out;
}

TEST(CliTraceFile, DinTraceConvertsToCst) {
    const std::string din = trace_path("small.din");
    {
        std::ofstream out(din);
        out << "0 1000\n1 2000 8\n0 1040\n2 3000\n";
    }
    const std::string cst = trace_path("small.cst");
    ASSERT_EQ(run_cachesim("trace --trace " + din + " --out " + cst + " -q").exit_code, 0);
    const auto a = run_cachesim("simulate --trace " + din + " --trace-format din --l1-size 1K --l1-ways 2 --format csv");
    const auto b = run_cachesim("simulate --trace " + cst + " --l1-size 1K --l1-ways 2 --format csv");
    ASSERT_EQ(b.exit_code, 0) << b.err;
    EXPECT_EQ(counters_of(a.out), counters_of(b.out));
}

TEST(CliTraceFile, DamagedFilesExitTwoNamingTheOffset) {
    const std::string good = trace_path("good.cst");
    ASSERT_EQ(run_cachesim("trace " + kWorkload + " -o " + good + " -q").exit_code, 0);
    const std::string bytes = test::read_file(good);
    const std::string truncated = trace_path("truncated.cst");
    std::ofstream(truncated, std::ios::binary) << bytes.substr(0, bytes.size() - 40);
    std::string flipped_bytes = bytes;
    flipped_bytes[bytes.size() / 2] ^= 0x40;
    const std::string flipped = trace_path("flipped.cst");
    std::ofstream(flipped, std::ios::binary) << flipped_bytes;
    for (const std::string& path : {truncated, flipped}) {
        for (const std::string& command : {"simulate --trace " + path, "info " + path + " --verify"}) {
            const auto r = run_cachesim(command);
            EXPECT_EQ(r.exit_code, 2) << command;
            EXPECT_NE(r.err.find(path + ": byte "), std::string::npos) << r.err;
            EXPECT_EQ(std::count(r.err.begin(), r.err.end(), '\n'), 1) << "one line: " << r.err;
        }
    }
    const auto missing = run_cachesim("info " + trace_path("missing.cst"));
    EXPECT_EQ(missing.exit_code, 2);
    EXPECT_NE(missing.err.find("no such file"), std::string::npos) << missing.err;
}

TEST(CliTraceFile, ALaunchTraceIsNotConvertedIntoOneWithoutItsLaunch) {
    const std::string launch = trace_path("launch.cst"), copy = trace_path("launch_copy.cst");
    ASSERT_EQ(run_cachesim("trace -q --size 16x16 -o " + launch).exit_code, 0);
    const auto r = run_cachesim("trace -q --trace " + launch + " -o " + copy);
    EXPECT_EQ(r.exit_code, 2);
    EXPECT_NE(r.err.find("drop the launch"), std::string::npos) << r.err;
    EXPECT_FALSE(std::filesystem::exists(copy));
    // A plain (version 1) trace holds nothing to lose.
    const std::string plain = trace_path("plain.cst");
    ASSERT_EQ(run_cachesim("trace -q --size 16x16 --trace-version 1 -o " + plain).exit_code, 0);
    EXPECT_EQ(run_cachesim("trace -q --trace " + plain + " -o " + copy).exit_code, 0);
}

TEST(CliTraceFile, WorkloadTraceOptionsDoNotApplyToAConvertedTrace) {
    const std::string din = trace_path("one.din"), out = trace_path("never_converted.cst");
    { std::ofstream(din) << "0 1000\n"; }
    for (const std::string option : {"--trace-version 2", "--trace-version 1", "--block 64", "--backend generator"}) {
        const auto r = run_cachesim("trace -q --trace " + din + " " + option + " -o " + out);
        EXPECT_EQ(r.exit_code, 2) << option;
        EXPECT_NE(r.err.find(option.substr(0, option.find(' ')) + " applies to workload traces"), std::string::npos) << r.err;
    }
    EXPECT_FALSE(std::filesystem::exists(out));
    // --trace-format names a --trace's format: without one it applies to nothing.
    const auto r = run_cachesim("simulate -q --trace-format u64");
    EXPECT_EQ(r.exit_code, 2);
    EXPECT_NE(r.err.find("--trace-format"), std::string::npos) << r.err;
}

TEST(CliTraceFile, ACstTraceIsReadAsOneWhateverItsName) {
    const std::string named = trace_path("kernel-1.traceg");
    ASSERT_EQ(run_cachesim("trace -q " + kWorkload + " -o " + named).exit_code, 0);
    const auto by_name = run_cachesim("simulate --trace " + named + " " + kCaches);
    const auto workload = run_cachesim("simulate " + kWorkload + " " + kCaches);
    ASSERT_EQ(by_name.exit_code, 0) << by_name.err;
    EXPECT_EQ(counters_of(by_name.out), counters_of(workload.out));
}

TEST(CliTraceFile, BadTraceOptionsExitTwoWithoutOutput) {
    const std::string out = trace_path("never.cst");
    for (const std::string& args : {"trace --schedule column:0 -o " + out, "trace --zstd-level 50 -o " + out,
                                    "trace --workload nope -o " + out, "trace " + kWorkload,
                                    "simulate --trace " + out + " --trace-format xyz"}) {
        const auto r = run_cachesim(args);
        EXPECT_EQ(r.exit_code, 2) << args << ": " << r.err;
        EXPECT_FALSE(r.err.empty()) << args;
    }
    EXPECT_FALSE(std::filesystem::exists(out));
    const auto unwritable = run_cachesim("trace " + kWorkload + " -o /nonexistent-dir/x.cst -q");
    EXPECT_EQ(unwritable.exit_code, 2);
    EXPECT_NE(unwritable.err.find("cannot write"), std::string::npos) << unwritable.err;
}

}  // namespace
}  // namespace cachesim
