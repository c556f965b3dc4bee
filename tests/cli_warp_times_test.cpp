// cachesim simulate --warp-times end to end: a hand-made timeline and progress samples, bad input
// (exit code 2), and the H200's measured timeline of the naive matmul, whose L1 hit rate the
// replay must reproduce.
#include <gtest/gtest.h>

#include <filesystem>
#include <fstream>
#include <nlohmann/json.hpp>

#include "tests/cli_util.hpp"
#include "traces/csv_table.hpp"

namespace cachesim {
namespace {

using test::run_cachesim;
using test::temp_dir;

const std::string kHeader = "kernel,width,height,stencil_w,stencil_h,depth,schedule,block_size,launch,block,warp,sm,"
                            "slot,start_ns,end_ns\n";
const std::string kTwoRows = "--model gpu --workload matmul --size 32x2 --depth 4 --block 32";

std::string write_file(const std::string& name, const std::string& text) {
    const std::string path = (temp_dir() / name).string();
    std::ofstream(path) << text;
    return path;
}

TEST(CliWarpTimes, ReplaysTheMeasuredOrder) {
    // Both warps on SM 0 over the same interval: w1 finds all the sectors w0 just fetched
    // (tests/gpu_measured_timing_test.cpp works it by hand): 23 hits of 40.
    const std::string file = write_file("together.csv", kHeader + "matmul,32,2,0,0,4,linear,32,0,0,0,0,0,0,90\n"
                                                                  "matmul,32,2,0,0,4,linear,32,0,1,0,0,1,0,90\n");
    const auto r = run_cachesim("simulate " + kTwoRows + " --warp-times " + file + " --format json");
    ASSERT_EQ(r.exit_code, 0) << r.err;
    const auto j = nlohmann::json::parse(r.out);
    EXPECT_EQ(j.at("ncu").at("l1tex__t_sectors_pipe_lsu_mem_global_op_ld.sum").get<double>(), 40.0);
    EXPECT_EQ(j.at("ncu").at("l1tex__t_sectors_pipe_lsu_mem_global_op_ld_lookup_hit.sum").get<double>(), 23.0);
    EXPECT_EQ(j.at("parameters").at("warp_times").get<std::string>(), file);
    EXPECT_EQ(j.at("parameters").at("warp_times_launch").get<std::string>(), "0");
    EXPECT_EQ(j.at("parameters").at("rounds").get<std::string>(), "0");
}

TEST(CliWarpTimes, TheTogetherWarpsHitsBySource) {
    // The same two warps, each a block of its own on SM 0: of the 23 hits, block 0's warp finds
    // A's sector (both rows of A lie in it) again at k = 1..3, its own; block 1's warp finds what
    // block 0's brought: A's sector 4 times and B's row k (4 sectors) at each of the 4 k, 20 hits.
    const std::string file = write_file("together_sources.csv", kHeader + "matmul,32,2,0,0,4,linear,32,0,0,0,0,0,0,90\n"
                                                                          "matmul,32,2,0,0,4,linear,32,0,1,0,0,1,0,90\n");
    const auto r = run_cachesim("simulate " + kTwoRows + " --warp-times " + file + " --hit-sources --format json");
    ASSERT_EQ(r.exit_code, 0) << r.err;
    const auto p = nlohmann::json::parse(r.out).at("parameters");
    EXPECT_EQ(p.at("l1_hits_own_warp").get<std::string>(), "3");
    EXPECT_EQ(p.at("l1_hits_own_block").get<std::string>(), "0");
    EXPECT_EQ(p.at("l1_hits_other_block").get<std::string>(), "20");
    const std::string png = (temp_dir() / "together_sources.png").string();
    EXPECT_EQ(run_cachesim("diagram " + kTwoRows + " --warp-times " + file + " --colour-by source --out " + png).exit_code, 0);
    EXPECT_TRUE(std::filesystem::exists(png));
}

TEST(CliWarpTimes, DiagramsTheMeasuredOrder) {
    // One step per request: 2 warps x 9 requests.
    const std::string file = write_file("diagram.csv", kHeader + "matmul,32,2,0,0,4,linear,32,0,0,0,0,0,0,90\n"
                                                                 "matmul,32,2,0,0,4,linear,32,0,1,0,1,1,50,140\n");
    const std::string png = (temp_dir() / "measured.png").string();
    const auto r = run_cachesim("diagram " + kTwoRows + " --warp-times " + file + " --out " + png);
    ASSERT_EQ(r.exit_code, 0) << r.err;
    EXPECT_TRUE(std::filesystem::exists(png));
    const auto late = run_cachesim("diagram " + kTwoRows + " --warp-times " + file + " --from 18 --out " + png + "x");
    EXPECT_EQ(late.exit_code, 2);
    EXPECT_NE(late.err.find("past the run's last step 17"), std::string::npos) << late.err;
}

TEST(CliWarpTimes, ReplaysProgressSamples) {
    // progressprobe's format: both warps on SM 0, sampled at steps 0, 2 and 4 at the same times, so
    // they issue as the first test's pair does: 23 hits of 40. Samples of another depth, or of a
    // stencil, exit 2 naming what is wrong.
    const std::string file = write_file("progress.csv", "launch,block,warp,sm,slot,t0,t2,t4\n"
                                                        "0,0,0,0,0,0,45,90\n0,1,0,0,1,0,45,90\n");
    const auto r = run_cachesim("simulate " + kTwoRows + " --warp-times " + file + " --format json");
    ASSERT_EQ(r.exit_code, 0) << r.err;
    const auto j = nlohmann::json::parse(r.out);
    EXPECT_EQ(j.at("ncu").at("l1tex__t_sectors_pipe_lsu_mem_global_op_ld_lookup_hit.sum").get<double>(), 23.0);
    const auto deeper = run_cachesim("simulate --model gpu --workload matmul --size 32x2 --depth 8 --block 32 "
                                     "--warp-times " + file);
    EXPECT_EQ(deeper.exit_code, 2);
    EXPECT_NE(deeper.err.find("the samples end at step 4, the simulated matmul's loop at its depth 8"), std::string::npos)
        << deeper.err;
    const auto stencil = run_cachesim("simulate --model gpu --workload stencil --size 64x1 --stencil 1x1 --block 32 "
                                      "--warp-times " + file);
    EXPECT_EQ(stencil.exit_code, 2);
    EXPECT_NE(stencil.err.find("describe the matmul"), std::string::npos) << stencil.err;
    EXPECT_TRUE(stencil.out.empty());
}

TEST(CliWarpTimes, BadInputExitsTwoNamingTheProblem) {
    const std::string one_warp = write_file("one.csv", kHeader + "matmul,32,2,0,0,4,linear,32,0,0,0,0,0,0,90\n");
    const std::string far_sm = write_file("far.csv", kHeader + "matmul,32,2,0,0,4,linear,32,0,0,0,0,0,0,90\n"
                                                               "matmul,32,2,0,0,4,linear,32,0,1,0,200,0,0,90\n");
    const std::vector<std::pair<std::string, std::string>> cases = {
        {kTwoRows + " --warp-times " + one_warp, "has 1 of the 2 warps"},
        {kTwoRows + " --warp-times " + far_sm, "ran on SM 200, the GPU has 132"},
        {"--model gpu --workload matmul --size 32x2 --depth 4 --block 64 --warp-times " + one_warp, "no warps of"},
        {kTwoRows + " --warp-times " + one_warp + " --warp-times-launch 3", "launch 3"},
        {kTwoRows + " --warp-times /nonexistent/w.csv", "/nonexistent/w.csv"},
        {kTwoRows + " --warp-times-launch 1", "--warp-times-launch needs --warp-times"},
        {"--model thread --warp-times " + one_warp, "needs --model gpu"},
    };
    for (const auto& [args, message] : cases) {
        const auto r = run_cachesim("simulate " + args);
        EXPECT_EQ(r.exit_code, 2) << args << "\n" << r.err;
        EXPECT_NE(r.err.find(message), std::string::npos) << args << ": " << r.err;
        EXPECT_TRUE(r.out.empty()) << args;
    }
}

// A measured order places the blocks and issues the warps: the parameters of the model's own order
// (block placement and refill, the warp scheduler and its rates, loop costs, cycle timing) are
// refused when the user gives them (command line or --config), naming the option; the preset's
// own values of them are no mistake, and the options the replay reads (caches, L2 coalescing, the
// warm start) are taken.
TEST(CliWarpTimes, OptionsOfTheModelsOwnOrderAreRefused) {
    const std::string file = write_file("refused.csv", kHeader + "matmul,32,2,0,0,4,linear,32,0,0,0,0,0,0,90\n"
                                                                 "matmul,32,2,0,0,4,linear,32,0,1,0,0,1,0,90\n");
    const std::string why = " shapes the model's own issue order (its rounds or cycles); it does not apply with "
                            "--warp-times, which replays a measured order\n";
    for (const std::string option : {"--warp-scheduler gto", "--timing cycles", "--cta-order round-robin",
                                     "--cta-refill sm-order", "--warp-rate-spread 0.5", "--issue-burst 1",
                                     "--block-start-skip 0", "--compilation unroll1", "--lat-dram 100"}) {
        const auto r = run_cachesim("simulate " + kTwoRows + " --warp-times " + file + " " + option);
        EXPECT_EQ(r.exit_code, 2) << option << "\n" << r.err;
        EXPECT_EQ(r.err, "cachesim simulate: error: " + option.substr(0, option.find(' ')) + why) << option;
        EXPECT_TRUE(r.out.empty()) << option;
    }
    const std::string config = write_file("refused.cfg", "warp-scheduler = gto\n");
    const auto from_file = run_cachesim("simulate " + kTwoRows + " --warp-times " + file + " --config " + config);
    EXPECT_EQ(from_file.exit_code, 2);
    EXPECT_EQ(from_file.err.rfind("cachesim simulate: error: --warp-scheduler shapes the model's own issue order", 0), 0u)
        << from_file.err;
    const std::string png = (temp_dir() / "refused.png").string();
    const auto diagram = run_cachesim("diagram " + kTwoRows + " --warp-times " + file + " --warp-scheduler gto --out " + png);
    EXPECT_EQ(diagram.exit_code, 2);
    EXPECT_EQ(diagram.err, "cachesim diagram: error: --warp-scheduler" + why);
    EXPECT_FALSE(std::filesystem::exists(png));
    const auto read = run_cachesim("simulate " + kTwoRows + " --warp-times " + file +
                                   " --preset h200 --l1-policy fifo --l2-coalesce-hit 5 --l2-start warm --sms 4");
    EXPECT_EQ(read.exit_code, 0) << read.err;
}

// gpubench --warp-times recorded every warp of the naive 1024^3 matmul (blocks of 1024) on an
// H200, and Nsight Compute measured the L1 hit rate of the same instrumented kernel in separate
// launches (tests/data/h200/README.md, "Warp timing"). The lockstep model and the uninstrumented
// kernel differ by 16 points; replayed in the measured order the model is within a point.
TEST(CliWarpTimes, ReproducesTheH200sL1HitRateFromItsTiming) {
    const std::string data = CACHESIM_TEST_DATA_DIR "/h200/";
    const CsvTable ncu = read_csv_file(data + "warp_times_ncu_matmul.csv", "Kernel Name");
    const int name = ncu.column("Kernel Name"), block = ncu.column("Block Size"),
              sectors = ncu.column("l1tex__t_sectors_pipe_lsu_mem_global_op_ld.sum"),
              hits = ncu.column("l1tex__t_sectors_pipe_lsu_mem_global_op_ld_lookup_hit.sum");
    ASSERT_GE(std::min({name, block, sectors, hits}), 0);
    auto number = [](std::string text) {
        std::erase(text, ',');
        return std::stod(text);
    };
    std::vector<double> measured;  // the placed launches of linear at block 1024 (the first two)
    for (const auto& row : ncu.rows)
        if (row[name].find("PlacedLaunch") != std::string::npos && row[block] == "(1024, 1, 1)" && measured.size() < 2)
            measured.push_back(100.0 * number(row[hits]) / number(row[sectors]));
    ASSERT_EQ(measured.size(), 2u);
    const auto r = run_cachesim("simulate --model gpu --preset h200 --workload matmul --size 1024x1024 --depth 1024 "
                                "--block 1024 --warp-times " + data + "warp_times_matmul.csv.gz --format json");
    ASSERT_EQ(r.exit_code, 0) << r.err;
    const double simulated =
        nlohmann::json::parse(r.out).at("ncu").at("l1tex__t_sector_pipe_lsu_mem_global_op_ld_hit_rate.pct").get<double>();
    for (double m : measured) EXPECT_NEAR(simulated, m, 1.0);
    // Lockstep, the model gives the same launch about 59%: what separates it from the
    // uninstrumented kernel's 41-43% is timing, not the cache.
}

}  // namespace
}  // namespace cachesim
