// A text file read with --trace-format u64 is refused, not replayed as addresses made of its
// characters: eight text bytes as an address are at least 0x0909090909090909 (above 2^59), which no
// traced process uses, so the first address decides it, from a file or a pipe.
#include <gtest/gtest.h>

#include <cstdint>
#include <filesystem>
#include <fstream>

#include "tests/cli_util.hpp"

namespace cachesim::test {
namespace {

// "0 10000\n1 20000\n": two din lines of 8 bytes each, so the length passes the multiple-of-8 check.
const std::string kDinText = "0 10000\n1 20000\n";
const std::string kMessage = "text, not 8-byte addresses (the first 8 bytes are characters); a din trace is read "
                             "with --trace-format din or auto";

TEST(CliU64TextInput, ADinFileForcedAsU64IsRefused) {
    const std::filesystem::path din = temp_dir() / "text.din";
    std::ofstream(din, std::ios::binary) << kDinText;
    const CommandResult r = run_cachesim("simulate --trace '" + din.string() + "' --trace-format u64");
    EXPECT_EQ(r.exit_code, 2);
    EXPECT_TRUE(r.out.empty()) << r.out;
    EXPECT_NE(r.err.find("text.din: " + kMessage), std::string::npos) << r.err;
}

TEST(CliU64TextInput, TextOnAPipeIsRefused) {
    const CommandResult r = run_shell("printf '0 10000\\n1 20000\\n' | CACHESIM simulate --trace - --trace-format u64");
    EXPECT_EQ(r.exit_code, 2);
    EXPECT_NE(r.err.find("standard input: " + kMessage), std::string::npos) << r.err;
}

TEST(CliU64TextInput, RealAddressesAreRead) {
    // 0x1000 and 0x2000, little-endian: six zero bytes each, no text; 2 accesses.
    const std::filesystem::path u64 = temp_dir() / "two.u64";
    std::ofstream out(u64, std::ios::binary);
    for (const std::uint64_t a : {0x1000ull, 0x2000ull})
        for (int b = 0; b < 8; ++b) out.put(static_cast<char>(a >> (8 * b) & 0xff));
    out.close();
    const CommandResult r = run_cachesim("simulate --trace '" + u64.string() + "' --trace-format u64 --no-analysis");
    EXPECT_EQ(r.exit_code, 0) << r.err;
    EXPECT_NE(r.out.find("2 accesses (2 reads, 0 writes)"), std::string::npos) << r.out;
}

}  // namespace
}  // namespace cachesim::test
