#pragma once
// Which pipe of a Hopper SM sub-partition executes a SASS instruction, and for how many of its
// cycles, so that a trace of a kernel's executed instructions gives the loop counters Nsight
// Compute measures (traces/recorded_loop.hpp). Only the pipes that can limit a loop ahead of the
// issue port are kept: the ALU and the fma pipe's two halves, both 16 lanes wide (2 cycles a warp
// instruction). Any other instruction costs only its issue cycle here.
//
// Provenance: the classes are NVIDIA's (Nsight Compute's pipe descriptions: the ALU takes integer
// instructions but IMAD and IMUL, logic, bit manipulation and data movement; fmaheavy takes IMAD,
// IMUL, IDP and FP32; fmalite FP32 only). The opcodes and cycles are measured: on the H200, each
// probe loop's executed instructions PC by PC against smsp__inst_executed_pipe_{alu,fma}.sum and
// sm__pipe_{alu,fmaheavy,fmalite}_cycles_active.sum of the same launch (scripts/device_issue_cost.sh
// opcodes, tests/data/h200/issue_cost/opcodes_*.csv; tests/instruction_pipes_test.cpp): every
// counted instruction in the listed pipe, exactly, and a wide or high integer multiply taking its
// heavy half 4 cycles instead of 2.
#include <cstdint>
#include <string_view>

#include "traces/recorded_loop.hpp"

namespace cachesim {

enum class InstructionPipe : std::uint8_t {
    none,            // not one of the pipes kept here: its issue cycle only
    alu,             // integer (not multiplies), logic, shifts, compares, moves, int-to-float
    fma_heavy_only,  // integer multiplies: the fma pipe's heavy half only
    fma_either,      // FP32 arithmetic and VIADD: either half of the fma pipe
};

struct PipeCost {
    InstructionPipe pipe = InstructionPipe::none;
    std::uint32_t cycles = 0;  // of that pipe, per warp instruction
};

// By the whole opcode with its modifiers as SASS writes it ("IMAD.WIDE.U32", "LDG.E").
PipeCost pipe_cost(std::string_view opcode);

// Accumulates a kernel's executed warp instructions into its RecordedLoop: each warp's
// instructions in program order (add, then load_request when the instruction is a global load
// with an active lane), end_warp after each warp.
class InstructionProfiler {
public:
    void add(std::uint64_t pc, std::string_view opcode);
    void load_request();
    void end_warp();
    // The loop so far (the current warp's iteration counted as ended).
    RecordedLoop loop() const;

private:
    void end_iteration();
    RecordedLoop loop_;
    std::uint64_t last_pc_ = 0;  // the current warp's last instruction; 0 before its first
    std::uint64_t iteration_loads_ = 0;
    double loads_ = 0, loads_squared_ = 0;  // over ended iterations: the load-weighted mean's terms
};

}  // namespace cachesim
