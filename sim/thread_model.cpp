#include "sim/thread_model.hpp"

#include <chrono>
#include <optional>

#include "sim/level_sim.hpp"
#include "sim/opt_oracle.hpp"
#include "sim/policy_dispatch.hpp"

namespace cachesim {

namespace {


// What one pass over the source needs beyond the configuration.
struct PassPlan {
    PolicyKind policy[2];
    bool enabled[2];
    const std::vector<std::uint64_t>* next_use[2] = {nullptr, nullptr};
    std::vector<std::uint64_t>* record[2] = {nullptr, nullptr};
    bool analysis = true;
    SimObserver* observer = nullptr;
    std::uint64_t record_limit = 0;
};

// Out of line: the replay loop stays as small as without the check.
[[gnu::noinline]] void check_analysis_memory(std::uint64_t held, std::uint64_t limit, std::uint64_t accesses) {
    if (held <= limit) return;
    throw SimulationError("analysis: after " + std::to_string(accesses) + " accesses its reuse tracking holds " +
                          std::to_string(held >> 20) +
                          " MiB (it grows with the distinct lines), past its share of the memory limit (" +
                          std::to_string(limit >> 20) + " MiB); use --no-analysis, or raise --max-memory");
}

template <class Top>
void replay(AccessSource& source, Top& top, const PassPlan& plan, const RunControl& control,
            SimulationResult& result) {
    AccessBatch batch;
    batch.accesses.reserve(kThreadModelBatchAccesses + 4096);
    source.rewind();
    const std::uint64_t total = source.size_hint();
    SimObserver* observer = plan.observer;
    // No observer and no OPT recorder: the batch goes through in one call.
    const bool plain = !observer && !plan.record[0] && !plan.record[1];
    while (source.next(batch, kThreadModelBatchAccesses)) {
        if (control.cancel && control.cancel->load(std::memory_order_relaxed)) throw Cancelled();
        const std::vector<Access>& accesses = batch.accesses;
        const std::uint32_t per_step = batch.accesses_per_step ? batch.accesses_per_step : 1;
        std::uint64_t writes = 0;
        if (plain) {
            writes = top.access_batch(accesses.data(), accesses.size());
        } else {
            for (std::size_t i = 0; i < accesses.size(); ++i) {
                const Access& a = accesses[i];
                if (a.is_write) {
                    ++writes;
                    top.write(a.address, a.size, a.array);
                } else {
                    top.read(a.address, a.size, a.array);
                }
                if (observer && (i + 1) % per_step == 0) [[unlikely]]
                    observer->on_step_end(batch.first_step + i / per_step);
            }
        }
        result.accesses += accesses.size();
        result.writes += writes;
        result.steps += accesses.size() / per_step;
        for (auto* record : plan.record)
            if (record && record->size() > plan.record_limit)
                throw SimulationError(
                    "opt: the lookup stream exceeds the pre-pass limit of " +
                    std::to_string(plan.record_limit) +
                    " lookups; use a smaller workload or another policy, or raise --max-memory");
        if (control.progress && total) control.progress(static_cast<double>(result.accesses) / total);
        if (plan.analysis && control.analysis_memory_limit) [[unlikely]]
            check_analysis_memory(top.analysis_bytes(), control.analysis_memory_limit, result.accesses);
    }
    top.finish();
    result.reads = result.accesses - result.writes;
}

LevelSetup make_setup(const HierarchyConfig& config, const PassPlan& plan, int level, int index,
                      const std::vector<ArrayInfo>& arrays) {
    const CacheConfig& c = level == 0 ? config.l1 : config.l2;
    LevelSetup s;
    s.geometry = *make_geometry(c).geometry;
    s.write_policy = c.write_policy;
    // Distinct, reproducible streams per level from the one user seed.
    s.seed = config.seed * 0x9e3779b97f4a7c15ull + static_cast<std::uint64_t>(level) + 1;
    s.next_use = plan.next_use[level];
    s.record_lookups = plan.record[level];
    s.analysis = plan.analysis;
    s.reuse_sample = config.reuse_sample;
    s.index = index;
    s.observer = plan.observer;
    s.arrays = arrays;
    return s;
}

SimulationResult run_pass(AccessSource& source, const HierarchyConfig& config, const PassPlan& plan,
                          const RunControl& control) {
    SimulationResult result;
    result.arrays = source.arrays();
    MemorySink memory;
    LevelStats stats[2];
    stats[0].name = config.l1.name;
    stats[1].name = config.l2.name;
    const auto t0 = std::chrono::steady_clock::now();
    if (plan.enabled[0] && plan.enabled[1]) {
        with_policy(plan.policy[1], [&]<class P2>() {
            using L2 = LevelSim<P2, MemorySink>;
            LevelSetup setup[2] = {make_setup(config, plan, 0, 0, result.arrays),
                                   make_setup(config, plan, 1, 1, result.arrays)};
            // The L2 looks up the L1's misses: with sectors of one size, one table of line times
            // serves both analyses, and the L2's lookup of a line finds it in the host's cache.
            std::optional<LineTimes> shared_times;
            if (plan.analysis && setup[0].geometry.sector_bytes == setup[1].geometry.sector_bytes) {
                shared_times.emplace(2);
                for (unsigned level = 0; level < 2; ++level) {
                    setup[level].shared_times = &*shared_times;
                    setup[level].times_level = level;
                }
            }
            L2 l2(setup[1], memory, stats[1]);
            with_policy(plan.policy[0], [&]<class P1>() {
                LevelSim<P1, L2> l1(setup[0], l2, stats[0]);
                replay(source, l1, plan, control, result);
            });
        });
        result.levels = {stats[0], stats[1]};
    } else if (plan.enabled[0] || plan.enabled[1]) {
        const int level = plan.enabled[0] ? 0 : 1;
        with_policy(plan.policy[level], [&]<class P>() {
            LevelSim<P, MemorySink> only(make_setup(config, plan, level, 0, result.arrays), memory,
                                         stats[level]);
            replay(source, only, plan, control, result);
        });
        result.levels = {stats[level]};
    } else {
        replay(source, memory, plan, control, result);
    }
    result.seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
    result.memory_bytes_read = memory.bytes_read;
    result.memory_bytes_written = memory.bytes_written;
    return result;
}

}  // namespace

void validate(const HierarchyConfig& config) {
    for (const CacheConfig* c : {&config.l1, &config.l2}) {
        if (!c->enabled()) continue;
        GeometryResult g = make_geometry(*c);
        if (!g.geometry) throw SimulationError(g.error);
    }
}

SimulationResult simulate_thread_model(AccessSource& source, const HierarchyConfig& config,
                                       const RunControl& control) {
    validate(config);
    PassPlan plan;
    plan.policy[0] = config.l1.policy;
    plan.policy[1] = config.l2.policy;
    plan.enabled[0] = config.l1.enabled();
    plan.enabled[1] = config.l2.enabled();
    plan.record_limit = config.opt_max_lookups;

    // OPT pre-passes: a level's lookup stream depends only on the levels above it, so each OPT
    // level is recorded (with a stand-in policy) once the levels above are settled.
    const bool any_opt = (plan.enabled[0] && plan.policy[0] == PolicyKind::opt) ||
                         (plan.enabled[1] && plan.policy[1] == PolicyKind::opt);
    if (any_opt && !source.rewindable())
        throw SimulationError("opt: the policy reads the trace twice (a pre-pass records every line's next use), "
                              "and this trace is a stream that can be read only once (a pipe or standard input); "
                              "save it to a file and pass that path");
    std::vector<std::uint64_t> next_use[2];
    double prepass_seconds = 0;
    for (int level = 0; level < 2; ++level) {
        if (!plan.enabled[level] || plan.policy[level] != PolicyKind::opt) continue;
        const std::uint64_t hint = source.size_hint();
        if (hint > config.opt_max_lookups)
            throw SimulationError("opt: " + std::to_string(hint) +
                                  " accesses exceed the pre-pass limit of " +
                                  std::to_string(config.opt_max_lookups) + " lookups (raise --max-memory?)");
        PassPlan record_plan = plan;
        record_plan.analysis = false;
        record_plan.policy[level] = PolicyKind::lru;
        if (level == 0) record_plan.enabled[1] = false;
        std::vector<std::uint64_t> stream;
        record_plan.record[level] = &stream;
        prepass_seconds += run_pass(source, config, record_plan, {}).seconds;
        next_use[level] = next_use_from_stream(std::move(stream));
        plan.next_use[level] = &next_use[level];
    }
    plan.analysis = config.analysis;
    plan.observer = control.observer;
    SimulationResult result = run_pass(source, config, plan, control);
    result.seconds += prepass_seconds;
    return result;
}

}  // namespace cachesim
