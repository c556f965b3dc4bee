// l1policyprobe: which lines the L1 keeps when it is full (its replacement policy and sets, which
// the GPU model's presets take as fully associative LRU). One thread of one block (one SM) loads
// lines of 128 B with ld.global.ca in an order the host chooses, and times each load: a hit
// in L1 takes about 64 cycles with the timing method, a miss that hits in L2 about 300
// (latencyprobe), so a load under 160 cycles is counted a hit. The visit order is read with
// ld.global.cg, which leaves the L1 alone, and every timing is written with st.global.cg, so the
// probe's own bookkeeping neither fills nor evicts L1 lines. The L1 starts empty in every launch.
//
// Programs (one launch each), each run with the driver's own carve-out (as gpubench's kernels
// run) and with the largest L1 asked for (a preferred carve-out of 0% shared memory):
//   cyclic N: N distinct lines in a random order, four times over (cyclic_seq: lines 0 .. N-1 in
//     address order; cyclic_strideS: lines 0, S, 2S, ... for S = 3, 8, 32, 36, 40, 48, 128, as a
//     column of a row-major matrix whose rows are S lines long; cyclic_drawD: random lines of other
//     draws). With LRU or FIFO the later passes hit every line while N fits and none once
//     it does not (each line is evicted just before it comes round again), sets or no sets aside;
//     with random replacement the hits fall off gradually.
//   recency K (512, 768, 1024), half H (old or new): K lines A, then the first half of A again
//     (hits), then K/2 other lines B, then half H of A, counted: `old` is the first half, used
//     twice; `new` the second half, used once but loaded after the first. Where K + K/2 lines
//     overflow the L1, LRU evicts the second half for B (old hits, new misses), FIFO the first (old
//     misses, new hits), random some of each.
//
// Writes OUTDIR/l1policyprobe.csv (carveout, program, size, half, phase, visits, hits, median cycles)
// and the counted phases on stdout.
// Usage: l1policyprobe OUTDIR [--device D]
#include <cuda_runtime.h>

#include <algorithm>
#include <cstdio>
#include <cstdlib>
#include <fstream>
#include <numeric>
#include <random>
#include <stdexcept>
#include <string>
#include <vector>

#include "apps/gpubench/cuda_check.hpp"

namespace {

constexpr unsigned kLineBytes = 128;
constexpr unsigned kWordsPerLine = kLineBytes / sizeof(unsigned);
constexpr unsigned kRegionLines = 1u << 18;  // 32 MiB: lines drawn from it at random; every stride fits
constexpr unsigned kHitBelowCycles = 160;

// Thread 0 loads the lines `visits` names, in order, timing each load as latencyprobe does: the
// clock is read after a shared-memory store of the line's index (so the start waits for it) and
// after one of the loaded word (so the end waits for the load), one load per loop iteration. Those
// 8 bytes of shared memory count in the carve-out the driver chooses for as many blocks as an SM
// could hold (32 x (1 KiB reserved + 8 B): 64 KiB of shared memory, a 192 KiB L1).
__global__ void visit(const unsigned* region, const unsigned* visits, unsigned count, unsigned short* cycles,
                      unsigned* sink) {
    if (blockIdx.x != 0 || threadIdx.x != 0) return;
    __shared__ volatile unsigned s_dependent[2];  // volatile: every store stays, in order
    unsigned acc = 0;
#pragma unroll 1
    for (unsigned i = 0; i < count; ++i) {
        const unsigned line = __ldcg(visits + i);
        s_dependent[0] = line;
        const long long start = clock64();
        const unsigned word = __ldca(region + static_cast<std::size_t>(line) * kWordsPerLine);
        s_dependent[1] = word;
        const long long end = clock64();
        acc += word;
        const long long took = end - start;
        __stcg(cycles + i, static_cast<unsigned short>(took < 65535 ? took : 65535));
    }
    *sink = acc + s_dependent[0] + s_dependent[1];
}

struct Phase {
    std::string name;
    unsigned first = 0, count = 0;  // visits [first, first + count)
    bool counted = false;
};

struct Program {
    std::string name, half;
    unsigned size = 0;
    std::vector<unsigned> visits;
    std::vector<Phase> phases;
    void add(const std::string& phase, const std::vector<unsigned>& lines, bool counted) {
        phases.push_back({phase, static_cast<unsigned>(visits.size()), static_cast<unsigned>(lines.size()), counted});
        visits.insert(visits.end(), lines.begin(), lines.end());
    }
};

// `n` distinct lines of the region, at random.
std::vector<unsigned> draw_lines(std::mt19937& rng, unsigned n, std::vector<unsigned>& unused) {
    if (n > unused.size()) throw std::logic_error("region too small");
    std::vector<unsigned> lines(unused.end() - n, unused.end());
    unused.resize(unused.size() - n);
    std::shuffle(lines.begin(), lines.end(), rng);
    return lines;
}

std::vector<unsigned> all_region_lines(std::mt19937& rng) {
    std::vector<unsigned> lines(kRegionLines);
    std::iota(lines.begin(), lines.end(), 0u);
    std::shuffle(lines.begin(), lines.end(), rng);
    return lines;
}

// stride 0: random lines; else lines 0, stride, 2 stride, ... in address order.
Program cyclic(unsigned n, unsigned stride, std::mt19937& rng) {
    std::vector<unsigned> unused = all_region_lines(rng);
    std::vector<unsigned> lines = draw_lines(rng, n, unused);
    if (static_cast<unsigned long long>(stride) * n > kRegionLines) throw std::logic_error("stride beyond the region");
    for (unsigned i = 0; stride && i < n; ++i) lines[i] = i * stride;
    Program p{stride == 0 ? "cyclic" : stride == 1 ? "cyclic_seq" : "cyclic_stride" + std::to_string(stride), "", n,
              {}, {}};
    p.add("pass1", lines, false);
    for (int pass = 2; pass <= 4; ++pass) p.add("pass" + std::to_string(pass), lines, true);
    return p;
}

Program recency(unsigned k, bool old_half, std::mt19937& rng) {
    std::vector<unsigned> unused = all_region_lines(rng);
    const std::vector<unsigned> a = draw_lines(rng, k, unused), b = draw_lines(rng, k / 2, unused);
    const std::vector<unsigned> first(a.begin(), a.begin() + k / 2), second(a.begin() + k / 2, a.end());
    Program p{"recency", old_half ? "old" : "new", k, {}, {}};
    p.add("fill", a, false);
    p.add("retouch", first, true);
    p.add("others", b, false);
    p.add(old_half ? "old" : "new", old_half ? first : second, true);
    return p;
}

}  // namespace

int main(int argc, char** argv) try {
    if (argc < 2) throw std::invalid_argument("usage: l1policyprobe OUTDIR [--device D]");
    const std::string out_dir = argv[1];
    int device = 0;
    for (int i = 2; i < argc; ++i) {
        const std::string a = argv[i];
        if (a == "--device" && i + 1 < argc) device = std::atoi(argv[++i]);
        else throw std::invalid_argument("unknown option " + a);
    }
    GPUBENCH_CUDA(cudaSetDevice(device));
    cudaDeviceProp prop{};
    GPUBENCH_CUDA(cudaGetDeviceProperties(&prop, device));
    std::printf("l1policyprobe on %s (%d SMs, %zu KiB shared memory per SM at most), lines of %u B, "
                "a hit below %u cycles\n",
                prop.name, prop.multiProcessorCount, prop.sharedMemPerMultiprocessor / 1024, kLineBytes,
                kHitBelowCycles);

    std::mt19937 rng(2468);
    std::vector<Program> programs;
    for (unsigned stride : {0u, 1u})
        for (unsigned n : {512u, 1024u, 1152u, 1280u, 1408u, 1536u, 1728u, 1792u, 1920u, 1984u, 2048u, 2176u, 2304u,
                           2560u, 3072u, 4096u})
            programs.push_back(cyclic(n, stride, rng));
    // Strides of whole rows (a row of a 1024-float matrix is 32 lines; of 1152, 1280 and 1536 floats
    // 36, 40 and 48): how lines that far apart share the L1's sets.
    for (unsigned stride : {3u, 8u, 32u, 36u, 40u, 48u, 128u})
        for (unsigned n : {16u, 32u, 64u, 128u, 256u, 512u, 1024u, 1536u, 1792u})
            programs.push_back(cyclic(n, stride, rng));
    // Random lines again, other draws: how much the curve depends on which lines were drawn.
    for (int draw = 2; draw <= 3; ++draw)
        for (unsigned n : {768u, 1024u, 1280u, 1536u, 2048u}) {
            programs.push_back(cyclic(n, 0, rng));
            programs.back().name = "cyclic_draw" + std::to_string(draw);
        }
    for (unsigned k : {512u, 768u, 1024u})
        for (bool old_half : {true, false}) programs.push_back(recency(k, old_half, rng));

    unsigned *region = nullptr, *visits = nullptr, *sink = nullptr;
    unsigned short* cycles = nullptr;
    const std::size_t max_visits = 4 * 4096;  // the longest program: 4 passes over 4,096 lines
    GPUBENCH_CUDA(cudaMalloc(&region, std::size_t(kRegionLines) * kLineBytes));
    GPUBENCH_CUDA(cudaMemset(region, 0, std::size_t(kRegionLines) * kLineBytes));
    GPUBENCH_CUDA(cudaMalloc(&visits, max_visits * sizeof(unsigned)));
    GPUBENCH_CUDA(cudaMalloc(&cycles, max_visits * sizeof(unsigned short)));
    GPUBENCH_CUDA(cudaMalloc(&sink, sizeof(unsigned)));

    const std::string path = out_dir + "/l1policyprobe.csv";
    std::ofstream csv(path);
    if (!csv) throw std::runtime_error("cannot write " + path);
    csv << "carveout,program,size,half,phase,visits,hits,median_cycles\n";
    std::printf("%-8s %-10s %6s %-4s %-8s %7s %7s %8s\n", "carveout", "program", "size", "half", "phase", "visits",
                "hits", "share");
    // Each program with the driver's own carve-out (as gpubench's kernels run) and with the
    // largest L1 asked for (preferred carve-out 0% shared memory).
    for (int carveout : {-1, 0}) {
        GPUBENCH_CUDA(cudaFuncSetAttribute(visit, cudaFuncAttributePreferredSharedMemoryCarveout, carveout));
        const std::string label = carveout < 0 ? "default" : "max_l1";
        for (const Program& p : programs) {
            GPUBENCH_CUDA(cudaMemcpy(visits, p.visits.data(), p.visits.size() * sizeof(unsigned),
                                     cudaMemcpyHostToDevice));
            visit<<<1, 32>>>(region, visits, static_cast<unsigned>(p.visits.size()), cycles, sink);
            gpubench::cuda_check_launch("visit");
            GPUBENCH_CUDA(cudaDeviceSynchronize());
            std::vector<unsigned short> t(p.visits.size());
            GPUBENCH_CUDA(cudaMemcpy(t.data(), cycles, t.size() * sizeof(unsigned short), cudaMemcpyDeviceToHost));
            for (const Phase& ph : p.phases) {
                std::vector<unsigned short> v(t.begin() + ph.first, t.begin() + ph.first + ph.count);
                const unsigned hits = static_cast<unsigned>(
                    std::count_if(v.begin(), v.end(), [](unsigned short c) { return c < kHitBelowCycles; }));
                std::nth_element(v.begin(), v.begin() + v.size() / 2, v.end());
                csv << label << ',' << p.name << ',' << p.size << ',' << p.half << ',' << ph.name << ',' << ph.count
                    << ',' << hits << ',' << v[v.size() / 2] << '\n';
                if (ph.counted)
                    std::printf("%-8s %-10s %6u %-4s %-8s %7u %7u %8.3f\n", label.c_str(), p.name.c_str(), p.size,
                                p.half.c_str(), ph.name.c_str(), ph.count, hits, double(hits) / ph.count);
            }
        }
    }
    if (!csv.flush()) throw std::runtime_error("cannot write " + path);
    cudaFree(region);
    cudaFree(visits);
    cudaFree(cycles);
    cudaFree(sink);
    return 0;
} catch (const std::exception& e) {
    std::fprintf(stderr, "l1policyprobe: %s\n", e.what());
    return 2;
}
