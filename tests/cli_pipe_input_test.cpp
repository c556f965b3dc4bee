// Traces read from a pipe, a FIFO or standard input (`--trace -`): din and u64 stream in one pass;
// what needs a seekable file (cst, OPT's second pass) says so with exit 2 instead of reading
// nothing.
#include <gtest/gtest.h>
#include <nlohmann/json.hpp>
#include <sys/stat.h>

#include <cstdint>
#include <fstream>
#include <string>
#include <vector>

#include "tests/cli_util.hpp"

namespace {

using cachesim::test::run_shell;
using cachesim::test::temp_dir;

std::string write_file(const std::string& name, const std::string& bytes) {
    const std::string path = (temp_dir() / name).string();
    std::ofstream(path, std::ios::binary) << bytes;
    return path;
}

std::string u64_bytes(const std::vector<std::uint64_t>& addresses) {
    std::string bytes;
    for (std::uint64_t a : addresses)
        for (int b = 0; b < 8; ++b) bytes += static_cast<char>((a >> (8 * b)) & 0xff);
    return bytes;
}

nlohmann::json json_of(const cachesim::test::CommandResult& r) {
    EXPECT_EQ(r.exit_code, 0) << r.err;
    return nlohmann::json::parse(r.out);
}

// Two records, a read and a write, to lines 0x10 and 0x20 of 16 bytes: by hand, 2 accesses, 1 write.
constexpr const char* kTwoRecords = "printf '0 10\\n1 20\\n'";

TEST(CliPipeInput, DinFromStandardInputWithDash) {
    const auto j = json_of(run_shell(std::string(kTwoRecords) + " | CACHESIM simulate --trace - --format json"));
    EXPECT_EQ(j["accesses"], 2);
    EXPECT_EQ(j["writes"], 1);
}

TEST(CliPipeInput, DinFromDevStdinWithExplicitFormat) {
    const auto j = json_of(run_shell(std::string(kTwoRecords) +
                                     " | CACHESIM simulate --trace /dev/stdin --trace-format din --format json"));
    EXPECT_EQ(j["accesses"], 2);
}

TEST(CliPipeInput, U64FromAPipeCountsEveryAddress) {
    // Addresses 0, 64, 128: three distinct 16-byte lines, so three compulsory misses in the
    // default 24-line L1.
    const std::string path = write_file("three.u64", u64_bytes({0, 64, 128}));
    const auto j = json_of(run_shell("cat '" + path + "' | CACHESIM simulate --trace - --trace-format u64 --format json"));
    EXPECT_EQ(j["accesses"], 3);
    EXPECT_EQ(j["levels"][0]["misses"], 3);
}

TEST(CliPipeInput, ManyBlocksFromAPipeAllArrive) {
    // 300 000 records: more than one 1 MiB read and many batches.
    const auto j = json_of(run_shell("awk 'BEGIN { for (i = 0; i < 300000; i++) printf \"0 %x\\n\", i * 4 }' | "
                                     "CACHESIM simulate --trace - --no-analysis --format json"));
    EXPECT_EQ(j["accesses"], 300000);
}

TEST(CliPipeInput, DinFromAFifo) {
    const std::string fifo = (temp_dir() / "trace.fifo").string();
    ASSERT_EQ(::mkfifo(fifo.c_str(), 0600), 0);
    const auto j = json_of(run_shell(std::string(kTwoRecords) + " > '" + fifo + "' & CACHESIM simulate --trace '" +
                                     fifo + "' --format json; wait"));
    EXPECT_EQ(j["accesses"], 2);
}

TEST(CliPipeInput, U64PartialAddressAtTheEndOfAPipeIsAnError) {
    const std::string path = write_file("partial.u64", u64_bytes({0}) + "abcde");
    const auto r = run_shell("cat '" + path + "' | CACHESIM simulate --trace - --trace-format u64");
    EXPECT_EQ(r.exit_code, 2) << r.out;
    EXPECT_NE(r.err.find("standard input"), std::string::npos) << r.err;
    EXPECT_NE(r.err.find("partial address at byte 8"), std::string::npos) << r.err;
}

TEST(CliPipeInput, OptOnAPipeSaysItNeedsAFile) {
    const auto r = run_shell(std::string(kTwoRecords) + " | CACHESIM simulate --trace - --l1-policy opt");
    EXPECT_EQ(r.exit_code, 2) << r.out;
    EXPECT_NE(r.err.find("read only once"), std::string::npos) << r.err;
    EXPECT_NE(r.err.find("save it to a file"), std::string::npos) << r.err;
}

TEST(CliPipeInput, CstFromAPipeSaysItNeedsASeekableFile) {
    const std::string din = write_file("for_cst.din", "0 10\n1 20\n");
    const std::string cst = (temp_dir() / "piped.cst").string();
    ASSERT_EQ(run_shell("CACHESIM trace --trace '" + din + "' --trace-format din --out '" + cst + "' -q").exit_code, 0);
    for (const std::string format : {"auto", "cst"}) {
        const auto r = run_shell("cat '" + cst + "' | CACHESIM simulate --trace - --trace-format " + format);
        EXPECT_EQ(r.exit_code, 2) << format;
        EXPECT_NE(r.err.find("cst traces need a seekable file"), std::string::npos) << r.err;
    }
    const auto info = run_shell("cat '" + cst + "' | CACHESIM info -");
    EXPECT_EQ(info.exit_code, 2);
    EXPECT_NE(info.err.find("seekable"), std::string::npos) << info.err;
}

TEST(CliPipeInput, CstRedirectedFromAFileReadsAsThatFile) {
    const std::string cst = (temp_dir() / "redirected.cst").string();
    ASSERT_EQ(run_shell("CACHESIM trace -q --size 16x16 --out '" + cst + "'").exit_code, 0);
    const nlohmann::json from_file = json_of(run_shell("CACHESIM simulate -q --format json --trace '" + cst + "'"));
    for (const std::string format : {"auto", "cst"}) {
        const nlohmann::json redirected =
            json_of(run_shell("CACHESIM simulate -q --format json --trace - --trace-format " + format + " < '" + cst + "'"));
        EXPECT_EQ(redirected["levels"], from_file["levels"]) << format;
    }
}

TEST(CliPipeInput, TraceConvertsAPipedDinIntoACstFile) {
    const std::string cst = (temp_dir() / "converted.cst").string();
    const auto r = run_shell(std::string(kTwoRecords) + " | CACHESIM trace --trace - --trace-format din --out '" + cst +
                             "' -q && CACHESIM info '" + cst + "' --verify");
    EXPECT_EQ(r.exit_code, 0) << r.err;
    EXPECT_NE(r.out.find("1 read, 1 write"), std::string::npos) << r.out;
}

}  // namespace

namespace {

TEST(CliPipeInput, SweepOverAPipeSaysItReadsItMoreThanOnce) {
    // Two configurations would each need the whole trace: a pipe cannot give it twice.
    const auto r = run_shell("printf '0 10\\n1 20\\n' | CACHESIM sweep --trace - --l1-size 1K,2K --out '" +
                             (cachesim::test::temp_dir() / "sweep.csv").string() + "'");
    EXPECT_EQ(r.exit_code, 2) << r.out;
    EXPECT_NE(r.err.find("read only once"), std::string::npos) << r.err;
}

}  // namespace
