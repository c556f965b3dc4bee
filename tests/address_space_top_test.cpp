// Accesses and arrays that end exactly at 2^64 (their last byte 2^64 - 1) are accepted in every
// format, Accel-Sim traces and cst headers included, and the cst `cachesim trace` writes from a
// traceg reads back; one byte further is refused. Addresses, regions and counts are worked out by
// hand from the lines below.
#include <gtest/gtest.h>
#include <nlohmann/json.hpp>

#include <cstdio>
#include <filesystem>
#include <fstream>
#include <string>
#include <vector>

#include "tests/cli_util.hpp"
#include "traces/accelsim_reader.hpp"
#include "traces/input_error.hpp"
#include "traces/trace_format.hpp"
#include "traces/trace_format_reader.hpp"
#include "traces/trace_format_writer.hpp"

namespace cachesim {
namespace {

namespace fs = std::filesystem;
using test::run_cachesim;

constexpr std::uint64_t kTopPage = (1ull << 52) - 1;  // the last 4 KiB page: 0xfffffffffffff000 ..

std::string write_file(const std::string& name, const std::string& text) {
    const std::string path = (test::temp_dir() / name).string();
    std::ofstream(path, std::ios::binary) << text;
    return path;
}

// One warp of one block running `instructions` (tracer version 3 lines).
std::string kernel(const std::string& instructions, int count) {
    return "-grid dim = (1,1,1)\n-block dim = (32,1,1)\n-accelsim tracer version = 3\n#BEGIN_TB\n"
           "thread block = 0,0,0\nwarp = 0\ninsts = " +
           std::to_string(count) + "\n" + instructions + "#END_TB\n";
}

// Every lane loads the last 4 bytes: 0xfffffffffffffffc + 4 = 2^64.
const std::string kLastFourBytes = "0010 ffffffff 1 R2 LDG.E 1 R4 4 1 0xfffffffffffffffc 0\n";
// Lane l loads 4 bytes at 0xffffffffffffff00 + 4l: 128 bytes, the last ending at 0xffffffffffffff80.
const std::string kTopLine = "0010 ffffffff 1 R2 LDG.E 1 R4 4 1 0xffffffffffffff00 4\n";

nlohmann::json run_json(const std::string& args) {
    const auto r = run_cachesim(args + " --format json");
    EXPECT_EQ(r.exit_code, 0) << args << "\n" << r.err;
    return r.exit_code == 0 ? nlohmann::json::parse(r.out) : nlohmann::json{};
}

void expect_ends_at_or_below_the_top(const std::vector<ArrayInfo>& arrays) {
    for (std::size_t i = 0; i < arrays.size(); ++i) {
        EXPECT_EQ(cst::array_extent_problem(arrays[i]), "") << i;
        if (i > 0) {
            EXPECT_GT(arrays[i].base, arrays[i - 1].base + (arrays[i - 1].bytes() - 1)) << "overlap at " << i;
        }
    }
}

TEST(AddressSpaceTop, ArrayExtents) {
    ArrayInfo top{"top", 0xfffffffffffff000ull, 1, 4096, 1};  // ends exactly at 2^64
    EXPECT_EQ(cst::array_extent_problem(top), "");
    top.width = 4097;
    EXPECT_NE(cst::array_extent_problem(top).find("array 'top' extends past 2^64"), std::string::npos);
    top.width = 0;  // empty: anywhere
    EXPECT_EQ(cst::array_extent_problem(top), "");
    // 2^31 x 2^21 elements of 2^12 bytes: 2^64 bytes, no 64-bit size.
    const ArrayInfo whole{"whole", 0, 4096, 1u << 31, 1u << 21};
    EXPECT_NE(cst::array_extent_problem(whole).find("has 2^64 bytes or more"), std::string::npos);
    // The header of an array ending at 2^64 reads back.
    cst::TraceHeader h;
    h.arrays = {ArrayInfo{"top", 0xfffffffffffff000ull, 1, 4096, 1}};
    EXPECT_NO_THROW(cst::decode_header_body(cst::encode_header_body(h), cst::kVersionPlain));
}

TEST(AddressSpaceTop, TheWriterRefusesAnArrayPastTheTopAndWritesOneEndingThere) {
    const std::string path = (test::temp_dir() / "writer_top.cst").string();
    cst::TraceHeader header;
    header.launch = cst::linear_launch(1, 1);
    header.arrays = {ArrayInfo{"past", 0xfffffffffffff001ull, 1, 4096, 1}};
    try {
        cst::TraceWriter writer(path, header);
        ADD_FAILURE() << "an array past 2^64 was taken";
    } catch (const InputError& e) {
        EXPECT_NE(std::string(e.what()).find(path + ": array 'past' extends past 2^64"), std::string::npos) << e.what();
    }
    EXPECT_FALSE(fs::exists(path));
    header.arrays.front() = ArrayInfo{"top", 0xfffffffffffff000ull, 1, 4096, 1};
    {
        cst::TraceWriter writer(path, header);
        const Access last{0xfffffffffffffffcull, 4, 0, false};
        writer.append_thread(0, &last, 1);
        writer.finish();
    }
    const cst::TraceFileSource read(path);
    ASSERT_EQ(read.arrays().size(), 1u);
    EXPECT_EQ(read.arrays().front().base, 0xfffffffffffff000ull);
    EXPECT_EQ(read.header().accesses, 1u);
}

TEST(AddressSpaceTop, InfoNamesTheEndOfAnArrayEndingAt2To64) {
    // An access at 0x1000 in the top page's array lies outside it: the message gives the array's
    // end, 2^64, which 64 bits do not hold.
    const std::string path = (test::temp_dir() / "outside_top.cst").string();
    cst::TraceHeader header;
    header.launch = cst::linear_launch(1, 1);
    header.arrays = {ArrayInfo{"top", 0xfffffffffffff000ull, 1, 4096, 1}};
    {
        cst::TraceWriter writer(path, header);
        const Access outside{0x1000, 4, 0, false};
        writer.append_thread(0, &outside, 1);
        writer.finish();
    }
    const auto r = run_cachesim("info --verify '" + path + "'");
    EXPECT_EQ(r.exit_code, 2);
    EXPECT_NE(r.err.find("lies outside array 'top' (0xfffffffffffff000 .. 0x10000000000000000)"), std::string::npos)
        << r.err;
}

TEST(AddressSpaceTop, TheTopPageIsARegionEndingAt2To64) {
    const std::vector<ArrayInfo> arrays = accelsim::regions_for_pages({kTopPage});
    ASSERT_EQ(arrays.size(), 1u);
    EXPECT_EQ(arrays[0].base, 0xfffffffffffff000ull);
    EXPECT_EQ(arrays[0].width, 4096u);
    EXPECT_EQ(arrays[0].height, 1u);
    expect_ends_at_or_below_the_top(arrays);
}

TEST(AddressSpaceTop, ARegionWhoseLastRowWouldPassTheTopEndsThereInTwoArrays) {
    // 65 pages 2^21 apart ending at the top page: 64 equal gaps, of which the first 63 separate
    // regions and the last is merged: pages top - 2^21 .. top, 2^21 + 1 pages (8 GiB + 4 KiB).
    std::vector<std::uint64_t> pages;
    for (std::uint64_t k = 0; k <= 64; ++k) pages.push_back(kTopPage - (64 - k) * (1ull << 21));
    const std::vector<ArrayInfo> arrays = accelsim::regions_for_pages(pages);
    // Rows of 1 GiB: 8 whole rows, then one page. A ninth row would end 1 GiB - 4 KiB past 2^64:
    // the page is an array of its own.
    ASSERT_EQ(arrays.size(), 65u);
    EXPECT_EQ(arrays[62].base, (kTopPage - 2 * (1ull << 21)) << 12);
    EXPECT_EQ(arrays[62].width, 4096u);
    EXPECT_EQ(arrays[63].name, "global63");
    EXPECT_EQ(arrays[63].base, 0xfffffffdfffff000ull);  // 2^64 - 2^33 - 2^12
    EXPECT_EQ(arrays[63].elem_bytes, 1u);
    EXPECT_EQ(arrays[63].width, 1u << 30);
    EXPECT_EQ(arrays[63].height, 8u);
    EXPECT_EQ(arrays[64].name, "global64");
    EXPECT_EQ(arrays[64].base, 0xfffffffffffff000ull);
    EXPECT_EQ(arrays[64].width, 4096u);
    EXPECT_EQ(arrays[64].height, 1u);
    expect_ends_at_or_below_the_top(arrays);
}

TEST(AddressSpaceTop, ARegionBeyond2To62BytesHasPageElements) {
    // 34 pages 2^45 apart (33 gaps), then 63 pages 2^45 + 1 apart: the 63 wider gaps separate,
    // the first run is one region of 33 x 2^45 + 1 pages, over 2^62 bytes: more than 2^32 rows of
    // 1 GiB. In rows of 2^30 pages: 33 x 2^15 rows and a part row.
    std::vector<std::uint64_t> pages;
    for (std::uint64_t k = 0; k <= 33; ++k) pages.push_back(k << 45);
    for (std::uint64_t j = 1; j <= 63; ++j) pages.push_back((33ull << 45) + j * ((1ull << 45) + 1));
    const std::vector<ArrayInfo> arrays = accelsim::regions_for_pages(pages);
    ASSERT_EQ(arrays.size(), 64u);
    EXPECT_EQ(arrays[0].base, 0u);
    EXPECT_EQ(arrays[0].elem_bytes, 4096u);
    EXPECT_EQ(arrays[0].width, 1u << 30);
    EXPECT_EQ(arrays[0].height, 33u * (1u << 15) + 1);
    EXPECT_EQ(arrays[1].base, ((34ull << 45) + 1) << 12);
    expect_ends_at_or_below_the_top(arrays);
}

TEST(AddressSpaceTop, AnAccelSimAccessEndingAt2To64IsReplayed) {
    const std::string traceg = write_file("last4.traceg", kernel(kLastFourBytes, 1));
    // 32 lanes read the same 4 bytes: 32 accesses; in the GPU model one request of one sector.
    const nlohmann::json thread = run_json("simulate -q --trace '" + traceg + "'");
    EXPECT_EQ(thread["accesses"], 32);
    const nlohmann::json gpu = run_json("simulate -q --model gpu --trace '" + traceg + "'");
    ASSERT_TRUE(gpu.contains("levels"));
    EXPECT_EQ(gpu["levels"][0]["accesses"], 1);
    EXPECT_EQ(gpu["levels"][0]["misses"], 1);
}

TEST(AddressSpaceTop, AnAccelSimAccessPastTheTopIsRefusedWithItsLine) {
    std::string line = kLastFourBytes;
    line.replace(line.find("0xfffffffffffffffc"), 18, "0xfffffffffffffffd");  // last byte 2^64
    const std::string traceg = write_file("past.traceg", kernel(line, 1));
    const auto r = run_cachesim("simulate -q --trace '" + traceg + "'");
    EXPECT_EQ(r.exit_code, 2);
    EXPECT_NE(r.err.find(traceg + ":8: address 0xfffffffffffffffd + width 4 passes 2^64"), std::string::npos) << r.err;
}

TEST(AddressSpaceTop, TheCstOfATopLineReadsBackAndReplays) {
    const std::string traceg = write_file("topline.traceg", kernel(kTopLine, 1));
    const std::string cst = (test::temp_dir() / "topline.cst").string();
    const auto t = run_cachesim("trace --trace '" + traceg + "' -o '" + cst + "'");
    ASSERT_EQ(t.exit_code, 0) << t.err;
    const auto info = run_cachesim("info '" + cst + "' --verify");
    EXPECT_EQ(info.exit_code, 0) << info.err;
    EXPECT_NE(info.out.find("base 0xfffffffffffff000, 4096 x 1 elements of 1 B"), std::string::npos) << info.out;
    // 128 bytes in lines of 32: 4 misses, 28 hits, all in the top page's array; the same replayed
    // directly from the traceg.
    for (const std::string& trace : {cst, traceg}) {
        const nlohmann::json j = run_json("simulate -q --trace '" + trace + "' --l1-size 1K --l1-line 32");
        ASSERT_TRUE(j.contains("levels")) << trace;
        EXPECT_EQ(j["levels"][0]["misses"], 4) << trace;
        EXPECT_EQ(j["levels"][0]["hits"], 28) << trace;
        EXPECT_EQ(j["levels"][0]["per_array"][0]["read_misses"], 4) << trace;
    }
    // The GPU model: one request of 4 sectors of one 128-byte line.
    const nlohmann::json gpu = run_json("simulate -q --model gpu --trace '" + cst + "'");
    ASSERT_TRUE(gpu.contains("levels"));
    EXPECT_EQ(gpu["levels"][0]["accesses"], 4);
    EXPECT_EQ(gpu["levels"][0]["bytes_from_below"], 128);
}

TEST(AddressSpaceTop, AWritebackFromTheTopCountsForTheTopArray) {
    // Lane l stores to 0xffffffffffffff00 + 4l (the top page, global1), then loads 0x1000 + 4l
    // (global0). Thread by thread in an L1 of one 128-byte write-back line: the store allocates
    // the top line, the load evicts it dirty: 32 writebacks, each an L2 write of global1.
    const std::string traceg = write_file("writeback.traceg",
                                          kernel("0010 ffffffff 0 STG.E 2 R2 R4 4 1 0xffffffffffffff00 4\n"
                                                 "0020 ffffffff 1 R6 LDG.E 1 R8 4 1 0x1000 4\n",
                                                 2));
    const nlohmann::json j = run_json("simulate -q --trace '" + traceg +
                                      "' --l1-size 128 --l1-line 128 --l1-write back --l2-size 1K --l2-line 128");
    ASSERT_TRUE(j.contains("levels"));
    EXPECT_EQ(j["levels"][0]["writebacks"], 32);
    const nlohmann::json& l2 = j["levels"][1]["per_array"];
    EXPECT_EQ(l2[0]["name"], "global0");
    EXPECT_EQ(l2[0]["writes"], 0);
    EXPECT_EQ(l2[1]["name"], "global1");
    EXPECT_EQ(l2[1]["writes"], 32);
}

TEST(AddressSpaceTop, AnErrorInTheConvertedTraceNamesTheUsersFile) {
    // 4 blocks of 64 loads of 32 scattered lanes: a cst of tens of KiB, past a file size limit of
    // 8 KiB, so that writing the temporary conversion fails.
    std::string text = "-grid dim = (4,1,1)\n-block dim = (32,1,1)\n-accelsim tracer version = 3\n";
    std::uint64_t x = 88172645463325252ull;  // xorshift: addresses that do not compress
    for (int b = 0; b < 4; ++b) {
        text += "#BEGIN_TB\nthread block = " + std::to_string(b) + ",0,0\nwarp = 0\ninsts = 64\n";
        for (int i = 0; i < 64; ++i) {
            text += "0010 ffffffff 1 R2 LDG.E 1 R4 4 0";
            for (int l = 0; l < 32; ++l) {
                x ^= x << 13, x ^= x >> 7, x ^= x << 17;
                char address[32];
                std::snprintf(address, sizeof address, " 0x%llx", static_cast<unsigned long long>((x >> 24) << 2));
                text += address;
            }
            text += "\n";
        }
        text += "#END_TB\n";
    }
    const std::string traceg = write_file("scattered.traceg", text);
    const auto r = test::run_shell("trap '' XFSZ; ulimit -f 8; CACHESIM simulate -q --trace '" + traceg + "'");
    EXPECT_EQ(r.exit_code, 2) << r.err;
    EXPECT_EQ(r.err.find("cachesim-traceg-"), std::string::npos) << r.err;
    EXPECT_NE(r.err.find(traceg + " (its cst conversion): "), std::string::npos) << r.err;
}

}  // namespace
}  // namespace cachesim
