// Benchmark of the GPU model: the H200 preset on the 4096 x 4096 9x9 stencil and on the naive
// 1024 x 1024 x 1024 matmul. Prints warp requests and sector lookups per second of CPU time, the
// wall time, and for several thread counts the wall-time speed-up over the first count (the
// counters must not change with the count; the program exits 1 if they do).
// Usage: bench_gpu_model [stencil|matmul|all] [block] [schedule] [threads,threads,...] [rounds|cycles]
#include <chrono>
#include <cstdio>
#include <cstring>
#include <ctime>
#include <string>
#include <vector>

#include "sim/gpu/dispatch_plan.hpp"
#include "sim/gpu/gpu_model.hpp"
#include "sim/gpu/issue_burst.hpp"
#include "sim/gpu/gpu_presets.hpp"
#include "sim/gpu/warp_rate.hpp"

namespace {

using namespace cachesim;

IssueTiming timing = IssueTiming::rounds;  // the preset's unless the fifth argument names one

bool run(const char* label, WorkloadSpec spec, std::uint32_t block, const std::vector<std::uint32_t>& thread_counts) {
    GpuConfig config = find_gpu_preset("h200")->config;
    config.block = block;
    config.timing = timing;
    double first_wall = 0;
    std::vector<std::pair<std::string, double>> first_metrics;
    if (dispatch_plannable(config)) {  // what the runs on several threads spend first, on one of them
        const auto wall0 = std::chrono::steady_clock::now();
        // as the run plans it: with the launch's rate form (its automatic start skip resolved)
        const GpuConfig run = with_rate_form(config, &spec);
        const DispatchPlan plan = plan_dispatch(spec, run, gpu_occupancy(run), (spec.items() + block - 1) / block,
                                                issue_burst_for(run, &spec));
        std::printf("%-36s block %4u: dispatch plan %.2f s wall (%llu warps)\n", label, block,
                    std::chrono::duration<double>(std::chrono::steady_clock::now() - wall0).count(),
                    static_cast<unsigned long long>(plan.warps));
    }
    for (std::uint32_t threads : thread_counts) {
        RunControl control;
        control.threads = threads;
        timespec cpu0{}, cpu1{};
        clock_gettime(CLOCK_PROCESS_CPUTIME_ID, &cpu0);
        const auto wall0 = std::chrono::steady_clock::now();
        const GpuResult r = simulate_gpu_model(spec, config, control);
        const double wall = std::chrono::duration<double>(std::chrono::steady_clock::now() - wall0).count();
        clock_gettime(CLOCK_PROCESS_CPUTIME_ID, &cpu1);
        const double cpu = static_cast<double>(cpu1.tv_sec - cpu0.tv_sec) + 1e-9 * static_cast<double>(cpu1.tv_nsec - cpu0.tv_nsec);
        const double requests = static_cast<double>(r.requests());
        const double sectors = static_cast<double>(r.load_sectors + r.store_sectors);
        if (first_metrics.empty()) {
            first_wall = wall;
            first_metrics = r.ncu.metrics();
        }
        std::printf("%-36s block %4u threads %3u: %6.2f s wall (x%.2f)  %6.2f s CPU  %11.0f requests (%5.1f M/s CPU)  "
                    "%11.0f sector lookups (%5.1f M/s CPU)\n",
                    label, block, threads, wall, first_wall / wall, cpu, requests, requests / cpu / 1e6, sectors,
                    sectors / cpu / 1e6);
        std::printf("    L1 hit %.2f%%  L2 hit %.2f%% (+%llu far)  ncu:", r.ncu.l1_hit_rate_pct(), r.ncu.l2_hit_rate_pct(),
                    static_cast<unsigned long long>(r.l2_far_hits()));
        for (const auto& [name, value] : r.ncu.metrics()) std::printf(" %.6g", value);
        std::printf("\n");
        if (r.sm_batches != 0)  // the parallelism the refill order leaves
            std::printf("    %llu batches of SMs side by side, %.1f SMs each on average\n",
                        static_cast<unsigned long long>(r.sm_batches), double(r.sm_batch_runs) / double(r.sm_batches));
        if (r.ncu.metrics() != first_metrics) {
            std::printf("    counters differ from the first thread count's\n");
            return false;
        }
    }
    return true;
}

}  // namespace

int main(int argc, char** argv) {
    const std::string which = argc > 1 ? argv[1] : "all";
    const std::uint32_t block = argc > 2 ? static_cast<std::uint32_t>(std::stoul(argv[2])) : 0;
    const std::string schedule = argc > 3 ? argv[3] : "linear";
    std::vector<std::uint32_t> threads;
    for (std::string list = argc > 4 ? argv[4] : "1"; !list.empty();) {
        const std::size_t comma = list.find(',');
        threads.push_back(static_cast<std::uint32_t>(std::stoul(list.substr(0, comma))));
        list = comma == std::string::npos ? "" : list.substr(comma + 1);
    }
    if (argc > 5) timing = std::string(argv[5]) == "cycles" ? IssueTiming::cycles : IssueTiming::rounds;
    else timing = find_gpu_preset("h200")->config.timing;
    bool same = true;
    if (which == "stencil" || which == "all") {
        WorkloadSpec s;
        s.kind = WorkloadKind::stencil;
        s.width = s.height = 4096;
        s.stencil_w = s.stencil_h = 9;
        s.schedule = parse_schedule(schedule);
        same = run(("stencil 4096x4096 9x9 " + schedule).c_str(), s, block ? block : 256, threads) && same;
    }
    if (which == "matmul" || which == "all") {
        WorkloadSpec m;
        m.kind = WorkloadKind::matmul;
        m.width = m.height = m.depth = 1024;
        m.schedule = parse_schedule(schedule);
        same = run(("matmul 1024x1024x1024 " + schedule).c_str(), m, block ? block : 128, threads) && same;
    }
    return same ? 0 : 1;
}
