// l2probe: how the GPU's L2 partitions behave, from the latency of single L2 loads
// (ld.global.cg caches in L2 only, so every load is an L2 lookup).
//
// For every SM s, a fresh region of lines is first read by SM 0 (DRAM fills), then chased twice
// by SM s. A line that SM s finds at near-partition latency is in s's partition; one it finds at
// the higher far latency is only in the other partition. An SM in SM 0's partition sees only near
// hits; an SM of the other partition sees far hits for the lines the first read left there. The
// second chase tells whether a far hit leaves a copy in the near partition. A last region tells
// how much of a line a DRAM read brings (the fill granule), for lines homed near and far.
//
// Writes OUTDIR/l2probe_sm.csv (per SM: latency quantiles and the fraction of far lines of each
// chase) and OUTDIR/l2probe_lines.csv (per line of every region: byte offset from the buffer's
// 2 MiB-aligned start and the three latencies), OUTDIR/l2probe_granule.csv (per line of the
// granule region: its home and the latency of each sector), and a summary on stdout. Usage:
//   l2probe OUTDIR [--lines N] [--device D]
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
constexpr unsigned kSectorsPerLine = 4;
constexpr unsigned kWordsPerSector = kWordsPerLine / kSectorsPerLine;
constexpr unsigned kMaxLines = 4096;  // per region: two shared arrays of this many words

__device__ unsigned current_sm() {
    unsigned sm;
    asm volatile("mov.u32 %0, %%smid;" : "=r"(sm));
    return sm;
}

// Follows the pointer chain of one region (each line's first word holds the word index of the
// next line) on the first block that lands on `target_sm`, timing every load. The dependent
// shared-memory store makes the second clock read wait for the load's data.
__global__ void chase(const unsigned* region, unsigned lines, unsigned first_word, unsigned target_sm,
                      unsigned* claimed, unsigned* latency_out, unsigned* line_out) {
    if (threadIdx.x != 0 || current_sm() != target_sm) return;
    if (atomicCAS(claimed, 0u, 1u) != 0u) return;
    __shared__ unsigned s_latency[kMaxLines];
    __shared__ unsigned s_next[kMaxLines];
    unsigned word = first_word;
    for (unsigned i = 0; i < lines; ++i) {
        const long long start = clock64();
        word = __ldcg(region + word);
        s_next[i] = word;
        const long long end = clock64();
        s_latency[i] = static_cast<unsigned>(end - start);
    }
    unsigned previous = first_word;
    for (unsigned i = 0; i < lines; ++i) {
        latency_out[i] = s_latency[i];
        line_out[i] = previous / kWordsPerLine;  // the line that load i read
        previous = s_next[i];
    }
}

// Writes, through L2, a buffer larger than the L2 so that the regions' lines leave it.
__global__ void scrub(unsigned* buffer, std::size_t words) {
    for (std::size_t i = blockIdx.x * std::size_t(blockDim.x) + threadIdx.x; i < words;
         i += std::size_t(gridDim.x) * blockDim.x)
        buffer[i] = buffer[i] * 3u + 1u;
}

struct Chase {
    std::vector<unsigned> latency;  // cycles, in visiting order
    std::vector<unsigned> line;     // line index within the region, in visiting order
};

class Prober {
public:
    Prober(int sms, unsigned lines, std::size_t regions) : sms_(sms), lines_(lines) {
        const std::size_t region_words = std::size_t(lines) * kWordsPerLine;
        // 2 MiB alignment so that offsets from the start keep the low 21 address bits of the lines.
        const std::size_t bytes = regions * region_words * sizeof(unsigned) + (2u << 20);
        GPUBENCH_CUDA(cudaMalloc(&raw_, bytes));
        base_ = reinterpret_cast<unsigned*>((reinterpret_cast<std::uintptr_t>(raw_) + (2u << 20) - 1) &
                                            ~std::uintptr_t((2u << 20) - 1));
        // Each region: the lines in a random cyclic order, so that no stride prefetch helps.
        std::vector<unsigned> host(region_words, 0);
        std::mt19937 rng(12345);
        std::vector<unsigned> order(lines);
        for (std::size_t r = 0; r < regions; ++r) {
            std::iota(order.begin(), order.end(), 0u);
            std::shuffle(order.begin() + 1, order.end(), rng);  // the chase starts at line 0
            // One chain per 32 B sector, all in the same line order: sector k's chain runs through
            // word 8k of every line.
            for (unsigned k = 0; k < kSectorsPerLine; ++k)
                for (unsigned i = 0; i < lines; ++i)
                    host[std::size_t(order[i]) * kWordsPerLine + k * kWordsPerSector] =
                        order[(i + 1) % lines] * kWordsPerLine + k * kWordsPerSector;
            GPUBENCH_CUDA(cudaMemcpy(region(r), host.data(), region_words * sizeof(unsigned),
                                     cudaMemcpyHostToDevice));
        }
        scrub_words_ = (512u << 20) / sizeof(unsigned);
        GPUBENCH_CUDA(cudaMalloc(&scrub_, scrub_words_ * sizeof(unsigned)));
        GPUBENCH_CUDA(cudaMemset(scrub_, 0, scrub_words_ * sizeof(unsigned)));
        GPUBENCH_CUDA(cudaMalloc(&claimed_, sizeof(unsigned)));
        GPUBENCH_CUDA(cudaMalloc(&latency_, lines * sizeof(unsigned)));
        GPUBENCH_CUDA(cudaMalloc(&line_, lines * sizeof(unsigned)));
    }
    ~Prober() {
        cudaFree(raw_);
        cudaFree(scrub_);
        cudaFree(claimed_);
        cudaFree(latency_);
        cudaFree(line_);
    }

    unsigned* region(std::size_t r) { return base_ + r * std::size_t(lines_) * kWordsPerLine; }
    std::size_t region_offset_bytes(std::size_t r) const {
        return r * std::size_t(lines_) * kLineBytes;
    }

    void scrub_l2() {
        scrub<<<1024, 256>>>(scrub_, scrub_words_);
        gpubench::cuda_check_launch("scrub");
        GPUBENCH_CUDA(cudaDeviceSynchronize());
    }

    Chase run(std::size_t r, unsigned sm, unsigned sector = 0) {
        GPUBENCH_CUDA(cudaMemset(claimed_, 0, sizeof(unsigned)));
        // Many one-warp blocks: the first wave puts several on every SM.
        chase<<<sms_ * 8, 32>>>(region(r), lines_, sector * kWordsPerSector, sm, claimed_, latency_, line_);
        gpubench::cuda_check_launch("chase");
        GPUBENCH_CUDA(cudaDeviceSynchronize());
        unsigned claimed = 0;
        GPUBENCH_CUDA(cudaMemcpy(&claimed, claimed_, sizeof(unsigned), cudaMemcpyDeviceToHost));
        if (claimed != 1) throw std::runtime_error("no block ran on SM " + std::to_string(sm));
        Chase c{std::vector<unsigned>(lines_), std::vector<unsigned>(lines_)};
        GPUBENCH_CUDA(cudaMemcpy(c.latency.data(), latency_, lines_ * sizeof(unsigned), cudaMemcpyDeviceToHost));
        GPUBENCH_CUDA(cudaMemcpy(c.line.data(), line_, lines_ * sizeof(unsigned), cudaMemcpyDeviceToHost));
        return c;
    }

private:
    int sms_;
    unsigned lines_;
    unsigned* raw_ = nullptr;
    unsigned* base_ = nullptr;
    unsigned* scrub_ = nullptr;
    std::size_t scrub_words_ = 0;
    unsigned* claimed_ = nullptr;
    unsigned* latency_ = nullptr;
    unsigned* line_ = nullptr;
};

unsigned quantile(std::vector<unsigned> v, double q) {
    std::sort(v.begin(), v.end());
    return v[std::min(v.size() - 1, static_cast<std::size_t>(q * (v.size() - 1) + 0.5))];
}

double fraction_above(const std::vector<unsigned>& v, unsigned threshold) {
    return double(std::count_if(v.begin(), v.end(), [&](unsigned x) { return x > threshold; })) / v.size();
}

// Latencies per line index (the chase visits lines in a random order).
std::vector<unsigned> by_line(const Chase& c) {
    std::vector<unsigned> out(c.latency.size());
    for (std::size_t i = 0; i < c.latency.size(); ++i) out[c.line[i]] = c.latency[i];
    return out;
}

// Between a far hit and a DRAM read: the midpoint of the near-to-DRAM gap's upper half.
unsigned far_threshold_high(unsigned near_median, unsigned dram_median) {
    return near_median + (dram_median - near_median) * 3 / 5;
}

int run(int argc, char** argv) {
    if (argc < 2) {
        std::fprintf(stderr, "usage: l2probe OUTDIR [--lines N] [--device D]\n");
        return 2;
    }
    const std::string outdir = argv[1];
    unsigned lines = 2048;
    int device = 0;
    for (int i = 2; i + 1 < argc; i += 2) {
        const std::string arg = argv[i];
        if (arg == "--lines") lines = static_cast<unsigned>(std::strtoul(argv[i + 1], nullptr, 10));
        else if (arg == "--device") device = std::atoi(argv[i + 1]);
        else { std::fprintf(stderr, "l2probe: unknown option %s\n", arg.c_str()); return 2; }
    }
    if (lines < 64 || lines > kMaxLines) {
        std::fprintf(stderr, "l2probe: --lines must be 64..%u\n", kMaxLines);
        return 2;
    }
    GPUBENCH_CUDA(cudaSetDevice(device));
    cudaDeviceProp prop{};
    GPUBENCH_CUDA(cudaGetDeviceProperties(&prop, device));
    const int sms = prop.multiProcessorCount;
    std::printf("l2probe: %s, %d SMs, L2 %d bytes, %u lines of %u B per region\n", prop.name, sms,
                prop.l2CacheSize, lines, kLineBytes);

    // Region 0: reference chases on SM 0 (DRAM, then near hits); regions 1..sms-1: one per SM.
    Prober prober(sms, lines, sms + 1);
    prober.scrub_l2();
    const Chase dram = prober.run(0, 0);
    const Chase near = prober.run(0, 0);
    const unsigned dram_median = quantile(dram.latency, 0.5);
    const unsigned near_median = quantile(near.latency, 0.5);
    // Far hits lie between a near hit and a DRAM read; split at the midpoint of the two medians
    // would misjudge if far were close to DRAM, so use near median plus a quarter of the gap.
    const unsigned threshold = near_median + (dram_median - near_median) / 4;
    std::printf("SM 0: DRAM read median %u cycles (p10 %u, p90 %u); L2 near hit median %u (p10 %u, p90 %u); "
                "far threshold %u\n",
                dram_median, quantile(dram.latency, 0.1), quantile(dram.latency, 0.9), near_median,
                quantile(near.latency, 0.1), quantile(near.latency, 0.9), threshold);

    std::ofstream sm_csv(outdir + "/l2probe_sm.csv");
    std::ofstream line_csv(outdir + "/l2probe_lines.csv");
    if (!sm_csv || !line_csv) {
        std::fprintf(stderr, "l2probe: cannot write into %s\n", outdir.c_str());
        return 2;
    }
    sm_csv << "sm,first_median,second_p10,second_median,second_p90,second_far_fraction,third_median,"
              "third_far_fraction\n";
    line_csv << "sm,offset_bytes,first_cycles,second_cycles,third_cycles\n";
    std::vector<double> far_fraction(sms, 0.0);
    for (int sm = 1; sm < sms; ++sm) {
        prober.scrub_l2();
        const Chase first = prober.run(sm, 0);  // SM 0 brings the region in from DRAM
        const Chase second = prober.run(sm, sm);
        const Chase third = prober.run(sm, sm);
        far_fraction[sm] = fraction_above(second.latency, threshold);
        sm_csv << sm << ',' << quantile(first.latency, 0.5) << ',' << quantile(second.latency, 0.1) << ','
               << quantile(second.latency, 0.5) << ',' << quantile(second.latency, 0.9) << ','
               << far_fraction[sm] << ',' << quantile(third.latency, 0.5) << ','
               << fraction_above(third.latency, threshold) << '\n';
        const std::vector<unsigned> a = by_line(first), b = by_line(second), c = by_line(third);
        for (unsigned l = 0; l < lines; ++l)
            line_csv << sm << ',' << prober.region_offset_bytes(sm) + std::size_t(l) * kLineBytes << ','
                     << a[l] << ',' << b[l] << ',' << c[l] << '\n';
    }
    // SMs that see (almost) no far lines share SM 0's partition.
    std::printf("far fraction of the second chase, per SM (SM 0 is the reference):\n");
    std::vector<int> same, other;
    for (int sm = 0; sm < sms; ++sm) {
        std::printf("%s%d:%.2f", sm % 12 ? " " : "\n  ", sm, far_fraction[sm]);
        (far_fraction[sm] < 0.1 ? same : other).push_back(sm);
    }
    std::printf("\nSMs with SM 0 (far fraction < 0.1): %zu:", same.size());
    for (int sm : same) std::printf(" %d", sm);
    std::printf("\nother SMs: %zu:", other.size());
    for (int sm : other) std::printf(" %d", sm);
    std::printf("\n");

    // Fill granule: SM 0 reads sector 0 of every line of a fresh region (DRAM), then sectors 1,
    // 2 and 3. A sector that comes back at near-hit latency came with sector 0's fill. An SM of
    // the other partition then reads sector 0: the lines it finds far are homed in SM 0's
    // partition (SM 0's own misses), the others in its own (SM 0's reads crossed over).
    if (!other.empty()) {
        const std::size_t r = sms;
        prober.scrub_l2();
        std::vector<std::vector<unsigned>> sector(kSectorsPerLine);
        for (unsigned k = 0; k < kSectorsPerLine; ++k) sector[k] = by_line(prober.run(r, 0, k));
        const std::vector<unsigned> probe = by_line(prober.run(r, other.front(), 0));
        std::ofstream granule_csv(outdir + "/l2probe_granule.csv");
        granule_csv << "offset_bytes,home_is_sm0_partition,sector0_cycles,sector1_cycles,sector2_cycles,"
                       "sector3_cycles\n";
        // per home (SM 0's partition or not) and sector 1..3: how many came back near / far / DRAM
        long counts[2][kSectorsPerLine][3] = {};
        long homes[2] = {};
        const unsigned far_dram_split = far_threshold_high(near_median, dram_median);
        for (unsigned l = 0; l < lines; ++l) {
            const int at_home = probe[l] > threshold ? 1 : 0;
            ++homes[at_home];
            granule_csv << prober.region_offset_bytes(r) + std::size_t(l) * kLineBytes << ',' << at_home;
            for (unsigned k = 0; k < kSectorsPerLine; ++k) {
                granule_csv << ',' << sector[k][l];
                const int cls = sector[k][l] <= threshold ? 0 : sector[k][l] <= far_dram_split ? 1 : 2;
                ++counts[at_home][k][cls];
            }
            granule_csv << '\n';
        }
        std::printf("fill granule (SM 0 reads sector 0 of %u fresh lines, then sectors 1-3; near <= %u < far <= %u "
                    "< DRAM cycles):\n", lines, threshold, far_dram_split);
        for (int h = 1; h >= 0; --h) {
            std::printf("  lines homed in %s partition (%ld):\n", h ? "SM 0's" : "the other", homes[h]);
            for (unsigned k = 0; k < kSectorsPerLine; ++k)
                std::printf("    sector %u: near %ld, far %ld, DRAM %ld\n", k, counts[h][k][0], counts[h][k][1],
                            counts[h][k][2]);
        }
    }
    return 0;
}

}  // namespace

int main(int argc, char** argv) {
    try {
        return run(argc, argv);
    } catch (const std::exception& e) {
        std::fprintf(stderr, "l2probe: %s\n", e.what());
        return 5;
    }
}
