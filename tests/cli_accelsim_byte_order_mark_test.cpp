// An Accel-Sim kernel trace saved by an editor that puts a UTF-8 byte order mark before its first
// header line reads as the same file without it.
#include <gtest/gtest.h>

#include <filesystem>
#include <fstream>

#include "tests/cli_util.hpp"

namespace cachesim::test {
namespace {

// One block of 32 threads; one load of 4 bytes a lane, stride 4: 32 threads of one access each.
const std::string kKernel =
    "-grid dim = (1,1,1)\n-block dim = (32,1,1)\n-accelsim tracer version = 3\n"
    "#BEGIN_TB\nthread block = 0,0,0\nwarp = 0\ninsts = 1\n"
    "0010 ffffffff 1 R2 LDG.E 1 R4 4 1 0x10000 4\n#END_TB\n";

TEST(CliAccelsimByteOrderMark, TheMarkBeforeTheHeaderIsDropped) {
    const std::filesystem::path in = temp_dir() / "marked.traceg";
    std::ofstream(in, std::ios::binary) << "\xEF\xBB\xBF" << kKernel;
    const std::filesystem::path out = temp_dir() / "marked.cst";
    const CommandResult r = run_cachesim("trace --trace '" + in.string() + "' -o '" + out.string() + "'");
    EXPECT_EQ(r.exit_code, 0) << r.err;
    EXPECT_NE(r.out.find("32 threads, 32 accesses"), std::string::npos) << r.out;
}

}  // namespace
}  // namespace cachesim::test
