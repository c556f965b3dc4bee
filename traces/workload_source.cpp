#include "traces/workload_source.hpp"

namespace cachesim {

WorkloadSource::WorkloadSource(const WorkloadSpec& spec) : spec_(spec) { validate(spec_); }

std::uint64_t WorkloadSource::item_at(std::uint64_t launch_index) const {
    return schedule_map(spec_.schedule, launch_index, spec_.width, spec_.height);
}

template <class Workload>
void WorkloadSource::fill(const Workload& w, AccessBatch& batch, std::uint64_t first,
                          std::uint64_t count) const {
    const std::uint32_t per_item = w.accesses_per_item();
    batch.accesses.resize(count * per_item);
    Access* out = batch.accesses.data();
    for (std::uint64_t t = first; t < first + count; ++t) {
        const std::uint64_t item = item_at(t);
        for (std::uint32_t k = 0; k < per_item; ++k) *out++ = w.access(item, k);
    }
}

bool WorkloadSource::next(AccessBatch& batch, std::size_t max_accesses) {
    const std::uint64_t items = spec_.items();
    if (next_launch_ >= items) {
        batch.accesses.clear();
        return false;
    }
    const std::uint32_t per_item = spec_.accesses_per_item();
    std::uint64_t count = max_accesses / per_item;
    if (count == 0) count = 1;  // a step is never split, even when larger than the batch
    if (count > items - next_launch_) count = items - next_launch_;
    batch.first_step = next_launch_;
    batch.accesses_per_step = per_item;
    if (spec_.kind == WorkloadKind::stencil) fill(spec_.stencil(), batch, next_launch_, count);
    else fill(spec_.matmul(), batch, next_launch_, count);
    next_launch_ += count;
    return true;
}

}  // namespace cachesim
