// Truncated, corrupted, wrong-version and hostile cst files are rejected with an InputError that
// names the byte offset and what is wrong; nothing crashes or allocates absurd amounts.
#include <gtest/gtest.h>
#include <zstd.h>

#include "tests/trace_format_test_util.hpp"
#include "traces/input_error.hpp"
#include "traces/trace_format_reader.hpp"

namespace cachesim {
namespace {

using test::slurp;
using test::spit;

// Opens and reads the whole file; returns the InputError message, or "" if it was accepted.
std::string rejection(const std::string& bytes, const std::string& name = "bad.cst") {
    const auto path = test::trace_temp_dir() / name;
    spit(path, bytes);
    try {
        cst::TraceFileSource source(path.string());
        AccessBatch batch;
        while (source.next(batch, 4096)) {
        }
    } catch (const InputError& e) {
        return e.what();
    }
    return "";
}

std::string valid_file() {
    WorkloadSpec w = test::small_stencil();
    w.width = 300;  // 300*24*16 = 115k accesses: several blocks
    return slurp(test::write_workload_trace(w, "valid.cst"));
}

cst::TraceHeader plain_header() {
    cst::TraceHeader h;
    h.elem_bytes = 4;
    h.arrays = {{"trace", 0, 1, 0, 1}};
    return h;
}

TEST(TraceFormatRejects, TheValidFileIsAcceptedAndHasSeveralBlocks) {
    const std::string file = valid_file();
    EXPECT_EQ(rejection(file), "");
    cst::TraceFileSource source((test::trace_temp_dir() / "valid.cst").string());
    EXPECT_GE(source.header().blocks, 2u);
}

TEST(TraceFormatRejects, TruncatedAtSeveralOffsets) {
    const std::string file = valid_file();
    const std::size_t block = test::first_block_offset(file);
    for (std::size_t cut : {std::size_t{0}, std::size_t{5}, std::size_t{15}, std::size_t{30}, block - 3, block,
                            block + 10, block + 40, file.size() / 2, file.size() - 33, file.size() - 1}) {
        const std::string message = rejection(file.substr(0, cut));
        EXPECT_NE(message.find("byte "), std::string::npos) << "cut at " << cut << ": " << message;
        EXPECT_TRUE(message.find("truncated") != std::string::npos ||
                    message.find("end record") != std::string::npos)
            << "cut at " << cut << ": " << message;
    }
}

TEST(TraceFormatRejects, EveryFlippedByteIsDetected) {
    const std::string file = slurp(test::write_workload_trace(test::small_stencil(), "flip.cst"));
    ASSERT_LT(file.size(), 4000u);
    for (std::size_t i = 0; i < file.size(); ++i) {
        std::string bad = file;
        bad[i] = static_cast<char>(bad[i] ^ 0x10);
        const std::string message = rejection(bad, "flipped.cst");
        EXPECT_NE(message, "") << "flip at byte " << i << " went unnoticed";
        EXPECT_NE(message.find("byte "), std::string::npos) << message;
    }
}

TEST(TraceFormatRejects, PayloadFlipIsAChecksumErrorAtTheBlock) {
    std::string file = valid_file();
    const std::size_t block = test::first_block_offset(file);
    file[block + 40] = static_cast<char>(file[block + 40] ^ 1);
    EXPECT_NE(rejection(file).find("byte " + std::to_string(block) + ": block checksum mismatch"), std::string::npos)
        << rejection(file);
}

TEST(TraceFormatRejects, WrongVersionAndMagic) {
    std::string file = valid_file();
    std::string v5 = file;
    v5[8] = 5;
    EXPECT_NE(rejection(v5).find("byte 8: unsupported trace version 5 (this build reads versions 1 to 4)"),
              std::string::npos) << rejection(v5);
    std::string other = file;
    other[0] = 'X';
    EXPECT_NE(rejection(other).find("byte 0: not a cachesim trace"), std::string::npos) << rejection(other);
}

TEST(TraceFormatRejects, AbsurdHeaderLength) {
    std::string file = valid_file();
    const std::uint32_t huge = 0xfffffff0u;
    std::memcpy(file.data() + 12, &huge, 4);
    EXPECT_NE(rejection(file).find("byte 12: header length"), std::string::npos) << rejection(file);
}

TEST(TraceFormatRejects, AbsurdHeaderCountsWithValidChecksums) {
    {
        cst::TraceHeader h = plain_header();
        h.accesses_per_step = 0x80000000u;
        h.steps = 1;
        h.accesses = 0x80000000u;
        h.blocks = 1;
        const std::string m = rejection(test::file_with_header_body(cst::encode_header_body(h), test::end_record(1, h.accesses)));
        EXPECT_NE(m.find("accesses per step 2147483648 is outside"), std::string::npos) << m;
    }
    {
        cst::TraceHeader h = plain_header();
        h.steps = h.accesses = h.blocks = 1ull << 60;  // far more blocks than the file can hold
        const std::string m = rejection(test::file_with_header_body(cst::encode_header_body(h), test::end_record(h.steps, h.accesses)));
        EXPECT_NE(m.find("block count"), std::string::npos) << m;
    }
    {
        cst::TraceHeader h = plain_header();
        h.steps = 10;
        h.accesses = 11;  // not steps x accesses per step
        h.blocks = 1;
        const std::string m = rejection(test::file_with_header_body(cst::encode_header_body(h), test::end_record(10, 11)));
        EXPECT_NE(m.find("do not make"), std::string::npos) << m;
    }
    {
        // An array count of 2^30 in a tiny header: rejected before reserving anything.
        std::string body = cst::encode_header_body(plain_header());
        const std::uint32_t count = 1u << 30;
        std::memcpy(body.data() + 32, &count, 4);
        const std::string m = rejection(test::file_with_header_body(body, test::end_record(0, 0)));
        EXPECT_NE(m.find("byte 48: header: array count 1073741824 is impossible"), std::string::npos) << m;
    }
    {
        std::string body = cst::encode_header_body(plain_header());
        body[36] = static_cast<char>(0xff);  // array name length 0xffff... > limit
        body[37] = static_cast<char>(0xff);
        const std::string m = rejection(test::file_with_header_body(body, test::end_record(0, 0)));
        EXPECT_NE(m.find("array name length 65535 exceeds"), std::string::npos) << m;
    }
}

TEST(TraceFormatRejects, AbsurdBlockFieldsAreCheckedBeforeReadingThePayload) {
    const std::string file = valid_file();
    const std::size_t block = test::first_block_offset(file);
    std::string huge_payload = file;
    const std::uint32_t payload = 0xfffffff0u;
    std::memcpy(huge_payload.data() + block + 4, &payload, 4);
    EXPECT_NE(rejection(huge_payload).find("byte " + std::to_string(block + 4) + ": block payload length 4294967280 is impossible"),
              std::string::npos)
        << rejection(huge_payload);
    std::string huge_count = file;
    const std::uint32_t count = 0x7fffffffu;
    std::memcpy(huge_count.data() + block + 8, &count, 4);
    EXPECT_NE(rejection(huge_count).find("block access count 2147483647 is outside"), std::string::npos)
        << rejection(huge_count);
}

TEST(TraceFormatRejects, RecordNamingAMissingArrayInAValidBlock) {
    // One step of one access naming array 5 while the header lists one array; checksums valid.
    std::string raw(12, '\0');
    const std::uint64_t delta = 64;
    const std::uint32_t meta = 4u | (5u << 16);
    std::memcpy(raw.data(), &delta, 8);
    std::memcpy(raw.data() + 8, &meta, 4);
    std::string packed(ZSTD_compressBound(raw.size()), '\0');
    packed.resize(ZSTD_compress(packed.data(), packed.size(), raw.data(), raw.size(), 1));
    std::string block;
    cst::put_u32(block, cst::kBlockTag);
    cst::put_u32(block, static_cast<std::uint32_t>(packed.size()));
    cst::put_u32(block, 1);
    cst::put_u32(block, 1);
    cst::put_u64(block, 0);
    std::uint64_t sum = cst::checksum_update(cst::kChecksumSeed, block.data(), 24);
    sum = cst::checksum_update(sum, packed.data(), packed.size());
    cst::put_u64(block, sum);
    block += packed;
    cst::TraceHeader h = plain_header();
    h.steps = h.accesses = h.blocks = 1;
    const std::string file = test::file_with_header_body(cst::encode_header_body(h), block + test::end_record(1, 1));
    const std::string m = rejection(file);
    EXPECT_NE(m.find("record 0 of the block names array 5 but the header lists 1"), std::string::npos) << m;
}

TEST(TraceFormatRejects, MissingFileAndDirectory) {
    EXPECT_NE(rejection("").find("truncated"), std::string::npos);
    EXPECT_THROW(cst::TraceFileSource("/nonexistent/trace.cst"), InputError);
    EXPECT_THROW(cst::TraceFileSource(test::trace_temp_dir().string()), InputError);
}

}  // namespace
}  // namespace cachesim
