// l1probe: how the L1 counts a lookup of a sector whose fill from L2 is still on its way
// (the naive matmul's L1 hit rate). Every case is one small kernel launch in which a few
// warps load the same 128-byte line (ld.global.ca: cached in L1) at chosen times; run it under
// Nsight Compute with the L1 lookup and L2 read counters, one profiled launch per case:
//
//   ncu --csv --page raw --print-units base --cache-control all --clock-control none \
//       --metrics l1tex__t_sectors_pipe_lsu_mem_global_op_ld.sum,... l1probe CASES.csv
//
// The case table (launch order = ncu's launch ID order) and, per loading warp, its SM, its
// issue and arrival clocks, go to CASES.csv. Without ncu the clocks alone still tell whether the
// second load waited for the first one's fill. With --warm every case's lines are first read into
// L2 by a kernel of its own (profile only `probe`, with --cache-control none), so that the L1
// misses hit in L2 instead of going to DRAM. Usage: l1probe CASES.csv [--warm]
#include <cuda_runtime.h>

#include <algorithm>
#include <cstdio>
#include <exception>
#include <fstream>
#include <string>
#include <utility>
#include <vector>

#include "apps/gpubench/cuda_check.hpp"

namespace {

constexpr unsigned kFloatsPerLine = 32;
constexpr unsigned kMaxBlocks = 264;

__device__ __forceinline__ float load_ca(const float* p) {
    float v;
    asm volatile("ld.global.ca.f32 %0, [%1];" : "=f"(v) : "l"(p) : "memory");
    return v;
}

__device__ __forceinline__ unsigned current_sm() {
    unsigned sm;
    asm volatile("mov.u32 %0, %%smid;" : "=r"(sm));
    return sm;
}

__device__ __forceinline__ void spin(long long cycles) {
    const long long t = clock64();
    while (clock64() - t < cycles) {
    }
}

enum Mode : int {
    kSameWarpBackToBack = 0,  // warp 0: the line twice, the second load issued before the first returns
    kSameWarpAfterArrival,    // warp 0: the line, then again once the first load's data is there
    kTwoWarps,                // warp 0 loads the line; warp `other` loads it `delay` cycles later
    kAllWarps,                // every warp loads the line at once
    kAllWarpsBroadcast,       // every warp loads one word of it (all lanes the same address)
    kTwoWarpsOverlap,         // warp 0: sectors 0-1; warp `other`, `delay` later: sectors 1-2
    kBlockPairs,              // two blocks per SM (grid 2 x SMs, 1024 threads): warp 0 of each loads
                              // its SM's line, odd blocks `delay` cycles after their start
    kCrossSmPairs,            // one warp per SM (grid = SMs): blocks 2i and 2i+1 (other SMs) load
                              // line i, the odd one `delay` cycles later
    kAllSmsOneLine,           // one warp per SM: all load line 0, block b `b * delay` cycles late
    kCrossSmShapes,           // as kCrossSmPairs with no delay, but block 2i loads the sectors of
                              // line i in mask `other & 15`, block 2i+1 those in `other >> 4`
    kSmGroups,                // one warp per SM, all at once: the SM with id s loads line s / other
                              // (other < 1000) or s mod (other - 1000): which SMs can share a lookup
    kPendingPairs,            // how the L2 counts a lookup of a sector on its way from DRAM: in
                              // each of GPCs 0-3 (SMs 16g .. 16g+15) the SM in TPC slot `first`
                              // loads kPendingLines lines, sectors in mask A, and the SM in slot
                              // `second` (or the first's TPC partner) sectors in mask B of the same
                              // lines `delay` cycles later (see pending_other)
};

// kPendingPairs's `other`: bits 0-3 the first SM's index in its GPC (2 * TPC slot), bits 4-7 the
// second's, bits 8-11 mask A, bits 12-15 mask B.
constexpr unsigned pending_other(unsigned first, unsigned second, unsigned mask_a, unsigned mask_b) {
    return first | second << 4 | mask_a << 8 | mask_b << 12;
}
constexpr unsigned kPendingLines = 8;  // per GPC pair; lines 1 KiB apart, so they are in different L2 sets

struct Timing {
    unsigned sm;
    unsigned block;
    unsigned warp;
    unsigned pad;
    long long issued;
    long long arrived;
    unsigned long long issued_ns;  // %globaltimer, comparable across SMs
};

// Records (on lane 0) when the warp issued its load and when the data arrived: the dependent add
// makes the second clock read wait for the value.
__device__ void record(Timing* out, unsigned index, unsigned warp, long long issued, float value, float* sink) {
    const long long arrived = clock64() + (value == 12345.0f ? 1 : 0);
    unsigned long long ns;
    asm volatile("mov.u64 %0, %%globaltimer;" : "=l"(ns));
    if ((threadIdx.x & 31u) == 0) out[index] = Timing{current_sm(), blockIdx.x, warp, 0, issued, arrived, ns};
    if (value == 12345.0f) sink[threadIdx.x] = value;  // never true: keeps the load alive
}

__global__ void probe(const float* lines, float* sink, Timing* timing, int mode, unsigned other,
                      long long delay) {
    const unsigned warp = threadIdx.x / 32u, lane = threadIdx.x & 31u;
    const float* line = lines;
    __syncthreads();
    switch (mode) {
        case kSameWarpBackToBack:
            if (warp == 0) {
                const long long t = clock64();
                const float a = load_ca(line + lane);
                const float b = load_ca(line + lane);
                record(timing, 0, warp, t, a + b, sink);
            }
            break;
        case kSameWarpAfterArrival:
            if (warp == 0) {
                const long long t = clock64();
                const float a = load_ca(line + lane);
                record(timing, 0, warp, t, a, sink);
                const long long t2 = clock64();
                const float b = load_ca(line + lane + (a == 12345.0f ? 1 : 0));
                record(timing, 1, warp, t2, b, sink);
            }
            break;
        case kTwoWarps:
        case kTwoWarpsOverlap: {
            const bool overlap = mode == kTwoWarpsOverlap;
            if (warp == 0) {
                const long long t = clock64();
                const float a = load_ca(line + (overlap ? lane / 2u : lane));  // sectors 0-1 or 0-3
                record(timing, 0, warp, t, a, sink);
            } else if (warp == other) {
                spin(delay);
                const long long t = clock64();
                const float a = load_ca(line + (overlap ? 8u + lane / 2u : lane));  // sectors 1-2 or 0-3
                record(timing, 1, warp, t, a, sink);
            }
            break;
        }
        case kAllWarps:
        case kAllWarpsBroadcast: {
            const long long t = clock64();
            const float a = load_ca(line + (mode == kAllWarps ? lane : 0u));
            record(timing, warp, warp, t, a, sink);
            break;
        }
        case kBlockPairs:
            if (warp == 0) {
                if (blockIdx.x & 1u) spin(delay);
                const long long t = clock64();
                const float a = load_ca(lines + current_sm() * kFloatsPerLine + lane);
                record(timing, blockIdx.x, warp, t, a, sink);
            }
            break;
        case kSmGroups: {
            const unsigned sm = current_sm();
            const unsigned line = other < 1000u ? sm / other : sm % (other - 1000u);
            const long long t = clock64();
            const float a = load_ca(lines + line * kFloatsPerLine + lane);
            record(timing, blockIdx.x, warp, t, a, sink);
            break;
        }
        case kCrossSmShapes: {
            const unsigned mask = (blockIdx.x & 1u) ? other >> 4 : other & 15u;
            unsigned sectors[4], n = 0;
            for (unsigned q = 0; q < 4; ++q)
                if (mask & (1u << q)) sectors[n++] = q;
            const unsigned word = sectors[lane % n] * 8u + (lane / n) % 8u;  // touches exactly `mask`
            const long long t = clock64();
            const float a = load_ca(lines + (blockIdx.x / 2u) * kFloatsPerLine + word);
            record(timing, blockIdx.x, warp, t, a, sink);
            break;
        }
        case kPendingPairs: {
            const unsigned sm = current_sm(), gpc = sm / 16u, index = sm % 16u;
            if (gpc >= 4u) break;
            const bool first = index == (other & 15u), second = index == ((other >> 4) & 15u);
            if (!first && !second) break;
            const unsigned mask = first ? (other >> 8) & 15u : (other >> 12) & 15u;
            if (mask == 0) break;  // a one-SM case
            unsigned sectors[4], n = 0;
            for (unsigned q = 0; q < 4; ++q)
                if (mask & (1u << q)) sectors[n++] = q;
            const unsigned word = sectors[lane % n] * 8u + (lane / n) % 8u;  // touches exactly `mask`
            if (second) spin(delay);
            const long long t = clock64();
            float sum = 0.0f;
            for (unsigned j = 0; j < kPendingLines; ++j)  // independent loads, issued back to back
                sum += load_ca(lines + (gpc * kPendingLines + j) * 8u * kFloatsPerLine + word);
            record(timing, blockIdx.x, warp, t, sum, sink);
            break;
        }
        case kCrossSmPairs:
        case kAllSmsOneLine: {
            const bool pairs = mode == kCrossSmPairs;
            spin(pairs ? (blockIdx.x & 1u) * delay : blockIdx.x * delay);
            const long long t = clock64();
            const float a = load_ca(lines + (pairs ? blockIdx.x / 2u : 0u) * kFloatsPerLine + lane);
            record(timing, blockIdx.x, warp, t, a, sink);
            break;
        }
    }
}

__global__ void warm_l2(const float* lines, unsigned floats) {
    float sum = 0.0f;
    for (unsigned i = threadIdx.x; i < floats; i += blockDim.x) sum += __ldcg(lines + i);
    if (sum == 12345.0f) const_cast<float*>(lines)[0] = sum;  // never true
}

struct Case {
    std::string name;
    int mode;
    unsigned threads;
    unsigned other;
    long long delay;
};

}  // namespace

// The --pending case set: pairs of SMs on one TPC, in one L2 partition (TPC slots 0 and 4) and
// in different partitions (slots 0 and 1), the second SM loading the first's sector again
// (with another, so that the two requests differ and are not coalesced), its 64 B partner, or a
// sector of the other 64 B half, at delays from "at once" to "long after the data arrived".
std::vector<Case> pending_cases() {
    std::vector<Case> cases;
    const std::pair<const char*, unsigned> pairs[] = {{"tpc", 0x10}, {"same_half", 0x80}, {"other_half", 0x20}};
    const std::pair<const char*, unsigned> shapes[] = {
        {"s0_then_s0s2", pending_other(0, 0, 0x1, 0x5)},    // sector 0 again (and sector 2)
        {"s0_then_s1", pending_other(0, 0, 0x1, 0x2)},      // its 64 B partner
        {"s0_then_s2", pending_other(0, 0, 0x1, 0x4)},      // the other 64 B half: unrelated
        {"s0s1s2s3_then_s0s2", pending_other(0, 0, 0xf, 0x5)},
    };
    for (const auto& [pair, slots] : pairs)
        for (const auto& [shape, masks] : shapes)
            for (long long delay : {0ll, 300ll, 600ll, 1000ll, 2000ll, 8000ll})
                cases.push_back({std::string("pending_") + pair + "_" + shape + "_d" + std::to_string(delay),
                                 kPendingPairs, 32, masks | slots, delay});
    // One SM, one request per cold line: which of its sectors count as hits and misses.
    for (unsigned mask : {0x1u, 0x3u, 0x6u, 0x5u, 0x7u, 0xfu, 0x9u, 0xcu})
        cases.push_back({"pending_single_mask" + std::to_string(mask), kPendingPairs, 32,
                         pending_other(0, 1, mask, 0), 0});
    return cases;
}

int main(int argc, char** argv) try {
    const std::string flag = argc == 3 ? argv[2] : "";
    const bool warm = flag == "--warm", pending = flag == "--pending";
    if (argc != 2 && !warm && !pending) {
        std::fprintf(stderr, "usage: l1probe CASES.csv [--warm | --pending]\n");
        return 2;
    }
    int sms = 0;
    GPUBENCH_CUDA(cudaDeviceGetAttribute(&sms, cudaDevAttrMultiProcessorCount, 0));
    const unsigned pair_blocks = std::min<unsigned>(kMaxBlocks, 2u * static_cast<unsigned>(sms));

    std::vector<Case> cases = {
        {"same_warp_back_to_back", kSameWarpBackToBack, 32, 0, 0},
        {"same_warp_after_arrival", kSameWarpAfterArrival, 32, 0, 0},
        {"all_warps_line", kAllWarps, 1024, 0, 0},
        {"all_warps_broadcast", kAllWarpsBroadcast, 1024, 0, 0},
    };
    for (unsigned other : {1u, 4u})
        for (long long delay : {0ll, 64ll, 128ll, 256ll, 400ll, 600ll, 1000ll, 4000ll})
            cases.push_back({"two_warps_w" + std::to_string(other) + "_d" + std::to_string(delay), kTwoWarps,
                             32 * (other + 1), other, delay});
    for (long long delay : {0ll, 4000ll})
        cases.push_back({"two_warps_overlap_d" + std::to_string(delay), kTwoWarpsOverlap, 64, 1, delay});
    for (long long delay : {0ll, 200ll, 1000ll, 4000ll})
        cases.push_back({"block_pairs_d" + std::to_string(delay), kBlockPairs, 1024, 0, delay});
    for (long long delay : {0ll, 100ll, 200ll, 400ll, 700ll, 1000ll, 1500ll, 3000ll, 10000ll})
        cases.push_back({"cross_sm_pairs_d" + std::to_string(delay), kCrossSmPairs, 32, 0, delay});
    for (long long delay : {0ll, 5ll, 20ll, 100ll})
        cases.push_back({"all_sms_one_line_d" + std::to_string(delay), kAllSmsOneLine, 32, 0, delay});
    // Which request shapes coalesce across SMs: (first SM's sectors, second SM's sectors).
    const std::pair<const char*, unsigned> shapes[] = {
        {"128B_128B", 0xff}, {"32B_32B", 0x11}, {"64B_64B", 0x33}, {"96B_96B", 0x77},
        {"128B_32B", 0x1f},  {"32B_128B", 0xf1}, {"64B_other64B", 0xc3}, {"64B_overlap64B", 0x63},
        {"sector3_sector3", 0x88},
    };
    for (const auto& [name, masks] : shapes)
        cases.push_back({std::string("cross_sm_shape_") + name, kCrossSmShapes, 32, masks, 0});
    // Which SMs share a lookup: groups of consecutive SM ids (a TPC is SMs 2k, 2k+1) or SMs far apart.
    for (unsigned divisor : {1u, 2u, 4u, 6u, 8u, 18u, 132u})
        cases.push_back({"sm_groups_div" + std::to_string(divisor), kSmGroups, 32, divisor, 0});
    for (unsigned modulus : {66u, 33u, 2u})
        cases.push_back({"sm_groups_mod" + std::to_string(modulus), kSmGroups, 32, 1000u + modulus, 0});

    if (pending) cases = pending_cases();

    const std::size_t line_floats = static_cast<std::size_t>(kMaxBlocks) * kFloatsPerLine;
    const std::size_t region_floats = line_floats + 1024;  // a fresh region per case, 4 KiB apart at least
    float* lines = nullptr;
    float* sink = nullptr;
    Timing* timing = nullptr;
    GPUBENCH_CUDA(cudaMalloc(&lines, region_floats * cases.size() * sizeof(float)));
    GPUBENCH_CUDA(cudaMemset(lines, 0, region_floats * cases.size() * sizeof(float)));
    GPUBENCH_CUDA(cudaMalloc(&sink, 1024 * sizeof(float)));
    GPUBENCH_CUDA(cudaMalloc(&timing, kMaxBlocks * sizeof(Timing)));

    std::ofstream out(argv[1]);
    out << "launch,case,mode,threads,blocks,other_warp,delay,warm,record,sm,block,warp,issued,arrived,latency,issued_ns\n";
    for (std::size_t i = 0; i < cases.size(); ++i) {
        const Case& c = cases[i];
        const unsigned blocks = c.mode == kBlockPairs ? pair_blocks
                                : c.mode == kCrossSmPairs || c.mode == kAllSmsOneLine || c.mode == kCrossSmShapes ||
                                          c.mode == kSmGroups || c.mode == kPendingPairs
                                    ? static_cast<unsigned>(sms)
                                                                                      : 1u;
        if (warm) {  // the case's lines into L2 first (ld.global.cg: L2 only), in a kernel ncu skips
            warm_l2<<<1, 256>>>(lines + i * region_floats, static_cast<unsigned>(line_floats));
            gpubench::cuda_check_launch("warm_l2");
        }
        GPUBENCH_CUDA(cudaMemset(timing, 0, kMaxBlocks * sizeof(Timing)));
        probe<<<blocks, c.threads>>>(lines + i * region_floats, sink, timing, c.mode, c.other, c.delay);
        gpubench::cuda_check_launch("probe");
        GPUBENCH_CUDA(cudaDeviceSynchronize());
        std::vector<Timing> t(kMaxBlocks);
        GPUBENCH_CUDA(cudaMemcpy(t.data(), timing, t.size() * sizeof(Timing), cudaMemcpyDeviceToHost));
        const bool per_block = c.mode == kBlockPairs || c.mode == kCrossSmPairs || c.mode == kAllSmsOneLine ||
                               c.mode == kCrossSmShapes || c.mode == kSmGroups || c.mode == kPendingPairs;
        const unsigned records = per_block ? blocks : c.mode == kAllWarps || c.mode == kAllWarpsBroadcast ? 32u : 2u;
        for (unsigned r = 0; r < records; ++r) {
            if (t[r].issued == 0) continue;
            out << i << ',' << c.name << ',' << c.mode << ',' << c.threads << ',' << blocks << ',' << c.other << ','
                << c.delay << ',' << warm << ',' << r << ',' << t[r].sm << ',' << t[r].block << ',' << t[r].warp << ',' << t[r].issued
                << ',' << t[r].arrived << ',' << (t[r].arrived - t[r].issued) << ',' << t[r].issued_ns << '\n';
        }
        std::printf("%zu %s\n", i, c.name.c_str());
    }
    return out ? 0 : 1;
} catch (const std::exception& e) {
    std::fprintf(stderr, "l1probe: %s\n", e.what());
    return 1;
}
