// Block dispatch and warp interleaving: small launches worked by hand, and random launches checked
// against a plain round-by-round reference of the rules (first wave up to the resident limit,
// then each new block to the SM that frees first, SMs of one round in refill-rank order; one
// request per SM per round; loose round robin or greedy-then-oldest inside an SM).
#include <gtest/gtest.h>

#include <algorithm>
#include <map>
#include <tuple>

#include "sim/gpu/gpu_model.hpp"
#include "sim/gpu/gpu_presets.hpp"
#include "sim/gpu/warp_rate.hpp"
#include "sim/rng.hpp"
#include "tests/gpu_test_util.hpp"

namespace cachesim {
namespace {

using test::matmul;

std::vector<GpuIssue> run(const WorkloadSpec& spec, GpuConfig c) {
    std::vector<GpuIssue> log;
    c.issue_log = &log;
    simulate_gpu_model(spec, c);
    std::sort(log.begin(), log.end(), [](const GpuIssue& a, const GpuIssue& b) {
        return std::tie(a.round, a.sm) < std::tie(b.round, b.sm);
    });
    return log;
}

GpuConfig gpu(std::uint32_t sms, std::uint32_t block, std::uint32_t blocks_per_sm, CtaOrder order) {
    GpuConfig c = with_sms(find_gpu_preset("h200")->config, sms);
    c.block = block;
    c.max_blocks_per_sm = blocks_per_sm;
    c.cta_order = order;
    c.cta_refill = CtaRefill::sm_order;  // hand-worked orders; the shuffled refill has its own tests
    c.issue_burst = 1;                   // one request per turn, blocks starting at once: the
    c.block_start_skip = 0;              // random launches below have bursts and skips
    c.warp_rate_spread = 0;              // and rates: the hand-worked orders are in lock step
    c.miss_wait_turns = 0;               // a miss delays no warp (gpu_miss_wait_test.cpp)
    return c;
}

using Key = std::tuple<std::uint64_t, std::uint32_t, std::uint64_t, std::uint32_t, std::uint32_t>;
Key key(const GpuIssue& i) { return {i.round, i.sm, i.block, i.warp, i.k}; }

// 2 SMs holding one block each, 4 blocks of one warp, 3 requests per warp (matmul depth 1).
TEST(GpuDispatch, RoundRobinFirstWaveThenFreedSms) {
    const auto log = run(matmul(128, 1, 1), gpu(2, 32, 1, CtaOrder::round_robin));
    const std::vector<Key> expected = {
        {0, 0, 0, 0, 0}, {0, 1, 1, 0, 0}, {1, 0, 0, 0, 1}, {1, 1, 1, 0, 1}, {2, 0, 0, 0, 2}, {2, 1, 1, 0, 2},
        // both blocks end in round 2; SM 0 frees first (it issues first), so it gets block 2
        {3, 0, 2, 0, 0}, {3, 1, 3, 0, 0}, {4, 0, 2, 0, 1}, {4, 1, 3, 0, 1}, {5, 0, 2, 0, 2}, {5, 1, 3, 0, 2}};
    ASSERT_EQ(log.size(), expected.size());
    for (std::size_t i = 0; i < log.size(); ++i) EXPECT_EQ(key(log[i]), expected[i]) << i;
}

// The same launch with the shuffled refill: the SM of smaller rank in round 2 gets block 2.
TEST(GpuDispatch, ShuffledRefillServesSmsOfOneRoundInRankOrder) {
    for (std::uint64_t seed = 1; seed <= 8; ++seed) {
        GpuConfig c = gpu(2, 32, 1, CtaOrder::round_robin);
        c.cta_refill = CtaRefill::shuffled;
        c.seed = seed;
        const auto log = run(matmul(128, 1, 1), c);
        ASSERT_EQ(log.size(), 12u);
        const std::uint32_t first = cta_refill_rank(c, 2, 0) < cta_refill_rank(c, 2, 1) ? 0 : 1;
        for (const GpuIssue& i : log) {
            if (i.round < 3) continue;
            EXPECT_EQ(i.block, i.sm == first ? 2u : 3u) << "seed " << seed;
        }
    }
}

// The shuffled ranks are a fair permutation: over many rounds every SM comes first about equally
// often, ranks are distinct within a round, and the same seed gives the same order.
TEST(GpuDispatch, ShuffledRefillRanksAreFairAndDeterministic) {
    GpuConfig c = gpu(4, 32, 1, CtaOrder::round_robin);
    c.cta_refill = CtaRefill::shuffled;
    std::vector<int> first(4, 0);
    for (std::uint64_t round = 0; round < 4000; ++round) {
        std::uint32_t best = 0;
        for (std::uint32_t sm = 1; sm < 4; ++sm) {
            ASSERT_NE(cta_refill_rank(c, round, sm), cta_refill_rank(c, round, best));
            if (cta_refill_rank(c, round, sm) < cta_refill_rank(c, round, best)) best = sm;
        }
        ++first[best];
    }
    for (int n : first) {
        EXPECT_GT(n, 850);
        EXPECT_LT(n, 1150);
    }
    GpuConfig again = c;
    EXPECT_EQ(cta_refill_rank(c, 77, 3), cta_refill_rank(again, 77, 3));
    c.cta_refill = CtaRefill::sm_order;
    EXPECT_EQ(cta_refill_rank(c, 77, 3), 3u);
}

// Fill order: SM 0 takes blocks 0 and 1, SM 1 blocks 2 and 3; inside an SM the two warps alternate.
TEST(GpuDispatch, FillFirstWaveAndLooseRoundRobin) {
    const auto log = run(matmul(128, 1, 1), gpu(2, 32, 2, CtaOrder::fill));
    const std::vector<Key> expected = {
        {0, 0, 0, 0, 0}, {0, 1, 2, 0, 0}, {1, 0, 1, 0, 0}, {1, 1, 3, 0, 0}, {2, 0, 0, 0, 1}, {2, 1, 2, 0, 1},
        {3, 0, 1, 0, 1}, {3, 1, 3, 0, 1}, {4, 0, 0, 0, 2}, {4, 1, 2, 0, 2}, {5, 0, 1, 0, 2}, {5, 1, 3, 0, 2}};
    ASSERT_EQ(log.size(), expected.size());
    for (std::size_t i = 0; i < log.size(); ++i) EXPECT_EQ(key(log[i]), expected[i]) << i;
    // Round robin instead: SM 0 takes blocks 0 and 2.
    const auto rr = run(matmul(128, 1, 1), gpu(2, 32, 2, CtaOrder::round_robin));
    EXPECT_EQ(rr[0].block, 0u);
    EXPECT_EQ(rr[1].block, 1u);
    EXPECT_EQ(rr[2].block, 2u);
    EXPECT_EQ(rr[3].block, 3u);
}

// Warps of one block take turns: a block of 3 warps on one SM, 3 requests each.
TEST(GpuDispatch, WarpsOfABlockTakeTurns) {
    const auto log = run(matmul(96, 1, 1), gpu(1, 96, 1, CtaOrder::round_robin));
    ASSERT_EQ(log.size(), 9u);
    for (std::uint32_t i = 0; i < 9; ++i) {
        EXPECT_EQ(log[i].round, i);
        EXPECT_EQ(log[i].warp, i % 3);
        EXPECT_EQ(log[i].k, i / 3);
    }
}

// Greedy then oldest: warp 0 runs until a request misses in L1, then the oldest ready warp;
// when all have missed, all are released and the oldest goes first. matmul 64x1, depth 4, one
// SM, two warps. Warp 0: A[0] misses -> warp 1: A[0] hits, B row 0 misses -> both waiting ->
// warp 0: B row 0 misses -> warp 1 (oldest ready): A[1] hits, B row 1 misses -> ...
TEST(GpuDispatch, GreedyThenOldest) {
    GpuConfig c = gpu(1, 32, 2, CtaOrder::round_robin);
    c.scheduler = WarpScheduler::gto;
    const auto log = run(matmul(64, 1, 4), c);
    std::vector<std::pair<std::uint64_t, std::uint32_t>> order;  // (block, k)
    for (const GpuIssue& i : log) order.push_back({i.block, i.k});
    const std::vector<std::pair<std::uint64_t, std::uint32_t>> expected = {
        {0, 0}, {1, 0}, {1, 1}, {0, 1}, {1, 2}, {1, 3}, {0, 2}, {0, 3}, {1, 4}, {1, 5},
        {0, 4}, {0, 5}, {1, 6}, {1, 7}, {0, 6}, {0, 7}, {1, 8}, {0, 8}};
    EXPECT_EQ(order, expected);
}

// The reference: the rules played round by round, with every SM in SM order.
std::vector<Key> reference(const WorkloadSpec& spec, const GpuConfig& c,
                           const std::map<std::tuple<std::uint64_t, std::uint32_t, std::uint32_t>, bool>& misses) {
    const std::uint64_t n = spec.items();
    const std::uint32_t K = spec.accesses_per_item();
    const std::uint32_t wpb = (c.block + c.warp_size - 1) / c.warp_size;
    const GpuOccupancy occ = gpu_occupancy(c);
    const std::uint32_t bps = occ.blocks_per_sm;
    const std::uint64_t blocks = (n + c.block - 1) / c.block;
    struct W {
        bool live = false, stalled = false;
        std::uint64_t block = 0, age = 0;
        std::uint32_t warp = 0, k = 0;
        std::uint64_t rate = kWarpCreditOne, credit = kWarpCreditOne;  // rate spread (lrr)
        std::uint32_t skip = 0;  // block start skip (lrr): turns still to be passed over
    };
    const std::uint32_t burst = issue_burst_for(c, &spec);
    std::vector<std::vector<W>> sm(c.sms, std::vector<W>(static_cast<std::size_t>(bps) * wpb));
    std::vector<std::vector<std::uint32_t>> left(c.sms, std::vector<std::uint32_t>(bps, 0));
    std::vector<std::uint32_t> last(c.sms, bps * wpb - 1), current(c.sms, ~0u);
    std::uint64_t next = 0, age = 0;
    auto dispatch = [&](std::uint32_t s) {
        std::uint32_t j = 0;
        while (left[s][j]) ++j;
        for (std::uint32_t w = 0; w < wpb; ++w) {
            const std::uint64_t tid0 = next * c.block + w * c.warp_size;
            if (tid0 >= n || w * c.warp_size >= c.block) break;
            sm[s][j * wpb + w] = W{true, false, next, age++, w, 0, warp_issue_credit(c, next, w), kWarpCreditOne,
                                   c.scheduler == WarpScheduler::lrr ? block_start_skip_turns(c, next) : 0};
            ++left[s][j];
        }
        ++next;
    };
    if (c.cta_order == CtaOrder::fill) {
        for (std::uint32_t s = 0; s < c.sms; ++s)
            for (std::uint32_t r = 0; r < bps && next < blocks; ++r) dispatch(s);
    } else {
        for (std::uint32_t r = 0; r < bps; ++r)
            for (std::uint32_t s = 0; s < c.sms && next < blocks; ++s) dispatch(s);
    }
    std::vector<Key> out;
    for (std::uint64_t round = 0;; ++round) {
        bool any = false;
        std::vector<std::uint32_t> freed;
        for (std::uint32_t s = 0; s < c.sms; ++s) {
            auto& ws = sm[s];
            const std::uint32_t slots = static_cast<std::uint32_t>(ws.size());
            std::uint32_t pick = ~0u;
            if (c.scheduler == WarpScheduler::lrr && ws[last[s]].live && ws[last[s]].k % burst != 0) {
                pick = last[s];  // inside a burst: the same warp again
            } else if (c.scheduler == WarpScheduler::lrr) {
                // Walk the turn warp by warp (no skipping ahead): each live warp reached is passed
                // over while it has start skips left, else gains its rate and issues once its
                // credit makes a request.
                bool any_live = false;
                for (const W& w : ws) any_live |= w.live;
                for (std::uint32_t i = 1; any_live && pick == ~0u; ++i) {
                    W& w = ws[(last[s] + i) % slots];
                    if (!w.live) continue;
                    if (w.skip) {
                        --w.skip;
                        continue;
                    }
                    w.credit += w.rate;
                    if (w.credit >= kWarpCreditOne) {
                        w.credit -= kWarpCreditOne;
                        pick = (last[s] + i) % slots;
                    }
                }
                if (pick != ~0u) last[s] = pick;
            } else {
                if (current[s] != ~0u && ws[current[s]].live && !ws[current[s]].stalled) pick = current[s];
                for (int pass = 0; pass < 2 && pick == ~0u; ++pass) {
                    for (std::uint32_t i = 0; i < slots; ++i)
                        if (ws[i].live && (pass == 1 || !ws[i].stalled) && (pick == ~0u || ws[i].age < ws[pick].age)) pick = i;
                    if (pick == ~0u) break;
                    if (pass == 1) for (auto& w : ws) w.stalled = false;
                }
                if (pick == ~0u) {  // every live warp stalled: release them, oldest first
                    for (auto& w : ws) w.stalled = false;
                    for (std::uint32_t i = 0; i < slots; ++i)
                        if (ws[i].live && (pick == ~0u || ws[i].age < ws[pick].age)) pick = i;
                }
                current[s] = pick;
            }
            if (pick == ~0u) continue;
            any = true;
            W& w = ws[pick];
            out.push_back({round, s, w.block, w.warp, w.k});
            const auto m = misses.find({w.block, w.warp, w.k});
            w.stalled = c.scheduler == WarpScheduler::gto && m != misses.end() && m->second;
            if (++w.k == K) {
                w.live = false;
                if (--left[s][pick / wpb] == 0) freed.push_back(s);
            }
        }
        if (!any) break;
        std::sort(freed.begin(), freed.end(), [&](std::uint32_t a, std::uint32_t b) {
            return cta_refill_rank(c, round, a) < cta_refill_rank(c, round, b);
        });
        for (std::uint32_t s : freed)
            if (next < blocks) dispatch(s);
    }
    return out;
}

TEST(GpuDispatch, RandomLaunchesFollowTheRules) {
    Rng rng(2024);
    for (int trial = 0; trial < 60; ++trial) {
        WorkloadSpec spec;
        spec.kind = trial % 2 ? WorkloadKind::stencil : WorkloadKind::matmul;
        spec.width = 8 + rng.below(90);
        spec.height = 1 + rng.below(30);
        spec.stencil_w = spec.stencil_h = 1 + 2 * rng.below(2);
        spec.depth = 1 + rng.below(6);
        const char* schedules[] = {"linear", "column:8", "zigzag:5", "morton"};
        spec.schedule = parse_schedule(schedules[rng.below(4)]);
        GpuConfig c = with_sms(find_gpu_preset("h200")->config, 1 + rng.below(7));
        c.block = 32 * (1 + rng.below(4)) - (trial % 3 == 0 ? rng.below(20) : 0);
        c.max_blocks_per_sm = 1 + rng.below(4);
        c.cta_order = rng.below(2) ? CtaOrder::fill : CtaOrder::round_robin;
        c.scheduler = rng.below(2) ? WarpScheduler::gto : WarpScheduler::lrr;
        // lrr: in step, or each warp at its own rate (spread up to 1: rates down to e^-10, so that
        // whole turns pass without a request and the model skips them)
        c.warp_rate_spread = rng.below(3) == 0 ? 0.0 : 0.05 * (1 + rng.below(20));
        c.cta_refill = rng.below(2) ? CtaRefill::shuffled : CtaRefill::sm_order;
        // lrr: one request per turn, the workload's burst, or a few; blocks starting up to a few
        // turns late (their skips are skipped arithmetically along with empty turns)
        const std::uint32_t bursts[] = {1, kIssueBurstAuto, 2, 3, 7};
        c.issue_burst = bursts[rng.below(5)];
        c.block_start_skip = rng.below(2) ? 0 : rng.below(5);
        c.miss_wait_turns = 0;  // the reference knows no miss waits (gpu_miss_wait_test.cpp has them)
        c.lockstep_warps = 0;   // rates drawn at any residency (gpu_lockstep_warps_test.cpp has the lock step)
        c.seed = 1 + rng.below(1000);
        c.l1_auto = false;
        c.l1.size_bytes = 128 * (4 + rng.below(16));  // small: misses happen, GTO switches
        c = with_rate_form(c, nullptr);  // the rate scope a run takes for this L1, as the reference's scheduler needs
        c.l2.size_bytes = 65536;
        const auto log = run(spec, c);
        std::map<std::tuple<std::uint64_t, std::uint32_t, std::uint32_t>, bool> misses;
        for (const GpuIssue& i : log) misses[{i.block, i.warp, i.k}] = i.l1_miss;
        std::vector<Key> got;
        for (const GpuIssue& i : log) got.push_back(key(i));
        ASSERT_EQ(got, reference(spec, c, misses)) << "trial " << trial << ": " << spec.describe();
    }
}

}  // namespace
}  // namespace cachesim
