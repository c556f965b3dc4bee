// An Accel-Sim kernel whose warps make no global access (shared memory and arithmetic only) is
// refused at conversion, naming what the kernel did, instead of becoming an empty cst that only
// simulate would refuse.
#include <gtest/gtest.h>

#include <filesystem>
#include <fstream>

#include "tests/cli_util.hpp"

namespace cachesim::test {
namespace {

TEST(CliAccelsimNoGlobalAccess, AKernelOfSharedLoadsAndArithmeticIsRefusedAtConversion) {
    const std::filesystem::path in = temp_dir() / "shared_only.traceg";
    std::ofstream(in) << "-kernel name = smem_only\n-grid dim = (1,1,1)\n-block dim = (32,1,1)\n"
                         "-accelsim tracer version = 3\n#BEGIN_TB\nthread block = 0,0,0\nwarp = 0\ninsts = 2\n"
                         "0030 ffffffff 1 R5 LDS 1 R7 4 1 0x7f0000000000 4\n"
                         "0040 ffffffff 1 R3 FADD 2 R1 R2 0\n#END_TB\n";
    const std::filesystem::path out = temp_dir() / "shared_only.cst";
    const CommandResult r = run_cachesim("trace --trace '" + in.string() + "' -o '" + out.string() + "'");
    EXPECT_EQ(r.exit_code, 2);
    EXPECT_NE(r.err.find("shared_only.traceg: kernel 'smem_only' makes no global load, store or atomic with an "
                         "active lane"),
              std::string::npos)
        << r.err;
    // the counts say where the two instructions went
    EXPECT_NE(r.err.find("skipped 2: 1 shared, 0 local, 0 constant, 0 other memory, 1 non-memory"), std::string::npos)
        << r.err;
    EXPECT_FALSE(std::filesystem::exists(out));
}

TEST(CliAccelsimNoGlobalAccess, ALoadWhoseLanesAreAllOffIsNoAccessEither) {
    const std::filesystem::path in = temp_dir() / "lanes_off.traceg";
    std::ofstream(in) << "-grid dim = (1,1,1)\n-block dim = (32,1,1)\n-accelsim tracer version = 3\n"
                         "#BEGIN_TB\nthread block = 0,0,0\nwarp = 0\ninsts = 1\n"
                         "0010 00000000 1 R2 LDG.E 1 R4 4 1 0x10000 4\n#END_TB\n";
    const std::filesystem::path out = temp_dir() / "lanes_off.cst";
    const CommandResult r = run_cachesim("trace --trace '" + in.string() + "' -o '" + out.string() + "'");
    EXPECT_EQ(r.exit_code, 2);
    EXPECT_NE(r.err.find("lanes_off.traceg: the kernel makes no global load"), std::string::npos) << r.err;
    EXPECT_FALSE(std::filesystem::exists(out));
}

}  // namespace
}  // namespace cachesim::test
