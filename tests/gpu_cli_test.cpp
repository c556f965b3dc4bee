// cachesim simulate --model gpu end to end: presets, the "ncu" object, explicit options over a
// preset, the reduced-size sector identity, and invalid GPU options (exit code 2).
#include <gtest/gtest.h>

#include <fstream>

#include <nlohmann/json.hpp>

#include "tests/cli_util.hpp"

namespace cachesim {
namespace {

using test::run_cachesim;

nlohmann::json run_json(const std::string& args) {
    const auto r = run_cachesim("simulate " + args + " --format json");
    EXPECT_EQ(r.exit_code, 0) << args << "\n" << r.err;
    return nlohmann::json::parse(r.out);
}

std::string parameter(const nlohmann::json& j, const std::string& key) {
    return j.at("parameters").at(key).get<std::string>();
}

TEST(GpuCli, NcuObjectHasExactlyTheMetricNames) {
    const auto j = run_json("--preset h200 --workload matmul --size 128x128 --depth 128 --block 128");
    EXPECT_EQ(j.at("model"), "gpu");
    const std::vector<std::string> names = {
        "l1tex__t_requests_pipe_lsu_mem_global_op_ld.sum",
        "l1tex__t_sectors_pipe_lsu_mem_global_op_ld.sum",
        "l1tex__t_sectors_pipe_lsu_mem_global_op_ld_lookup_hit.sum",
        "l1tex__t_sector_pipe_lsu_mem_global_op_ld_hit_rate.pct",
        "lts__t_sectors_srcunit_tex_op_read.sum",
        "lts__t_sectors_srcunit_tex_op_read_lookup_hit.sum",
        "lts__t_sectors_srcunit_tex_op_read_lookup_miss.sum",
        "lts__t_sectors_srcunit_ltcfabric_op_read.sum",
        "lts__t_sectors_srcunit_ltcfabric_op_read_lookup_hit.sum",
        "lrc__request_sectors_op_read_coalescing_achieved_type_hardware.sum",
        "lts__t_sector_op_read_hit_rate.pct",
        "dram__bytes_read.sum"};
    const auto& ncu = j.at("ncu");
    ASSERT_EQ(ncu.size(), names.size());
    for (const std::string& n : names) EXPECT_TRUE(ncu.contains(n)) << n;
    // The identity at a reduced size: 128*128/32 warps x 128 steps x (1 A + 4 B sectors).
    EXPECT_EQ(ncu.at("l1tex__t_sectors_pipe_lsu_mem_global_op_ld.sum").get<double>(), 128.0 * 128 / 32 * 128 * 5);
    EXPECT_EQ(ncu.at("l1tex__t_requests_pipe_lsu_mem_global_op_ld.sum").get<double>(), 128.0 * 128 / 32 * 128 * 2);
    // "levels" as usual: L1 (all SMs) and L2; the L1 hit count is the ncu one.
    ASSERT_EQ(j.at("levels").size(), 2u);
    EXPECT_EQ(j.at("levels")[0].at("name"), "L1");
    EXPECT_EQ(j.at("levels")[0].at("read_hits").get<double>(),
              ncu.at("l1tex__t_sectors_pipe_lsu_mem_global_op_ld_lookup_hit.sum").get<double>());
    EXPECT_EQ(parameter(j, "block"), "128");
    EXPECT_EQ(parameter(j, "sms"), "132");
    EXPECT_EQ(parameter(j, "resident_blocks_per_sm"), "16");
    // The H200's driver carves out 32 KiB at block 128 without shared memory (tests/data/h200/smem/carveout.csv).
    EXPECT_EQ(parameter(j, "l1_bytes_per_sm"), std::to_string(224 * 1024));
}

// Later waves: the refill order is reported, a seed gives the same run every time, and the two
// orders place the naive matmul's blocks differently (SM order replays the first wave's sharing,
// so more L1 hits). 8 SMs x 4 blocks of 128 per wave, 64 blocks: two waves.
TEST(GpuCli, CtaRefillOrderIsReportedDeterministicAndMatters) {
    // Warps in lock step (no rate spread, blocks starting at once), so that whole waves free their
    // slots in one round and the refill order decides where the next blocks go.
    const std::string launch =
        "--preset h200 --workload matmul --size 256x32 --depth 64 --block 128 --sms 8 --blocks-per-sm 4 "
        "--warp-rate-spread 0 --block-start-skip 0";
    const auto shuffled = run_json(launch);
    const auto again = run_json(launch);
    const auto sm_order = run_json(launch + " --cta-refill sm-order");
    EXPECT_EQ(parameter(shuffled, "cta_refill"), "shuffled");
    EXPECT_EQ(parameter(sm_order, "cta_refill"), "sm-order");
    const std::string hits = "l1tex__t_sectors_pipe_lsu_mem_global_op_ld_lookup_hit.sum";
    EXPECT_EQ(shuffled.at("ncu").at(hits), again.at("ncu").at(hits));
    EXPECT_GT(sm_order.at("ncu").at(hits).get<double>(), shuffled.at("ncu").at(hits).get<double>());
    // The sector count follows from coalescing alone: the same under both orders.
    const std::string sectors = "l1tex__t_sectors_pipe_lsu_mem_global_op_ld.sum";
    EXPECT_EQ(shuffled.at("ncu").at(sectors), sm_order.at("ncu").at(sectors));
}

TEST(GpuCli, PresetValuesAndOverrides) {
    const auto h200 = run_json("--preset h200 --size 64x64 --stencil 3x3");
    EXPECT_EQ(parameter(h200, "gpu"), "h200");
    EXPECT_EQ(parameter(h200, "l2_partitions"), "2");
    EXPECT_EQ(parameter(h200, "l2_partition_map"), "floorplan");
    EXPECT_EQ(parameter(h200, "cta_order"), "floorplan-turns");
    EXPECT_EQ(parameter(h200, "dram_fetch_bytes"), "64");
    EXPECT_EQ(h200.at("levels")[1].at("config").at("size_bytes"), 62914560);
    EXPECT_EQ(h200.at("levels")[0].at("config").at("line_bytes"), 128);
    EXPECT_EQ(h200.at("levels")[0].at("config").at("sector_bytes"), 32);
    // block 256 without shared memory: the H200's driver carves out 32 KiB (tests/data/h200/smem/carveout.csv)
    EXPECT_EQ(parameter(h200, "l1_bytes_per_sm"), std::to_string(224 * 1024));
    // --model gpu alone means the h200 preset.
    const auto plain = run_json("--model gpu --size 64x64 --stencil 3x3");
    EXPECT_EQ(parameter(plain, "gpu"), "h200");
    EXPECT_EQ(plain.at("ncu"), h200.at("ncu"));
    // Explicit options win over the preset.
    const auto custom = run_json("--preset h200 --sms 4 --l2-partitions 2 --l1-size 64K --l2-size 1M --size 64x64 --stencil 3x3");
    EXPECT_EQ(parameter(custom, "sms"), "4");
    EXPECT_EQ(parameter(custom, "l2_partitions"), "2");
    // The measured floorplan is the 132-SM chip's: with 4 SMs, round robin and halves stand in.
    EXPECT_EQ(parameter(custom, "cta_order"), "round-robin");
    EXPECT_EQ(parameter(custom, "l2_partition_map"), "halves");
    EXPECT_EQ(custom.at("levels")[0].at("config").at("size_bytes"), 65536);
    EXPECT_EQ(custom.at("levels")[1].at("config").at("size_bytes"), 1048576);
    const auto a100 = run_json("--preset a100 --size 64x64 --stencil 3x3");
    EXPECT_EQ(parameter(a100, "l2_partitions"), "2");
    EXPECT_EQ(parameter(a100, "l2_fill"), "home");
    for (const char* preset : {"v100", "t4", "a100", "h100"}) {
        const auto j = run_json(std::string("--preset ") + preset + " --size 64x64 --stencil 3x3 --block 128");
        EXPECT_EQ(j.at("model"), "gpu") << preset;
        EXPECT_EQ(parameter(j, "gpu"), preset);
    }
    const auto t4 = run_json("--preset t4 --size 64x64 --stencil 3x3 --block 1024");
    EXPECT_EQ(parameter(t4, "sms"), "40");
    EXPECT_EQ(parameter(t4, "resident_blocks_per_sm"), "1");
    EXPECT_EQ(parameter(t4, "l1_bytes_per_sm"), std::to_string(64 * 1024));
    EXPECT_EQ(t4.at("levels")[0].at("config").at("policy"), "random4");
}

TEST(GpuCli, TableAndCsvShowTheCounters) {
    const auto table = run_cachesim("simulate --preset h200 --size 64x64 --stencil 3x3");
    EXPECT_EQ(table.exit_code, 0) << table.err;
    EXPECT_NE(table.out.find("(gpu model)"), std::string::npos);
    EXPECT_NE(table.out.find("lts__t_sectors_srcunit_tex_op_read_lookup_hit.sum"), std::string::npos);
    const auto csv = run_cachesim("simulate --preset h200 --size 64x64 --stencil 3x3 --format csv");
    EXPECT_EQ(csv.exit_code, 0) << csv.err;
    EXPECT_NE(csv.out.find("dram__bytes_read.sum"), std::string::npos);
    EXPECT_NE(csv.out.find("resident_blocks_per_sm"), std::string::npos);
}

// The H200 preset runs on its measured floorplan; the first wave's order changes where blocks
// run (so the L2 halves' traffic) but not what the warps request or what DRAM sends.
TEST(GpuCli, H200FloorplanOptions) {
    const std::string launch = "--preset h200 --size 256x256 --stencil 3x3";
    const auto plan = run_json(launch);
    const auto rr = run_json(launch + " --cta-order round-robin --l2-partition-map halves");
    EXPECT_EQ(parameter(plan, "cta_order"), "floorplan-turns");
    EXPECT_EQ(parameter(plan, "l2_partition_map"), "floorplan");
    EXPECT_EQ(parameter(rr, "cta_order"), "round-robin");
    EXPECT_EQ(plan.at("ncu").at("l1tex__t_sectors_pipe_lsu_mem_global_op_ld.sum"),
              rr.at("ncu").at("l1tex__t_sectors_pipe_lsu_mem_global_op_ld.sum"));
    EXPECT_NE(parameter(plan, "l2_far_lookups"), parameter(rr, "l2_far_lookups"));
}

// L2 request coalescing: off in the h200 preset, on with its windows (the two SMs of a TPC, or
// all SMs). Identical requests share lookups: L1 misses = L2 tex reads + coalesced sectors, and
// what the warps request and what DRAM sends do not change.
TEST(GpuCli, L2RequestCoalescingOption) {
    const std::string launch = "--preset h200 --size 256x256 --stencil 3x3 --schedule column:32 --block 128";
    const auto preset = run_json(launch);
    const auto off = run_json(launch + " --l2-coalesce-hit 0 --l2-coalesce-miss 0");
    const auto tpc = run_json(launch + " --l2-coalesce-among tpc");
    const auto all = run_json(launch + " --l2-coalesce-among all --l2-coalesce-max 3");
    EXPECT_EQ(parameter(preset, "l2_coalesce_hit_rounds"), "50");
    EXPECT_EQ(parameter(preset, "l2_coalesce_miss_rounds"), "200");
    EXPECT_EQ(parameter(preset, "l2_coalesce_among"), "pairs");
    EXPECT_EQ(parameter(off, "l2_coalesce_hit_rounds"), "0");
    EXPECT_EQ(parameter(off, "l2_coalesce_miss_rounds"), "0");
    EXPECT_EQ(parameter(off, "l2_sectors_coalesced"), "0");
    EXPECT_EQ(parameter(tpc, "l2_coalesce_among"), "tpc");
    EXPECT_EQ(parameter(all, "l2_coalesce_among"), "all");
    EXPECT_EQ(parameter(all, "l2_coalesce_max"), "3");
    for (const auto* j : {&preset, &tpc, &all}) {
        const auto& n = j->at("ncu");
        const double l1_misses = n.at("l1tex__t_sectors_pipe_lsu_mem_global_op_ld.sum").get<double>() -
                                 n.at("l1tex__t_sectors_pipe_lsu_mem_global_op_ld_lookup_hit.sum").get<double>();
        const double coalesced = std::stod(parameter(*j, "l2_sectors_coalesced"));
        EXPECT_GT(coalesced, 0);
        EXPECT_EQ(n.at("lrc__request_sectors_op_read_coalescing_achieved_type_hardware.sum").get<double>(), coalesced);
        EXPECT_EQ(l1_misses, n.at("lts__t_sectors_srcunit_tex_op_read.sum").get<double>() + coalesced);
        EXPECT_EQ(n.at("l1tex__t_sectors_pipe_lsu_mem_global_op_ld_lookup_hit.sum"),
                  off.at("ncu").at("l1tex__t_sectors_pipe_lsu_mem_global_op_ld_lookup_hit.sum"));
        EXPECT_EQ(n.at("dram__bytes_read.sum"), off.at("ncu").at("dram__bytes_read.sum"));
    }
    EXPECT_EQ(off.at("ncu").at("lrc__request_sectors_op_read_coalescing_achieved_type_hardware.sum").get<double>(), 0);
}

// The h200 preset's warps progress at spread rates drawn afresh every 32 requests; "parameters"
// says what applied (gto ignores both; without a spread there is nothing to redraw), and the
// spread changes where warps are, never what they access.
TEST(GpuCli, WarpRateSpreadIsThePresetsAndReported) {
    const std::string launch = "--preset h200 --workload matmul --size 256x64 --depth 128 --block 128 --sms 8";
    const auto preset = run_json(launch);
    const auto lockstep = run_json(launch + " --warp-rate-spread 0");
    const auto gto = run_json(launch + " --warp-scheduler gto");
    EXPECT_EQ(parameter(preset, "warp_rate_spread"), "0.15");
    EXPECT_EQ(parameter(preset, "warp_rate_redraw"), "32");
    EXPECT_EQ(parameter(lockstep, "warp_rate_spread"), "0");
    EXPECT_EQ(parameter(lockstep, "warp_rate_redraw"), "0");
    EXPECT_EQ(parameter(gto, "warp_scheduler"), "gto");
    EXPECT_EQ(parameter(gto, "warp_rate_spread"), "0");
    EXPECT_EQ(parameter(gto, "warp_rate_redraw"), "0");
    const std::string sectors = "l1tex__t_sectors_pipe_lsu_mem_global_op_ld.sum";
    EXPECT_EQ(preset.at("ncu").at(sectors), lockstep.at("ncu").at(sectors));
    EXPECT_EQ(run_json(launch).at("ncu"), preset.at("ncu"));  // deterministic
}

// The Hopper presets weigh warp ages for loops a pipe limits (the 32-bit matmul), not for the
// issue-bound training build; "parameters" gives the weight as applied.
TEST(GpuCli, WarpAgeWeightIsAppliedByCompilation) {
    const std::string launch = "--preset h200 --workload matmul --size 128x64 --depth 64 --block 128 --sms 8";
    EXPECT_EQ(parameter(run_json(launch), "warp_age_weight"), "1");
    EXPECT_EQ(parameter(run_json(launch + " --compilation index32"), "warp_age_weight"), "0.863");
    EXPECT_EQ(parameter(run_json(launch + " --compilation index32"), "warp_age_group"), "12");
    EXPECT_EQ(parameter(run_json(launch + " --compilation unroll1"), "warp_age_weight"), "1");
    EXPECT_EQ(parameter(run_json(launch + " --warp-age-weight 0.5"), "warp_age_weight"), "0.5");
    EXPECT_EQ(parameter(run_json(launch + " --compilation index32 --warp-scheduler gto"), "warp_age_weight"), "1");
    const auto bad = run_cachesim("simulate " + launch + " --warp-age-weight 1.5");
    EXPECT_NE(bad.exit_code, 0);
    EXPECT_NE(bad.err.find("warp-age-weight"), std::string::npos) << bad.err;
}

// "parameters" gives the miss wait as applied: auto resolved by compilation (64 resident warps of
// the unrolled-once matmul: (291 - 242.88) / 242.88 = 0.198123 turns; the 64-bit loop 0), a given
// value as given, and 0 where the rounds' loose round robin does not run.
TEST(GpuCli, MissWaitTurnsAreAppliedByCompilation) {
    const std::string launch = "--preset h200 --workload matmul --size 128x64 --depth 64 --block 128 --sms 8";
    EXPECT_EQ(parameter(run_json(launch), "miss_wait_turns"), "0");
    EXPECT_EQ(parameter(run_json(launch + " --compilation unroll1"), "miss_wait_turns"), "0.198123");
    EXPECT_EQ(parameter(run_json(launch + " --miss-wait-turns 1.5"), "miss_wait_turns"), "1.5");
    EXPECT_EQ(parameter(run_json(launch + " --compilation unroll1 --warp-scheduler gto"), "miss_wait_turns"), "0");
}

// The h200 preset's warps issue one loop iteration's loads per turn and its blocks start up to 8
// turns apart; "parameters" gives the burst as applied (auto resolved; 1 under gto), and neither
// changes what is accessed.
TEST(GpuCli, IssueBurstAndBlockStartSkipArePresetsAndReported) {
    const std::string stencil = "--preset h200 --size 256x64 --stencil 9x9 --block 128 --sms 8";
    const auto preset = run_json(stencil);
    EXPECT_EQ(parameter(preset, "issue_burst"), "81");
    EXPECT_EQ(parameter(preset, "block_start_skip"), "8");
    EXPECT_EQ(parameter(run_json("--preset h200 --size 256x64 --stencil 3x3 --sms 8"), "issue_burst"), "9");
    EXPECT_EQ(parameter(run_json("--preset h200 --workload matmul --size 64x64 --depth 64 --sms 8"), "issue_burst"), "32");
    const auto plain = run_json(stencil + " --issue-burst 1 --block-start-skip 0");
    EXPECT_EQ(parameter(plain, "issue_burst"), "1");
    EXPECT_EQ(parameter(plain, "block_start_skip"), "0");
    const auto gto = run_json(stencil + " --warp-scheduler gto");
    EXPECT_EQ(parameter(gto, "issue_burst"), "1");
    EXPECT_EQ(parameter(gto, "block_start_skip"), "0");
    EXPECT_EQ(parameter(run_json("--preset v100 --size 256x64 --sms 8"), "issue_burst"), "1");
    const std::string sectors = "l1tex__t_sectors_pipe_lsu_mem_global_op_ld.sum";
    EXPECT_EQ(preset.at("ncu").at(sectors), plain.at("ncu").at(sectors));
    EXPECT_EQ(preset.at("ncu").at("dram__bytes_read.sum"), plain.at("ncu").at("dram__bytes_read.sum"));
    EXPECT_EQ(run_json(stencil).at("ncu"), preset.at("ncu"));  // deterministic
}

TEST(GpuCli, ThreadModelDefaultsUnchanged) {
    const auto j = run_json("");
    EXPECT_EQ(j.at("model"), "thread");
    EXPECT_FALSE(j.contains("ncu"));
    EXPECT_EQ(j.at("levels")[0].at("reads"), 12544);
    EXPECT_EQ(j.at("levels")[0].at("read_misses"), 316);
}

TEST(GpuCli, InvalidGpuOptionsExitWith2) {
    // A din trace that exists, so that the GPU model's refusal of its format is what is reported.
    const std::string din = ::testing::TempDir() + "gpu_cli_invalid_options.din";
    std::ofstream(din) << "0 10\n";
    const std::vector<std::pair<std::string, std::string>> cases = {
        {"--model gpu --block 0", "--block must be positive"},
        {"--model gpu --block 2048", "at most 1024 threads per block"},
        {"--model gpu --block 1024 --threads-per-sm 512", "does not fit"},
        {"--model gpu --sms 0", "--sms must be positive"},
        {"--model gpu --blocks-per-sm 0", "--blocks-per-sm must be positive"},
        {"--model gpu --cta-order zigzag", "--cta-order"},
        {"--model gpu --cta-refill random", "--cta-refill: expected shuffled or sm-order"},
        {"--model gpu --warp-scheduler fastest", "--warp-scheduler"},
        {"--model gpu --warp-rate-spread 1.5", "--warp-rate-spread 1.5 must be between 0 and 1"},
        {"--model gpu --warp-rate-spread -0.1", "--warp-rate-spread -0.1 must be between 0 and 1"},
        {"--model gpu --warp-rate-spread fast", "--warp-rate-spread"},
        {"--model gpu --issue-burst 0", "--issue-burst: expected auto or a count from 1 to 65536, not '0'"},
        {"--model gpu --issue-burst many", "--issue-burst: expected auto or a count from 1 to 65536, not 'many'"},
        {"--model gpu --issue-burst 70000", "--issue-burst: expected auto or a count from 1 to 65536, not '70000'"},
        {"--model gpu --timing cycles --issue-cycles 0.5", "--issue-cycles: expected auto or a number from 1 to 1024, not '0.5'"},
        {"--model gpu --timing cycles --issue-cycles 2000", "--issue-cycles: expected auto or a number from 1 to 1024, not '2000'"},
        {"--model gpu --timing cycles --issue-cycles fast", "--issue-cycles: expected auto or a number from 1 to 1024, not 'fast'"},
        {"--model gpu --miss-wait-turns -1", "--miss-wait-turns: expected auto or a number from 0 to 64, not '-1'"},
        {"--model gpu --miss-wait-turns 65", "--miss-wait-turns: expected auto or a number from 0 to 64, not '65'"},
        {"--model gpu --miss-wait-turns often", "--miss-wait-turns: expected auto or a number from 0 to 64, not 'often'"},
        {"--model gpu --timing cycles --lat-dram 2000000", "--lat-dram 2000000 must be between 0 (off) and 1048576 cycles"},
        {"--model gpu --timing cycles --lat-dram -1", "--lat-dram"},
        {"--model gpu --timing cycles --lat-l2-far 2000000", "--lat-l2-far 2000000 must be between 0 (off) and 1048576 cycles"},
        {"--model gpu --timing cycles --lat-l2-far -3", "--lat-l2-far: expected a whole number, not '-3'"},
        {"--model gpu --l2-start lukewarm", "--l2-start: expected cold or warm, not 'lukewarm'"},
        {"--model gpu --l1-miss-bandwidth -1", "--l1-miss-bandwidth: expected a number from 0 to 1024, not '-1'"},
        {"--model gpu --l1-miss-bandwidth 2x", "--l1-miss-bandwidth: expected a number from 0 to 1024, not '2x'"},
        {"--model gpu --block-start-skip 2000", "--block-start-skip: expected auto or a count from 0 to 1024, not '2000'"},
        {"--model gpu --block-start-skip -1", "--block-start-skip"},
        {"--model gpu --l2-partitions 3", "--l2-partitions must be 1 or 2"},
        {"--model gpu --l2-partition-map diagonal", "--l2-partition-map"},
        {"--model gpu --l2-fill far", "--l2-fill"},
        {"--model gpu --l2-index xor", "--l2-index"},
        {"--model gpu --dram-fetch 48", "--dram-fetch 48"},
        {"--model gpu --l2-coalesce-hit 5 --l2-coalesce-max 1", "--l2-coalesce-max 1 must be between 2 and 255"},
        {"--model gpu --l2-coalesce-miss 2000000", "at most 1048576 rounds"},
        {"--model gpu --l2-coalesce-hit -1", ""},
        {"--model gpu --l2-coalesce-among gpc", "--l2-coalesce-among: expected tpc, pairs, neighbours or all"},
        {"--model gpu --l1-policy opt", "opt is not supported by the GPU model"},
        {"--model gpu --l1-policy plru", "plru"},
        {"--model gpu --l1-write back", "write-through"},
        {"--model gpu --l2-write through", "write-back"},
        {"--model gpu --carveouts 8,x", "--carveouts"},
        // 300 KiB cannot be carved from the h200's 256 KiB array, nor 64 KiB from a 48 KiB one
        {"--preset h200 --carveouts 0,8,300", "--carveouts: 300 KiB is more than the unified L1/shared-memory array (256 KiB, --unified-l1)"},
        {"--preset h200 --unified-l1 48K --carveouts 0,16,64", "--carveouts: 64 KiB is more than the unified L1/shared-memory array (48 KiB"},
        {"--model gpu --carveout-rule driver", "--carveout-rule: expected occupancy or hopper, not 'driver'"},
        {"--model gpu --smem-per-block 300K", "carve-out"},
        {"--model gpu --regs-per-thread 300", "--regs-per-thread"},
        {"--model gpu --warp-size 0", "warp size"},
        {"--model gpu --l2-size 1000", "L2"},
        {"--model gpu --trace " + din, "replays cst traces of a launch (version 2), not din traces"},
        {"--model gpu --block -5", ""},
        {"--l1-size auto", "needs --model gpu"},
        {"--model warp", "expected thread or gpu"},
        {"--preset h200 --model thread", "needs --model gpu"},
        {"--preset v100 --cta-order floorplan", "no measured dispatch order"},
        {"--preset h200 --sms 64 --cta-order floorplan", "no measured dispatch order"},
        {"--preset h200 --l2-partitions 2 --l2-partition-map floorplan --sms 100", "no measured SM -> partition"},
    };
    for (const auto& [args, message] : cases) {
        const auto r = run_cachesim("simulate " + args);
        EXPECT_EQ(r.exit_code, 2) << args << "\n" << r.err;
        EXPECT_NE(r.err.find(message), std::string::npos) << args << ": " << r.err;
        EXPECT_TRUE(r.out.empty()) << args;
    }
}

}  // namespace
}  // namespace cachesim

namespace cachesim {
namespace {

// --threads runs the SMs on more threads; every counter stays what one thread gives.
TEST(GpuCli, ThreadsDoNotChangeTheCounters) {
    const std::string run = "--preset h200 --workload stencil --size 256x256 --stencil 5x5 --schedule column:32 --block 128";
    auto one = run_json(run + " --threads 1");
    auto three = run_json(run + " --threads 3");
    for (auto* j : {&one, &three}) {
        j->erase("seconds");
        j->erase("accesses_per_second");
    }
    EXPECT_EQ(one, three);
}

TEST(GpuCli, ThreadsOutOfRangeIsRefused) {
    const auto r = test::run_cachesim("simulate --preset h200 --size 64x64 --threads 2000");
    EXPECT_EQ(r.exit_code, 2) << r.err;
    EXPECT_NE(r.err.find("--threads 2000"), std::string::npos) << r.err;
}

}  // namespace
}  // namespace cachesim
