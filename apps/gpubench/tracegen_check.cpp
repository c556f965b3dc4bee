// Device check of the Thrust trace generation: the CUDA and host backends must give the same
// bytes. Compares record counts and a 64-bit FNV-1a hash of every record, and reports each
// backend's records per second. Exit codes: 0 same, 1 different, 2 bad input, 3 no GPU.
#include <chrono>
#include <cstdio>
#include <exception>
#include <string>
#include <vector>

#include "traces/input_error.hpp"
#include "traces/trace_generation.hpp"
#include "traces/trace_generation_cuda.hpp"

namespace {

using namespace cachesim;

struct Digest {
    std::uint64_t records = 0;
    std::uint64_t hash = 1469598103934665603ull;  // FNV-1a offset basis
    double seconds = 0;
};

TraceChunkSink hashing_sink(Digest& d) {
    return [&d](const TraceChunk& chunk) {
        const auto* bytes = reinterpret_cast<const unsigned char*>(chunk.records);
        const std::size_t n = chunk.count * sizeof(TraceRecord);
        std::uint64_t h = d.hash;
        for (std::size_t i = 0; i < n; ++i) h = (h ^ bytes[i]) * 1099511628211ull;
        d.hash = h;
        d.records += chunk.count;
    };
}

template <class Generate>
Digest run(Generate generate, const WorkloadSpec& spec) {
    Digest d;
    const auto start = std::chrono::steady_clock::now();
    generate(spec, hashing_sink(d), kDefaultRecordsPerChunk * 16);
    d.seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
    return d;
}

WorkloadSpec spec_of(const char* kind, std::uint32_t w, std::uint32_t h, std::uint32_t box_or_depth,
                     const char* schedule) {
    WorkloadSpec s;
    s.kind = parse_workload_kind(kind);
    s.width = w;
    s.height = h;
    if (s.kind == WorkloadKind::stencil) s.stencil_w = s.stencil_h = box_or_depth;
    else s.depth = box_or_depth;
    s.schedule = parse_schedule(schedule);
    return s;
}

}  // namespace

int main() {
    try {
        if (!cuda_trace_generation_available()) {
            std::fprintf(stderr, "tracegen_check: no usable CUDA device\n");
            return 3;
        }
        const std::vector<WorkloadSpec> specs{
            spec_of("stencil", 1000, 700, 5, "tiled:32x8"),
            spec_of("matmul", 300, 200, 50, "column:33"),
            spec_of("stencil", 2048, 2048, 9, "zigzag:32"),
            spec_of("matmul", 512, 512, 512, "morton"),
        };
        int failures = 0;
        for (const WorkloadSpec& spec : specs) {
            const Digest host = run(generate_trace_host, spec);
            const Digest cuda = run(generate_trace_cuda, spec);
            const bool same = host.records == cuda.records && host.hash == cuda.hash &&
                              host.records == spec.total_accesses();
            failures += same ? 0 : 1;
            std::printf("%-4s %s: %llu records, hash %016llx vs %016llx; host %.1f M records/s, cuda %.1f M records/s\n",
                        same ? "SAME" : "DIFF", spec.describe().c_str(),
                        static_cast<unsigned long long>(host.records), static_cast<unsigned long long>(host.hash),
                        static_cast<unsigned long long>(cuda.hash), host.records / host.seconds / 1e6,
                        cuda.records / cuda.seconds / 1e6);
        }
        return failures ? 1 : 0;
    } catch (const InputError& e) {
        std::fprintf(stderr, "tracegen_check: %s\n", e.what());
        return 2;
    } catch (const std::exception& e) {
        std::fprintf(stderr, "tracegen_check: %s\n", e.what());
        return 1;
    }
}
