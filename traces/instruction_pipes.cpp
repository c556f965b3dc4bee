#include "traces/instruction_pipes.hpp"

#include <algorithm>
#include <cmath>
#include <iterator>

namespace cachesim {

namespace {

// Opcodes by the name before the first '.', sorted for binary search.
struct OpcodePipe {
    std::string_view opcode;
    InstructionPipe pipe;
};
// Measured: executed in the probe loops and counted in that pipe by the H200; documented: by the
// class NVIDIA gives the pipe, not among the probes' instructions.
constexpr OpcodePipe kOpcodePipes[] = {
    {"BMSK", InstructionPipe::alu},                 // documented
    {"FADD", InstructionPipe::fma_either},          // measured
    {"FFMA", InstructionPipe::fma_either},          // measured
    {"FMUL", InstructionPipe::fma_either},          // documented
    {"I2FP", InstructionPipe::alu},                 // measured
    {"IABS", InstructionPipe::alu},                 // documented
    {"IADD3", InstructionPipe::alu},                // measured
    {"IDP", InstructionPipe::fma_heavy_only},       // documented
    {"IMAD", InstructionPipe::fma_heavy_only},      // measured
    {"IMNMX", InstructionPipe::alu},                // documented
    {"IMUL", InstructionPipe::fma_heavy_only},      // documented
    {"ISETP", InstructionPipe::alu},                // measured
    {"LEA", InstructionPipe::alu},                  // measured
    {"LOP3", InstructionPipe::alu},                 // measured
    {"MOV", InstructionPipe::alu},                  // measured
    {"PLOP3", InstructionPipe::alu},                // measured
    {"PRMT", InstructionPipe::alu},                 // measured
    {"SEL", InstructionPipe::alu},                  // measured
    {"SHF", InstructionPipe::alu},                  // measured
    {"VIADD", InstructionPipe::fma_either},         // measured
    {"VIADDMNMX", InstructionPipe::alu},            // measured
    {"VIMNMX", InstructionPipe::alu},               // measured
};
static_assert(std::is_sorted(std::begin(kOpcodePipes), std::end(kOpcodePipes),
                             [](const OpcodePipe& a, const OpcodePipe& b) { return a.opcode < b.opcode; }));

bool has_modifier(std::string_view opcode, std::string_view modifier) {
    for (std::size_t dot = opcode.find('.'); dot != std::string_view::npos; dot = opcode.find('.', dot + 1)) {
        const std::string_view rest = opcode.substr(dot + 1);
        if (rest.substr(0, rest.find('.')) == modifier) return true;
    }
    return false;
}

}  // namespace

PipeCost pipe_cost(std::string_view opcode) {
    const std::string_view name = opcode.substr(0, opcode.find('.'));
    const auto it = std::lower_bound(std::begin(kOpcodePipes), std::end(kOpcodePipes), name,
                                     [](const OpcodePipe& p, std::string_view n) { return p.opcode < n; });
    if (it == std::end(kOpcodePipes) || it->opcode != name) return {};
    // A wide (64-bit result) or high-half integer multiply takes the heavy half twice as long.
    const bool double_width = it->pipe == InstructionPipe::fma_heavy_only &&
                              (has_modifier(opcode, "WIDE") || has_modifier(opcode, "HI"));
    return {it->pipe, double_width ? 4u : 2u};
}

void InstructionProfiler::add(std::uint64_t pc, std::string_view opcode) {
    if (pc < last_pc_) end_iteration();  // a jump back: the loop's next iteration
    last_pc_ = pc;
    ++loop_.warp_instructions;
    const PipeCost cost = pipe_cost(opcode);
    switch (cost.pipe) {
    case InstructionPipe::alu: loop_.alu_cycles += cost.cycles; break;
    case InstructionPipe::fma_heavy_only: loop_.fma_heavy_only_cycles += cost.cycles; break;
    case InstructionPipe::fma_either: loop_.fma_either_cycles += cost.cycles; break;
    case InstructionPipe::none: break;
    }
}

void InstructionProfiler::load_request() {
    ++loop_.load_requests;
    ++iteration_loads_;
}

void InstructionProfiler::end_iteration() {
    const double n = static_cast<double>(iteration_loads_);
    loads_ += n;
    loads_squared_ += n * n;
    iteration_loads_ = 0;
}

void InstructionProfiler::end_warp() {
    end_iteration();
    last_pc_ = 0;  // the next warp's first instruction starts an iteration, wherever it is
}

RecordedLoop InstructionProfiler::loop() const {
    RecordedLoop loop = loop_;
    const double n = static_cast<double>(iteration_loads_);
    const double loads = loads_ + n, squared = loads_squared_ + n * n;
    // A load's iteration holds this many loads on average: iterations without loads weigh nothing.
    loop.loads_per_iteration = loads > 0 ? static_cast<std::uint32_t>(std::lround(squared / loads)) : 0;
    return loop;
}

}  // namespace cachesim
