#pragma once
// The deep-zoom tests' run: the thesis stencil recorded by the thread model, and a recording of
// it at full resolution (one step x one line per cell) to compare windows and screenshots with.
#include <cstdint>

#include "sim/thread_model.hpp"
#include "traces/workload_source.hpp"
#include "viz/record.hpp"

namespace cachesim::viz::testing {

// Table 3.1 (the `thesis-stencil` preset): 7x7 stencil on 16x16, one fully associative LRU L1
// of 24 lines of 16 B, write-through no-allocate, no L2. 256 steps; rows: 64 lines of `in`, 64
// of `out`.
inline WorkloadSpec thesis_stencil(Schedule schedule = {}) {
    WorkloadSpec w;
    w.schedule = schedule;
    return w;
}
inline HierarchyConfig thesis_cache() {
    HierarchyConfig h;
    h.l1.size_bytes = 384;
    h.l1.line_bytes = 16;
    return h;
}

inline RecordedRun record(const WorkloadSpec& w, const HierarchyConfig& h, const RecorderOptions& options,
                          const RunControl& control = {}) {
    WorkloadSource source(w);
    return record_thread_model(source, h, options, w, control);
}

// A full-resolution recording of the whole run.
inline RecorderOptions full_resolution() {
    RecorderOptions o;
    o.max_cells = std::uint64_t{1} << 26;
    o.max_rows = std::uint64_t{1} << 20;
    return o;
}

}  // namespace cachesim::viz::testing
