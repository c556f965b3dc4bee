// An Accel-Sim instruction whose base-stride or base-delta addresses carry a lane past either end
// of the 64-bit address space is refused with its line: no traced address wraps, so reading it mod
// 2^64 would move the lane's access to the other end of memory.
#include <gtest/gtest.h>

#include <filesystem>
#include <fstream>

#include "tests/cli_util.hpp"

namespace cachesim::test {
namespace {

// One block of 32 threads, one warp of one instruction (line 8), given by the caller.
std::string one_instruction_kernel(const std::string& instruction) {
    return "-grid dim = (1,1,1)\n-block dim = (32,1,1)\n-accelsim tracer version = 3\n"
           "#BEGIN_TB\nthread block = 0,0,0\nwarp = 0\ninsts = 1\n" +
           instruction + "\n#END_TB\n";
}

CommandResult convert(const std::string& name, const std::string& instruction) {
    const std::filesystem::path in = temp_dir() / (name + ".traceg");
    std::ofstream(in) << one_instruction_kernel(instruction);
    const std::filesystem::path out = temp_dir() / (name + ".cst");
    CommandResult r = run_cachesim("trace --trace '" + in.string() + "' -o '" + out.string() + "'");
    EXPECT_EQ(r.exit_code != 0, !std::filesystem::exists(out)) << "an output only for a good input";
    return r;
}

TEST(CliAccelsimAddressWrap, AStridePast2To64IsRefusedWithItsLine) {
    // Lane 0 at 2^64 - 256, lane 1 at 2^64 - 256 + 4096: past 2^64.
    const CommandResult r = convert("stride", "0010 ffffffff 1 R2 LDG.E 1 R4 4 1 0xffffffffffffff00 4096");
    EXPECT_EQ(r.exit_code, 2);
    EXPECT_NE(r.err.find("stride.traceg:8: stride 4096 from base 0xffffffffffffff00 carries active lane 1 outside "
                         "the 64-bit address space"),
              std::string::npos)
        << r.err;
}

TEST(CliAccelsimAddressWrap, ANegativeDeltaBelowZeroIsRefusedWithItsLine) {
    // Lanes 0 and 1 active: lane 0 at 0x10, lane 1 at 0x10 - 32, below 0.
    const CommandResult r = convert("delta", "0010 00000003 1 R2 LDG.E 1 R4 4 2 0x10 -32");
    EXPECT_EQ(r.exit_code, 2);
    EXPECT_NE(r.err.find("delta.traceg:8: delta -32 carries active lane 1 outside the 64-bit address space"),
              std::string::npos)
        << r.err;
}

TEST(CliAccelsimAddressWrap, AStrideEndingJustBelow2To64IsRead) {
    // 32 lanes of 4 bytes from 2^64 - 128: the last lane's bytes are 2^64 - 4 .. 2^64 - 1.
    const CommandResult r = convert("edge", "0010 ffffffff 1 R2 LDG.E 1 R4 4 1 0xffffffffffffff80 4");
    EXPECT_EQ(r.exit_code, 0) << r.err;
    EXPECT_NE(r.out.find("32 threads, 32 accesses"), std::string::npos) << r.out;
}

TEST(CliAccelsimAddressWrap, ANegativeStrideAboveZeroIsRead) {
    // Lanes 0..3 from 0x100 down by 0x40: 0x100, 0xc0, 0x80, 0x40, all at or above 0.
    const CommandResult r = convert("down", "0010 0000000f 1 R2 LDG.E 1 R4 4 1 0x100 -64");
    EXPECT_EQ(r.exit_code, 0) << r.err;
    EXPECT_NE(r.out.find("4 threads, 4 accesses"), std::string::npos) << r.out;
}

}  // namespace
}  // namespace cachesim::test
