// Core simulator speed: 10-million-access u64 traces through L1 32 KiB 8-way 64 B LRU +
// L2 1 MiB 16-way 64 B LRU, fully associative caches, and the 4096 x 4096 9x9 stencil in the
// thread model. Simulation loop
// only: traces are generated in memory first, as the peers' figures are for their loops alone.
#include <benchmark/benchmark.h>

#include "sim/rng.hpp"
#include "sim/thread_model.hpp"
#include "tests/textbook_cache.hpp"
#include "traces/workload_source.hpp"

namespace cachesim {
namespace {

// An in-memory trace of 8-byte loads, replayed in batches like a file would be.
class VectorSource final : public AccessSource {
public:
    explicit VectorSource(std::vector<std::uint64_t> addresses) : addresses_(std::move(addresses)) {}
    std::vector<ArrayInfo> arrays() const override { return {{"trace", 0, 1, 0, 1}}; }
    bool next(AccessBatch& batch, std::size_t max) override {
        const std::size_t n = std::min(max, addresses_.size() - position_);
        batch.accesses.resize(n);
        batch.first_step = position_;
        batch.accesses_per_step = 1;
        for (std::size_t i = 0; i < n; ++i) batch.accesses[i] = Access{addresses_[position_ + i], 8, 0, false};
        position_ += n;
        return n > 0;
    }
    void rewind() override { position_ = 0; }
    std::uint64_t size_hint() const override { return addresses_.size(); }

private:
    std::vector<std::uint64_t> addresses_;
    std::size_t position_ = 0;
};

constexpr std::size_t kTraceLength = 10'000'000;

std::vector<std::uint64_t> make_trace(int kind) {
    Rng rng(2024);
    std::vector<std::uint64_t> a(kTraceLength);
    for (std::size_t i = 0; i < a.size(); ++i) {
        const bool sequential = kind == 0 || (kind == 2 && (rng.next() & 1));
        a[i] = sequential ? i * 8 : (rng.next() % (8u << 20)) & ~7ull;
    }
    return a;
}

HierarchyConfig reference_hierarchy(PolicyKind policy) {
    HierarchyConfig h;
    h.l1 = {"L1", 32 * 1024, 64, 0, 8, policy, WritePolicy::write_back_allocate};
    h.l2 = {"L2", 1024 * 1024, 64, 0, 16, policy, WritePolicy::write_back_allocate};
    h.analysis = false;
    return h;
}

void run(benchmark::State& state, AccessSource& source, const HierarchyConfig& h) {
    std::uint64_t accesses = 0;
    for (auto _ : state) {
        const SimulationResult r = simulate_thread_model(source, h);
        accesses += r.accesses;
        benchmark::DoNotOptimize(r.levels.data());
        state.counters["l1_miss_rate"] = 1.0 - r.levels[0].hit_rate();
    }
    // Per CPU second of this thread (kIsRate uses CPU time): other processes on the machine
    // do not distort it.
    state.counters["accesses/s"] = benchmark::Counter(static_cast<double>(accesses), benchmark::Counter::kIsRate);
}

void BM_U64Trace(benchmark::State& state) {
    static const char* names[] = {"sequential", "random", "mix"};
    const int kind = static_cast<int>(state.range(0));
    const auto policy = static_cast<PolicyKind>(state.range(1));
    state.SetLabel(std::string(names[kind]) + " " + std::string(policy_name(policy)));
    VectorSource source(make_trace(kind));
    run(state, source, reference_hierarchy(policy));
}
BENCHMARK(BM_U64Trace)
    ->ArgsProduct({{0, 1, 2}, {static_cast<long>(PolicyKind::lru)}})
    ->Unit(benchmark::kMillisecond)->Iterations(3);
BENCHMARK(BM_U64Trace)
    ->ArgsProduct({{2}, {static_cast<long>(PolicyKind::fifo), static_cast<long>(PolicyKind::plru),
                         static_cast<long>(PolicyKind::random), static_cast<long>(PolicyKind::random4)}})
    ->Unit(benchmark::kMillisecond)->Iterations(1);

// In-run baseline: the same traces through the textbook list-based model (the classic design of
// Dinero IV and pycachesim), which gives identical miss counts.
void BM_TextbookBaseline(benchmark::State& state) {
    static const char* names[] = {"sequential", "random", "mix"};
    const int kind = static_cast<int>(state.range(0));
    state.SetLabel(std::string(names[kind]) + " lru (textbook lists)");
    const auto trace = make_trace(kind);
    std::uint64_t accesses = 0;
    for (auto _ : state) {
        test::TextbookCache l2(1024 * 1024, 64, 16, nullptr);
        test::TextbookCache l1(32 * 1024, 64, 8, &l2);
        for (std::uint64_t a : trace) l1.access(a, false);
        accesses += trace.size();
        state.counters["l1_miss_rate"] = static_cast<double>(l1.misses) / static_cast<double>(trace.size());
    }
    state.counters["accesses/s"] = benchmark::Counter(static_cast<double>(accesses), benchmark::Counter::kIsRate);
}
BENCHMARK(BM_TextbookBaseline)->DenseRange(0, 2)->Unit(benchmark::kMillisecond)->Iterations(1);

// Fully associative caches, the default associativity at any size: one L1 of 512 or 4096 lines of
// 64 B (32 or 256 KiB), on the first million accesses of the mix trace, per policy, beside the
// textbook list-based model on the same accesses (whose lookups walk the whole list on a miss).
constexpr std::size_t kFullyAssociativeAccesses = 1'000'000;
constexpr std::uint64_t kFullyAssociativeLines[] = {512, 4096};

void BM_FullyAssociative(benchmark::State& state) {
    const std::uint64_t lines = kFullyAssociativeLines[state.range(0)];
    const auto policy = static_cast<PolicyKind>(state.range(1));
    state.SetLabel(std::to_string(lines) + " lines " + std::string(policy_name(policy)));
    std::vector<std::uint64_t> trace = make_trace(2);
    trace.resize(kFullyAssociativeAccesses);
    VectorSource source(std::move(trace));
    HierarchyConfig h;
    h.l1 = {"L1", lines * 64, 64, 0, 0, policy, WritePolicy::write_back_allocate};
    h.l2 = {"L2", 0, 64, 0, 0, PolicyKind::lru, WritePolicy::write_back_allocate};
    h.analysis = false;
    run(state, source, h);
}
BENCHMARK(BM_FullyAssociative)
    ->ArgsProduct({{0, 1},
                   {static_cast<long>(PolicyKind::lru), static_cast<long>(PolicyKind::fifo),
                    static_cast<long>(PolicyKind::plru), static_cast<long>(PolicyKind::random)}})
    ->Unit(benchmark::kMillisecond)->Iterations(3);

void BM_TextbookFullyAssociative(benchmark::State& state) {
    const std::uint64_t lines = kFullyAssociativeLines[state.range(0)];
    state.SetLabel(std::to_string(lines) + " lines lru (textbook lists)");
    std::vector<std::uint64_t> trace = make_trace(2);
    trace.resize(kFullyAssociativeAccesses);
    std::uint64_t accesses = 0;
    for (auto _ : state) {
        test::TextbookCache l1(lines * 64, 64, lines, nullptr);
        for (std::uint64_t a : trace) l1.access(a, false);
        accesses += trace.size();
        state.counters["l1_miss_rate"] = static_cast<double>(l1.misses) / static_cast<double>(trace.size());
    }
    state.counters["accesses/s"] = benchmark::Counter(static_cast<double>(accesses), benchmark::Counter::kIsRate);
}
BENCHMARK(BM_TextbookFullyAssociative)->DenseRange(0, 1)->Unit(benchmark::kMillisecond)->Iterations(1);

// 1.36 billion thread-level accesses; a realistic L1 (128 KiB, 4-way... 128 B lines) + L2.
void BM_Stencil4096(benchmark::State& state) {
    WorkloadSpec w;
    w.width = 4096;
    w.height = 4096;
    w.stencil_w = 9;
    w.stencil_h = 9;
    w.schedule = parse_schedule(state.range(0) ? "column:64" : "linear");
    state.SetLabel(schedule_name(w.schedule) + (state.range(1) ? " with analysis" : ""));
    WorkloadSource source(w);
    HierarchyConfig h;
    h.l1 = {"L1", 128 * 1024, 128, 0, 4, PolicyKind::lru, WritePolicy::write_through_no_allocate};
    h.l2 = {"L2", 4 * 1024 * 1024, 128, 0, 16, PolicyKind::lru, WritePolicy::write_back_allocate};
    h.analysis = state.range(1) != 0;
    run(state, source, h);
}
BENCHMARK(BM_Stencil4096)->Args({0, 0})->Args({1, 0})->Unit(benchmark::kSecond)->Iterations(1);

}  // namespace
}  // namespace cachesim

BENCHMARK_MAIN();
