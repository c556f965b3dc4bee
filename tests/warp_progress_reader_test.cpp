// progressprobe's files (each warp's time every K steps of the matmul's loop): reading one launch,
// when each request issues between the samples, and clear errors for a file that would make a
// wrong replay.
#include <gtest/gtest.h>

#include <cstdio>
#include <filesystem>
#include <fstream>

#include "tests/gpu_test_util.hpp"
#include "traces/input_error.hpp"
#include "traces/warp_times.hpp"

namespace cachesim {
namespace {

const std::string kHeader = "launch,block,warp,sm,slot,t0,t2,t4\n";
// matmul 32x2 of depth 4 with blocks of 32: two warps, samples at steps 0, 2 and 4; two launches.
const std::string kFile = kHeader +
                          "0,0,0,5,0,100,200,600\n"
                          "0,1,0,6,0,0,50,100\n"
                          "1,1,0,7,0,10,20,30\n"
                          "1,0,0,8,0,40,50,60\n";

std::string error_of(const std::string& text, const WorkloadSpec& spec = test::matmul(32, 2, 4),
                     std::uint32_t block = 32) {
    try {
        parse_warp_progress(text, "p.csv", spec, block);
    } catch (const InputError& e) {
        return e.what();
    }
    return "no error";
}

TEST(WarpProgressReader, ReadsTheFirstLaunchWithItsSamples) {
    const WarpTimeline t = parse_warp_progress(kFile, "p.csv", test::matmul(32, 2, 4), 32);
    EXPECT_EQ(t.launch, 0u);
    ASSERT_EQ(t.warps.size(), 2u);
    EXPECT_EQ(t.sample_steps, (std::vector<std::uint32_t>{0, 2, 4}));
    EXPECT_EQ(t.warps[0].sm, 5u);
    EXPECT_EQ(t.warps[0].start_ns, 100u);  // the first sample
    EXPECT_EQ(t.warps[0].end_ns, 600u);    // the last
    EXPECT_EQ(t.warps[1].sm, 6u);
    const WarpTimeline second = parse_warp_progress(kFile, "p.csv", test::matmul(32, 2, 4), 32, 1u);
    EXPECT_EQ(second.warps[0].sm, 8u);  // rows in any order
}

TEST(WarpProgressReader, PlacesEachRequestBetweenItsSamples) {
    const WarpTimeline t = parse_warp_progress(kFile, "p.csv", test::matmul(32, 2, 4), 32);
    // 8 requests (4 steps of two loads); request k sits at step 4 (k + 0.5) / 8, between the
    // samples around it: k 0 at step 0.25, an eighth of the way from 100 to 200 ns; k 5 at 2.75,
    // 0.375 of the way from 200 to 600; k 7 at 3.75, 0.875 of it.
    EXPECT_DOUBLE_EQ(t.request_time(0, 0, 8), 112.5);
    EXPECT_DOUBLE_EQ(t.request_time(0, 5, 8), 350.0);
    EXPECT_DOUBLE_EQ(t.request_time(0, 7, 8), 550.0);
    // the second warp runs evenly: 0 to 100 ns over its 8 requests
    EXPECT_DOUBLE_EQ(t.request_time(1, 3, 8), 43.75);
    // start and end only: evenly over the interval
    WarpTimeline plain = t;
    plain.sample_steps.clear();
    plain.samples.clear();
    EXPECT_DOUBLE_EQ(plain.request_time(0, 5, 8), 100 + 500 * 5.5 / 8);
}

TEST(WarpProgressReader, NamesWhatIsWrong) {
    EXPECT_NE(error_of(kHeader + "0,0,0,5,0,100,200,600\n").find("has 1 of the 2 warps; the first missing is block 1 warp 0"),
              std::string::npos);
    EXPECT_NE(error_of(kFile, test::matmul(32, 2, 8)).find("the samples end at step 4, the simulated matmul's loop at its depth 8"),
              std::string::npos);
    EXPECT_NE(error_of(kHeader + "0,0,0,5,0,100,90,600\n0,1,0,6,0,0,50,100\n").find("time goes back at step 2"),
              std::string::npos);
    EXPECT_NE(error_of(kFile + "0,0,0,9,0,1,2,3\n").find("block 0 warp 0 of launch 0 is given twice"), std::string::npos);
    EXPECT_NE(error_of(kFile + "0,2,0,9,0,1,2,3\n").find("block 2 warp 0 is outside the simulated launch"),
              std::string::npos);
    EXPECT_NE(error_of("launch,block,warp,sm,t2,t4\n").find("sample columns must rise from t0"), std::string::npos);
    EXPECT_NE(error_of("launch,block,sm,t0,t4\n").find("no column 'warp'"), std::string::npos);
    EXPECT_NE(error_of("launch,block,warp,sm,t0\n").find("fewer than two sample columns"), std::string::npos);
    EXPECT_NE(error_of(kHeader + "0,0,0,5,0,100,x,600\n").find("'x' is not a whole number"), std::string::npos);
    EXPECT_NE(error_of(kFile, test::stencil(64, 64, 3)).find("describe the matmul"), std::string::npos);
    EXPECT_NE(error_of("").find("empty"), std::string::npos);
}

TEST(WarpProgressReader, ReadWarpTimesTellsTheFormatsApart) {
    const std::filesystem::path dir = std::filesystem::temp_directory_path() / "cachesim_warp_progress_test";
    std::filesystem::create_directories(dir);
    const std::string path = (dir / "p.csv").string();
    std::ofstream(path) << kFile;
    const WarpTimeline t = read_warp_times(path, test::matmul(32, 2, 4), 32);
    EXPECT_EQ(t.sample_steps.size(), 3u);
    EXPECT_EQ(t.warps[0].end_ns, 600u);
    std::ofstream(path) << "kernel,width,height,stencil_w,stencil_h,depth,schedule,block_size,launch,block,warp,sm,"
                           "slot,start_ns,end_ns\nmatmul,32,2,0,0,4,linear,32,0,0,0,5,0,10,90\n"
                           "matmul,32,2,0,0,4,linear,32,0,1,0,6,0,12,95\n";
    const WarpTimeline plain = read_warp_times(path, test::matmul(32, 2, 4), 32);
    EXPECT_TRUE(plain.sample_steps.empty());
    EXPECT_EQ(plain.warps[0].end_ns, 90u);
    std::filesystem::remove_all(dir);
}

}  // namespace
}  // namespace cachesim
