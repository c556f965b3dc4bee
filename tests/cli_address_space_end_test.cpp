// An access whose last byte is 2^64 - 1 is valid; one that would run past it is refused, in
// every reader.
#include <gtest/gtest.h>
#include <nlohmann/json.hpp>

#include <cstdint>
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

std::string u64_bytes(std::uint64_t a) {
    std::string bytes;
    for (int b = 0; b < 8; ++b) bytes += static_cast<char>((a >> (8 * b)) & 0xff);
    return bytes;
}

TEST(CliAddressSpaceEnd, DinAccessEndingAtTheLastByteIsAccepted) {
    // A read and a write of the last 4 bytes: 0xfffffffffffffffc + 4 = 2^64.
    const std::string path = write_file("end.din", "0 fffffffffffffffc 4\n1 fffffffffffffffc 4\n");
    const auto r = run_cachesim("simulate --trace '" + path + "' --l2-size 1K --l2-ways 1 --format json");
    ASSERT_EQ(r.exit_code, 0) << r.err;
    const auto j = nlohmann::json::parse(r.out);
    EXPECT_EQ(j["accesses"], 2);
    EXPECT_EQ(j["writes"], 1);
}

// The last byte in the smallest lines, 2 B: line 2^63 - 1. Its first read is a compulsory miss
// bringing 2 bytes; the second, after line 0 (a set of one way between them, 2 lines of 2 B in
// 2 sets: lines 0 and 2^63 - 1 are in sets 0 and 1), hits. By hand: 3 reads, 2 misses, 1 hit.
TEST(CliAddressSpaceEnd, TheLastByteInTwoByteLinesIsALineLikeAnyOther) {
    const std::string path = write_file("last_byte.din", "0 ffffffffffffffff 1\n0 0 1\n0 ffffffffffffffff 1\n");
    const auto r = run_cachesim("simulate --trace '" + path + "' --l1-size 4 --l1-line 2 --l1-ways 1 --format json");
    ASSERT_EQ(r.exit_code, 0) << r.err;
    const auto l1 = nlohmann::json::parse(r.out)["levels"][0];
    EXPECT_EQ(l1["reads"], 3) << l1;
    EXPECT_EQ(l1["read_misses"], 2) << l1;
    EXPECT_EQ(l1["miss_classes"]["compulsory"], 2) << l1;
    EXPECT_EQ(l1["bytes_from_below"], 4) << l1;
}

// A 1-byte line or sector would give the last byte the number that marks an empty way: refused.
TEST(CliAddressSpaceEnd, OneByteLinesAndSectorsAreRefused) {
    for (const std::string cache : {"--l1-size 4 --l1-line 1", "--l1-size 16 --l1-line 16 --l1-sector 1",
                                    "--l1-size 0 --l2-size 4 --l2-line 1"}) {
        const auto r = run_cachesim("simulate --workload stencil --size 8x8 " + cache);
        EXPECT_EQ(r.exit_code, 2) << cache;
        EXPECT_NE(r.err.find("size 1 B is too small: lines and sectors are at least 2 B"), std::string::npos)
            << cache << "\n" << r.err;
    }
}

TEST(CliAddressSpaceEnd, DinAccessWrappingPastTheEndIsRefused) {
    const std::string path = write_file("wrap.din", "0 fffffffffffffffd 4\n");
    const auto r = run_cachesim("simulate --trace '" + path + "'");
    EXPECT_EQ(r.exit_code, 2);
    EXPECT_NE(r.err.find("address + size overflows the 64-bit address space"), std::string::npos) << r.err;
}

TEST(CliAddressSpaceEnd, U64LoadOfTheLastEightBytesIsAccepted) {
    const std::string path = write_file("end.u64", u64_bytes(0xfffffffffffffff8ull));
    const auto r = run_cachesim("simulate --trace '" + path + "' --trace-format u64 --format json");
    ASSERT_EQ(r.exit_code, 0) << r.err;
    EXPECT_EQ(nlohmann::json::parse(r.out)["accesses"], 1);
}

TEST(CliAddressSpaceEnd, U64LoadWrappingPastTheEndIsRefused) {
    const std::string path = write_file("wrap.u64", u64_bytes(0xfffffffffffffff9ull));
    const auto r = run_cachesim("simulate --trace '" + path + "' --trace-format u64");
    EXPECT_EQ(r.exit_code, 2);
    EXPECT_NE(r.err.find("leaves no room"), std::string::npos) << r.err;
}

TEST(CliAddressSpaceEnd, CstKeepsAnAccessEndingAtTheLastByte) {
    const std::string din = write_file("end_cst.din", "0 fffffffffffffffc 4\n");
    const std::string cst = (temp_dir() / "end.cst").string();
    ASSERT_EQ(run_cachesim("trace --trace '" + din + "' --trace-format din --out '" + cst + "' -q").exit_code, 0);
    const auto info = run_cachesim("info '" + cst + "' --verify");
    EXPECT_EQ(info.exit_code, 0) << info.err;
    const auto r = run_cachesim("simulate --trace '" + cst + "' --format json");
    ASSERT_EQ(r.exit_code, 0) << r.err;
    EXPECT_EQ(nlohmann::json::parse(r.out)["accesses"], 1);
}

}  // namespace
