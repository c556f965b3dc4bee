// Kernels recorded with traces/recorder.hpp on the host, replayed by the GPU model: request and
// sector counts derived by hand from the coalescing rules (docs/gpu-model.md), divergent lanes,
// a hand-written stencil body against the built-in workload, and what a recording rejects.
#include <gtest/gtest.h>

#include <cstring>
#include <filesystem>
#include <fstream>
#include <vector>

#include "examples/kernels.hpp"
#include "sim/gpu/gpu_model.hpp"
#include "sim/gpu/gpu_presets.hpp"
#include "traces/input_error.hpp"
#include "traces/recorder_host.hpp"
#include "traces/trace_format_checksum.hpp"
#include "traces/trace_format_reader.hpp"

namespace cachesim {
namespace {

std::string temp_path(const std::string& name) {
    const auto dir = std::filesystem::temp_directory_path() / ("cachesim-recorder-" + std::to_string(::getpid()));
    std::filesystem::create_directories(dir);
    return (dir / name).string();
}

GpuConfig h200(std::uint32_t block) {
    GpuConfig c = find_gpu_preset("h200")->config;
    c.block = block;
    return c;
}

GpuResult record_transpose(std::uint32_t w, std::uint32_t h, Dim3 block, const std::string& name) {
    std::vector<float> in(static_cast<std::size_t>(w) * h), out(in.size());
    const std::string path = temp_path(name);
    const Dim3 grid{(w + block.x - 1) / block.x, (h + block.y - 1) / block.y, 1};
    RecordingWriter writer(path, grid, block, {{"in", in.data(), 4, w, h}, {"out", out.data(), 4, h, w}});
    EXPECT_EQ(record_on_host(writer, examples::Transpose{in.data(), out.data(), w, h}), 2ull * w * h);
    return simulate_gpu_trace(path, h200(block.x * block.y * block.z));
}

// 64 x 64 floats in blocks of 32 x 8: a warp is one row of 32 threads (x fastest). Its load reads
// 32 consecutive floats, 128 B: one request, 4 sectors. Its store writes out[x][y] for 32 x's,
// 256 B apart: one request, 32 sectors. 16 blocks of 8 warps.
TEST(RecorderReplay, NaiveTransposeCountsFollowFromCoalescing) {
    const GpuResult r = record_transpose(64, 64, {32, 8, 1}, "transpose64.cst");
    EXPECT_EQ(r.blocks, 16u);
    EXPECT_EQ(r.warps, 128u);
    EXPECT_EQ(r.load_requests, 128u);
    EXPECT_EQ(r.load_sectors, 128u * 4);
    EXPECT_EQ(r.store_requests, 128u);
    EXPECT_EQ(r.store_sectors, 128u * 32);
    EXPECT_EQ(r.result.reads, 64u * 64);
    EXPECT_EQ(r.result.writes, 64u * 64);
    EXPECT_EQ(r.result.steps, 64u * 64);
}

// 40 x 24 in blocks of 16 x 4 (3 x 6 blocks, 2 warps each, a warp = two rows of 16 threads).
// Blocks at x 0 and 16: a row reads 16 floats, 64 B aligned: 2 sectors, 4 per warp. Blocks at x
// 32 hold 8 valid columns: 1 sector per row, 2 per warp, 16 active lanes. Stores: out[x][y] and
// out[x][y+1] (y even) share a sector, x's are 96 B apart: one sector per valid column.
TEST(RecorderReplay, TwoDimensionalBlocksWithPartialWarps) {
    const GpuResult r = record_transpose(40, 24, {16, 4, 1}, "transpose40.cst");
    EXPECT_EQ(r.blocks, 18u);
    EXPECT_EQ(r.warps, 36u);
    EXPECT_EQ(r.load_requests, 36u);
    EXPECT_EQ(r.load_sectors, 6u * 2 * (4 + 4 + 2));
    EXPECT_EQ(r.store_requests, 36u);
    EXPECT_EQ(r.store_sectors, 6u * 2 * (16 + 16 + 8));
    EXPECT_EQ(r.result.reads, 40u * 24);
}

// Lane x loads a[k*32 + x] for k < x % 3 + 1: request 0 has 32 lanes, request 1 the 21 lanes
// with x % 3 != 0, request 2 the 10 with x % 3 == 2; each spans all four sectors of its row.
struct Divergent {
    const float* a;
    template <class Rec>
    CACHESIM_HD void operator()(const ThreadIndex& t, Rec& rec) const {
        const std::uint32_t x = t.thread.x;
        for (std::uint32_t k = 0; k < x % 3 + 1; ++k) rec.load(&a[k * 32 + x]);
    }
};

// Even lanes load a[x], odd lanes store b[x]: the lanes' first accesses differ in direction, so
// they are two requests, 16 lanes each, touching 4 sectors each.
struct MixedDirections {
    float* a;
    float* b;
    template <class Rec>
    CACHESIM_HD void operator()(const ThreadIndex& t, Rec& rec) const {
        const std::uint32_t x = t.thread.x;
        if (x % 2 == 0) rec.load(&a[x]);
        else rec.store(&b[x], 1.0f);
    }
};

TEST(RecorderReplay, DivergentLanesSitOutLaterRequests) {
    std::vector<float> a(96);
    const std::string path = temp_path("divergent.cst");
    RecordingWriter writer(path, {1, 1, 1}, {32, 1, 1}, {{"a", a.data(), 4, 96, 1}});
    record_on_host(writer, Divergent{a.data()});
    const GpuResult r = simulate_gpu_trace(path, h200(32));
    EXPECT_EQ(r.warps, 1u);
    EXPECT_EQ(r.load_requests, 3u);
    EXPECT_EQ(r.result.reads, 32u + 21 + 10);
    EXPECT_EQ(r.load_sectors, 12u);
}

TEST(RecorderReplay, LanesOfBothDirectionsSplitIntoTwoRequests) {
    std::vector<float> a(32), b(32);
    const std::string path = temp_path("mixed.cst");
    RecordingWriter writer(path, {1, 1, 1}, {32, 1, 1}, {{"a", a.data(), 4, 32, 1}, {"b", b.data(), 4, 32, 1}});
    record_on_host(writer, MixedDirections{a.data(), b.data()});
    const GpuResult r = simulate_gpu_trace(path, h200(32));
    EXPECT_EQ(r.load_requests, 1u);
    EXPECT_EQ(r.store_requests, 1u);
    EXPECT_EQ(r.load_sectors, 4u);
    EXPECT_EQ(r.store_sectors, 4u);
    EXPECT_EQ(r.result.reads, 16u);
    EXPECT_EQ(r.result.writes, 16u);
}

// Two warps of one block (one SM, one L1) over the 32 lines of `a` (32 floats each):
//   request 0: warp 0 lane l reads line 31 - l (lanes stepping down), warp 1 reads line l (up);
//   request 1: lane l reads word 1 of line 7l mod 32 (no even step);
//   request 2: every lane reads a[5] (one address).
// 32 + 32 + 1 sectors per warp, and only the first touch of each line's first sector misses: 32.
// Lanes given the wrong addresses (a step taken the wrong way, a permutation lost) would miss more.
struct SteppedAndScattered {
    const float* a;
    template <class Rec>
    CACHESIM_HD void operator()(const ThreadIndex& t, Rec& rec) const {
        const std::uint32_t warp = t.thread.x / 32, lane = t.thread.x % 32;
        rec.load(&a[32 * (warp == 0 ? 31 - lane : lane)]);
        rec.load(&a[32 * (lane * 7 % 32) + 1]);
        rec.load(&a[5]);
    }
};

TEST(RecorderReplay, LanesSteppingDownScatteredOrAllAtOneAddress) {
    std::vector<float> a(32 * 32);
    const std::string path = temp_path("stepped.cst");
    RecordingWriter writer(path, {1, 1, 1}, {64, 1, 1}, {{"a", a.data(), 4, 32, 32}});
    record_on_host(writer, SteppedAndScattered{a.data()});
    const GpuResult r = simulate_gpu_trace(path, h200(64));
    EXPECT_EQ(r.load_requests, 6u);
    EXPECT_EQ(r.load_sectors, 2u * (32 + 32 + 1));
    EXPECT_EQ(r.ncu.l1_sectors_ld_hit, 2u * (32 + 32 + 1) - 32);
}

// A box stencil written as a kernel body makes the built-in stencil's accesses (the arrays placed
// as the built-in workload places them), so its recording replays to every counter of the
// built-in run, with the built-in's issue burst given explicitly.
TEST(RecorderReplay, HandWrittenStencilMatchesTheBuiltinWorkload) {
    for (std::uint32_t block : {64u, 256u}) {
        const std::uint32_t w = 200, h = 72, sw = 5, sh = 3;
        std::vector<float> in(w * h), out(w * h);
        const std::string path = temp_path("stencil" + std::to_string(block) + ".cst");
        RecordingWriter writer(path, {(w * h + block - 1) / block, 1, 1}, {block, 1, 1},
                               {{"in", in.data(), 4, w, h}, {"out", out.data(), 4, w, h}});
        record_on_host(writer, examples::BoxStencil{in.data(), out.data(), w, h, sw, sh});
        WorkloadSpec spec;
        spec.width = w, spec.height = h, spec.stencil_w = sw, spec.stencil_h = sh;
        GpuConfig c = h200(block);
        c.issue_burst = sw * sh;
        const GpuResult builtin = simulate_gpu_model(spec, c);
        // (14 file blocks of 16K accesses, each launch block spread over two or three of them)
        RunControl threads;
        threads.threads = 3;  // the trace decoded beside the model, in a thread of its own
        for (const GpuResult& replay : {simulate_gpu_trace(path, c), simulate_gpu_trace(path, c, threads)}) {
            EXPECT_EQ(builtin.ncu.metrics(), replay.ncu.metrics()) << block;
            EXPECT_EQ(builtin.rounds, replay.rounds);
            EXPECT_EQ(builtin.load_sectors, replay.load_sectors);
            EXPECT_EQ(builtin.store_sectors, replay.store_sectors);
        }
    }
}

// A body that makes more accesses in the recording pass than in the counting pass.
struct NotDeterministic {
    int* calls;
    const float* a;
    template <class Rec>
    void operator()(const ThreadIndex& t, Rec& rec) const {
        const int extra = (*calls)++ >= 32 ? 1 : 0;  // the second pass makes one access more
        for (int k = 0; k < 1 + extra; ++k) rec.load(&a[t.thread.x]);
    }
};

struct OutsideTheArrays {
    const float* a;
    template <class Rec>
    CACHESIM_HD void operator()(const ThreadIndex& t, Rec& rec) const {
        rec.load(&a[t.thread.x + 100]);
    }
};

TEST(RecorderReplay, OverflowAndStrayAccessesAreReported) {
    std::vector<float> a(32);
    int calls = 0;
    const std::string path = temp_path("overflow.cst");
    {
        RecordingWriter writer(path, {1, 1, 1}, {32, 1, 1}, {{"a", a.data(), 4, 32, 1}});
        try {
            record_on_host(writer, NotDeterministic{&calls, a.data()});
            ADD_FAILURE() << "no overflow reported";
        } catch (const InputError& e) {
            EXPECT_NE(std::string(e.what()).find("recorder overflow: thread 0 (block 0,0,0, thread 0,0,0)"),
                      std::string::npos) << e.what();
        }
    }
    EXPECT_FALSE(std::filesystem::exists(path));  // nothing half-written is left
    std::vector<float> big(200);
    RecordingWriter writer(path, {1, 1, 1}, {32, 1, 1}, {{"a", big.data(), 4, 32, 1}});
    try {
        record_on_host(writer, OutsideTheArrays{big.data()});
        ADD_FAILURE() << "no stray access reported";
    } catch (const InputError& e) {
        EXPECT_NE(std::string(e.what()).find("outside every registered array"), std::string::npos) << e.what();
    }
}

struct FirstAndLastThread {
    const float* a;
    template <class Rec>
    void operator()(const ThreadIndex& t, Rec& rec) const {
        if (t.global() == 0 || t.global() == 127) rec.load(&a[t.global()]);
    }
};

// A trace whose launch and threads disagree: the header's grid is made smaller than a thread the
// blocks name (checksum recomputed), which the reader reports at the block's byte offset.
TEST(RecorderReplay, ThreadsOutsideTheLaunchAreRejectedWithTheirOffset) {
    std::vector<float> a(128);
    const std::string path = temp_path("geometry.cst");
    RecordingWriter writer(path, {4, 1, 1}, {32, 1, 1}, {{"a", a.data(), 4, 128, 1}});
    record_on_host(writer, FirstAndLastThread{a.data()});
    std::string bytes;
    {
        std::ifstream in(path, std::ios::binary);
        bytes.assign(std::istreambuf_iterator<char>(in), {});
    }
    std::uint32_t body = 0;
    std::memcpy(&body, bytes.data() + 12, 4);
    const std::size_t grid_x = 16 + body - 24;  // the launch ends the header body
    const std::uint32_t two = 2;
    std::memcpy(bytes.data() + grid_x, &two, 4);
    const std::uint64_t sum = cst::checksum(bytes.data(), 16 + body);
    std::memcpy(bytes.data() + 16 + body, &sum, 8);
    {
        std::ofstream out(path, std::ios::binary | std::ios::trunc);
        out.write(bytes.data(), static_cast<std::streamsize>(bytes.size()));
    }
    const std::string block_offset = "byte " + std::to_string(16 + body + 8) + ": ";
    try {
        cst::TraceFileSource source(path);
        cst::ThreadBatch batch;
        while (source.next_threads(batch)) {
        }
        ADD_FAILURE() << "accepted a thread outside the launch";
    } catch (const InputError& e) {
        const std::string what = e.what();
        EXPECT_NE(what.find(block_offset), std::string::npos) << what;
        EXPECT_NE(what.find("has index 127, outside the launch (grid 2x1x1, block 32x1x1: 64 threads)"),
                  std::string::npos) << what;
    }
    EXPECT_THROW(simulate_gpu_trace(path, h200(32)), InputError);
    RunControl threads;
    threads.threads = 2;  // the error comes from the reading thread, and reaches the caller the same
    try {
        simulate_gpu_trace(path, h200(32), threads);
        ADD_FAILURE() << "accepted a thread outside the launch when read ahead";
    } catch (const InputError& e) {
        EXPECT_NE(std::string(e.what()).find("has index 127, outside the launch"), std::string::npos) << e.what();
    }
}

// A recorded launch with a warm L2 (GpuConfig::l2_start) replays twice, from a reader of its own
// each time: a 64x64 transpose reads its 16 KiB input from DRAM cold and nothing warm, where every
// L2 read hits, and its L1 counts are the cold ones (the L1s start empty either way).
TEST(RecorderReplay, AWarmL2StartReplaysTheTraceTwice) {
    constexpr std::uint32_t n = 64;
    std::vector<float> in(n * n), out(n * n);
    const std::string path = temp_path("transpose_warm.cst");
    {
        RecordingWriter writer(path, {n / 32, n / 8, 1}, {32, 8, 1}, {{"in", in.data(), 4, n, n}, {"out", out.data(), 4, n, n}});
        ASSERT_EQ(record_on_host(writer, examples::Transpose{in.data(), out.data(), n, n}), 2ull * n * n);
    }
    GpuConfig c = h200(256);
    const GpuResult cold = simulate_gpu_trace(path, c);
    c.l2_start = L2Start::warm;
    const GpuResult warm = simulate_gpu_trace(path, c);
    EXPECT_GE(cold.ncu.dram_bytes_read, n * n * 4u);
    EXPECT_EQ(warm.ncu.dram_bytes_read, 0u);
    ASSERT_GT(warm.ncu.l2_sectors_tex_read, 0u);
    EXPECT_EQ(warm.ncu.l2_sectors_tex_read_hit, warm.ncu.l2_sectors_tex_read);
    EXPECT_EQ(warm.ncu.l1_sectors_ld, cold.ncu.l1_sectors_ld);
    EXPECT_EQ(warm.ncu.l1_sectors_ld_hit, cold.ncu.l1_sectors_ld_hit);
    EXPECT_EQ(warm.warps, cold.warps);
}

}  // namespace
}  // namespace cachesim
