// gpubench: the simulator's workloads and schedules on a real GPU (see docs/gpubench.md).
#include <cstdio>
#include <iostream>
#include <memory>
#include <stdexcept>
#include <string>

#include "apps/gpubench/bench_runner.hpp"
#include "apps/gpubench/example_runner.hpp"
#include "apps/gpubench/exit_codes.hpp"
#include "apps/gpubench/ncu_merge.hpp"
#include "apps/gpubench/options.hpp"
#include "apps/gpubench/output_file.hpp"
#include "apps/gpubench/range_profiler.hpp"
#include "traces/input_error.hpp"

namespace {

using namespace gpubench;

// --describe: the device as the GPU model takes it, a cachesim config file.
int describe_gpu(const Options& options) {
    const DeviceInfo device = open_device(options.device);
    cachesim::DeviceDescription description;
    try {
        description = cachesim::describe_device(device.facts);
    } catch (const std::invalid_argument& e) {
        throw cachesim::InputError("--describe: " + device.name + ": " + e.what());
    }
    for (const std::string& note : description.notes)
        std::fprintf(stderr, "gpubench: --describe: assumed: %s\n", note.c_str());
    OutputFile out(options.describe_path);
    out.stream() << description.config;
    out.commit();
    if (options.describe_path != "-")
        std::fprintf(stderr, "gpubench: %s (sm_%d%d) described in %s: cachesim simulate --config %s ...\n",
                     device.name.c_str(), device.major, device.minor, options.describe_path.c_str(),
                     options.describe_path.c_str());
    return kExitOk;
}

int run_benchmarks(const Options& options) {
    const std::vector<BenchConfig> configs = expand_configs(options);
    if (options.dry_run) {
        std::string metrics;  // what the named sets expanded to
        for (const std::string& m : options.metrics) metrics += (metrics.empty() ? "" : ",") + m;
        std::fprintf(stderr, "gpubench: metrics %s\n", metrics.c_str());
        for (const BenchConfig& c : configs) std::cout << c.label() << "\n";
        return kExitOk;
    }
    const DeviceInfo device = open_device(options.device);
    std::fprintf(stderr, "gpubench: %s, sm_%d%d, %d SMs, L2 %zu bytes, driver %d, runtime %d, %zu configurations\n",
                 device.name.c_str(), device.major, device.minor, device.sm_count, device.l2_bytes,
                 device.driver_version, device.runtime_version, configs.size());

    std::unique_ptr<RangeProfiler> profiler;
    if (options.counters == CounterMode::cupti) {
        profiler = std::make_unique<RangeProfiler>(options.device, options.metrics);
        std::fprintf(stderr,
                     "gpubench: CUPTI range profiler on chip %s, %zu single-pass metric group(s), "
                     "median of %s profiled launch(es) each\n",
                     profiler->chip().c_str(), profiler->groups(), describe(options.profile_reps).c_str());
        std::fprintf(stderr, "gpubench: metric groups %s\n", profiler->describe_groups().c_str());
    }

    OutputFile output(options.out_path);
    std::ostream& out = output.stream();
    // Only CUPTI profiles a configuration more than once; ncu's single launch has no spread.
    write_header(out, options.counters == CounterMode::none ? std::vector<std::string>{} : options.metrics,
                 options.counters == CounterMode::cupti, options.warm_l2, options.smem_per_block.has_value(),
                 options.profile_reps.adaptive());

    std::unique_ptr<OutputFile> placement;
    if (!options.placement_path.empty()) {
        placement = std::make_unique<OutputFile>(options.placement_path);
        write_placement_header(placement->stream());
    }
    std::unique_ptr<OutputFile> warp_ends;
    if (!options.warp_ends_path.empty()) {
        warp_ends = std::make_unique<OutputFile>(options.warp_ends_path);
        write_warp_ends_header(warp_ends->stream());
    }
    std::unique_ptr<OutputFile> warp_times;
    if (!options.warp_times_path.empty()) {
        warp_times = std::make_unique<OutputFile>(options.warp_times_path);
        write_warp_times_header(warp_times->stream());
    }

    BenchRunner runner(options, device, profiler.get());
    std::size_t failures = 0;
    for (std::size_t i = 0; i < configs.size(); ++i) {
        try {
            const ResultRow row = runner.run(configs[i]);
            write_row(out, row);
            out.flush();
            if (warp_ends) runner.record_warp_ends(configs[i], warp_ends->stream());
            if (placement || warp_times)
                runner.record_placement(configs[i], placement ? &placement->stream() : nullptr,
                                        warp_times ? &warp_times->stream() : nullptr);
            std::fprintf(stderr, "[%zu/%zu] %s: %.4f ms\n", i + 1, configs.size(), configs[i].label().c_str(),
                         row.time_ms);
        } catch (const CheckFailed& e) {
            ++failures;
            std::fprintf(stderr, "[%zu/%zu] CHECK FAILED %s\n", i + 1, configs.size(), e.what());
        }
    }
    output.commit();
    if (placement) placement->commit();
    if (warp_times) warp_times->commit();
    if (warp_ends) warp_ends->commit();
    if (failures > 0) {
        std::fprintf(stderr, "gpubench: %zu of %zu configurations gave wrong output\n", failures, configs.size());
        return kExitCheckFailed;
    }
    return kExitOk;
}

// The runtime reports a machine without an NVIDIA driver as one whose driver is too old.
std::string missing_driver_note() {
    int version = 0;
    return cudaDriverGetVersion(&version) == cudaSuccess && version == 0 ? "; no NVIDIA driver is installed" : "";
}

}  // namespace

int main(int argc, char** argv) {
    try {
        const Options options = parse_options(argc, argv);
        if (options.help) {
            std::cout << usage();
            return kExitOk;
        }
        check_output_paths(options);
        if (!options.merge_ncu_csv.empty()) {
            merge_ncu_csv(options.merge_ncu_csv, options.merge_rows_csv, options.out_path);
            return kExitOk;
        }
        if (!options.describe_path.empty()) return describe_gpu(options);
        if (!options.examples.empty()) return run_examples(options);
        return run_benchmarks(options);
    } catch (const cachesim::InputError& e) {
        std::fprintf(stderr, "gpubench: %s\n", e.what());
        return kExitBadInput;
    } catch (const NoGpuError& e) {
        std::fprintf(stderr, "gpubench: %s%s (exit code %d: no GPU)\n", e.what(), missing_driver_note().c_str(),
                     kExitNoGpu);
        return kExitNoGpu;
    } catch (const CuptiError& e) {
        std::fprintf(stderr,
                     "gpubench: CUPTI range profiler failed: %s\n"
                     "  (exit code %d; collect counters with Nsight Compute instead: see docs/gpubench.md, "
                     "'--counters ncu')\n",
                     e.what(), kExitCuptiFailed);
        return kExitCuptiFailed;
    } catch (const CudaError& e) {
        std::fprintf(stderr, "gpubench: CUDA error: %s\n", e.what());
        return kExitCudaError;
    } catch (const std::exception& e) {
        std::fprintf(stderr, "gpubench: %s\n", e.what());
        return kExitCudaError;
    }
}
