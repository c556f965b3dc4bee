#pragma once
// Generates a workload's accesses on the fly in schedule order: nothing is materialised, so a
// 4096 x 4096 9x9 stencil (1.4 billion accesses) replays in constant memory.
#include "traces/access_source.hpp"
#include "traces/workload_spec.hpp"

namespace cachesim {

class WorkloadSource final : public AccessSource {
public:
    explicit WorkloadSource(const WorkloadSpec& spec);
    std::vector<ArrayInfo> arrays() const override { return spec_.arrays(); }
    bool next(AccessBatch& batch, std::size_t max_accesses) override;
    void rewind() override { next_launch_ = 0; }
    std::uint64_t size_hint() const override { return spec_.total_accesses(); }

    // The work item run at launch index t (the schedule's mapping).
    std::uint64_t item_at(std::uint64_t launch_index) const;
    const WorkloadSpec& spec() const { return spec_; }

private:
    template <class Workload>
    void fill(const Workload& w, AccessBatch& batch, std::uint64_t first, std::uint64_t count) const;

    WorkloadSpec spec_;
    std::uint64_t next_launch_ = 0;
};

}  // namespace cachesim
