// gpubench --warp-times files: selecting one launch of one configuration, plain or gzip, and
// clear errors for everything that would make a wrong replay.
#include <gtest/gtest.h>
#include <zlib.h>

#include <cstdio>
#include <filesystem>
#include <fstream>

#include "tests/gpu_test_util.hpp"
#include "traces/input_error.hpp"
#include "traces/warp_times.hpp"

namespace cachesim {
namespace {

const std::string kHeader = "kernel,width,height,stencil_w,stencil_h,depth,schedule,block_size,launch,block,warp,sm,"
                            "slot,start_ns,end_ns\n";
// matmul 32x2 of depth 4 (two warps with blocks of 32), two launches, and another configuration.
const std::string kFile = kHeader +
                          "matmul,32,2,0,0,4,linear,32,0,0,0,5,0,10,90\n"
                          "matmul,32,2,0,0,4,linear,32,0,1,0,6,0,12,95\n"
                          "matmul,32,2,0,0,4,linear,32,1,1,0,7,0,0,80\n"
                          "matmul,32,2,0,0,4,linear,32,1,0,0,8,0,3,70\n"
                          "matmul,32,2,0,0,4,column:8,32,0,0,0,1,0,0,1\n";

std::string error_of(const std::string& text, const WorkloadSpec& spec = test::matmul(32, 2, 4),
                     std::uint32_t block = 32, std::optional<std::uint32_t> launch = std::nullopt) {
    try {
        parse_warp_times(text, "w.csv", spec, block, launch);
    } catch (const InputError& e) {
        return e.what();
    }
    return "no error";
}

TEST(WarpTimesReader, TakesTheFirstLaunchOfTheConfiguration) {
    const WarpTimeline t = parse_warp_times(kFile, "w.csv", test::matmul(32, 2, 4), 32);
    EXPECT_EQ(t.launch, 0u);
    EXPECT_EQ(t.warps_per_block, 1u);
    ASSERT_EQ(t.warps.size(), 2u);
    EXPECT_EQ(t.warps[0].sm, 5u);
    EXPECT_EQ(t.warps[0].start_ns, 10u);
    EXPECT_EQ(t.warps[0].end_ns, 90u);
    EXPECT_EQ(t.warps[1].sm, 6u);
}

TEST(WarpTimesReader, SelectsALaunchAndASchedule) {
    const WarpTimeline one = parse_warp_times(kFile, "w.csv", test::matmul(32, 2, 4), 32, 1u);
    EXPECT_EQ(one.launch, 1u);
    EXPECT_EQ(one.warps[0].sm, 8u);  // rows in any order
    EXPECT_EQ(one.warps[1].sm, 7u);
    const std::string column = kHeader + "matmul,32,2,0,0,4,column:8,32,0,1,0,1,0,0,1\n"
                                         "matmul,32,2,0,0,4,column:8,32,0,0,0,2,0,0,1\n";
    EXPECT_EQ(parse_warp_times(column, "w.csv", test::matmul(32, 2, 4, "column:8"), 32).warps[0].sm, 2u);
}

TEST(WarpTimesReader, NamesWhatIsWrong) {
    EXPECT_NE(error_of(kHeader + "matmul,32,2,0,0,4,linear,32,0,0,0,5,0,10,90\n").find("has 1 of the 2 warps; the first missing is block 1 warp 0"),
              std::string::npos);
    EXPECT_NE(error_of(kFile + "matmul,32,2,0,0,4,linear,32,0,1,0,6,0,12,95\n").find("w.csv:7: block 1 warp 0 of launch 0 is given twice"),
              std::string::npos);
    EXPECT_NE(error_of(kHeader + "matmul,32,2,0,0,4,linear,32,0,0,0,5,0,90,10\n").find("ends (10 ns) before it starts (90 ns)"),
              std::string::npos);
    EXPECT_NE(error_of(kHeader + "matmul,32,2,0,0,4,linear,32,0,0,0,5,0,ten,90\n").find("w.csv:2 (start_ns): 'ten' is not a whole number"),
              std::string::npos);
    EXPECT_NE(error_of(kHeader + "matmul,32,2,0,0,4,linear,32,0,2,0,5,0,1,9\n").find("block 2 warp 0 is outside the launch"),
              std::string::npos);
    EXPECT_NE(error_of("kernel,width\nmatmul,32\n").find("no column 'height'"), std::string::npos);
    EXPECT_NE(error_of("").find("empty"), std::string::npos);
    // No row of the configuration: the file's configurations are listed.
    const std::string none = error_of(kFile, test::matmul(32, 2, 8));
    EXPECT_NE(none.find("no warps of"), std::string::npos);
    EXPECT_NE(none.find("matmul 32x2 column:8 block 32 launch 0"), std::string::npos);
    EXPECT_NE(error_of(kFile, test::matmul(32, 2, 4), 32, 5u).find("launch 5"), std::string::npos);
    EXPECT_NE(error_of(kHeader + "conv,32,2,0,0,4,linear,32,0,0,0,5,0,1,9\n").find("'conv' is neither stencil nor matmul"),
              std::string::npos);
}

TEST(WarpTimesReader, ReadsGzipFiles) {
    const auto dir = std::filesystem::temp_directory_path() / ("warp_times_" + std::to_string(::getpid()));
    std::filesystem::create_directories(dir);
    const std::string gz = (dir / "w.csv.gz").string();
    gzFile out = gzopen(gz.c_str(), "wb");
    ASSERT_NE(out, nullptr);
    ASSERT_EQ(gzwrite(out, kFile.data(), static_cast<unsigned>(kFile.size())), static_cast<int>(kFile.size()));
    gzclose(out);
    EXPECT_EQ(read_warp_times(gz, test::matmul(32, 2, 4), 32, 1u).warps[1].sm, 7u);
    // A plain file reads the same; a cut gzip file is an error, not a shorter timeline.
    const std::string plain = (dir / "w.csv").string();
    std::ofstream(plain) << kFile;
    EXPECT_EQ(read_warp_times(plain, test::matmul(32, 2, 4), 32).warps[0].sm, 5u);
    const std::uintmax_t size = std::filesystem::file_size(gz);
    std::filesystem::resize_file(gz, size - 12);
    EXPECT_THROW(read_warp_times(gz, test::matmul(32, 2, 4), 32), InputError);
    EXPECT_THROW(read_warp_times((dir / "missing.csv").string(), test::matmul(32, 2, 4), 32), InputError);
    std::filesystem::remove_all(dir);
}

}  // namespace
}  // namespace cachesim
