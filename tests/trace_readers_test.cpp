// din and u64 readers: parsing, and every rejection names what is wrong and where.
#include <gtest/gtest.h>

#include <fstream>

#include "tests/cli_util.hpp"
#include "traces/input_error.hpp"
#include "traces/trace_readers.hpp"

namespace cachesim {
namespace {

std::string write_temp(const std::string& name, const std::string& content) {
    const auto path = test::temp_dir() / name;
    std::ofstream(path, std::ios::binary) << content;
    return path.string();
}

std::vector<Access> read_all(AccessSource& source) {
    std::vector<Access> all;
    AccessBatch batch;
    while (source.next(batch, 3)) all.insert(all.end(), batch.accesses.begin(), batch.accesses.end());
    return all;
}

std::string error_of(const std::function<void()>& f) {
    try {
        f();
    } catch (const InputError& e) {
        return e.what();
    }
    return "(no error)";
}

TEST(DinReader, ParsesLabelsAddressesAndSizes) {
    const std::string path = write_temp("ok.din",
                                        "0 1000\n1 0x2004 8\n# comment\n\n2 abc\n3 ffff\n4 0\n0 FFFFFFFF\n");
    DinTraceSource source(path);
    const auto all = read_all(source);
    ASSERT_EQ(all.size(), 4u);
    EXPECT_EQ(all[0].address, 0x1000u);
    EXPECT_FALSE(all[0].is_write);
    EXPECT_EQ(all[0].size, 4u);
    EXPECT_EQ(all[1].address, 0x2004u);
    EXPECT_TRUE(all[1].is_write);
    EXPECT_EQ(all[1].size, 8u);
    EXPECT_EQ(all[2].address, 0xabcu);  // instruction fetch reads
    EXPECT_EQ(all[3].address, 0xffffffffu);
    source.rewind();
    EXPECT_EQ(read_all(source).size(), 4u);
}

TEST(DinReader, MalformedLinesNameTheirLineNumber) {
    const std::pair<const char*, const char*> cases[] = {
        {"0 10\n7 20\n", ":2: label must be 0-4"},
        {"0 10\n0 10\n0 zz\n", ":3: address is not a hexadecimal number"},
        {"0\n", ":1: address"},
        {"0 10 0\n", ":1: size"},
        {"0 10 4 9\n", ":1: unexpected extra field"},
        {"0 ffffffffffffffff 8\n", ":1: address + size overflows"},
        {"0 1ffffffffffffffff\n", ":1: address is not a hexadecimal number"},
    };
    int i = 0;
    for (auto [content, expected] : cases) {
        const std::string path = write_temp("bad" + std::to_string(i++) + ".din", content);
        DinTraceSource source(path);
        const std::string message = error_of([&] { read_all(source); });
        EXPECT_NE(message.find(expected), std::string::npos) << message;
        EXPECT_NE(message.find(path), std::string::npos) << message;
    }
}

TEST(U64Reader, ReadsLittleEndianEightByteLoads) {
    std::string bytes;
    for (std::uint64_t v : {0x1122334455667788ull, 64ull}) {
        for (int b = 0; b < 8; ++b) bytes.push_back(static_cast<char>((v >> (8 * b)) & 0xff));
    }
    U64TraceSource source(write_temp("ok.u64", bytes));
    EXPECT_EQ(source.size_hint(), 2u);
    const auto all = read_all(source);
    ASSERT_EQ(all.size(), 2u);
    EXPECT_EQ(all[0].address, 0x1122334455667788ull);
    EXPECT_EQ(all[0].size, 8u);
    EXPECT_EQ(all[1].address, 64u);
}

TEST(U64Reader, RejectsLengthNotMultipleOfEight) {
    const std::string path = write_temp("bad.u64", std::string(12, '\0'));
    const std::string message = error_of([&] { U64TraceSource s(path); });
    EXPECT_NE(message.find("12 bytes is not a multiple of 8"), std::string::npos) << message;
}

TEST(TraceReaders, MissingFileAndDirectory) {
    EXPECT_NE(error_of([] { DinTraceSource s("/nonexistent/trace.din"); }).find("no such file"), std::string::npos);
    EXPECT_NE(error_of([] { U64TraceSource s("/tmp"); }).find("directory"), std::string::npos);
}

}  // namespace
}  // namespace cachesim
