#pragma once
// Runs one configuration on the GPU: checks it against the CPU reference, times it, and collects
// its counters. Device buffers and references are reused while consecutive configurations share
// the same data (they differ only in schedule or block size).
#include <cuda_runtime_api.h>

#include <functional>
#include <map>
#include <memory>
#include <string>
#include <vector>

#include "apps/gpubench/kernels.cuh"
#include "apps/gpubench/options.hpp"
#include "apps/gpubench/range_profiler.hpp"
#include "apps/gpubench/reference.hpp"
#include "apps/gpubench/results.hpp"
#include "sim/gpu/device_description.hpp"

namespace gpubench {

struct DeviceInfo {
    std::string name;
    int sm_count = 0;
    std::size_t l2_bytes = 0;
    std::size_t memory_bytes = 0;
    int driver_version = 0, runtime_version = 0;
    int major = 0, minor = 0;
    cachesim::DeviceFacts facts;  // what the GPU model takes from the device (gpubench --describe)
};

// The CSV headers of record_placement's block and warp rows.
void write_placement_header(std::ostream& out);
void write_warp_times_header(std::ostream& out);
void write_warp_ends_header(std::ostream& out);

// Times a kernel launch: `warmup` untimed launches, then `repetitions` timed ones (CUDA events on
// `stream`), each after `flush`. Returns the times in ms, sorted; `what` names a failed launch.
std::vector<float> sorted_launch_times(const std::function<void()>& flush, const std::function<void()>& launch,
                                       int warmup, int repetitions, cudaStream_t stream, cudaEvent_t start,
                                       cudaEvent_t stop, const char* what);
// The median of sorted times (the mean of the middle two for an even count).
double median_ms(const std::vector<float>& sorted);

// Selects the device; throws NoGpuError when there is none (or no driver).
DeviceInfo open_device(int device);

class BenchRunner {
public:
    BenchRunner(const Options& options, const DeviceInfo& device, RangeProfiler* profiler);
    ~BenchRunner();
    BenchRunner(const BenchRunner&) = delete;
    BenchRunner& operator=(const BenchRunner&) = delete;

    // Throws CheckFailed when the output is wrong (nothing is timed then).
    ResultRow run(const BenchConfig& config);
    // Launches the configuration options.placement_repetitions times (each after an L2 flush)
    // recording every block's SM and start/end times, and with warps_out every warp's; writes rows
    // to whichever stream is given (see write_placement_header, write_warp_times_header).
    void record_placement(const BenchConfig& config, std::ostream* blocks_out, std::ostream* warps_out);
    // Launches the EndStampedLaunch variant options.placement_repetitions times, recording when
    // and where every warp finished (ns after a stamp written just before the launch); writes
    // rows (see write_warp_ends_header).
    void record_warp_ends(const BenchConfig& config, std::ostream& out);

private:
    struct DeviceArrays;
    void prepare_data(const cachesim::WorkloadSpec& spec);
    // Which instantiation of the kernels a launch uses (kernels.cuh).
    enum class Instantiation { timed, profiled, placed, end_stamped };
    // One launch of the configuration's kernel; placement and warps are what the placed and
    // end-stamped instantiations record into.
    std::function<void()> launcher(const BenchConfig& config, Instantiation instantiation,
                                   BlockPlacement* placement = nullptr, WarpTiming* warps = nullptr) const;
    double check(const BenchConfig& config);
    void time(const BenchConfig& config, ResultRow& row);
    // Before a measured or recorded launch of `config`: the L2 flushed, and with --warm-l2 one
    // unmeasured launch of the configuration after it, so that its arrays are in the L2 (the L1s
    // start empty either way: the GPU invalidates them between kernels).
    void prepare_l2(const BenchConfig& config);

    const Options& options_;
    DeviceInfo device_;
    RangeProfiler* profiler_;
    cudaStream_t stream_ = nullptr;
    cudaEvent_t start_ = nullptr, stop_ = nullptr;
    std::uint32_t* flush_buffer_ = nullptr;
    std::size_t flush_bytes_ = 0;
    std::unique_ptr<DeviceArrays> arrays_;
    std::string data_key_;
    std::vector<double> reference_;
    std::vector<float> host_out_;
};

}  // namespace gpubench
