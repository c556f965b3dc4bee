#pragma once
// A traceg kernel with a loop, for the tests of a recorded kernel's loop. One block of 64 threads,
// every lane active but where the mask says otherwise. Each warp runs
//   0x00 S2R, 0x10 IADD3                                           (prologue)
//   0x30 LDG.E, 0x40 LDG.E, 0x50-0x70 IMAD.WIDE.U32 x 3, 0x80 FFMA, 0x90 BRA back to 0x30
//   0xa0 STG.E, 0xb0 EXIT                                          (epilogue)
// warp 0 three times round the loop, warp 1 twice with its second 0x40 load predicated off.
// Worked out by hand:
//   warp instructions: warp 0 2 + 3 x 7 + 2 = 25, warp 1 2 + 2 x 7 + 2 = 18: 43
//   load requests: 6 + 3 = 9 (the predicated-off load issues, but requests nothing)
//   ALU cycles: IADD3 2 x 2 = 4; fma heavy-only: 5 iterations x 3 IMAD.WIDE x 4 = 60; either:
//   FFMA 5 x 2 = 10
//   iterations (cut where the PC goes back): warp 0 2, 2, 2 loads; warp 1 2, 1: per iteration
//   (4 + 4 + 4 + 4 + 1) / 9 = 1.89, so 2
//   the limit: issue 43 / 9 = 4.78, ALU 4 / 9, heavy half max(60, 70 / 2) / 9 = 6.67: the fmaheavy
//   pipe, 6.67 cycles a request
#include <cstdio>
#include <string>

namespace cachesim::test {

inline std::string traceg_loop_iteration(unsigned block_base, unsigned i, bool second_load) {
    auto hex = [](unsigned v) {
        char s[16];
        std::snprintf(s, sizeof s, "0x%x", v);
        return std::string(s);
    };
    return "0030 ffffffff 1 R2 LDG.E 1 R4 4 1 " + hex(block_base + 0x100 * i) + " 4 \n" +
           (second_load ? "0040 ffffffff 1 R3 LDG.E 1 R6 4 1 " + hex(0x80000 + 0x100 * i) + " 4 \n"
                        : std::string("0040 00000000 1 R3 LDG.E 1 R6 4 1 0x0 0 \n")) +
           "0050 ffffffff 1 R8 IMAD.WIDE.U32 2 R2 R3 0 \n"
           "0060 ffffffff 1 R10 IMAD.WIDE.U32 2 R2 R3 0 \n"
           "0070 ffffffff 1 R12 IMAD.WIDE.U32 2 R2 R3 0 \n"
           "0080 ffffffff 1 R5 FFMA 3 R2 R3 R5 0 \n"
           "0090 ffffffff 0 BRA 0 0 \n";
}

inline std::string traceg_loop_kernel() {
    std::string k = "-kernel name = loop\n-grid dim = (1,1,1)\n-block dim = (64,1,1)\n-accelsim tracer version = 3\n\n"
                    "#BEGIN_TB\nthread block = 0,0,0\n";
    const std::string prologue = "0000 ffffffff 1 R1 S2R 0 0 \n0010 ffffffff 1 R4 IADD3 2 R1 R1 0 \n";
    const std::string epilogue = "00a0 ffffffff 0 STG.E 2 R4 R5 4 1 0x90000 4 \n00b0 ffffffff 0 EXIT 0 0 \n";
    k += "warp = 0\ninsts = 25\n" + prologue;
    for (unsigned i = 0; i < 3; ++i) k += traceg_loop_iteration(0x10000, i, true);
    k += epilogue;
    k += "warp = 1\ninsts = 18\n" + prologue;
    for (unsigned i = 0; i < 2; ++i) k += traceg_loop_iteration(0x20000, i, i == 0);
    k += epilogue + "#END_TB\n";
    return k;
}

}  // namespace cachesim::test
