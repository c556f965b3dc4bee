#include "sim/gpu/gpu_counters.hpp"

#include <algorithm>

namespace cachesim {

namespace {

void add_level(LevelStats& to, const LevelStats& from) {
    to.reads += from.reads;
    to.read_hits += from.read_hits;
    to.read_misses += from.read_misses;
    to.writes += from.writes;
    to.write_hits += from.write_hits;
    to.write_misses += from.write_misses;
    to.writes_forwarded += from.writes_forwarded;
    to.evictions += from.evictions;
    to.writebacks += from.writebacks;
    to.bytes_from_below += from.bytes_from_below;
    to.bytes_to_below += from.bytes_to_below;
    if (to.per_array.size() < from.per_array.size()) to.per_array.resize(from.per_array.size());
    for (std::size_t i = 0; i < from.per_array.size(); ++i) {
        to.per_array[i].reads += from.per_array[i].reads;
        to.per_array[i].read_misses += from.per_array[i].read_misses;
        to.per_array[i].writes += from.per_array[i].writes;
        to.per_array[i].write_misses += from.per_array[i].write_misses;
    }
}

}  // namespace

GpuCounters& GpuCounters::operator+=(const GpuCounters& o) {
    ncu += o.ncu;
    add_level(l1, o.l1);
    add_level(l2, o.l2);
    load_requests += o.load_requests;
    store_requests += o.store_requests;
    load_sectors += o.load_sectors;
    store_sectors += o.store_sectors;
    thread_reads += o.thread_reads;
    thread_writes += o.thread_writes;
    memory_bytes_read += o.memory_bytes_read;
    memory_bytes_written += o.memory_bytes_written;
    l1_hit_sources += o.l1_hit_sources;
    return *this;
}

void GpuCounters::report(GpuResult& out, bool l1_enabled, bool l2_enabled) const {
    out.ncu = ncu;
    out.load_requests = load_requests;
    out.store_requests = store_requests;
    out.load_sectors = load_sectors;
    out.store_sectors = store_sectors;
    out.l1_hit_sources = l1_hit_sources;
    SimulationResult& r = out.result;
    r.reads = thread_reads;
    r.writes = thread_writes;
    r.accesses = r.reads + r.writes;
    r.memory_bytes_read = memory_bytes_read;
    r.memory_bytes_written = memory_bytes_written;
    if (l1_enabled) r.levels.push_back(l1);
    if (l2_enabled) r.levels.push_back(l2);
}

}  // namespace cachesim
