// Accel-Sim kernel traces (traceg): a handwritten kernel of one block of 64 threads (2 warps) with
// every address form, partial masks, a skipped shared load and an atomic, read and converted; the
// expected accesses are worked out by hand from the lines.
#include <gtest/gtest.h>

#include <filesystem>
#include <fstream>
#include <sstream>
#include <unistd.h>

#include "traces/accelsim_reader.hpp"
#include "traces/input_error.hpp"
#include "traces/trace_format_reader.hpp"

namespace cachesim::accelsim {
namespace {

// Tracer version 3: "PC mask ndst [dst] opcode nsrc [src] width [format addresses]".
const char* const kKernel = R"(-kernel name = _Z6kernelPfS_
-kernel id = 1
-grid dim = (1,1,1)
-block dim = (64,1,1)
-shmem = 0
-nregs = 16
-binary version = 80
-cuda stream id = 0
-shmem base_addr = 0x00007f0000000000
-local mem base_addr = 0x00007f1000000000
-nvbit version = 1.5.5
-accelsim tracer version = 3

#traces format = PC mask dest_num [reg_dests] opcode src_num [reg_srcs] mem_width [adrrescompress?] [mem_addresses]

#BEGIN_TB

thread block = 0,0,0

warp = 0
insts = 7
0000 ffffffff 1 R1 S2R 0 0 
0010 ffffffff 1 R2 LDG.E 1 R4 4 1 0x10000 4 
0020 0000000f 1 R3 LDG.E.64 1 R6 8 0 0x0000000000020000 0x0000000000020100 0x0000000000020008 0x0000000000020200 
0030 ffffffff 1 R5 LDS 1 R7 4 1 0x7f0000000000 4 
0040 00000005 0 RED.E.ADD 2 R8 R9 4 2 0x30000 8 
0050 ffffffff 0 STG.E 2 R4 R2 4 1 0x40000 4 
0060 ffffffff 0 EXIT 0 0 

warp = 1
insts = 3
0010 ffffffff 1 R2 LDG.E 1 R4 4 1 0x10080 4 
0020 00000000 1 R3 LDG.E.64 1 R6 8 1 0x0 0 
0050 80000001 0 STG.E 2 R4 R2 4 2 0x40080 124 

#END_TB
)";

Access load(std::uint64_t a, std::uint32_t size) { return Access{a, size, 0, false}; }
Access store(std::uint64_t a, std::uint32_t size) { return Access{a, size, 0, true}; }

// Thread t's accesses, derived from the lines above.
std::vector<Access> expected_thread(std::uint32_t t) {
    std::vector<Access> v;
    if (t < 32) {
        v.push_back(load(0x10000 + 4 * t, 4));                     // base-stride 0x10000, 4
        const std::uint64_t wide[4] = {0x20000, 0x20100, 0x20008, 0x20200};  // list-all, lanes 0-3
        if (t < 4) v.push_back(load(wide[t], 8));
        // the shared load is skipped; RED base-delta on lanes 0 and 2: 0x30000, then +8, sent
        // down as a store (performed at the L2)
        if (t == 0 || t == 2) v.push_back(store(0x30000 + 4 * t, 4));
        v.push_back(store(0x40000 + 4 * t, 4));
    } else {
        const std::uint32_t l = t - 32;
        v.push_back(load(0x10080 + 4 * l, 4));
        // the 8-byte load has no active lane; STG base-delta on lanes 0 and 31: 0x40080, +124
        if (l == 0) v.push_back(store(0x40080, 4));
        if (l == 31) v.push_back(store(0x400fc, 4));
    }
    return v;
}

void expect_same(const std::vector<Access>& got, const std::vector<Access>& want, const std::string& what) {
    ASSERT_EQ(got.size(), want.size()) << what;
    for (std::size_t i = 0; i < got.size(); ++i) {
        EXPECT_EQ(got[i].address, want[i].address) << what << " access " << i;
        EXPECT_EQ(got[i].size, want[i].size) << what << " access " << i;
        EXPECT_EQ(got[i].is_write, want[i].is_write) << what << " access " << i;
    }
}

TEST(AccelsimReader, ReadsTheHeaderWarpsAndEveryAddressForm) {
    std::istringstream in(kKernel);
    TracegReader reader(in, "k.traceg");
    const KernelInfo& k = reader.kernel();
    EXPECT_EQ(k.name, "_Z6kernelPfS_");
    EXPECT_EQ(k.id, 1u);
    EXPECT_EQ(k.tracer_version, 3u);
    EXPECT_EQ(k.launch.blocks(), 1u);
    EXPECT_EQ(k.launch.threads_per_block(), 64u);
    EXPECT_EQ(k.shmem_base, 0x7f0000000000ull);
    WarpAccesses w;
    for (std::uint32_t warp = 0; warp < 2; ++warp) {
        ASSERT_TRUE(reader.next_warp(w));
        EXPECT_EQ(w.block, 0u);
        EXPECT_EQ(w.warp, warp);
        EXPECT_EQ(w.lanes, 32u);
        for (std::uint32_t l = 0; l < 32; ++l)
            expect_same(w.lane[l], expected_thread(warp * 32 + l), "thread " + std::to_string(warp * 32 + l));
    }
    EXPECT_FALSE(reader.next_warp(w));
    const ImportCounts& c = reader.counts();
    EXPECT_EQ(c.instructions, 10u);
    EXPECT_EQ(c.warps, 2u);
    EXPECT_EQ(c.global_loads, 4u);
    EXPECT_EQ(c.global_stores, 2u);
    EXPECT_EQ(c.global_atomics, 1u);
    EXPECT_EQ(c.global_no_lanes, 1u);
    EXPECT_EQ(c.shared, 1u);
    EXPECT_EQ(c.non_memory, 2u);
    EXPECT_EQ(c.local + c.constant + c.other_memory, 0u);
    // warp 0: 32 + 4 + 2 + 32; warp 1: 32 + 2
    EXPECT_EQ(c.accesses, 104u);
}

TEST(AccelsimReader, ConvertsToACstLaunchWithOneArrayPerRegion) {
    const auto dir = std::filesystem::temp_directory_path() / ("accelsim-" + std::to_string(::getpid()));
    std::filesystem::create_directories(dir);
    const std::string in = (dir / "kernel-1.traceg").string(), out = (dir / "k.cst").string();
    std::ofstream(in) << kKernel;
    const TracegConversion c = convert_traceg(in, out);
    EXPECT_EQ(c.header.steps, 64u);
    EXPECT_EQ(c.header.accesses, 104u);

    cst::TraceFileSource source(out);
    const cst::TraceHeader& h = source.header();
    ASSERT_TRUE(h.launch);
    EXPECT_EQ(h.launch->threads(), 64u);
    // Pages 0x10, 0x20, 0x30 and 0x40 are apart: four regions of one 4 KiB page each.
    ASSERT_EQ(h.arrays.size(), 4u);
    for (std::uint32_t r = 0; r < 4; ++r) {
        EXPECT_EQ(h.arrays[r].base, 0x10000u * (r + 1));
        EXPECT_EQ(h.arrays[r].bytes(), 4096u);
    }
    cst::ThreadBatch batch;
    std::uint64_t next = 0;
    while (source.next_threads(batch))
        for (std::size_t i = 0; i < batch.threads.size(); ++i) {
            const std::uint64_t t = batch.threads[i];
            EXPECT_EQ(t, next++);
            const std::vector<Access> got(batch.accesses.begin() + batch.first[i], batch.accesses.begin() + batch.first[i + 1]);
            expect_same(got, expected_thread(static_cast<std::uint32_t>(t)), "thread " + std::to_string(t));
            for (const Access& a : got) EXPECT_EQ(a.array, (a.address >> 16) - 1) << "thread " << t;
        }
    EXPECT_EQ(next, 64u);
    std::filesystem::remove_all(dir);
}

// The oldest traces (tracer 1.2) put block and warp before each instruction; tracer 4+ may add a
// source line (with -enable lineinfo = 1) and an immediate at the end.
TEST(AccelsimReader, ReadsOlderAndNewerInstructionLines) {
    const std::string head = "-grid dim = (2,1,1)\n-block dim = (32,1,1)\n";
    {
        std::istringstream in(head + "-accelsim tracer version = 1.2\n#BEGIN_TB\nthread block = 1,0,0\nwarp = 0\n"
                                     "insts = 1\n1 0 0 0 0010 00000003 1 R2 LDG.E 1 R4 4 1 0x0000000000001000 16 \n#END_TB\n");
        TracegReader reader(in, "old");
        EXPECT_EQ(reader.kernel().tracer_version, 1u);
        WarpAccesses w;
        ASSERT_TRUE(reader.next_warp(w));
        EXPECT_EQ(w.block, 1u);
        expect_same(w.lane[0], {load(0x1000, 4)}, "lane 0");
        expect_same(w.lane[1], {load(0x1010, 4)}, "lane 1");
        EXPECT_TRUE(w.lane[2].empty());
    }
    {
        std::istringstream in(head + "-accelsim tracer version = 5\n-enable lineinfo = 1\n#BEGIN_TB\n"
                                     "thread block = 0,0,0\nwarp = 0\ninsts = 2\n"
                                     "17 0010 00000006 0 STG.E.128 2 R4 R8 16 2 0x2000 -16 0 \n"
                                     "18 0020 ffffffff 1 R1 IADD3 2 R1 R2 0 -7 \n#END_TB\n");
        TracegReader reader(in, "new");
        WarpAccesses w;
        ASSERT_TRUE(reader.next_warp(w));
        expect_same(w.lane[1], {store(0x2000, 16)}, "lane 1");
        expect_same(w.lane[2], {store(0x1ff0, 16)}, "lane 2");
        EXPECT_EQ(reader.counts().non_memory, 1u);
    }
}

// Generic LD/ST go by their first active address, as Accel-Sim resolves them: the shared window
// from the shared base to the local base, 16 KiB of local window, else global.
TEST(AccelsimReader, ResolvesGenericAccessesByAddress) {
    std::istringstream in("-grid dim = (1,1,1)\n-block dim = (32,1,1)\n-accelsim tracer version = 3\n"
                          "-shmem base_addr = 0x7f0000000000\n-local mem base_addr = 0x7f1000000000\n"
                          "#BEGIN_TB\nthread block = 0,0,0\nwarp = 0\ninsts = 4\n"
                          "0010 00000001 1 R2 LD.E 1 R4 4 0 0x7f0000000040 \n"
                          "0020 00000001 1 R2 LD.E 1 R4 4 0 0x7f1000000040 \n"
                          "0030 00000001 0 ST.E 2 R4 R2 4 0 0x0000000000005000 \n"
                          "0040 00000001 1 R2 LDL 1 R4 4 0 0x0000000000000010 \n#END_TB\n");
    TracegReader reader(in, "generic");
    WarpAccesses w;
    ASSERT_TRUE(reader.next_warp(w));
    expect_same(w.lane[0], {store(0x5000, 4)}, "lane 0");
    EXPECT_EQ(reader.counts().shared, 1u);
    EXPECT_EQ(reader.counts().local, 2u);
    EXPECT_EQ(reader.counts().global_stores, 1u);
}

TEST(AccelsimReader, MergesTheClosestRegionsBeyondTheLimit) {
    // Pages 0 and 1, then 69 pages 10 apart (a wide gap before the last): 69 gaps of more than a page.
    std::vector<std::uint64_t> pages = {0, 1};
    for (std::uint64_t i = 1; i < 70; ++i) pages.push_back(i * 10 + (i == 69 ? 1000 : 0));
    const std::vector<ArrayInfo> arrays = regions_for_pages(pages);
    ASSERT_EQ(arrays.size(), kMaxRegions);
    // 63 splits: the widest gap (before the last page) and the first 62 of the 67 ten-page gaps.
    EXPECT_EQ(arrays.back().base, (690u + 1000u) << kPageShift);
    EXPECT_EQ(arrays.front().base, 0u);
    std::uint64_t covered = 0;
    for (std::size_t i = 0; i < arrays.size(); ++i) {
        if (i) {
            EXPECT_GT(arrays[i].base, arrays[i - 1].base + arrays[i - 1].bytes() - 1);
        }
        covered += arrays[i].bytes() >> kPageShift;
    }
    // Every page lies in a region; inside regions remain 5 ten-page gaps and the 9-page one.
    for (std::uint64_t p : pages) {
        bool in = false;
        for (const ArrayInfo& a : arrays) in |= (p << kPageShift) >= a.base && (p << kPageShift) < a.base + a.bytes();
        EXPECT_TRUE(in) << p;
    }
    EXPECT_EQ(covered, pages.size() + 5 * 9 + 8);
}

}  // namespace
}  // namespace cachesim::accelsim
