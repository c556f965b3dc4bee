// Benchmark of the GPU model (issue 3): the H200 preset on the 4096 x 4096 9x9 stencil and on the
// naive 1024 x 1024 x 1024 matmul, one thread. Prints warp requests and sector lookups per second.
// Usage: bench_gpu_model [stencil|matmul|all] [block] [schedule]
// Rates are per second of CPU time (the run is single-threaded); the wall time is shown beside.
#include <cstdio>
#include <cstring>
#include <ctime>
#include <string>

#include "sim/gpu/gpu_model.hpp"
#include "sim/gpu/gpu_presets.hpp"

namespace {

using namespace cachesim;

void run(const char* label, WorkloadSpec spec, std::uint32_t block) {
    GpuConfig config = find_gpu_preset("h200")->config;
    config.block = block;
    timespec cpu0{}, cpu1{};
    clock_gettime(CLOCK_PROCESS_CPUTIME_ID, &cpu0);
    const GpuResult r = simulate_gpu_model(spec, config);
    clock_gettime(CLOCK_PROCESS_CPUTIME_ID, &cpu1);
    // CPU time of this (single-threaded) process: what one core spends, whatever else runs.
    const double cpu = static_cast<double>(cpu1.tv_sec - cpu0.tv_sec) + 1e-9 * static_cast<double>(cpu1.tv_nsec - cpu0.tv_nsec);
    const double requests = static_cast<double>(r.requests());
    const double sectors = static_cast<double>(r.load_sectors + r.store_sectors);
    std::printf("%-36s block %4u: %6.2f s CPU (%6.2f s wall)  %11.0f requests (%5.1f M/s)  %11.0f sector lookups (%5.1f M/s)\n",
                label, block, cpu, r.result.seconds, requests, requests / cpu / 1e6, sectors, sectors / cpu / 1e6);
    std::printf("    L1 hit %.2f%%  L2 hit %.2f%% (+%llu far)  ncu:", r.ncu.l1_hit_rate_pct(), r.ncu.l2_hit_rate_pct(),
                static_cast<unsigned long long>(r.l2_far_hits()));
    for (const auto& [name, value] : r.ncu.metrics()) std::printf(" %.6g", value);
    std::printf("\n");
}

}  // namespace

int main(int argc, char** argv) {
    const std::string which = argc > 1 ? argv[1] : "all";
    const std::uint32_t block = argc > 2 ? static_cast<std::uint32_t>(std::stoul(argv[2])) : 0;
    const std::string schedule = argc > 3 ? argv[3] : "linear";
    if (which == "stencil" || which == "all") {
        WorkloadSpec s;
        s.kind = WorkloadKind::stencil;
        s.width = s.height = 4096;
        s.stencil_w = s.stencil_h = 9;
        s.schedule = parse_schedule(schedule);
        run(("stencil 4096x4096 9x9 " + schedule).c_str(), s, block ? block : 256);
    }
    if (which == "matmul" || which == "all") {
        WorkloadSpec m;
        m.kind = WorkloadKind::matmul;
        m.width = m.height = m.depth = 1024;
        m.schedule = parse_schedule(schedule);
        run(("matmul 1024x1024x1024 " + schedule).c_str(), m, block ? block : 128);
    }
    return 0;
}
