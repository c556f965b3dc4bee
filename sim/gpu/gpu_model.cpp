#include "sim/gpu/gpu_model.hpp"

#include <algorithm>
#include <bit>
#include <chrono>
#include <cmath>
#include <functional>
#include <queue>
#include <tuple>

#include "sim/gpu/coalescer.hpp"
#include "sim/gpu/list_policies.hpp"
#include "sim/gpu/request_coalescer.hpp"
#include "sim/gpu/sector_cache.hpp"
#include "sim/gpu/warp_lanes.hpp"
#include "sim/policies/plru.hpp"
#include "sim/policies/random.hpp"
#include "sim/rng.hpp"
#include "traces/ncu_metrics.hpp"
#include "traces/schedule.hpp"
#include "traces/warp_times.hpp"

namespace cachesim {

std::vector<std::pair<std::string, double>> NcuCounters::metrics() const {
    return {
        {std::string(ncu::kL1Requests), static_cast<double>(l1_requests_ld)},
        {std::string(ncu::kL1Sectors), static_cast<double>(l1_sectors_ld)},
        {std::string(ncu::kL1SectorHits), static_cast<double>(l1_sectors_ld_hit)},
        {std::string(ncu::kL1HitRate), l1_hit_rate_pct()},
        {std::string(ncu::kL2Sectors), static_cast<double>(l2_sectors_tex_read)},
        {std::string(ncu::kL2SectorHits), static_cast<double>(l2_sectors_tex_read_hit)},
        {std::string(ncu::kL2SectorMisses), static_cast<double>(l2_sectors_tex_read_miss)},
        {std::string(ncu::kL2FabricSectors), static_cast<double>(l2_sectors_fabric_read)},
        {std::string(ncu::kL2FabricSectorHits), static_cast<double>(l2_sectors_fabric_read_hit)},
        {std::string(ncu::kL2CoalescedSectors), static_cast<double>(l2_sectors_coalesced)},
        {std::string(ncu::kL2ReadHitRate), l2_read_hit_rate_pct()},
        {std::string(ncu::kDramBytesRead), static_cast<double>(dram_bytes_read)},
    };
}

std::uint32_t l2_home_partition(std::uint64_t line) {
    std::uint64_t h = line * 0xd6e8feb86659fd93ull;
    h ^= h >> 32;
    return static_cast<std::uint32_t>(h & 1u);
}

std::uint64_t cta_refill_rank(const GpuConfig& config, std::uint64_t round, std::uint32_t sm) {
    if (config.cta_refill == CtaRefill::sm_order) return sm;
    // splitmix64 of (seed, round, sm): a fresh permutation of the SMs every round
    std::uint64_t z = config.seed * 0x9e3779b97f4a7c15ull + round * 0xbf58476d1ce4e5b9ull + sm * 0x94d049bb133111ebull;
    z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ull;
    z = (z ^ (z >> 27)) * 0x94d049bb133111ebull;
    z ^= z >> 31;
    // the SM in the low bits keeps ranks distinct within a round (validate() caps SMs below 2^20)
    return (z & ~0xfffffull) | sm;
}

double warp_issue_rate(const GpuConfig& config, std::uint64_t block, std::uint32_t warp) {
    if (config.warp_rate_spread <= 0) return 1.0;
    // Two splitmix64 draws from (seed, block, warp), Box-Muller to a standard normal z.
    std::uint64_t state = config.seed * 0x9e3779b97f4a7c15ull + block * 0xd1b54a32d192ed03ull +
                          (static_cast<std::uint64_t>(warp) + 1) * 0x8cb92ba72f3d8dd7ull;
    auto uniform = [&] { return static_cast<double>(splitmix64(state) >> 11) * 0x1.0p-53; };  // [0, 1)
    const double u1 = 1.0 - uniform(), u2 = uniform();  // u1 in (0, 1]
    const double z = std::sqrt(-2.0 * std::log(u1)) * std::cos(6.283185307179586 * u2);
    return std::min(1.0, std::exp(config.warp_rate_spread * (z - 3.0)));
}

std::uint64_t warp_issue_credit(const GpuConfig& config, std::uint64_t block, std::uint32_t warp) {
    const double rate = warp_issue_rate(config, block, warp);
    return std::max<std::uint64_t>(1, static_cast<std::uint64_t>(rate * static_cast<double>(kWarpCreditOne)));
}

std::uint32_t issue_burst_for(const GpuConfig& config, const WorkloadSpec& spec) {
    if (config.scheduler != WarpScheduler::lrr) return 1;
    if (config.issue_burst != kIssueBurstAuto) return config.issue_burst;
    // The stencil's loops over the box are unrolled: all its loads come before the first add
    // uses one (3x3: 9 loads, then the adds; 9x9: the adds start after 7 loads, each using a load
    // issued 6 before, so the warp waits once). The matmul's k loop is unrolled 16 times: 32 loads
    // per iteration, the first multiply-add after 6 of them.
    return spec.kind == WorkloadKind::stencil ? spec.stencil_w * spec.stencil_h : 32;
}

std::uint32_t block_start_skip_turns(const GpuConfig& config, std::uint64_t block) {
    if (config.block_start_skip == 0) return 0;
    std::uint64_t state = config.seed * 0x9e3779b97f4a7c15ull + (block + 1) * 0xa0761d6478bd642full;
    return static_cast<std::uint32_t>(splitmix64(state) % (static_cast<std::uint64_t>(config.block_start_skip) + 1));
}

namespace {

// The policy types of the GPU model, chosen once per run. LRU and FIFO use the list versions
// (O(1) victims for the nearly fully associative L1); OPT needs a per-cache pre-pass and is refused.
template <class F>
decltype(auto) with_gpu_policy(PolicyKind kind, F&& f) {
    switch (kind) {
        case PolicyKind::fifo: return f.template operator()<ListFifoPolicy>();
        case PolicyKind::random: return f.template operator()<RandomPolicy>();
        case PolicyKind::random4: return f.template operator()<Random4Policy>();
        case PolicyKind::plru: return f.template operator()<PlruPolicy>();
        case PolicyKind::opt: throw SimulationError("opt is not supported by the GPU model");
        case PolicyKind::lru:
        default: return f.template operator()<ListLruPolicy>();
    }
}

constexpr std::uint32_t kNone = ~0u;

struct Warp {
    std::uint64_t age = 0;        // dispatch order (GTO's "oldest")
    std::uint64_t block = 0;      // launch block index
    std::uint32_t k = 0;          // next request
    std::uint32_t lanes = 0;      // active lanes; 0 = empty slot
    std::uint32_t block_slot = 0; // global index of its block's residency slot
    bool stalled = false;         // GTO: its last request missed in L1
    // Rate spread (lrr): what a turn of the round robin adds to its credit, and the credit; it
    // issues when the credit reaches kWarpCreditOne.
    std::uint64_t rate = kWarpCreditOne, credit = kWarpCreditOne;
    std::uint32_t skip = 0;  // turns of the round robin still to pass it over (block start skip)
};

struct SmState {
    std::uint64_t next_round = 0;   // the next round this SM has not yet simulated
    std::uint32_t live_warps = 0;
    std::uint32_t resident_blocks = 0;
    std::uint32_t last = 0;         // LRR: local slot that issued last
    std::uint32_t current = kNone;  // GTO: local slot being run greedily
};

// Launch bookkeeping that does not depend on the cache policies: block dispatch, warp slots and
// lanes, warp selection. Compiled once.
class Machine {
protected:
    Machine(const WorkloadSpec& spec, const GpuConfig& config, const GpuOccupancy& occupancy)
        : spec_(spec), c_(config), lanes_(spec, config.reference_addresses) {
        n_ = spec.items();
        ws_ = config.warp_size;
        wpb_ = occupancy.warps_per_block;
        bps_ = occupancy.blocks_per_sm;
        wps_ = wpb_ * bps_;
        per_item_ = lanes_.accesses_per_item();
        blocks_ = (n_ + config.block - 1) / config.block;
        warps_.assign(static_cast<std::size_t>(config.sms) * wps_, Warp{});
        xs_.assign(warps_.size() * ws_, 0);
        ys_.assign(warps_.size() * ws_, 0);
        base_a_.assign(warps_.size() * ws_, 0);
        base_b_.assign(warps_.size() * ws_, 0);
        interior_.assign(warps_.size(), 0);
        block_left_.assign(static_cast<std::size_t>(config.sms) * bps_, 0);
        sms_.assign(config.sms, SmState{});
        for (SmState& sm : sms_) sm.last = wps_ - 1;
        gto_ = config.scheduler == WarpScheduler::gto;
        rated_ = config.scheduler == WarpScheduler::lrr && config.warp_rate_spread > 0;
        burst_ = issue_burst_for(config, spec);
        start_skip_ = !gto_ && config.block_start_skip > 0;
    }

    // Warps with at least one active lane: every block's warps up to the launch's end.
    std::uint64_t total_warps() const { return warps_in_range(n_, c_.block, ws_); }

    // Puts warp w of `block` into warp slot `slot` (its lanes' work items and addresses). Returns
    // false, leaving the slot alone, when none of its threads is in range.
    bool load_warp(std::size_t slot, std::uint64_t block, std::uint32_t w, std::uint32_t block_slot) {
        const std::uint64_t tid0 = block * c_.block + static_cast<std::uint64_t>(w) * ws_;
        if (tid0 >= n_) return false;  // threads past the launch return at once: no requests
        const std::uint64_t lanes = std::min<std::uint64_t>(
            {ws_, static_cast<std::uint64_t>(c_.block) - static_cast<std::uint64_t>(w) * ws_, n_ - tid0});
        warps_[slot] = Warp{next_age_++, block, 0, static_cast<std::uint32_t>(lanes), block_slot, false};
        if (rated_) warps_[slot].rate = warp_issue_credit(c_, block, w);  // a full credit: issues at its first turn
        if (start_skip_) warps_[slot].skip = block_start_skip_turns(c_, block);
        std::uint32_t* xs = &xs_[slot * ws_];
        std::uint32_t* ys = &ys_[slot * ws_];
        for (std::uint32_t lane = 0; lane < lanes; ++lane) {
            const std::uint64_t item = schedule_map(spec_.schedule, tid0 + lane, spec_.width, spec_.height);
            xs[lane] = static_cast<std::uint32_t>(item % spec_.width);
            ys[lane] = static_cast<std::uint32_t>(item / spec_.width);
        }
        interior_[slot] =
            lanes_.prepare(xs, ys, static_cast<std::uint32_t>(lanes), &base_a_[slot * ws_], &base_b_[slot * ws_]);
        return true;
    }

    // Warp slots for `count` warps (measured timing keeps its own pool of slots).
    void resize_warp_slots(std::size_t count) {
        warps_.resize(count, Warp{});
        xs_.resize(count * ws_, 0);
        ys_.resize(count * ws_, 0);
        base_a_.resize(count * ws_, 0);
        base_b_.resize(count * ws_, 0);
        interior_.resize(count, 0);
    }

    void dispatch(std::uint32_t s, std::uint64_t block) {
        SmState& sm = sms_[s];
        std::uint32_t j = 0;
        while (block_left_[static_cast<std::size_t>(s) * bps_ + j] != 0) ++j;
        const std::uint32_t block_slot = s * bps_ + j;
        for (std::uint32_t w = 0; w < wpb_; ++w) {
            if (!load_warp(static_cast<std::size_t>(s) * wps_ + j * wpb_ + w, block, w, block_slot)) break;
            ++block_left_[block_slot];
            ++sm.live_warps;
            ++live_warps_;
        }
        ++sm.resident_blocks;
        ++dispatched_;
    }

    void first_wave() {
        const std::uint32_t sms = c_.sms;
        if (c_.cta_order == CtaOrder::fill) {
            for (std::uint32_t s = 0; s < sms; ++s)
                for (std::uint32_t r = 0; r < bps_ && dispatched_ < blocks_; ++r) dispatch(s, dispatched_);
        } else if (c_.cta_order == CtaOrder::floorplan) {
            // The measured cycle, walked until every SM is full (validate: it names every SM).
            const std::vector<std::uint32_t>& cycle = c_.floorplan.dispatch_cycle;
            const std::uint64_t capacity = static_cast<std::uint64_t>(sms) * bps_;
            for (std::size_t i = 0; dispatched_ < std::min(blocks_, capacity); i = (i + 1) % cycle.size())
                if (sms_[cycle[i]].resident_blocks < bps_) dispatch(cycle[i], dispatched_);
        } else {
            for (std::uint32_t r = 0; r < bps_; ++r)
                for (std::uint32_t s = 0; s < sms && dispatched_ < blocks_; ++s) dispatch(s, dispatched_);
        }
    }

    // The local slot of SM s's warp that issues this round (the SM has a live warp).
    std::uint32_t pick(std::uint32_t s) {
        SmState& sm = sms_[s];
        Warp* w = &warps_[static_cast<std::size_t>(s) * wps_];
        // Inside a burst the warp that issued last goes on (a new warp in its slot starts at k 0).
        if (burst_ > 1 && w[sm.last].lanes != 0 && w[sm.last].k % burst_ != 0) return sm.last;
        if (rated_) return pick_by_credit(s);
        if (!gto_) {
            std::uint32_t c = sm.last;
            for (;;) {  // ends: every pass lowers the skips, and the SM has a live warp
                if (++c == wps_) c = 0;
                if (w[c].lanes == 0) continue;
                if (w[c].skip == 0) break;
                --w[c].skip;
            }
            sm.last = c;
            return c;
        }
        if (sm.current != kNone && w[sm.current].lanes != 0 && !w[sm.current].stalled) return sm.current;
        std::uint32_t best = kNone;
        for (std::uint32_t c = 0; c < wps_; ++c)
            if (w[c].lanes != 0 && !w[c].stalled && (best == kNone || w[c].age < w[best].age)) best = c;
        if (best == kNone) {  // every warp waits for memory: the replies arrive, oldest goes first
            Warp* mw = &warps_[static_cast<std::size_t>(s) * wps_];
            for (std::uint32_t c = 0; c < wps_; ++c) {
                mw[c].stalled = false;
                if (mw[c].lanes != 0 && (best == kNone || mw[c].age < mw[best].age)) best = c;
            }
        }
        sm.current = best;
        return best;
    }

    // Loose round robin with rates: each warp the turn reaches gains its rate in credit and issues
    // once the credit makes a request. A whole turn without one skips, in integers, the turns
    // in which no warp could issue (exactly as if they had been walked).
    std::uint32_t pick_by_credit(std::uint32_t s) {
        SmState& sm = sms_[s];
        Warp* w = &warps_[static_cast<std::size_t>(s) * wps_];
        for (;;) {
            std::uint32_t c = sm.last;
            for (std::uint32_t i = 0; i < wps_; ++i) {
                if (++c == wps_) c = 0;
                if (w[c].lanes == 0) continue;
                if (w[c].skip) {  // a block start skip: passed over, no credit
                    --w[c].skip;
                    continue;
                }
                w[c].credit += w[c].rate;
                if (w[c].credit >= kWarpCreditOne) {
                    w[c].credit -= kWarpCreditOne;
                    sm.last = c;
                    return c;
                }
            }
            std::uint64_t turns = ~0ull;  // until the first warp can issue (>= 1)
            for (std::uint32_t x = 0; x < wps_; ++x)
                if (w[x].lanes != 0)
                    turns = std::min(turns, w[x].skip + (kWarpCreditOne - w[x].credit + w[x].rate - 1) / w[x].rate);
            if (turns > 1)
                for (std::uint32_t x = 0; x < wps_; ++x)
                    if (w[x].lanes != 0) {  // skipped turns first, then credit
                        const std::uint64_t skipped = std::min<std::uint64_t>(w[x].skip, turns - 1);
                        w[x].skip -= static_cast<std::uint32_t>(skipped);
                        w[x].credit += (turns - 1 - skipped) * w[x].rate;
                    }
        }
    }

    // After the warp's request; returns true when its block has finished (a slot is free).
    bool advance(std::uint32_t s, std::size_t slot) {
        Warp& w = warps_[slot];
        if (++w.k < per_item_) return false;
        w.lanes = 0;
        w.stalled = false;
        --sms_[s].live_warps;
        --live_warps_;
        if (--block_left_[w.block_slot] != 0) return false;
        --sms_[s].resident_blocks;
        return true;
    }

    const WorkloadSpec spec_;
    const GpuConfig& c_;
    WarpLanes lanes_;
    std::uint64_t n_ = 0, blocks_ = 0, dispatched_ = 0, next_age_ = 0, live_warps_ = 0;
    std::uint32_t ws_ = 32, wpb_ = 1, bps_ = 1, wps_ = 1, per_item_ = 1;
    bool gto_ = false, rated_ = false, start_skip_ = false;
    std::uint32_t burst_ = 1;  // issue_burst_for(): requests per turn of the round robin
    std::vector<Warp> warps_;
    std::vector<std::uint32_t> xs_, ys_;     // per lane: its work item (x, y)
    std::vector<std::uint64_t> base_a_, base_b_;  // per lane: WarpLanes::prepare's base addresses
    std::vector<std::uint8_t> interior_;     // per warp: no clamped access
    std::vector<std::uint32_t> block_left_;  // live warps per block residency slot
    std::vector<SmState> sms_;
};

template <class P1, class P2>
class Engine : Machine {
public:
    Engine(const WorkloadSpec& spec, const GpuConfig& config, const GpuOccupancy& occupancy,
           const RunControl& control, GpuResult& out)
        : Machine(spec, config, occupancy),
          control_(control),
          observer_(control.observer),
          out_(out),
          coalescer_(config.l1.line_bytes, config.l1.sector_bytes) {
        const CacheConfig l1 = effective_l1(config);
        l1_enabled_ = l1.enabled();
        l2_enabled_ = config.l2.enabled();
        l1_line_shift_ = coalescer_.line_shift();
        l1_sector_shift_ = coalescer_.sector_shift();
        l1_sector_bytes_ = 1u << l1_sector_shift_;
        if (l1_enabled_) {
            const CacheGeometry g = *make_geometry(l1).geometry;
            l1_.resize(config.sms);
            for (std::uint32_t s = 0; s < config.sms; ++s)
                l1_[s].reset(g, config.seed * 0x9e3779b97f4a7c15ull + 1 + 2 * s);
        }
        partitions_ = l2_enabled_ ? config.l2_partitions : 1;
        home_fill_ = config.partition_fill == PartitionFill::home;
        partition_of_.assign(config.sms, 0);
        for (std::uint32_t s = 0; s < config.sms; ++s)
            partition_of_[s] = partitions_ == 1 ? 0
                               : config.partition_map == PartitionMap::floorplan ? config.floorplan.sm_partition[s]
                               : config.partition_map == PartitionMap::interleaved
                                   ? s % partitions_
                                   : static_cast<std::uint32_t>(static_cast<std::uint64_t>(s) * partitions_ / config.sms);
        if (l2_enabled_) {
            const CacheGeometry g = *make_geometry(l2_partition(config)).geometry;
            l2g_ = g;
            l2_.resize(partitions_);
            for (std::uint32_t p = 0; p < partitions_; ++p)
                l2_[p].reset(g, config.seed * 0x9e3779b97f4a7c15ull + 2 + 2 * p + 2 * config.sms,
                             config.l2_hashed_sets);
            l2_per_line_shift_ = g.line_shift - g.sector_shift;
            const std::uint32_t granule = std::max(config.dram_fetch_bytes, g.sector_bytes);
            granule_sectors_ = granule >> g.sector_shift;
            lrc_.reset(config.l2_coalesce_hit_rounds, config.l2_coalesce_miss_rounds, config.l2_coalesce_requesters,
                       config.sms);
            lrc_.set_neighbours(config.l2_coalesce_scope == CoalesceScope::neighbours);
            const bool by_block = config.l2_coalesce_scope == CoalesceScope::neighbours ||
                                  config.l2_coalesce_scope == CoalesceScope::pairs;
            if (lrc_.enabled() && by_block && !config.timeline) round_block_.assign(static_cast<std::size_t>(config.sms) * kChunkRounds, 0);
        }
        const std::size_t arrays = std::max<std::size_t>(1, spec.arrays().size());
        l1s_.name = "L1";
        l2s_.name = "L2";
        l1s_.per_array.assign(arrays, ArrayCounters{});
        l2s_.per_array.assign(arrays, ArrayCounters{});
        addresses_.assign(ws_, 0);
        request_.lines.reserve(64);
        written_.reserve(64);
    }

    // Rounds are simulated in chunks. Inside a chunk each SM runs on its own (its L1 and its warps
    // depend on nothing else), recording the sectors it sends to the L2 with their round; the L2
    // then replays them in (round, SM) order, exactly as if the SMs had advanced in lockstep.
    // An SM stops where one of its blocks finishes while blocks wait: the freed residency goes
    // to the next block only once every SM has been simulated up to that round, in (round, SM)
    // order. With an observer the chunk is one round, so events arrive round by round.
    void run() {
        const auto t0 = std::chrono::steady_clock::now();
        const std::uint64_t total_requests = total_warps() * per_item_;
        const std::uint64_t chunk = observer_ ? 1 : kChunkRounds;
        events_.assign(c_.sms, {});
        first_wave();
        std::uint64_t start = 0;
        while (live_warps_ != 0) {
            const std::uint64_t end = start + chunk;
            chunk_start_ = start;
            for (std::uint32_t s = 0; s < c_.sms; ++s) run_sm(s, end);
            while (!pending_.empty()) {
                const std::uint32_t s = std::get<2>(pending_.top());
                pending_.pop();
                if (dispatched_ < blocks_) dispatch(s, dispatched_);
                run_sm(s, end);
            }
            replay_l2(start, end);
            start = end;
            if (control_.cancel && control_.cancel->load(std::memory_order_relaxed)) throw Cancelled();
            if (control_.progress && total_requests && (start & 16383) < chunk)
                control_.progress(static_cast<double>(out_.requests()) / static_cast<double>(total_requests));
        }
        out_.rounds = issued_any_ ? last_round_ + 1 : 0;
        finish(t0);
    }

    // Measured timing (c_.timeline): every warp's requests spread evenly over its interval, on its
    // SM; all requests in time order (ties: by warp index, so warps with the same interval take
    // turns as loose round robin would), each request's L2 traffic played at once.
    void run_timed() {
        const WarpTimeline& timeline = *c_.timeline;
        const auto t0 = std::chrono::steady_clock::now();
        const std::uint64_t warps = timeline.warps.size();
        const std::uint64_t total_requests = warps * per_item_;
        auto time_of = [&](std::uint64_t warp, std::uint32_t k) {
            const WarpInterval& iv = timeline.warps[warp];
            return static_cast<double>(iv.start_ns) +
                   static_cast<double>(iv.end_ns - iv.start_ns) * (k + 0.5) / static_cast<double>(per_item_);
        };
        struct Next {
            double time;
            std::uint64_t warp;  // index in the timeline
            std::size_t slot;    // its warp slot once it has issued
        };
        auto later = [](const Next& a, const Next& b) { return a.time != b.time ? a.time > b.time : a.warp > b.warp; };
        std::priority_queue<Next, std::vector<Next>, decltype(later)> queue(later);
        for (std::uint64_t w = 0; w < warps; ++w) queue.push({time_of(w, 0), w, kNone});
        // Warp slots are a pool: a warp takes one at its first request and returns it after its last.
        std::vector<std::size_t> free_slots;
        for (std::size_t i = warps_.size(); i-- > 0;) free_slots.push_back(i);
        events_.assign(c_.sms, {});
        round_in_chunk_ = 0;
        std::uint64_t done = 0;
        while (!queue.empty()) {
            Next next = queue.top();
            queue.pop();
            if (next.slot == kNone) {
                if (free_slots.empty()) {
                    const std::size_t old = warps_.size();
                    resize_warp_slots(std::max<std::size_t>(64, 2 * old));
                    for (std::size_t i = warps_.size(); i-- > old;) free_slots.push_back(i);
                }
                next.slot = free_slots.back();
                free_slots.pop_back();
                load_warp(next.slot, next.warp / wpb_, static_cast<std::uint32_t>(next.warp % wpb_), 0);
            }
            const std::uint32_t s = timeline.warps[next.warp].sm;
            replay_round_ = static_cast<std::uint64_t>(next.time);
            const bool missed = issue(s, next.slot);
            if (c_.issue_log) [[unlikely]]  // "round": the request's place in the measured order
                c_.issue_log->push_back({done, s, warps_[next.slot].block,
                                         static_cast<std::uint32_t>(next.warp % wpb_), warps_[next.slot].k, missed});
            std::vector<L2Event>& events = events_[s];
            std::size_t i = 0;
            if (lrc_.enabled()) replay_coalescing(s, 0, events, i, coalesce_group(s, warps_[next.slot].block));
            else play_events(s, 0, events, i);
            brought_.sectors = 0;
            events.clear();
            Warp& w = warps_[next.slot];
            if (++w.k < per_item_) {
                queue.push({time_of(next.warp, w.k), next.warp, next.slot});
            } else {
                w.lanes = 0;
                free_slots.push_back(next.slot);
            }
            if (observer_) [[unlikely]]
                observer_->on_step_end(done);  // with measured timing, every request is a step
            if ((++done & 0xffff) == 0) {
                if (control_.cancel && control_.cancel->load(std::memory_order_relaxed)) throw Cancelled();
                if (control_.progress)
                    control_.progress(static_cast<double>(done) / static_cast<double>(total_requests));
            }
        }
        out_.rounds = 0;  // no rounds: the measured order
        finish(t0);
    }

private:
    void finish(std::chrono::steady_clock::time_point t0) {
        if (control_.progress) control_.progress(1.0);
        SimulationResult& r = out_.result;
        r.seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
        r.steps = n_;  // work items, as in the thread model (rounds are out_.rounds)
        r.accesses = r.reads + r.writes;
        r.arrays = spec_.arrays();
        if (l1_enabled_) r.levels.push_back(l1s_);
        if (l2_enabled_) r.levels.push_back(l2s_);
        out_.blocks = blocks_;
        out_.warps = next_age_;
    }

    // Rounds per chunk. An SM's L1 state (about 130 KiB on the H200) is cold in the host's caches
    // when its turn comes again, so a chunk must be long enough to pay for reloading it: 1,024
    // rounds took the naive matmul with warp rate spread twice as long as 16,384. Per SM and
    // chunk the L2 events are buffered (tens of MiB at most).
    static constexpr std::uint64_t kChunkRounds = 16384;

    // What an SM sends to the L2 in one round of the chunk being simulated.
    struct L2Event {
        std::uint64_t address;  // loads: the L1 sector's address; stores: the L2 sector id
        std::uint32_t round;    // round within the chunk
        std::uint16_t array;
        std::uint8_t kind;      // kLoad, kStorePartial, kStoreFull
    };
    static constexpr std::uint8_t kLoad = 0, kStorePartial = 1, kStoreFull = 2;

    // Simulates SM s from its next round up to `end`, or until a block of it finishes while
    // blocks wait (it is then queued for the next block).
    void run_sm(std::uint32_t s, std::uint64_t end) {
        SmState& sm = sms_[s];
        while (sm.next_round < end) {
            if (sm.live_warps == 0) {
                sm.next_round = end;
                return;
            }
            const std::uint64_t round = sm.next_round++;
            round_in_chunk_ = static_cast<std::uint32_t>(round - chunk_start_);
            const std::size_t slot = static_cast<std::size_t>(s) * wps_ + pick(s);
            if (!round_block_.empty()) round_block_[block_of_round(s, round_in_chunk_)] = warps_[slot].block;
            const bool missed = issue(s, slot);
            warps_[slot].stalled = gto_ && missed;
            if (c_.issue_log) [[unlikely]]
                c_.issue_log->push_back({round, s, warps_[slot].block,
                                         static_cast<std::uint32_t>((slot - static_cast<std::size_t>(s) * wps_) % wpb_),
                                         warps_[slot].k, missed});
            last_round_ = std::max(last_round_, round);
            issued_any_ = true;
            if (advance(s, slot) && dispatched_ < blocks_) {
                pending_.push({round, cta_refill_rank(c_, round, s), s});
                return;
            }
        }
    }

    // Plays the chunk's L2 traffic in (round, SM) order.
    void replay_l2(std::uint64_t start, std::uint64_t end) {
        cursor_.assign(c_.sms, 0);
        const std::uint32_t rounds = static_cast<std::uint32_t>(end - start);
        for (std::uint32_t r = 0; r < rounds; ++r) {
            replay_round_ = start + r;
            for (std::uint32_t s = 0; s < c_.sms; ++s) {
                const std::vector<L2Event>& events = events_[s];
                std::size_t& i = cursor_[s];
                if (lrc_.enabled()) {
                    const std::uint64_t block = round_block_.empty() ? 0 : round_block_[block_of_round(s, r)];
                    replay_coalescing(s, r, events, i, coalesce_group(s, block));
                } else {
                    play_events(s, r, events, i);
                }
                brought_.sectors = 0;
            }
            if (observer_ && issued_any_ && start + r <= last_round_) [[unlikely]]
                observer_->on_step_end(start + r);
        }
        for (std::vector<L2Event>& events : events_) events.clear();
    }

    // SM s's L2 traffic of round r from events[i] on, without the coalescer.
    void play_events(std::uint32_t s, std::uint32_t r, const std::vector<L2Event>& events, std::size_t& i) {
        for (; i < events.size() && events[i].round == r; ++i) {
            const L2Event& e = events[i];
            // A request's misses to one line reach the L2 together (see brought_).
            if (e.kind != kLoad || (e.address >> l2g_.line_shift) != brought_.line) brought_.sectors = 0;
            if (e.kind == kLoad) read_below_l1(s, e.address, e.array);
            else l2_write(s, e.address, e.kind == kStoreFull, e.array);
        }
    }

    // The coalescer's group of SM s running `block`: SMs that may share a lookup carry the same
    // group (neighbours: adjacent ones).
    std::uint64_t coalesce_group(std::uint32_t s, std::uint64_t block) const {
        switch (c_.l2_coalesce_scope) {
            case CoalesceScope::tpc: return s / 2;
            case CoalesceScope::neighbours: return block;
            case CoalesceScope::pairs: return block / 2;
            case CoalesceScope::all:
            default: return 0;
        }
    }

    // play_events with the L2 request coalescer: SM s's events of round r from events[i] on, a
    // request's misses to one L1 line at a time. A request identical to one of another SM still on
    // its way is answered with that one: no lookup. Otherwise its sectors are looked up together
    // (see brought_) and it opens a window for others. Out of line: inlined, it cost the default
    // (coalescer off) replay about 5% in bench_gpu_model.
    [[gnu::noinline]] void replay_coalescing(std::uint32_t s, std::uint32_t r, const std::vector<L2Event>& events,
                                             std::size_t& i, std::uint64_t group) {
        const std::uint64_t in_line = (1ull << (l1_line_shift_ - l1_sector_shift_)) - 1;
        while (i < events.size() && events[i].round == r) {
            const L2Event& e = events[i];
            brought_.sectors = 0;
            if (e.kind != kLoad) {
                l2_write(s, e.address, e.kind == kStoreFull, e.array);
                ++i;
                continue;
            }
            const std::uint64_t line = e.address >> l1_line_shift_;
            std::size_t last = i;
            std::uint64_t sectors = 0;  // which sectors of the line the request missed
            for (; last < events.size() && events[last].round == r && events[last].kind == kLoad &&
                   (events[last].address >> l1_line_shift_) == line;
                 ++last)
                sectors |= 1ull << ((events[last].address >> l1_sector_shift_) & in_line);
            if (lrc_.merge(line, sectors, replay_round_, group)) {
                out_.ncu.l2_sectors_coalesced += last - i;
            } else {
                bool hit = true;
                for (std::size_t k = i; k < last; ++k) hit &= read_below_l1(s, events[k].address, events[k].array);
                lrc_.open(line, sectors, replay_round_, hit, group);
            }
            i = last;
        }
    }

    // One request of the warp in `slot` of SM s. Returns true when a load sector missed in L1.
    bool issue(std::uint32_t s, std::size_t slot) {
        const Warp& w = warps_[slot];
        const std::size_t lane0 = slot * ws_;
        const RequestShape shape = lanes_.generate(&xs_[lane0], &ys_[lane0], &base_a_[lane0], &base_b_[lane0],
                                                   interior_[slot] != 0, w.lanes, w.k, addresses_.data());
        if (shape.is_write) {
            ++out_.store_requests;
            out_.result.writes += w.lanes;
            coalescer_.coalesce(addresses_.data(), w.lanes, shape.size, request_);
            out_.store_sectors += request_.sector_count;
            store(s, w.lanes, shape);
            return false;
        }
        ++out_.load_requests;
        ++out_.ncu.l1_requests_ld;
        out_.result.reads += w.lanes;
        coalescer_.coalesce(addresses_.data(), w.lanes, shape.size, request_);
        out_.load_sectors += request_.sector_count;
        bool missed = false;
        for (const CoalescedLine& line : request_.lines) missed |= load_line(s, line, shape.array);
        return missed;
    }

    ArrayCounters& array_of(LevelStats& stats, std::uint16_t array) {
        return stats.per_array[array < stats.per_array.size() ? array : 0];
    }

    bool load_line(std::uint32_t s, const CoalescedLine& cl, std::uint16_t array) {
        const std::uint64_t wanted = cl.sectors;
        const std::uint32_t n = static_cast<std::uint32_t>(std::popcount(wanted));
        std::uint64_t hit = 0;
        bool filled = false;
        SectorEviction evicted;
        if (l1_enabled_) {
            SectorCache<P1>& cache = l1_[s];
            const std::uint32_t slot = cache.find(cl.line);
            if (slot != SectorCache<P1>::kNone) {
                hit = cache.valid(slot) & wanted;
                cache.touch(slot);
                if (hit != wanted) cache.add_sectors(slot, wanted & ~hit, 0);
            } else {
                cache.insert(cl.line, wanted, 0, evicted);
                filled = true;
            }
        }
        const std::uint32_t hits = static_cast<std::uint32_t>(std::popcount(hit));
        out_.ncu.l1_sectors_ld += n;
        out_.ncu.l1_sectors_ld_hit += hits;
        l1s_.reads += n;
        l1s_.read_hits += hits;
        l1s_.read_misses += n - hits;
        ArrayCounters& a = array_of(l1s_, array);
        a.reads += n;
        a.read_misses += n - hits;
        if (observer_) [[unlikely]]
            for (std::uint64_t m = wanted; m; m &= m - 1)
                observer_->on_lookup(0, cl.line, (hit >> std::countr_zero(m)) & 1u, false, array);
        const std::uint64_t missing = wanted & ~hit;
        for (std::uint64_t m = missing; m; m &= m - 1) {
            const std::uint64_t address = (cl.line << l1_line_shift_) +
                                          (static_cast<std::uint64_t>(std::countr_zero(m)) << l1_sector_shift_);
            l1s_.bytes_from_below += l1_sector_bytes_;
            events_[s].push_back({address, round_in_chunk_, array, kLoad});
        }
        l1s_.evictions += evicted.count;
        if (observer_) [[unlikely]] {
            for (std::uint32_t i = 0; i < evicted.count; ++i) observer_->on_evict(0, evicted.lines[i]);
            if (filled) observer_->on_fill(0, cl.line);
        }
        return missing != 0;
    }

    // Returns true when every L2 sector of the L1 sector hit in the near partition.
    bool read_below_l1(std::uint32_t s, std::uint64_t address, std::uint16_t array) {
        if (!l2_enabled_) {
            out_.ncu.dram_bytes_read += l1_sector_bytes_;
            out_.result.memory_bytes_read += l1_sector_bytes_;
            return false;
        }
        const std::uint64_t first = address >> l2g_.sector_shift;
        const std::uint64_t last = (address + l1_sector_bytes_ - 1) >> l2g_.sector_shift;
        bool hit = true;
        for (std::uint64_t sector = first; sector <= last; ++sector) hit &= l2_read(s, sector, array);
        return hit;
    }

    // An L1 sector miss reaching the L2 (lts__t_sectors_srcunit_tex_op_read). Returns true when
    // the near partition had it.
    bool l2_read(std::uint32_t s, std::uint64_t sector_id, std::uint16_t array) {
        const std::uint64_t line = sector_id >> l2_per_line_shift_;
        const std::uint32_t sector = static_cast<std::uint32_t>(sector_id & ((1ull << l2_per_line_shift_) - 1));
        const std::uint64_t bit = 1ull << sector;
        ++out_.ncu.l2_sectors_tex_read;
        ++l2s_.reads;
        ArrayCounters& a = array_of(l2s_, array);
        ++a.reads;
        if ((brought_.sectors & bit) && brought_.line == line) {
            // Brought by an earlier sector's miss of this request (from DRAM or over the link):
            // part of that fetch, so no lookup of its own and no hit. The H200 counts no hit
            // inside one request to a cold line, at the line's home or away (l1probe --pending).
            ++l2s_.read_misses;
            ++a.read_misses;
            if (observer_) [[unlikely]] observer_->on_lookup(1, line, false, false, array);
            return false;
        }
        const std::uint32_t p = partition_of_[s];
        SectorCache<P2>& near = l2_[p];
        const std::uint32_t slot = near.find(line);
        if (slot != SectorCache<P2>::kNone && (near.valid(slot) & bit)) {
            near.touch(slot);
            ++out_.ncu.l2_sectors_tex_read_hit;
            ++l2s_.read_hits;
            if (observer_) [[unlikely]] observer_->on_lookup(1, line, true, false, array);
            return true;
        }
        // Near miss. The near half wants the aligned --dram-fetch granule (less what it holds).
        std::uint32_t home = p;
        if (partitions_ > 1) home = home_fill_ ? home_of(line) : 1 - p;
        const std::uint32_t first = sector / granule_sectors_ * granule_sectors_;
        std::uint64_t granule = (granule_sectors_ >= 64 ? ~0ull : ((1ull << granule_sectors_) - 1)) << first;
        if (slot != SectorCache<P2>::kNone) granule &= ~near.valid(slot);
        // Home fill, the home is far: the granule is asked of the home half over the link, one
        // far lookup per sector; what the home lacks it reads from DRAM, and the granule is copied
        // to the near half. Near fill: the far half is asked for the sector, a miss reads the
        // granule into the near half. Otherwise the near half reads the granule from DRAM.
        const bool crossing = home_fill_ && home != p;
        const std::uint64_t asked = crossing ? granule : home != p ? bit : 0;
        std::uint64_t at_far = 0;
        std::uint32_t far_slot = SectorCache<P2>::kNone;
        if (asked) {
            SectorCache<P2>& far = l2_[home];
            far_slot = far.find(line);
            if (far_slot != SectorCache<P2>::kNone) at_far = far.valid(far_slot) & asked;
            if (at_far) far.touch(far_slot);
            const std::uint64_t lookups = static_cast<std::uint64_t>(std::popcount(asked));
            const std::uint64_t hits = static_cast<std::uint64_t>(std::popcount(at_far));
            out_.ncu.l2_sectors_fabric_read += lookups;
            out_.ncu.l2_sectors_fabric_read_hit += hits;
        }
        const bool far_hit = (at_far & bit) != 0;
        const std::uint64_t fetch = crossing || !far_hit ? granule : bit;  // what the near half receives
        if (far_hit) {
            ++l2s_.read_hits;
        } else {
            ++l2s_.read_misses;
            ++a.read_misses;
        }
        const std::uint64_t from_dram = crossing ? granule & ~at_far : far_hit ? 0 : granule;
        if (from_dram) {
            const std::uint64_t bytes = static_cast<std::uint64_t>(std::popcount(from_dram)) * l2g_.sector_bytes;
            out_.ncu.dram_bytes_read += bytes;
            out_.result.memory_bytes_read += bytes;
            l2s_.bytes_from_below += bytes;
            if (crossing) fill_l2(l2_[home], far_slot, line, from_dram, 0);
        }
        brought_.line = line;
        brought_.sectors |= fetch & ~bit;
        if (observer_) [[unlikely]] observer_->on_lookup(1, line, far_hit, false, array);
        out_.ncu.l2_sectors_tex_read_miss += static_cast<std::uint64_t>(std::popcount(fetch));
        fill_l2(near, slot, line, fetch, 0);
        return false;
    }

    static std::uint32_t home_of(std::uint64_t line) { return l2_home_partition(line); }

    // Brings sectors into a partition (a new line when slot is kNone); write-backs of victims.
    void fill_l2(SectorCache<P2>& cache, std::uint32_t slot, std::uint64_t line, std::uint64_t sectors,
                 std::uint64_t dirty) {
        if (slot != SectorCache<P2>::kNone) {
            cache.touch(slot);
            cache.add_sectors(slot, sectors, dirty);
            return;
        }
        SectorEviction evicted;
        cache.insert(line, sectors, dirty, evicted);
        for (std::uint32_t i = 0; i < evicted.count; ++i) {
            ++l2s_.evictions;
            const std::uint64_t written = static_cast<std::uint64_t>(std::popcount(evicted.dirty[i]));
            l2s_.writebacks += written;
            l2s_.bytes_to_below += written * l2g_.sector_bytes;
            out_.result.memory_bytes_written += written * l2g_.sector_bytes;
            if (observer_) [[unlikely]] observer_->on_evict(1, evicted.lines[i]);
        }
        if (observer_) [[unlikely]] observer_->on_fill(1, line);
    }

    // A store request: write-through the L1 (no lookup, no allocation), write-back the L2.
    void store(std::uint32_t s, std::uint32_t lanes, const RequestShape& shape) {
        for (const CoalescedLine& cl : request_.lines) {
            const std::uint64_t n = static_cast<std::uint64_t>(std::popcount(cl.sectors));
            l1s_.writes_forwarded += n;
            l1s_.bytes_to_below += n * l1_sector_bytes_;
        }
        if (!l2_enabled_) {
            const std::uint64_t bytes = static_cast<std::uint64_t>(request_.sector_count) * l1_sector_bytes_;
            out_.result.memory_bytes_written += bytes;
            return;
        }
        coalescer_.written_sectors(addresses_.data(), lanes, shape.size, l2g_.sector_shift, written_);
        for (const WrittenSector& w : written_)
            events_[s].push_back({w.sector, round_in_chunk_, shape.array, w.full ? kStoreFull : kStorePartial});
    }

    void l2_write(std::uint32_t s, std::uint64_t sector_id, bool full, std::uint16_t array) {
        const std::uint64_t line = sector_id >> l2_per_line_shift_;
        const std::uint64_t bit = 1ull << (sector_id & ((1ull << l2_per_line_shift_) - 1));
        ++l2s_.writes;
        ArrayCounters& a = array_of(l2s_, array);
        ++a.writes;
        SectorCache<P2>& near = l2_[partition_of_[s]];
        const std::uint32_t slot = near.find(line);
        const bool hit = slot != SectorCache<P2>::kNone && (near.valid(slot) & bit);
        if (hit) ++l2s_.write_hits;
        else {
            ++l2s_.write_misses;
            ++a.write_misses;
            if (!full) {  // a partial sector is merged with its data from DRAM
                out_.ncu.dram_bytes_read += l2g_.sector_bytes;
                out_.result.memory_bytes_read += l2g_.sector_bytes;
                l2s_.bytes_from_below += l2g_.sector_bytes;
            }
        }
        if (observer_) [[unlikely]] observer_->on_lookup(1, line, hit, true, array);
        fill_l2(near, slot, line, bit, bit);
    }

    const RunControl& control_;
    SimObserver* observer_;
    std::vector<std::vector<L2Event>> events_;  // per SM, the chunk's L2 traffic in order
    // Sectors the request being replayed has already brought into the near half with a miss of
    // an earlier sector (the rest of a DRAM granule or of a transfer over the link): its later
    // sectors there are part of the same fetch.
    struct {
        std::uint64_t line = ~0ull;
        std::uint64_t sectors = 0;
    } brought_;
    std::vector<std::size_t> cursor_;
    using Freed = std::tuple<std::uint64_t, std::uint64_t, std::uint32_t>;  // (round, refill rank, SM)
    std::priority_queue<Freed, std::vector<Freed>, std::greater<>> pending_;  // SMs whose block finished, awaiting a successor
    RequestCoalescer lrc_;  // the L2 request coalescer
    // With the coalescer grouping by block (neighbours, pairs), per SM and round of the chunk: the
    // launch block of the request issued; empty otherwise.
    std::vector<std::uint64_t> round_block_;
    static std::size_t block_of_round(std::uint32_t s, std::uint32_t round_in_chunk) {
        return static_cast<std::size_t>(s) * kChunkRounds + round_in_chunk % kChunkRounds;
    }
    std::uint64_t chunk_start_ = 0, last_round_ = 0, replay_round_ = 0;
    std::uint32_t round_in_chunk_ = 0;
    bool issued_any_ = false;
    GpuResult& out_;
    Coalescer coalescer_;
    CoalescedRequest request_;
    std::vector<WrittenSector> written_;
    std::vector<std::uint64_t> addresses_;
    std::vector<SectorCache<P1>> l1_;
    std::vector<SectorCache<P2>> l2_;
    CacheGeometry l2g_{};
    LevelStats l1s_, l2s_;
    bool l1_enabled_ = false, l2_enabled_ = false;
    std::uint32_t partitions_ = 1;
    bool home_fill_ = false;
    std::vector<std::uint32_t> partition_of_;  // SM -> its (near) L2 partition
    std::uint32_t l1_line_shift_ = 7, l1_sector_shift_ = 5, l1_sector_bytes_ = 32;
    std::uint32_t l2_per_line_shift_ = 2, granule_sectors_ = 1;
};

// A measured timeline must describe this launch on this GPU.
void validate_timeline(const WorkloadSpec& spec, const GpuConfig& config) {
    const WarpTimeline& t = *config.timeline;
    const std::string what = "warp timeline " + t.source + ": ";
    if (t.block != config.block)
        throw SimulationError(what + "measured with blocks of " + std::to_string(t.block) + " threads, the launch has " +
                              std::to_string(config.block));
    const std::uint32_t warps_per_block = (config.block + config.warp_size - 1) / config.warp_size;
    if (t.warps_per_block != warps_per_block)
        throw SimulationError(what + std::to_string(t.warps_per_block) + " warps per block, the launch has " +
                              std::to_string(warps_per_block) + " (warp size " + std::to_string(config.warp_size) + ")");
    const std::uint64_t warps = warps_in_range(spec.items(), config.block, config.warp_size);
    if (t.warps.size() != warps)
        throw SimulationError(what + std::to_string(t.warps.size()) + " warps, the launch has " + std::to_string(warps));
    for (std::size_t i = 0; i < t.warps.size(); ++i) {
        const WarpInterval& w = t.warps[i];
        if (w.sm >= config.sms)
            throw SimulationError(what + "block " + std::to_string(i / warps_per_block) + " warp " +
                                  std::to_string(i % warps_per_block) + " ran on SM " + std::to_string(w.sm) +
                                  ", the GPU has " + std::to_string(config.sms));
        if (w.end_ns < w.start_ns)
            throw SimulationError(what + "block " + std::to_string(i / warps_per_block) + " warp " +
                                  std::to_string(i % warps_per_block) + " ends before it starts");
    }
}

}  // namespace

GpuResult simulate_gpu_model(const WorkloadSpec& spec, const GpuConfig& config, const RunControl& control) {
    validate(spec);
    validate(config);
    if (config.timeline) validate_timeline(spec, config);
    GpuResult out;
    out.occupancy = gpu_occupancy(config);
    out.l1 = effective_l1(config);
    with_gpu_policy(config.l2.policy, [&]<class P2>() {
        with_gpu_policy(config.l1.policy, [&]<class P1>() {
            Engine<P1, P2> engine(spec, config, out.occupancy, control, out);
            if (config.timeline) engine.run_timed();
            else engine.run();
        });
    });
    return out;
}

}  // namespace cachesim
