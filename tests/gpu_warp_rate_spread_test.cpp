// Warps at their own rates (GpuConfig::warp_rate_spread): the rates' law, and a loose round robin
// in which each warp issues in proportion to its rate. The issue order itself is checked against
// a turn-by-turn reference on random launches in gpu_dispatch_test.cpp.
#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <map>
#include <vector>

#include "sim/gpu/gpu_model.hpp"
#include "sim/gpu/gpu_presets.hpp"
#include "tests/gpu_test_util.hpp"

namespace cachesim {
namespace {

// log(rate) = spread * (z - 3) with z standard normal, capped at rate 1 (z > 3: 0.13%).
TEST(GpuWarpRateSpread, RatesAreLogNormalAroundEMinusThreeSpread) {
    GpuConfig c = find_gpu_preset("h200")->config;
    c.warp_rate_spread = 0.05;
    std::vector<double> logs;
    std::size_t capped = 0;
    for (std::uint64_t block = 0; block < 2000; ++block)
        for (std::uint32_t warp = 0; warp < 8; ++warp) {
            const double rate = warp_issue_rate(c, block, warp);
            ASSERT_GT(rate, 0.0);
            ASSERT_LE(rate, 1.0);
            capped += rate == 1.0;
            logs.push_back(std::log(rate) / c.warp_rate_spread + 3.0);  // z, or 3 when capped
        }
    double mean = 0, var = 0;
    for (double z : logs) mean += z;
    mean /= static_cast<double>(logs.size());
    for (double z : logs) var += (z - mean) * (z - mean);
    var /= static_cast<double>(logs.size());
    EXPECT_NEAR(mean, 0.0, 0.05);
    EXPECT_NEAR(std::sqrt(var), 1.0, 0.05);
    EXPECT_LT(capped, logs.size() / 200);
}

// The normal z is the warp's own draw: the spread scales it, so log(rate) / spread + 3 is the same
// z at any spread (uncapped rates); another seed draws other z's.
TEST(GpuWarpRateSpread, TheSpreadScalesOneDrawPerWarp) {
    GpuConfig narrow = find_gpu_preset("h200")->config, wide = narrow, reseeded = narrow;
    narrow.warp_rate_spread = 0.05;
    wide.warp_rate_spread = 0.2;
    reseeded.warp_rate_spread = 0.05;
    reseeded.seed = narrow.seed + 1;
    std::size_t compared = 0, differ = 0;
    for (std::uint64_t block = 0; block < 50; ++block)
        for (std::uint32_t warp = 0; warp < 4; ++warp) {
            const double a = warp_issue_rate(narrow, block, warp), b = warp_issue_rate(wide, block, warp);
            if (a == 1.0 || b == 1.0) continue;
            ++compared;
            EXPECT_NEAR(std::log(a) / 0.05, std::log(b) / 0.2, 1e-9) << block << " " << warp;
            differ += warp_issue_rate(reseeded, block, warp) != a;
        }
    EXPECT_GT(compared, 190u);
    EXPECT_GT(differ, compared - 3);
}

// The scheduler's credit is the rate in 32-bit fixed point, rounded down, at least 1; with no
// spread every warp gets one whole request per turn.
TEST(GpuWarpRateSpread, CreditIsTheRateInFixedPoint) {
    GpuConfig c = find_gpu_preset("h200")->config;
    c.warp_rate_spread = 0.5;
    for (std::uint64_t block = 0; block < 20; ++block) {
        const double rate = warp_issue_rate(c, block, 1);
        const double scaled = std::ldexp(rate, 32);
        const std::uint64_t credit = warp_issue_credit(c, block, 1);
        EXPECT_LE(static_cast<double>(credit), scaled);
        EXPECT_GT(static_cast<double>(credit) + 1.0, scaled);
        EXPECT_GE(credit, 1u);
    }
    c.warp_rate_spread = 0;
    EXPECT_EQ(warp_issue_rate(c, 7, 3), 1.0);
    EXPECT_EQ(warp_issue_credit(c, 7, 3), std::uint64_t{1} << 32);
}

// One SM holding one block of four warps that each make 2,049 requests: over the first 2,000
// rounds each warp's share of the requests is its rate's share of the four rates (to within a
// request or two: the credits are exact integers), and with no spread the four take turns.
TEST(GpuWarpRateSpread, WarpsIssueInProportionToTheirRates) {
    GpuConfig c = with_sms(find_gpu_preset("h200")->config, 1);
    c.block = 128;
    c.max_blocks_per_sm = 1;
    c.warp_rate_spread = 0.5;  // rates far apart
    c.warp_rate_redraw = 0;    // each warp keeps its rate (gpu_warp_rate_redraw_test.cpp has redraws)
    c.issue_burst = 1;         // a request per credit (a burst spends one credit per group)
    c.block_start_skip = 0;
    c.miss_wait_turns = 0;     // a miss costs no turn (gpu_miss_wait_test.cpp)
    c.lockstep_warps = 0;      // one warp a scheduler: rates drawn all the same (not in lock step)
    std::vector<GpuIssue> log;
    c.issue_log = &log;
    simulate_gpu_model(test::matmul(128, 1, 1024), c);
    std::sort(log.begin(), log.end(), [](const GpuIssue& a, const GpuIssue& b) { return a.round < b.round; });
    constexpr std::uint64_t kRounds = 2000;
    std::map<std::uint32_t, double> issued;
    for (const GpuIssue& i : log)
        if (i.round < kRounds) ++issued[i.warp];
    double total_rate = 0;
    for (std::uint32_t w = 0; w < 4; ++w) total_rate += warp_issue_rate(c, 0, w);
    for (std::uint32_t w = 0; w < 4; ++w)
        EXPECT_NEAR(issued[w], kRounds * warp_issue_rate(c, 0, w) / total_rate, 2.0) << "warp " << w;
    // The slowest and the fastest warp differ: the spread does something at all.
    double lo = 1, hi = 0;
    for (std::uint32_t w = 0; w < 4; ++w) {
        lo = std::min(lo, warp_issue_rate(c, 0, w));
        hi = std::max(hi, warp_issue_rate(c, 0, w));
    }
    EXPECT_LT(lo, 0.8 * hi);

    log.clear();
    c.warp_rate_spread = 0;
    simulate_gpu_model(test::matmul(128, 1, 1024), c);
    std::sort(log.begin(), log.end(), [](const GpuIssue& a, const GpuIssue& b) { return a.round < b.round; });
    for (std::size_t r = 0; r < 400; ++r) EXPECT_EQ(log[r].warp, r % 4) << "round " << r;
}

// Sharers drift apart: the naive matmul's blocks that read the same rows of B hit less in L1 the
// more unevenly their warps progress (README "Fidelity against the H200"), while a stencil, whose
// warps live for ten requests and reuse mostly their own sectors, hardly notices.
TEST(GpuWarpRateSpread, DriftCostsTheNaiveMatmulItsSharing) {
    GpuConfig c = with_sms(find_gpu_preset("h200")->config, 8);
    c.block = 128;
    c.l1_auto = false;
    c.l1.size_bytes = 16 * 1024;  // small: sharers fall out of reach within a few dozen steps
    c.warp_rate_redraw = 0;       // fixed rates: drift grows with the loop's length
    c.block_start_skip = 0;       // blocks start together: only the rates part the sharers
    auto l1_rate = [&](double spread, const char* schedule) {
        GpuConfig run = c;
        run.warp_rate_spread = spread;
        return simulate_gpu_model(test::matmul(256, 64, 256, schedule), run).ncu.l1_hit_rate_pct();
    };
    const double still = l1_rate(0.0, "linear"), drifting = l1_rate(0.2, "linear");
    EXPECT_LT(drifting, still - 5.0) << still << " -> " << drifting;
    auto stencil_rate = [&](double spread) {
        GpuConfig run = c;
        run.warp_rate_spread = spread;
        return simulate_gpu_model(test::stencil(256, 64, 3), run).ncu.l1_hit_rate_pct();
    };
    EXPECT_NEAR(stencil_rate(0.2), stencil_rate(0.0), 1.0);
}

TEST(GpuWarpRateSpread, OutOfRangeIsRefused) {
    GpuConfig c = find_gpu_preset("h200")->config;
    for (double bad : {-0.1, 1.5, std::nan("")}) {
        c.warp_rate_spread = bad;
        EXPECT_THROW(validate(c), SimulationError) << bad;
    }
    c.warp_rate_spread = 0.05;
    c.scheduler = WarpScheduler::gto;  // gto ignores the spread
    EXPECT_NO_THROW(validate(c));
}

}  // namespace
}  // namespace cachesim
