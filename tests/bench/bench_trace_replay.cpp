// Replay from a cst trace file vs the built-in generator for the same workload (target:
// file replay at most 1.5x slower). Source only (accesses delivered per second) and end to end
// (thread-model simulation with a realistic L1 + L2). The trace files are written once, in /tmp.
#include <benchmark/benchmark.h>

#include <filesystem>
#include <unistd.h>

#include "sim/thread_model.hpp"
#include "traces/trace_format_reader.hpp"
#include "traces/trace_format_writer.hpp"
#include "traces/workload_source.hpp"

namespace cachesim {
namespace {

WorkloadSpec workload(int which) {
    WorkloadSpec w;
    if (which == 0) {  // the thesis's 9x9 stencil, 1024 x 1024 (86 million accesses), column:32
        w.width = w.height = 1024;
        w.stencil_w = w.stencil_h = 9;
        w.schedule = parse_schedule("column:32");
    } else {  // naive matmul 256 x 256, depth 256 (33.6 million accesses), linear
        w.kind = WorkloadKind::matmul;
        w.width = w.height = w.depth = 256;
    }
    return w;
}

const std::string& trace_file(int which) {
    static std::string paths[2];
    if (paths[which].empty()) {
        paths[which] = (std::filesystem::temp_directory_path() /
                        ("cachesim-bench-" + std::to_string(::getpid()) + "-" + std::to_string(which) + ".cst"))
                           .string();
        const WorkloadSpec w = workload(which);
        WorkloadSource source(w);
        cst::TraceHeader header;
        header.arrays = w.arrays();
        header.workload = w;
        cst::write_trace(source, paths[which], header);
    }
    return paths[which];
}

HierarchyConfig realistic() {
    HierarchyConfig h;
    h.l1 = {"L1", 128 * 1024, 128, 32, 4, PolicyKind::lru, WritePolicy::write_through_no_allocate};
    h.l2 = {"L2", 4 * 1024 * 1024, 128, 32, 16, PolicyKind::lru, WritePolicy::write_back_allocate};
    h.analysis = false;
    return h;
}

std::uint64_t drain(AccessSource& source) {
    AccessBatch batch;
    std::uint64_t sum = 0, n = 0;
    source.rewind();
    while (source.next(batch, 1 << 14)) {
        for (const Access& a : batch.accesses) sum += a.address;
        n += batch.accesses.size();
    }
    benchmark::DoNotOptimize(sum);
    return n;
}

void BM_SourceGenerator(benchmark::State& state) {
    WorkloadSource source(workload(static_cast<int>(state.range(0))));
    std::uint64_t accesses = 0;
    for (auto _ : state) accesses += drain(source);
    state.counters["accesses/s"] = benchmark::Counter(static_cast<double>(accesses), benchmark::Counter::kIsRate);
}

void BM_SourceFile(benchmark::State& state) {
    cst::TraceFileSource source(trace_file(static_cast<int>(state.range(0))));
    std::uint64_t accesses = 0;
    for (auto _ : state) accesses += drain(source);
    state.counters["accesses/s"] = benchmark::Counter(static_cast<double>(accesses), benchmark::Counter::kIsRate);
    state.counters["file_bytes/access"] =
        static_cast<double>(std::filesystem::file_size(trace_file(static_cast<int>(state.range(0))))) /
        static_cast<double>(source.size_hint());
}

void BM_SimulateGenerator(benchmark::State& state) {
    WorkloadSource source(workload(static_cast<int>(state.range(0))));
    std::uint64_t accesses = 0;
    for (auto _ : state) accesses += simulate_thread_model(source, realistic()).accesses;
    state.counters["accesses/s"] = benchmark::Counter(static_cast<double>(accesses), benchmark::Counter::kIsRate);
}

void BM_SimulateFile(benchmark::State& state) {
    cst::TraceFileSource source(trace_file(static_cast<int>(state.range(0))));
    std::uint64_t accesses = 0;
    for (auto _ : state) accesses += simulate_thread_model(source, realistic()).accesses;
    state.counters["accesses/s"] = benchmark::Counter(static_cast<double>(accesses), benchmark::Counter::kIsRate);
}

// Arg 0: stencil 1024^2 9x9 column:32; arg 1: matmul 256^3.
BENCHMARK(BM_SourceGenerator)->Arg(0)->Arg(1)->Unit(benchmark::kMillisecond)->MinTime(2.0);
BENCHMARK(BM_SourceFile)->Arg(0)->Arg(1)->Unit(benchmark::kMillisecond)->MinTime(2.0);
BENCHMARK(BM_SimulateGenerator)->Arg(0)->Arg(1)->Unit(benchmark::kMillisecond)->MinTime(2.0);
BENCHMARK(BM_SimulateFile)->Arg(0)->Arg(1)->Unit(benchmark::kMillisecond)->MinTime(2.0);

}  // namespace
}  // namespace cachesim

int main(int argc, char** argv) {
    benchmark::Initialize(&argc, argv);
    benchmark::RunSpecifiedBenchmarks();
    benchmark::Shutdown();
    for (int i = 0; i < 2; ++i) {
        std::error_code ignored;
        std::filesystem::remove(std::filesystem::temp_directory_path() /
                                    ("cachesim-bench-" + std::to_string(::getpid()) + "-" + std::to_string(i) + ".cst"),
                                ignored);
    }
    return 0;
}
