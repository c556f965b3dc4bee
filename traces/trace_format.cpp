#include "traces/trace_format.hpp"

#include <charconv>
#include <fstream>

#include "traces/input_error.hpp"
#include "traces/trace_format_bytes.hpp"

namespace cachesim::cst {

namespace {

std::string hex_text(std::uint64_t value) {
    char text[17];
    const auto end = std::to_chars(text, text + sizeof text, value, 16).ptr;
    return std::string(text, end);
}

void encode_workload(std::string& out, const WorkloadSpec& w) {
    put_u8(out, static_cast<std::uint8_t>(w.kind));
    put_u32(out, w.width);
    put_u32(out, w.height);
    put_u32(out, w.stencil_w);
    put_u32(out, w.stencil_h);
    put_u32(out, w.depth);
    put_u32(out, w.elem_bytes);
    put_u8(out, static_cast<std::uint8_t>(w.schedule.kind));
    put_u32(out, w.schedule.width);
    put_u32(out, w.schedule.tile_height);
}

WorkloadSpec decode_workload(ByteCursor& in) {
    WorkloadSpec w;
    const std::uint64_t kind_at = in.offset();
    const std::uint8_t kind = in.u8("workload kind");
    if (kind > static_cast<std::uint8_t>(WorkloadKind::matmul))
        in.fail_at(kind_at, "unknown workload kind " + std::to_string(kind));
    w.kind = static_cast<WorkloadKind>(kind);
    w.width = in.u32("workload width");
    w.height = in.u32("workload height");
    w.stencil_w = in.u32("stencil width");
    w.stencil_h = in.u32("stencil height");
    w.depth = in.u32("matmul depth");
    w.elem_bytes = in.u32("workload element size");
    const std::uint64_t schedule_at = in.offset();
    const std::uint8_t schedule = in.u8("schedule kind");
    if (schedule > static_cast<std::uint8_t>(ScheduleKind::morton))
        in.fail_at(schedule_at, "unknown schedule kind " + std::to_string(schedule));
    w.schedule.kind = static_cast<ScheduleKind>(schedule);
    w.schedule.width = in.u32("schedule width");
    w.schedule.tile_height = in.u32("schedule tile height");
    try {
        validate(w);
    } catch (const InputError& e) {
        in.fail_at(kind_at, std::string("invalid workload: ") + e.what());
    }
    return w;
}

void encode_launch(std::string& out, const LaunchGeometry& g) {
    for (std::uint32_t v : g.grid) put_u32(out, v);
    for (std::uint32_t v : g.block) put_u32(out, v);
}

LaunchGeometry decode_launch(ByteCursor& in) {
    LaunchGeometry g;
    const std::uint64_t at = in.offset();
    for (std::uint32_t& v : g.grid) v = in.u32("grid size");
    for (std::uint32_t& v : g.block) v = in.u32("block size");
    for (int i = 0; i < 3; ++i)
        if (g.grid[i] == 0 || g.block[i] == 0) in.fail_at(at, "launch " + g.describe() + " has a zero dimension");
    const std::uint64_t per_block = static_cast<std::uint64_t>(g.block[0]) * g.block[1] * g.block[2];
    if (per_block > kMaxThreadsPerBlock)
        in.fail_at(at + 12, "launch " + g.describe() + ": " + std::to_string(per_block) +
                                " threads per block exceed " + std::to_string(kMaxThreadsPerBlock));
    // x < 2^32, y, z < 2^32 each: keep blocks x threads far below 2^64 (CUDA: y, z < 2^16).
    if (g.grid[1] > 65535 || g.grid[2] > 65535)
        in.fail_at(at, "launch " + g.describe() + ": grid y and z are at most 65535");
    return g;
}

void encode_loop(std::string& out, const RecordedLoop& l) {
    for (std::uint64_t v : {l.load_requests, l.warp_instructions, l.alu_cycles, l.fma_heavy_only_cycles, l.fma_either_cycles})
        put_u64(out, v);
    put_u32(out, l.loads_per_iteration);
}

// A loop no trace could give is refused: every load request is an instruction, a pipe takes at
// most 4 cycles of an instruction (instruction_pipes.hpp), an iteration holds at most every load.
RecordedLoop decode_loop(ByteCursor& in) {
    RecordedLoop l;
    const std::uint64_t at = in.offset();
    l.load_requests = in.u64("loop load requests");
    l.warp_instructions = in.u64("loop warp instructions");
    l.alu_cycles = in.u64("loop ALU cycles");
    l.fma_heavy_only_cycles = in.u64("loop fma heavy-only cycles");
    l.fma_either_cycles = in.u64("loop fma either-half cycles");
    l.loads_per_iteration = in.u32("loop loads per iteration");
    const auto text = [](std::uint64_t v) { return std::to_string(v); };
    if (l.load_requests == 0 || l.warp_instructions < l.load_requests)
        in.fail_at(at, "loop of " + text(l.load_requests) + " load requests in " + text(l.warp_instructions) +
                           " warp instructions is impossible (at least one request, each an instruction)");
    const std::uint64_t cap = l.warp_instructions > ~0ull / 4 ? ~0ull : 4 * l.warp_instructions;
    if (l.alu_cycles > cap || l.fma_heavy_only_cycles > cap || l.fma_either_cycles > cap - l.fma_heavy_only_cycles)
        in.fail_at(at + 16, "loop pipe cycles exceed 4 per warp instruction (" + text(l.warp_instructions) + ")");
    if (l.loads_per_iteration == 0 || l.loads_per_iteration > l.load_requests)
        in.fail_at(at + 40, "loop loads per iteration " + text(l.loads_per_iteration) + " is outside 1.." +
                                text(l.load_requests));
    return l;
}

void encode_resources(std::string& out, const LaunchResources& r) {
    put_u32(out, r.smem_per_block_bytes);
    put_u32(out, r.regs_per_thread);
}

LaunchResources decode_resources(ByteCursor& in) {
    LaunchResources r;
    const std::uint64_t at = in.offset();
    r.smem_per_block_bytes = in.u32("shared memory per block");
    r.regs_per_thread = in.u32("registers per thread");
    if (r.smem_per_block_bytes > kMaxSmemPerBlockBytes)
        in.fail_at(at, "shared memory per block " + std::to_string(r.smem_per_block_bytes) + " bytes exceeds " +
                           std::to_string(kMaxSmemPerBlockBytes));
    if (r.regs_per_thread > kMaxRegsPerThread)
        in.fail_at(at + 4, "registers per thread " + std::to_string(r.regs_per_thread) + " exceed " +
                               std::to_string(kMaxRegsPerThread));
    return r;
}

// Version 4's sections after the launch: which of the loop and the resources follow.
constexpr std::uint8_t kLoopSection = 1, kResourcesSection = 2;

}  // namespace

std::string LaunchResources::describe() const {
    return std::to_string(smem_per_block_bytes) + " B of shared memory a block, " + std::to_string(regs_per_thread) +
           " registers a thread";
}

bool operator==(const LaunchResources& a, const LaunchResources& b) {
    return a.smem_per_block_bytes == b.smem_per_block_bytes && a.regs_per_thread == b.regs_per_thread;
}

std::string LaunchGeometry::describe() const {
    return "grid " + std::to_string(grid[0]) + "x" + std::to_string(grid[1]) + "x" + std::to_string(grid[2]) +
           ", block " + std::to_string(block[0]) + "x" + std::to_string(block[1]) + "x" + std::to_string(block[2]);
}

bool operator==(const LaunchGeometry& a, const LaunchGeometry& b) {
    for (int i = 0; i < 3; ++i)
        if (a.grid[i] != b.grid[i] || a.block[i] != b.block[i]) return false;
    return true;
}

LaunchGeometry linear_launch(std::uint64_t threads, std::uint32_t block) {
    LaunchGeometry g;
    g.block[0] = block;
    g.grid[0] = static_cast<std::uint32_t>((threads + block - 1) / block);
    return g;
}

std::string array_extent_problem(const ArrayInfo& a) {
    const std::uint64_t elements = static_cast<std::uint64_t>(a.width) * a.height;  // < 2^64
    if (a.elem_bytes != 0 && elements > ~0ull / a.elem_bytes)
        return "array '" + a.name + "' of " + std::to_string(a.width) + " x " + std::to_string(a.height) +
               " elements of " + std::to_string(a.elem_bytes) + " bytes has 2^64 bytes or more";
    const std::uint64_t bytes = a.bytes();
    // Last-byte arithmetic: base + bytes may be exactly 2^64, which wraps to 0.
    if (bytes != 0 && a.base > ~0ull - (bytes - 1))
        return "array '" + a.name + "' extends past 2^64 (base 0x" + hex_text(a.base) + ", " + std::to_string(bytes) +
               " bytes)";
    return "";
}

std::uint64_t max_block_accesses(std::uint32_t accesses_per_step) {
    return accesses_per_step > kMaxBlockAccesses ? accesses_per_step : kMaxBlockAccesses;
}

std::string encode_header_body(const TraceHeader& h) {
    std::string out;
    put_u64(out, h.steps);
    put_u64(out, h.accesses);
    put_u64(out, h.blocks);
    put_u32(out, h.accesses_per_step);
    put_u32(out, h.elem_bytes);
    put_u32(out, static_cast<std::uint32_t>(h.arrays.size()));
    for (const ArrayInfo& a : h.arrays) {
        put_u16(out, static_cast<std::uint16_t>(a.name.size()));
        out += a.name;
        put_u64(out, a.base);
        put_u32(out, a.elem_bytes);
        put_u32(out, a.width);
        put_u32(out, a.height);
    }
    put_u8(out, h.workload ? 1 : 0);
    if (h.workload) encode_workload(out, *h.workload);
    if (h.version >= kVersionLaunch) encode_launch(out, h.launch.value_or(LaunchGeometry{}));
    if (h.version == kVersionLoop) encode_loop(out, h.loop.value_or(RecordedLoop{}));
    if (h.version >= kVersionResources) {
        put_u8(out, static_cast<std::uint8_t>((h.loop ? kLoopSection : 0) | kResourcesSection));
        if (h.loop) encode_loop(out, *h.loop);
        encode_resources(out, h.resources.value_or(LaunchResources{}));
    }
    return out;
}

TraceHeader decode_header_body(std::string_view body, std::uint32_t version) {
    ByteCursor in(body, kPreambleBytes, "header");
    TraceHeader h;
    h.version = version;
    const std::uint64_t steps_at = in.offset();
    h.steps = in.u64("steps");
    h.accesses = in.u64("accesses");
    h.blocks = in.u64("blocks");
    const std::uint64_t per_step_at = in.offset();
    h.accesses_per_step = in.u32("accesses per step");
    if (h.accesses_per_step == 0 || h.accesses_per_step > kMaxAccessesPerStep)
        in.fail_at(per_step_at, "accesses per step " + std::to_string(h.accesses_per_step) +
                                    " is outside 1.." + std::to_string(kMaxAccessesPerStep));
    const bool launch = version >= kVersionLaunch;
    if (!launch && (h.accesses / h.accesses_per_step != h.steps || h.accesses % h.accesses_per_step != 0))
        in.fail_at(steps_at, std::to_string(h.steps) + " steps of " + std::to_string(h.accesses_per_step) +
                                 " accesses do not make " + std::to_string(h.accesses) + " accesses");
    // Version 2: every thread present has 1 .. accesses_per_step accesses.
    if (launch && (h.accesses < h.steps || (h.accesses > 0 && (h.accesses - 1) / h.accesses_per_step >= h.steps)))
        in.fail_at(steps_at, std::to_string(h.steps) + " threads of 1.." + std::to_string(h.accesses_per_step) +
                                 " accesses cannot make " + std::to_string(h.accesses) + " accesses");
    const std::uint64_t blocks_needed_max = h.steps;  // every block holds at least one step
    if (h.blocks > blocks_needed_max || (h.steps > 0 && h.blocks == 0))
        in.fail_at(steps_at + 16, "block count " + std::to_string(h.blocks) + " does not fit " +
                                      std::to_string(h.steps) + " steps");
    const std::uint64_t elem_at = in.offset();
    h.elem_bytes = in.u32("element size");
    if (h.elem_bytes == 0 || h.elem_bytes > 4096)
        in.fail_at(elem_at, "element size " + std::to_string(h.elem_bytes) + " is outside 1..4096");
    const std::uint64_t count_at = in.offset();
    const std::uint32_t array_count = in.u32("array count");
    // Each array takes at least 22 bytes, so the count cannot exceed what the header holds.
    if (array_count == 0 || array_count > kMaxArrays || array_count > in.remaining() / 22)
        in.fail_at(count_at, "array count " + std::to_string(array_count) +
                                 " is impossible (1.." + std::to_string(kMaxArrays) +
                                 ", and the header has room for " + std::to_string(in.remaining() / 22) + ")");
    h.arrays.reserve(array_count);
    for (std::uint32_t i = 0; i < array_count; ++i) {
        ArrayInfo a;
        const std::uint64_t name_at = in.offset();
        const std::uint16_t name_bytes = in.u16("array name length");
        if (name_bytes > kMaxNameBytes)
            in.fail_at(name_at, "array name length " + std::to_string(name_bytes) + " exceeds " +
                                    std::to_string(kMaxNameBytes));
        a.name = std::string(in.bytes(name_bytes, "array name"));
        a.base = in.u64("array base address");
        const std::uint64_t array_elem_at = in.offset();
        a.elem_bytes = in.u32("array element size");
        if (a.elem_bytes == 0 || a.elem_bytes > 4096)
            in.fail_at(array_elem_at, "array '" + a.name + "' element size " + std::to_string(a.elem_bytes) +
                                          " is outside 1..4096");
        a.width = in.u32("array width");
        a.height = in.u32("array height");
        if (const std::string problem = array_extent_problem(a); !problem.empty()) in.fail_at(name_at, problem);
        h.arrays.push_back(std::move(a));
    }
    const std::uint64_t flag_at = in.offset();
    const std::uint8_t has_workload = in.u8("workload flag");
    if (has_workload > 1) in.fail_at(flag_at, "workload flag must be 0 or 1, not " + std::to_string(has_workload));
    if (has_workload) {
        h.workload = decode_workload(in);
        if (h.workload->items() != h.steps || h.workload->accesses_per_item() != h.accesses_per_step ||
            h.workload->total_accesses() != h.accesses)
            in.fail_at(steps_at, "the counts do not match the recorded workload " + h.workload->describe());
    }
    if (launch) {
        const std::uint64_t launch_at = in.offset();
        h.launch = decode_launch(in);
        if (h.steps > h.launch->threads())
            in.fail_at(launch_at, std::to_string(h.steps) + " threads do not fit the launch's " +
                                      std::to_string(h.launch->threads()) + " (" + h.launch->describe() + ")");
        if (h.workload && (h.launch->grid[1] != 1 || h.launch->grid[2] != 1 || h.launch->block[1] != 1 ||
                           h.launch->block[2] != 1 || h.launch->blocks() != (h.steps + h.launch->block[0] - 1) / h.launch->block[0]))
            in.fail_at(launch_at, "launch " + h.launch->describe() + " is not the 1D launch of the workload's " +
                                      std::to_string(h.steps) + " threads");
    }
    if (version == kVersionLoop) h.loop = decode_loop(in);
    if (version >= kVersionResources) {
        const std::uint64_t sections_at = in.offset();
        const std::uint8_t sections = in.u8("sections");
        if (!(sections & kResourcesSection) || (sections & ~(kLoopSection | kResourcesSection)))
            in.fail_at(sections_at, "sections " + std::to_string(sections) +
                                        " must be 2 (resources) or 3 (a loop and resources)");
        if (sections & kLoopSection) h.loop = decode_loop(in);
        h.resources = decode_resources(in);
    }
    if (in.remaining() != 0)
        in.fail(std::to_string(in.remaining()) + " unexpected bytes after the header fields");
    return h;
}

}  // namespace cachesim::cst

