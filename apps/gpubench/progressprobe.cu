// progressprobe: how far apart the warps of the naive matmul drift while they run (the
// naive matmul's L1 hit rate). The model keeps every resident warp of an SM in step; if the
// H200's warps drift apart by more than the L1 holds, blocks that read the same B columns stop
// sharing them. This runs gpubench's matmul kernel (the same loads, in the same order) with lane 0
// of every warp reading %globaltimer before its first k and after every EVERY k, and writes per
// warp its block, SM, warp slot and those times (ns from the launch's first sample), one CSV per
// schedule and block size: PREFIX_<schedule>_<block>.csv. Each recorded launch follows an L2
// flush, as gpubench's measured launches do. Under Nsight Compute (-k regex:progress) the same
// launches give the L1 hit rate with the instrumentation in place.
//
// --index32 computes the load addresses with 32-bit arithmetic, as gpubench's index32 compilation
// does (its loop a pipe limits rather than the issue port); the files are then PREFIX_index32_....
// --size N is an N x N matrix, --size WxH a W-wide, H-high one; --depth D the length of the k loop
// (default: the width), as gpubench's matmul takes them.
//
// Usage: progressprobe PREFIX [--schedules linear,column:32] [--blocks 128,256,1024]
//                             [--size 1024 | --size WxH] [--depth D] [--every 32] [--launches 2]
//                             [--index32 1]
#include <cuda_runtime.h>

#include <algorithm>
#include <cstdint>
#include <cstdio>
#include <exception>
#include <fstream>
#include <sstream>
#include <string>
#include <vector>

#include "apps/gpubench/cuda_check.hpp"
#include "traces/schedule.hpp"
#include "traces/workload_spec.hpp"

namespace {

struct ProgressArgs {
    float* c;
    const float* a;
    const float* b;
    std::uint32_t width, height, depth;  // C is height x width, A height x depth, B depth x width
    std::uint32_t every;                 // k steps between samples
    cachesim::Schedule schedule;
    unsigned long long* times;  // per warp: samples_per_warp timestamps
    std::uint32_t* where;       // per warp: sm << 16 | warp slot
};

template <bool kIndex32>
__global__ void progress_matmul(ProgressArgs args) {
    const std::uint64_t tid = static_cast<std::uint64_t>(blockIdx.x) * blockDim.x + threadIdx.x;
    const std::uint64_t warp = tid / 32;
    const std::uint32_t samples = args.depth / args.every + 1;
    const bool recorder = threadIdx.x % 32 == 0;
    const std::uint64_t items = static_cast<std::uint64_t>(args.width) * args.height;
    if (tid >= items) return;
    const std::uint64_t item = cachesim::schedule_map(args.schedule, tid, args.width, args.height);
    const std::uint64_t x = item % args.width;
    const std::uint64_t y = item / args.width;
    unsigned long long* mine = args.times + warp * samples;
    if (recorder) {
        unsigned sm, slot;
        unsigned long long now;
        asm volatile("mov.u32 %0, %%smid;" : "=r"(sm));
        asm volatile("mov.u32 %0, %%warpid;" : "=r"(slot));
        asm volatile("mov.u64 %0, %%globaltimer;" : "=l"(now));
        args.where[warp] = sm << 16 | slot;
        mine[0] = now;
    }
    float result = 0.0f;
    const float* a_row = args.a + y * args.depth;
    const std::uint32_t x32 = static_cast<std::uint32_t>(x), y32 = static_cast<std::uint32_t>(y);
    for (std::uint32_t chunk = 0; chunk < args.depth; chunk += args.every) {
        if constexpr (kIndex32) {
            for (std::uint32_t i = chunk; i < chunk + args.every; ++i)
                result += args.a[y32 * args.depth + i] * args.b[i * args.width + x32];
        } else {
            for (std::uint32_t i = chunk; i < chunk + args.every; ++i)
                result += a_row[i] * args.b[static_cast<std::uint64_t>(i) * args.width + x];
        }
        if (recorder) {
            unsigned long long now;
            asm volatile("mov.u64 %0, %%globaltimer;" : "=l"(now));
            mine[chunk / args.every + 1] = now;
        }
    }
    args.c[item] = result;
}

__global__ void flush(std::uint32_t* buffer, std::size_t words, std::uint32_t value) {
    const std::size_t stride = static_cast<std::size_t>(gridDim.x) * blockDim.x;
    for (std::size_t i = static_cast<std::size_t>(blockIdx.x) * blockDim.x + threadIdx.x; i < words; i += stride)
        buffer[i] = value + static_cast<std::uint32_t>(i);
}

std::vector<std::string> split(const std::string& s) {
    std::vector<std::string> parts;
    std::stringstream in(s);
    for (std::string part; std::getline(in, part, ',');) parts.push_back(part);
    return parts;
}

std::string file_safe(std::string s) {
    std::replace(s.begin(), s.end(), ':', '-');
    return s;
}

}  // namespace

int main(int argc, char** argv) try {
    using gpubench::cuda_check;
    if (argc < 2) {
        std::fprintf(stderr, "usage: progressprobe PREFIX [--schedules S,...] [--blocks B,...] [--size N] "
                             "[--depth D] [--every K] [--launches L] [--index32 0|1]\n");
        return 2;
    }
    const std::string prefix = argv[1];
    std::vector<std::string> schedules{"linear", "column:32"};
    std::vector<std::string> blocks{"128", "256", "1024"};
    std::uint32_t width = 1024, height = 1024, depth = 0, every = 32;  // depth 0: the width
    int launches = 2;
    bool index32 = false;
    for (int i = 2; i + 1 < argc; i += 2) {
        const std::string opt = argv[i], value = argv[i + 1];
        if (opt == "--schedules") schedules = split(value);
        else if (opt == "--blocks") blocks = split(value);
        else if (opt == "--size") {
            const std::size_t cross = value.find('x');
            width = static_cast<std::uint32_t>(std::stoul(value.substr(0, cross)));
            height = cross == std::string::npos ? width : static_cast<std::uint32_t>(std::stoul(value.substr(cross + 1)));
        }
        else if (opt == "--depth") depth = static_cast<std::uint32_t>(std::stoul(value));
        else if (opt == "--every") every = static_cast<std::uint32_t>(std::stoul(value));
        else if (opt == "--launches") launches = std::stoi(value);
        else if (opt == "--index32" && (value == "0" || value == "1")) index32 = value == "1";
        else if (opt == "--index32") {
            std::fprintf(stderr, "progressprobe: --index32 takes 0 or 1, not %s\n", value.c_str());
            return 2;
        }
        else {
            std::fprintf(stderr, "progressprobe: unknown option %s\n", opt.c_str());
            return 2;
        }
    }
    if (depth == 0) depth = width;
    if (every == 0 || depth % every != 0 || width == 0 || height == 0 || (static_cast<std::uint64_t>(width) * height) % 32 != 0) {
        std::fprintf(stderr, "progressprobe: --depth must be a multiple of --every, and width x height of 32\n");
        return 2;
    }
    const std::uint64_t n2 = static_cast<std::uint64_t>(width) * height;  // C's elements
    const std::uint64_t warps = n2 / 32;
    const std::uint32_t samples = depth / every + 1;
    float *a, *b, *c;
    unsigned long long* times;
    std::uint32_t *where, *scratch;
    int l2_bytes = 0;
    cuda_check(cudaDeviceGetAttribute(&l2_bytes, cudaDevAttrL2CacheSize, 0), "L2 size");
    const std::size_t flush_words = 2 * static_cast<std::size_t>(l2_bytes) / sizeof(std::uint32_t);
    const std::uint64_t a_elems = static_cast<std::uint64_t>(height) * depth, b_elems = static_cast<std::uint64_t>(depth) * width;
    cuda_check(cudaMalloc(&a, a_elems * sizeof(float)), "cudaMalloc(a)");
    cuda_check(cudaMalloc(&b, b_elems * sizeof(float)), "cudaMalloc(b)");
    cuda_check(cudaMalloc(&c, n2 * sizeof(float)), "cudaMalloc(c)");
    cuda_check(cudaMalloc(&times, warps * samples * sizeof(unsigned long long)), "cudaMalloc(times)");
    cuda_check(cudaMalloc(&where, warps * sizeof(std::uint32_t)), "cudaMalloc(where)");
    cuda_check(cudaMalloc(&scratch, flush_words * sizeof(std::uint32_t)), "cudaMalloc(flush)");
    cuda_check(cudaMemset(a, 0, a_elems * sizeof(float)), "memset a");
    cuda_check(cudaMemset(b, 0, b_elems * sizeof(float)), "memset b");
    std::vector<unsigned long long> host_times(warps * samples);
    std::vector<std::uint32_t> host_where(warps);
    std::uint32_t generation = 0;
    for (const std::string& name : schedules) {
        const cachesim::Schedule schedule = cachesim::parse_schedule(name);
        for (const std::string& block_text : blocks) {
            const std::uint32_t block = static_cast<std::uint32_t>(std::stoul(block_text));
            const std::uint32_t grid = static_cast<std::uint32_t>((n2 + block - 1) / block);
            const ProgressArgs args{c, a, b, width, height, depth, every, schedule, times, where};
            const std::string path =
                prefix + (index32 ? "_index32_" : "_") + file_safe(name) + "_" + block_text + ".csv";
            std::ofstream out(path);
            out << "launch,block,warp,sm,slot";
            for (std::uint32_t s = 0; s < samples; ++s) out << ",t" << s * every;
            out << '\n';
            for (int launch = 0; launch < launches; ++launch) {
                flush<<<1024, 256>>>(scratch, flush_words, ++generation);
                if (index32) progress_matmul<true><<<grid, block>>>(args);
                else progress_matmul<false><<<grid, block>>>(args);
                cuda_check(cudaGetLastError(), "progress_matmul launch");
                cuda_check(cudaDeviceSynchronize(), "progress_matmul");
                cuda_check(cudaMemcpy(host_times.data(), times, host_times.size() * sizeof(unsigned long long),
                                      cudaMemcpyDeviceToHost), "copy times");
                cuda_check(cudaMemcpy(host_where.data(), where, host_where.size() * sizeof(std::uint32_t),
                                      cudaMemcpyDeviceToHost), "copy where");
                const unsigned long long first = *std::min_element(host_times.begin(), host_times.end());
                const std::uint32_t warps_per_block = block / 32;
                for (std::uint64_t w = 0; w < warps; ++w) {
                    out << launch << ',' << w / warps_per_block << ',' << w % warps_per_block << ','
                        << (host_where[w] >> 16) << ',' << (host_where[w] & 0xffff);
                    for (std::uint32_t s = 0; s < samples; ++s) out << ',' << host_times[w * samples + s] - first;
                    out << '\n';
                }
            }
            std::printf("%s: %s block %u, %d launches\n", path.c_str(), name.c_str(), block, launches);
        }
    }
    return 0;
} catch (const std::exception& e) {
    std::fprintf(stderr, "progressprobe: %s\n", e.what());
    return 1;
}
