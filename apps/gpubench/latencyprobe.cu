// latencyprobe: the load-to-use latency of one global load that hits in L1, hits in L2, or goes to
// DRAM, by pointer chasing in a single thread (each load's address is the previous load's data,
// so the loads cannot overlap).
//
// A region of `lines` 128 B lines holds a random cyclic chain (the first word of each line names
// the next line), so that no stride prefetch helps. Two launches of one thread each chase the
// region twice in a row (one launch: one SM, so the second pass finds what the first left in
// that SM's L1):
//   after a scrub (a 512 MiB write through L2 evicts the region), ld.global.cg (L2 only):
//     dram: the first pass misses L2;   l2: the second pass hits it
//   then ld.global.ca (L1 and L2):
//     l1fill: the first pass misses L1 (hits L2) and fills it;   l1: the second hits L1
// Every load is timed with clock64() around the load and a dependent shared-memory store (the
// same method as l2probe, so the figures compare with its near and far L2 latencies); `clock`
// times that store alone, the method's own cost, which the summary subtracts.
//
// With --loaded K, a last launch chases the region twice after a scrub (dram_loaded, then
// l2_loaded) while a kernel on another stream keeps every SM reading a buffer (ld.global.cg of
// 16 B, 512 threads a block, one block an SM, K loads in flight a thread: 1, 2, 4 or 8), from a
// millisecond after that kernel starts. The buffer is 2 GiB, read from DRAM (the latency of a miss
// while the chip's DRAM is busy, as when every SM of a launch's first wave reads from DRAM at
// once), or with --stream-mib M a buffer of M MiB that the L2 holds (the latency of an L2 hit
// while every SM reads from the L2). Both kernels note when they start and end (%globaltimer),
// printed with the stream's bandwidth, so the overlap can be checked.
//
// Writes OUTDIR/latencyprobe.csv (one row per case and load: case, index, cycles) and a summary on
// stdout (per case: median, 10th and 90th percentile, and the median less the method's cost).
// Usage: latencyprobe OUTDIR [--lines N] [--device D] [--loaded K [--stream-mib M]]
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
constexpr unsigned kPasses = 2;
constexpr unsigned kMaxLines = 2048;  // per pass: the shared arrays hold kPasses times as many

enum class Load { global_cg, global_ca, none };

__device__ unsigned long long global_ns() {
    unsigned long long t;
    asm volatile("mov.u64 %0, %%globaltimer;" : "=l"(t));
    return t;
}

// The chase's and the stream's start and end (ns of %globaltimer), for --loaded.
struct Span {
    unsigned long long start, end;
};

// A stream's first millisecond is its ramp: a chase beside it starts a millisecond after it.
constexpr unsigned long long kRampNs = 1000000;

// One thread follows the chain around the region kPasses times, timing each load; with `after`,
// from kRampNs after that kernel noted its start.
template <Load kind>
__global__ void chase(const unsigned* region, unsigned lines, unsigned* latency_out, unsigned* sink,
                      Span* span, const Span* after) {
    if (blockIdx.x != 0 || threadIdx.x != 0) return;
    if (after) {
        const volatile unsigned long long* started = &after->start;
        while (*started == 0) {
        }
        while (global_ns() < *started + kRampNs) {
        }
    }
    if (span) span->start = global_ns();
    __shared__ unsigned s_latency[kPasses * kMaxLines];
    __shared__ unsigned s_next[kPasses * kMaxLines];
    unsigned word = 0;
    for (unsigned i = 0; i < kPasses * lines; ++i) {
        const long long start = clock64();
        if constexpr (kind == Load::global_cg) word = __ldcg(region + word);
        else if constexpr (kind == Load::global_ca) word = __ldca(region + word);
        else word += kWordsPerLine;  // no load (one dependent add): the method's cost
        s_next[i] = word;
        const long long end = clock64();
        s_latency[i] = static_cast<unsigned>(end - start);
    }
    if (span) span->end = global_ns();
    for (unsigned i = 0; i < kPasses * lines; ++i) latency_out[i] = s_latency[i];
    *sink = s_next[kPasses * lines - 1];
}

// Every thread reads its share of `words` `passes` times over (L2 only, so each pass comes from
// DRAM when the buffer is larger than the L2); the sum keeps the loads. A block takes at most half
// an SM's registers and threads, so that the chase's block finds room beside it.
template <int kInFlight>
__global__ void __launch_bounds__(512, 2) stream(const uint4* buffer, std::size_t words, unsigned passes, unsigned* sink, Span* span) {
    if (blockIdx.x == 0 && threadIdx.x == 0) span->start = global_ns();
    // kInFlight loads issued before any is used (a tail short of kInFlight strides is left out).
    unsigned sum = 0;
    const std::size_t stride = std::size_t(gridDim.x) * blockDim.x;
    for (unsigned p = 0; p < passes; ++p)
        for (std::size_t i = blockIdx.x * std::size_t(blockDim.x) + threadIdx.x; i + (kInFlight - 1) * stride < words;
             i += kInFlight * stride) {
            uint4 v[kInFlight];
#pragma unroll
            for (int j = 0; j < kInFlight; ++j) v[j] = __ldcg(buffer + i + j * stride);
#pragma unroll
            for (int j = 0; j < kInFlight; ++j) sum += v[j].x ^ v[j].y ^ v[j].z ^ v[j].w;
        }
    if (sum == 0x9e3779b9u) *sink = sum;
    if (blockIdx.x == 0 && threadIdx.x == 0) span->end = global_ns();
}

__global__ void scrub(unsigned* buffer, std::size_t words) {
    for (std::size_t i = blockIdx.x * std::size_t(blockDim.x) + threadIdx.x; i < words;
         i += std::size_t(gridDim.x) * blockDim.x)
        buffer[i] = buffer[i] * 3u + 1u;
}

struct Options {
    std::string out_dir;
    unsigned lines = 64;
    int device = 0;
    unsigned loaded = 0;  // loads in flight a thread of the stream (0: no loaded case)
    unsigned stream_mib = 2048;  // the stream's buffer
    bool stream_mib_given = false;
};

Options parse(int argc, char** argv) {
    if (argc < 2)
        throw std::invalid_argument("usage: latencyprobe OUTDIR [--lines N] [--device D] [--loaded K [--stream-mib M]]");
    Options o;
    o.out_dir = argv[1];
    for (int i = 2; i < argc; ++i) {
        const std::string a = argv[i];
        if (i + 1 >= argc) throw std::invalid_argument(a + ": needs a value");
        const long v = std::strtol(argv[++i], nullptr, 10);
        if (a == "--lines") {
            if (v < 2 || v > long(kMaxLines)) throw std::invalid_argument("--lines: 2.." + std::to_string(kMaxLines));
            o.lines = static_cast<unsigned>(v);
        } else if (a == "--device") {
            o.device = static_cast<int>(v);
        } else if (a == "--stream-mib") {
            if (v < 1 || v > 8192) throw std::invalid_argument("--stream-mib: 1..8192");
            o.stream_mib = static_cast<unsigned>(v);
            o.stream_mib_given = true;
        } else if (a == "--loaded") {
            if (v != 1 && v != 2 && v != 4 && v != 8) throw std::invalid_argument("--loaded: 1, 2, 4 or 8");
            o.loaded = static_cast<unsigned>(v);
        } else {
            throw std::invalid_argument("unknown option " + a);
        }
    }
    if (o.stream_mib_given && !o.loaded) throw std::invalid_argument("--stream-mib: needs --loaded K");
    return o;
}

unsigned quantile(std::vector<unsigned> v, double q) {
    std::sort(v.begin(), v.end());
    return v[std::min(v.size() - 1, static_cast<std::size_t>(q * (v.size() - 1) + 0.5))];
}

}  // namespace

int main(int argc, char** argv) try {
    const Options o = parse(argc, argv);
    GPUBENCH_CUDA(cudaSetDevice(o.device));
    cudaDeviceProp prop{};
    GPUBENCH_CUDA(cudaGetDeviceProperties(&prop, o.device));
    std::printf("latencyprobe on %s (%d SMs, L2 %d KiB), %u lines of %u B\n", prop.name,
                prop.multiProcessorCount, prop.l2CacheSize / 1024, o.lines, kLineBytes);

    const std::size_t words = std::size_t(o.lines) * kWordsPerLine;
    std::vector<unsigned> host(words, 0), order(o.lines);
    std::iota(order.begin(), order.end(), 0u);
    std::mt19937 rng(12345);
    std::shuffle(order.begin() + 1, order.end(), rng);  // the chase starts at line 0
    for (unsigned i = 0; i < o.lines; ++i) host[std::size_t(order[i]) * kWordsPerLine] = order[(i + 1) % o.lines] * kWordsPerLine;
    unsigned *region = nullptr, *latency = nullptr, *sink = nullptr, *scrub_buffer = nullptr;
    const std::size_t scrub_words = (512u << 20) / sizeof(unsigned);
    GPUBENCH_CUDA(cudaMalloc(&region, words * sizeof(unsigned)));
    GPUBENCH_CUDA(cudaMalloc(&latency, kPasses * o.lines * sizeof(unsigned)));
    GPUBENCH_CUDA(cudaMalloc(&sink, sizeof(unsigned)));
    GPUBENCH_CUDA(cudaMalloc(&scrub_buffer, scrub_words * sizeof(unsigned)));
    GPUBENCH_CUDA(cudaMemset(scrub_buffer, 0, scrub_words * sizeof(unsigned)));
    GPUBENCH_CUDA(cudaMemcpy(region, host.data(), words * sizeof(unsigned), cudaMemcpyHostToDevice));

    struct Case {
        const char* name;
        std::vector<unsigned> cycles;
    };
    std::vector<Case> cases;
    // A finished chase's two passes: the cases named for the first and for the second pass.
    auto collect = [&](const char* first, const char* second) {
        std::vector<unsigned> out(kPasses * o.lines);
        GPUBENCH_CUDA(cudaMemcpy(out.data(), latency, out.size() * sizeof(unsigned), cudaMemcpyDeviceToHost));
        cases.push_back({first, std::vector<unsigned>(out.begin(), out.begin() + o.lines)});
        if (second) cases.push_back({second, std::vector<unsigned>(out.begin() + o.lines, out.end())});
    };
    // One launch, two passes.
    auto run = [&](auto kernel, const char* first, const char* second) {
        kernel<<<1, 32>>>(region, o.lines, latency, sink, nullptr, nullptr);
        gpubench::cuda_check_launch("chase");
        GPUBENCH_CUDA(cudaDeviceSynchronize());
        collect(first, second);
    };
    run(chase<Load::none>, "clock", nullptr);
    scrub<<<1024, 256>>>(scrub_buffer, scrub_words);
    gpubench::cuda_check_launch("scrub");
    GPUBENCH_CUDA(cudaDeviceSynchronize());
    run(chase<Load::global_cg>, "dram", "l2");
    run(chase<Load::global_ca>, "l1fill", "l1");
    if (o.loaded) {
        // The stream first, on a stream of its own, then the chase beside it on another.
        // As many passes as read 16 GiB in all: a few milliseconds at either cache's bandwidth.
        const std::size_t stream_words = (std::size_t(o.stream_mib) << 20) / sizeof(uint4);
        const unsigned passes = std::max(8u, 16384u / o.stream_mib);
        uint4* stream_buffer = nullptr;
        Span* spans = nullptr;
        GPUBENCH_CUDA(cudaMalloc(&stream_buffer, stream_words * sizeof(uint4)));
        GPUBENCH_CUDA(cudaMemset(stream_buffer, 1, stream_words * sizeof(uint4)));
        GPUBENCH_CUDA(cudaMalloc(&spans, 2 * sizeof(Span)));
        GPUBENCH_CUDA(cudaMemset(spans, 0, 2 * sizeof(Span)));
        // One carve-out for both (the largest shared part): an SM runs blocks of kernels that ask
        // for different carve-outs only one after the other, and the chase keeps 32 KiB shared.
        void (*streamer)(const uint4*, std::size_t, unsigned, unsigned*, Span*) =
            o.loaded == 1 ? stream<1> : o.loaded == 2 ? stream<2> : o.loaded == 4 ? stream<4> : stream<8>;
        GPUBENCH_CUDA(cudaFuncSetAttribute(streamer, cudaFuncAttributePreferredSharedMemoryCarveout,
                                           cudaSharedmemCarveoutMaxShared));
        GPUBENCH_CUDA(cudaFuncSetAttribute(chase<Load::global_cg>, cudaFuncAttributePreferredSharedMemoryCarveout,
                                           cudaSharedmemCarveoutMaxShared));
        cudaStream_t busy, probe;
        GPUBENCH_CUDA(cudaStreamCreateWithFlags(&busy, cudaStreamNonBlocking));
        GPUBENCH_CUDA(cudaStreamCreateWithFlags(&probe, cudaStreamNonBlocking));
        scrub<<<1024, 256>>>(scrub_buffer, scrub_words);
        gpubench::cuda_check_launch("scrub");
        GPUBENCH_CUDA(cudaDeviceSynchronize());
        streamer<<<prop.multiProcessorCount, 512, 0, busy>>>(stream_buffer, stream_words, passes, sink, spans);
        gpubench::cuda_check_launch("stream");
        chase<Load::global_cg><<<1, 32, 0, probe>>>(region, o.lines, latency, sink, spans + 1, spans);
        gpubench::cuda_check_launch("chase");
        GPUBENCH_CUDA(cudaDeviceSynchronize());
        collect("dram_loaded", "l2_loaded");
        Span host_spans[2];
        GPUBENCH_CUDA(cudaMemcpy(host_spans, spans, sizeof host_spans, cudaMemcpyDeviceToHost));
        const double stream_ms = (host_spans[0].end - host_spans[0].start) / 1e6;
        std::printf("stream of %u MiB, %u loads in flight a thread: %.3f ms, %.0f GB/s (block 0's span); chase from %+.3f to %+.3f ms of the stream's start\n",
                    o.stream_mib, o.loaded, stream_ms, passes * double(stream_words * sizeof(uint4)) / (stream_ms * 1e6),
                    (double(host_spans[1].start) - double(host_spans[0].start)) / 1e6,
                    (double(host_spans[1].end) - double(host_spans[0].start)) / 1e6);
        cudaFree(stream_buffer);
        cudaFree(spans);
        cudaStreamDestroy(busy);
        cudaStreamDestroy(probe);
    }

    const std::string path = o.out_dir + "/latencyprobe.csv";
    std::ofstream csv(path);
    if (!csv) throw std::runtime_error("cannot write " + path);
    csv << "case,index,cycles\n";
    for (const Case& c : cases)
        for (std::size_t i = 0; i < c.cycles.size(); ++i) csv << c.name << ',' << i << ',' << c.cycles[i] << '\n';
    if (!csv.flush()) throw std::runtime_error("cannot write " + path);

    // The first load of each chase also pays for the instruction cache and the TLB: left out.
    const unsigned cost = quantile(std::vector<unsigned>(cases[0].cycles.begin() + 1, cases[0].cycles.end()), 0.5);
    std::printf("%-7s %8s %8s %8s %14s\n", "case", "median", "p10", "p90", "median - clock");
    for (const Case& c : cases) {
        const std::vector<unsigned> v(c.cycles.begin() + 1, c.cycles.end());
        const unsigned median = quantile(v, 0.5);
        std::printf("%-7s %8u %8u %8u %14d\n", c.name, median, quantile(v, 0.1), quantile(v, 0.9),
                    int(median) - int(cost));
    }
    cudaFree(region);
    cudaFree(latency);
    cudaFree(sink);
    cudaFree(scrub_buffer);
    return 0;
} catch (const std::exception& e) {
    std::fprintf(stderr, "latencyprobe: %s\n", e.what());
    return 2;
}
