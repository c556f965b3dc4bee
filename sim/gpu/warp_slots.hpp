#pragma once
// The warp slots of all SMs with their lanes. Where requests come from is chosen once per run:
// a built-in workload (each lane's work item and the base addresses its requests start from,
// WarpLanes::prepare, so that a request's addresses cost a few adds, WarpLanes::generate) or a
// recorded launch (RecordedWarps: a warp's requests built when it is loaded, or lane 0's records
// decoded as it issues them).
#include <cstdint>
#include <cstring>
#include <vector>

#include "sim/gpu/gpu_config.hpp"
#include "sim/gpu/recorded_warps.hpp"
#include "sim/gpu/warp_lanes.hpp"
#include "sim/gpu/warp_slot.hpp"
#include "traces/workload_spec.hpp"

namespace cachesim {

class WarpSlots {
public:
    // addresses false: the slots of a run that only times the warps (dispatch_plan.hpp), with
    // their request counts, rates and skips but no lanes.
    WarpSlots(const WorkloadSpec& spec, const GpuConfig& config, std::size_t count, bool addresses = true);
    // The warps of a recorded launch (which must outlive the slots).
    WarpSlots(RecordedWarps& recorded, const GpuConfig& config, std::size_t count);
    // The host memory `count` slots of a built-in workload's warps take (a recorded launch's
    // requests, read from its trace, come on top).
    static std::uint64_t footprint_bytes(std::size_t count, std::uint32_t warp_size) {
        const std::uint64_t per_lane = 2 * sizeof(std::uint32_t) + 2 * sizeof(std::uint64_t);
        return count * (sizeof(WarpSlot) + sizeof(WarpBases) + warp_size * per_lane);
    }

    std::size_t size() const { return warps_.size(); }
    void resize(std::size_t count);  // measured timing grows its pool of slots on demand
    WarpSlot& operator[](std::size_t slot) { return warps_[slot]; }
    const WarpSlot& operator[](std::size_t slot) const { return warps_[slot]; }
    WarpSlot* data() { return warps_.data(); }

    // Puts warp w of `block` into `slot` (its lanes' work items and addresses; its rate and start
    // skip under loose round robin). Returns false, leaving the slot alone, when none of its
    // threads is in range.
    bool load(std::size_t slot, std::uint64_t block, std::uint32_t w, std::uint32_t block_slot) {
        if (!fill(slot, block, w, block_slot, next_age_)) return false;
        ++next_age_;
        return true;
    }
    // The same with the warp's dispatch order given (a planned dispatch: the SMs load on threads of
    // their own, so the shared count is not theirs to advance).
    bool load_planned(std::size_t slot, std::uint64_t block, std::uint32_t w, std::uint32_t block_slot,
                      std::uint64_t age) {
        return fill(slot, block, w, block_slot, age);
    }
    std::uint64_t warps_loaded() const { return next_age_; }

    // The addresses of the slot's next request (k) into `out`, one per active lane (lane 0's
    // alone for an even request: RequestShape::even).
    RequestShape generate(std::size_t slot, std::uint64_t* out) const {
        const WarpSlot& w = warps_[slot];
        if (recorded_) [[unlikely]] {
            const WarpRequests& warp = requests_[slot];
            if (warp.repeating) return warp.generate_repeating(w.k, out);
            const RecordedRequest& r = warp.requests[w.k];
            if (r.shape.even) {
                out[0] = r.base;
            } else {
                std::memcpy(out, warp.addresses.data() + r.first, sizeof(std::uint64_t) * r.shape.lanes);
            }
            return r.shape;
        }
        return generate_built_in(slot, w.k, out);
    }
    // Whether requests come from a built-in workload (which generate_built_in can work out ahead).
    bool built_in() const { return recorded_ == nullptr; }
    // A built-in workload: the addresses of the slot's request k (as generate() gives them when
    // the warp has come that far). No state changes.
    [[gnu::always_inline]] RequestShape generate_built_in(std::size_t slot, std::uint32_t k, std::uint64_t* out) const {
        const WarpBases& bases = bases_[slot];
        // The common case from the table of steps: lane 0's address and the shape, a few loads
        // (inlined, the rest apart: together they cost every request the other's register saves).
        if (bases.interior && lanes_.has_steps()) {
            const WarpLanes::Step& step = lanes_.step(k);
            const std::uint64_t stride = bases.stride[step.base];
            if (step.usable && stride != kUneven) {
                out[0] = bases.lane0[step.base] + step.offset;
                return {step.size, step.array, step.is_write, warps_[slot].lanes, true, stride};
            }
        }
        return generate_lanes(slot, k, out);
    }
    // Built-in workloads: the requests every warp makes (WarpSlot::requests has each warp's).
    std::uint32_t requests_per_warp() const { return lanes_.accesses_per_item(); }

private:
    // generate_built_in's other cases: the warp's lanes worked out by WarpLanes::generate.
    [[gnu::noinline]] RequestShape generate_lanes(std::size_t slot, std::uint32_t k, std::uint64_t* out) const {
        const WarpSlot& w = warps_[slot];
        const WarpBases& bases = bases_[slot];
        const std::size_t lane0 = slot * warp_size_;
        RequestShape shape = lanes_.generate(&xs_[lane0], &ys_[lane0], &base_a_[lane0], &base_b_[lane0],
                                             bases.stride[0], bases.stride[1], bases.interior, w.lanes, k, out);
        shape.lanes = w.lanes;
        return shape;
    }

    bool fill(std::size_t slot, std::uint64_t block, std::uint32_t w, std::uint32_t block_slot, std::uint64_t age);

    const WorkloadSpec spec_;
    const GpuConfig& config_;
    WarpLanes lanes_;
    std::uint64_t items_ = 0, next_age_ = 0;
    std::uint32_t warp_size_ = 32;
    bool rated_ = false, start_skip_ = false, addresses_ = true;
    std::vector<WarpSlot> warps_;
    std::vector<std::uint32_t> xs_, ys_;          // per lane: its work item (x, y)
    std::vector<std::uint64_t> base_a_, base_b_;  // per lane: WarpLanes::prepare's base addresses
    // Per warp: lane 0's bases (a and b), the even_stride of each of its lanes' bases, and whether
    // no access of the warp is clamped; one host cache line that a request reads.
    struct WarpBases {
        std::uint64_t lane0[2] = {0, 0};
        std::uint64_t stride[2] = {kUneven, kUneven};
        bool interior = false;
    };
    std::vector<WarpBases> bases_;
    RecordedWarps* recorded_ = nullptr;           // a recorded launch: its warps' requests per slot
    std::vector<WarpRequests> requests_;
};

}  // namespace cachesim
