#pragma once
// The smallest Accel-Sim kernel trace: one block of 32 threads, one 4-byte load a lane at stride 4
// from 0x10000, so 32 threads of one access each.
#include <string>

namespace cachesim::test {

inline const std::string kOneLoadKernel =
    "-grid dim = (1,1,1)\n-block dim = (32,1,1)\n-accelsim tracer version = 3\n"
    "#BEGIN_TB\nthread block = 0,0,0\nwarp = 0\ninsts = 1\n"
    "0010 ffffffff 1 R2 LDG.E 1 R4 4 1 0x10000 4\n#END_TB\n";

}  // namespace cachesim::test
