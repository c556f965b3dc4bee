// din and u64 traces compressed with gzip or zstd are read directly, recognised by their magic
// bytes whatever the file is called, from a file or from a pipe; damaged compressed data is an
// error naming it, and a compressed cst trace says to decompress it.
#include <gtest/gtest.h>
#include <nlohmann/json.hpp>
#include <zlib.h>
#include <zstd.h>

#include <cstdint>
#include <fstream>
#include <string>

#include "tests/cli_util.hpp"

namespace {

using cachesim::test::run_cachesim;
using cachesim::test::run_shell;
using cachesim::test::temp_dir;

std::string write_file(const std::string& name, const std::string& bytes) {
    const std::string path = (temp_dir() / name).string();
    std::ofstream(path, std::ios::binary) << bytes;
    return path;
}

std::string gzip(const std::string& text) {
    z_stream z{};
    EXPECT_EQ(deflateInit2(&z, 6, Z_DEFLATED, 15 + 16, 8, Z_DEFAULT_STRATEGY), Z_OK);
    std::string out(deflateBound(&z, text.size()) + 64, '\0');
    z.next_in = reinterpret_cast<Bytef*>(const_cast<char*>(text.data()));
    z.avail_in = static_cast<uInt>(text.size());
    z.next_out = reinterpret_cast<Bytef*>(out.data());
    z.avail_out = static_cast<uInt>(out.size());
    EXPECT_EQ(deflate(&z, Z_FINISH), Z_STREAM_END);
    out.resize(z.total_out);
    deflateEnd(&z);
    return out;
}

std::string zstd(const std::string& text) {
    std::string out(ZSTD_compressBound(text.size()), '\0');
    const std::size_t n = ZSTD_compress(out.data(), out.size(), text.data(), text.size(), 3);
    EXPECT_FALSE(ZSTD_isError(n));
    out.resize(n);
    return out;
}

// 100 000 records: reads of 0, 4, 8, ... (so 1 write in every 10th record): by construction
// 100 000 accesses and 10 000 writes.
std::string many_records() {
    std::string text;
    char line[32];
    for (int i = 0; i < 100000; ++i) {
        std::snprintf(line, sizeof line, "%d %x\n", i % 10 == 0 ? 1 : 0, i * 4);
        text += line;
    }
    return text;
}

nlohmann::json run_json(const cachesim::test::CommandResult& r) {
    EXPECT_EQ(r.exit_code, 0) << r.err;
    return nlohmann::json::parse(r.out);
}

TEST(CliCompressedTrace, GzipAndZstdDinFilesWhateverTheirName) {
    const std::string text = many_records();
    for (const auto& [name, bytes] : {std::pair{"t.din.gz", gzip(text)}, std::pair{"t.din.zst", zstd(text)},
                                      std::pair{"gzip_no_suffix", gzip(text)}, std::pair{"zstd_no_suffix", zstd(text)}}) {
        const std::string path = write_file(name, bytes);
        const auto j = run_json(run_cachesim("simulate --trace '" + path + "' --no-analysis --format json"));
        EXPECT_EQ(j["accesses"], 100000) << name;
        EXPECT_EQ(j["writes"], 10000) << name;
    }
}

TEST(CliCompressedTrace, ConcatenatedGzipMembersReadAsOne) {
    const std::string path = write_file("two_members.gz", gzip("0 10\n") + gzip("1 20\n"));
    const auto j = run_json(run_cachesim("simulate --trace '" + path + "' --format json"));
    EXPECT_EQ(j["accesses"], 2);
    EXPECT_EQ(j["writes"], 1);
}

TEST(CliCompressedTrace, U64ZstdFromAPipe) {
    std::string bytes;
    for (std::uint64_t a : {0ull, 64ull, 128ull, 0ull})
        for (int b = 0; b < 8; ++b) bytes += static_cast<char>((a >> (8 * b)) & 0xff);
    const std::string path = write_file("t.u64.zst", zstd(bytes));
    // 0, 64, 128 are three distinct 16-byte lines; 0 again hits: 4 accesses, 3 misses.
    const auto j = run_json(run_shell("cat '" + path + "' | CACHESIM simulate --trace - --trace-format u64 --format json"));
    EXPECT_EQ(j["accesses"], 4);
    EXPECT_EQ(j["levels"][0]["misses"], 3);
}

TEST(CliCompressedTrace, OptRereadsACompressedFile) {
    // OPT needs two passes: a compressed regular file is decompressed again from the start.
    const std::string path = write_file("opt.din.gz", gzip("0 0\n0 10\n0 0\n"));
    const auto j = run_json(run_cachesim("simulate --trace '" + path + "' --l1-policy opt --format json"));
    EXPECT_EQ(j["accesses"], 3);
    EXPECT_EQ(j["levels"][0]["misses"], 2);
}

TEST(CliCompressedTrace, TruncatedGzipIsAnError) {
    const std::string whole = gzip(many_records());
    const std::string path = write_file("truncated.gz", whole.substr(0, whole.size() / 2));
    const auto r = run_cachesim("simulate --trace '" + path + "'");
    EXPECT_EQ(r.exit_code, 2) << r.out;
    EXPECT_NE(r.err.find("gzip data ends early"), std::string::npos) << r.err;
}

TEST(CliCompressedTrace, CorruptZstdIsAnError) {
    std::string bytes = zstd(many_records());
    for (std::size_t i = 8; i < bytes.size(); i += 7) bytes[i] = static_cast<char>(bytes[i] ^ 0x5a);
    const std::string path = write_file("corrupt.zst", bytes);
    const auto r = run_cachesim("simulate --trace '" + path + "'");
    EXPECT_EQ(r.exit_code, 2) << r.out;
    EXPECT_NE(r.err.find("zstd data"), std::string::npos) << r.err;
}

TEST(CliCompressedTrace, XzAndBzip2AreNamedNotParsed) {
    // The magic numbers the formats begin with, then bytes no decoder is asked to read.
    const std::string xz = write_file("t.din.xz", std::string("\xfd" "7zXZ", 5) + std::string(1, '\0') + "garbage");
    const std::string bz2 = write_file("t.din.bz2", "BZh91AY&SYgarbage");
    for (const auto& [path, tool] : {std::pair{xz, std::string("xz -dk")}, std::pair{bz2, std::string("bzip2 -dk")}}) {
        const auto r = run_cachesim("simulate --trace '" + path + "'");
        EXPECT_EQ(r.exit_code, 2) << r.out;
        EXPECT_NE(r.err.find("compressed, which cachesim does not read"), std::string::npos) << r.err;
        EXPECT_NE(r.err.find(tool), std::string::npos) << r.err;
    }
    // An Accel-Sim trace, which is read by name, says the same.
    const std::string traceg = write_file("kernel-1.traceg.xz", std::string("\xfd" "7zXZ", 5) + std::string(1, '\0'));
    const auto r = run_cachesim("simulate --model gpu --trace '" + traceg + "' --trace-format traceg");
    EXPECT_EQ(r.exit_code, 2);
    EXPECT_NE(r.err.find("xz-compressed"), std::string::npos) << r.err;
}

TEST(CliCompressedTrace, CompressedCstSaysToDecompress) {
    const std::string din = write_file("c.din", "0 10\n");
    const std::string cst = (temp_dir() / "c.cst").string();
    ASSERT_EQ(run_cachesim("trace --trace '" + din + "' --trace-format din --out '" + cst + "' -q").exit_code, 0);
    std::ifstream in(cst, std::ios::binary);
    const std::string bytes((std::istreambuf_iterator<char>(in)), std::istreambuf_iterator<char>());
    const std::string path = write_file("c.cst.zst", zstd(bytes));
    const auto r = run_cachesim("simulate --trace '" + path + "'");
    EXPECT_EQ(r.exit_code, 2);
    EXPECT_NE(r.err.find("decompress it"), std::string::npos) << r.err;
}

}  // namespace
