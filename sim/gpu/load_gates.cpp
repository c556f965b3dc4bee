#include "sim/gpu/load_gates.hpp"

#include <algorithm>
#include <string_view>

namespace cachesim {

namespace {

// Loop bodies from cuobjdump -sass of gpubench's ProfiledLaunch kernels (nvcc -arch=sm_90), up to
// the loop's first branch or store: tests/data/h200/sass_loads.txt and sass_loads_variants.txt.
struct LoopSass {
    WorkloadKind kind;
    std::uint32_t box;  // stencil S_w (= S_h); 0 for the matmul
    KernelCompilation compilation;
    const char* body;
};
constexpr LoopSass kLoops[] = {
    // matmul, the k loop unrolled 16 times: 32 loads, 16 multiply-adds
    {WorkloadKind::matmul, 0, KernelCompilation::index64, "LLLLLLFLLFLLLFLFFLLFLLLLFLLFLFLLLFFLLLLLLLLFFFFF"},
    {WorkloadKind::matmul, 0, KernelCompilation::index32, "LLLLLLLLLFLLFLFFLLLLLFLFLLFFLLFLLFLLLLLLLLFFFFFF"},
    // stencils with a box the kernel is specialised for: the box unrolled
    {WorkloadKind::stencil, 3, KernelCompilation::index64, "LLLLLLLLLFFFFFFFFFFFFFF"},
    {WorkloadKind::stencil, 3, KernelCompilation::index32, "LLLLLLLLLFFFFFFFFFFFFFF"},
    {WorkloadKind::stencil, 5, KernelCompilation::index64, "LLLLLLFFLFLFLFLFLLFLLFFFLFLLFFLFLLLLLLLFFFFFFFFFFFFFFFF"},
    {WorkloadKind::stencil, 5, KernelCompilation::index32, "LLLLLLFFLLLFLLLFFLFLLLLLLLLLLLLFFFFFFFFFFFFFFFFFFFFFFFF"},
    {WorkloadKind::stencil, 7, KernelCompilation::index64,
     "LLLLFFLFFLLFFFLLFLFLFFLFLLFFLLFLFLFLFFLLFFLLFLFLFFLFLLFFLLFLFLFLFFLLFLFFLFLFLFLFLLLLLLLLLFFFFFFFFFFFFFF"},
    {WorkloadKind::stencil, 7, KernelCompilation::index32,
     "LLLLLLLLFFLFLFLFLFLLLLFLLFLFFFFFLFFLFFLLLFLLLLFLLFFFFFFLFLFLFLFLLLFLLLLLLLLLLLLFFFFFFFFFFFFFFFFFFFFFFFF"},
    {WorkloadKind::stencil, 9, KernelCompilation::index64,
     "LLLLLLLFFLFFLFLFLFLFLFLFFLLLFLFFLFLFLFLFLFLFLFLFLFLFLFLFLLFFLLLFFLFFLLFFLFLFLFFLLLFLFFLFLFLLFFLFLFLFLFLFLLFLFFL"
     "LFFLLLFFLFFLLFLFFLLFLFFLFLLLLLLLLLLLFFFFFFFFFFFFFFFFFFFF"},
    {WorkloadKind::stencil, 9, KernelCompilation::index32,
     "LLLLLLLLFFFFLFFLLFLLLLLFLFFFFFLFLFLFLLLLLFLFFFLFFLFFLFLLLLLFLFFFLFLLFFFLFLLLLFLFFFFFLFLFLLFLLLLFLFFFFFLFLFLFLLLL"
     "FLLFFFFFLFLFLFLLFLLLLLLLLLLLLLLFFFFFFFFFFFFFFFFFFFFFFFF"},
};

}  // namespace

std::vector<std::uint32_t> gates_of(const char* body, std::uint32_t per_add, std::uint32_t first_add) {
    std::vector<std::uint32_t> gates;
    std::uint32_t adds = 0, loads = 0;
    for (const char* c = body; *c; ++c) {
        if (*c == 'F') {
            ++adds;
        } else if (*c == 'L') {
            const std::uint32_t consumed = adds == 0 ? 0 : first_add + (adds - 1) * per_add;
            gates.push_back(std::min(consumed, loads));  // an add never waits for a later load
            ++loads;
        }
    }
    return gates;
}

std::vector<std::uint32_t> load_gates(const GpuConfig& config, const WorkloadSpec& spec, std::uint32_t burst) {
    if (config.load_gates != LoadGates::sass) return {};
    const std::uint32_t box = spec.kind == WorkloadKind::stencil ? spec.stencil_w : 0;
    if (spec.kind == WorkloadKind::stencil && spec.stencil_w != spec.stencil_h) return {};
    for (const LoopSass& loop : kLoops) {
        if (loop.kind != spec.kind || loop.box != box || loop.compilation != config.compilation) continue;
        std::vector<std::uint32_t> gates =
            spec.kind == WorkloadKind::matmul ? gates_of(loop.body, 2, 2) : gates_of(loop.body, 1, 2);
        if (gates.size() != burst) return {};  // another burst was asked for: its loop is not this one
        return gates;
    }
    return {};
}

}  // namespace cachesim
