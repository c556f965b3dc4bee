#include "apps/gpubench/bench_runner.hpp"

#include <algorithm>
#include <cstdio>
#include <memory>

#include "apps/gpubench/cuda_check.hpp"
#include "apps/gpubench/exit_codes.hpp"
#include "apps/gpubench/kernels.cuh"

namespace gpubench {

namespace {

constexpr std::uint32_t kPoisonBits = 0xffffffffu;  // a NaN: unwritten elements cannot pass
constexpr double kMaxRelativeError = 1e-5;          // ||out - ref|| / ||ref||, float vs double
constexpr double kMaxElementError = 1e-3;

template <class T>
T* device_alloc(std::size_t count, const char* what) {
    void* p = nullptr;
    cuda_check(cudaMalloc(&p, count * sizeof(T)), what);
    return static_cast<T*>(p);
}

}  // namespace

std::vector<float> sorted_launch_times(const std::function<void()>& flush, const std::function<void()>& launch,
                                       int warmup, int repetitions, cudaStream_t stream, cudaEvent_t start,
                                       cudaEvent_t stop, const char* what) {
    for (int i = 0; i < warmup; ++i) {
        flush();
        launch();
    }
    std::vector<float> times;
    for (int i = 0; i < repetitions; ++i) {
        flush();
        cuda_check(cudaEventRecord(start, stream), "cudaEventRecord");
        launch();
        cuda_check(cudaEventRecord(stop, stream), "cudaEventRecord");
        cuda_check(cudaEventSynchronize(stop), what);
        float ms = 0;
        cuda_check(cudaEventElapsedTime(&ms, start, stop), "cudaEventElapsedTime");
        times.push_back(ms);
    }
    std::sort(times.begin(), times.end());
    return times;
}

double median_ms(const std::vector<float>& sorted) {
    const std::size_t n = sorted.size();
    return n % 2 ? sorted[n / 2] : 0.5 * (static_cast<double>(sorted[n / 2 - 1]) + sorted[n / 2]);
}

DeviceInfo open_device(int device) {
    int count = 0;
    const cudaError_t status = cudaGetDeviceCount(&count);
    if (status != cudaSuccess)
        throw NoGpuError(std::string("no usable CUDA device: ") + cudaGetErrorString(status));
    if (count == 0) throw NoGpuError("no CUDA device present");
    if (device >= count)
        throw NoGpuError("device " + std::to_string(device) + " requested, " + std::to_string(count) + " present");
    cuda_check(cudaSetDevice(device), "cudaSetDevice");
    cudaDeviceProp prop{};
    cuda_check(cudaGetDeviceProperties(&prop, device), "cudaGetDeviceProperties");
    DeviceInfo info;
    info.name = prop.name;
    info.sm_count = prop.multiProcessorCount;
    info.l2_bytes = static_cast<std::size_t>(prop.l2CacheSize);
    info.memory_bytes = prop.totalGlobalMem;
    info.major = prop.major;
    info.minor = prop.minor;
    cachesim::DeviceFacts& f = info.facts;
    f.name = prop.name;
    f.major = prop.major;
    f.minor = prop.minor;
    f.sms = static_cast<std::uint32_t>(prop.multiProcessorCount);
    f.l2_bytes = static_cast<std::uint64_t>(prop.l2CacheSize);
    f.threads_per_sm = static_cast<std::uint32_t>(prop.maxThreadsPerMultiProcessor);
    f.blocks_per_sm = static_cast<std::uint32_t>(prop.maxBlocksPerMultiProcessor);
    f.regs_per_sm = static_cast<std::uint32_t>(prop.regsPerMultiprocessor);
    f.smem_per_sm = prop.sharedMemPerMultiprocessor;
    f.smem_reserved_per_block = prop.reservedSharedMemPerBlock;
    cuda_check(cudaDriverGetVersion(&info.driver_version), "cudaDriverGetVersion");
    cuda_check(cudaRuntimeGetVersion(&info.runtime_version), "cudaRuntimeGetVersion");
    return info;
}

struct BenchRunner::DeviceArrays {
    std::vector<float*> inputs;  // stencil: in; matmul: A, B
    float* out = nullptr;
    std::size_t out_count = 0;
    ~DeviceArrays() {
        for (float* p : inputs) cudaFree(p);
        cudaFree(out);
    }
};

BenchRunner::BenchRunner(const Options& options, const DeviceInfo& device, RangeProfiler* profiler)
    : options_(options), device_(device), profiler_(profiler) {
    cuda_check(cudaStreamCreateWithFlags(&stream_, cudaStreamNonBlocking), "cudaStreamCreate");
    cuda_check(cudaEventCreate(&start_), "cudaEventCreate");
    cuda_check(cudaEventCreate(&stop_), "cudaEventCreate");
    // Twice the L2, so that after the flush none of a kernel's inputs can still be resident.
    flush_bytes_ = std::max<std::size_t>(2 * device_.l2_bytes, 64u << 20);
    flush_buffer_ = device_alloc<std::uint32_t>(flush_bytes_ / sizeof(std::uint32_t), "cudaMalloc(flush buffer)");
}

BenchRunner::~BenchRunner() {
    arrays_.reset();
    cudaFree(flush_buffer_);
    cudaEventDestroy(start_);
    cudaEventDestroy(stop_);
    cudaStreamDestroy(stream_);
}

void BenchRunner::prepare_data(const cachesim::WorkloadSpec& spec) {
    const bool stencil = spec.kind == cachesim::WorkloadKind::stencil;
    const std::string key = std::string(cachesim::workload_name(spec.kind)) + " " + std::to_string(spec.width) +
                            "x" + std::to_string(spec.height) + " " +
                            (stencil ? std::to_string(spec.stencil_w) + "x" + std::to_string(spec.stencil_h)
                                     : std::to_string(spec.depth));
    if (key == data_key_) return;
    arrays_.reset();
    reference_.clear();
    data_key_.clear();

    std::vector<std::vector<float>> host_inputs;
    if (stencil) {
        host_inputs.push_back(random_floats(spec.items(), options_.seed));
    } else {
        host_inputs.push_back(random_floats(static_cast<std::size_t>(spec.height) * spec.depth, options_.seed));
        host_inputs.push_back(random_floats(static_cast<std::size_t>(spec.depth) * spec.width, options_.seed + 1));
    }
    std::size_t bytes = spec.items() * sizeof(float) + flush_bytes_;
    for (const auto& v : host_inputs) bytes += v.size() * sizeof(float);
    if (bytes > device_.memory_bytes)
        throw CudaError(key + " needs " + std::to_string(bytes >> 20) + " MiB, the device has " +
                        std::to_string(device_.memory_bytes >> 20));

    arrays_ = std::make_unique<DeviceArrays>();
    for (const auto& v : host_inputs) {
        float* d = device_alloc<float>(v.size(), "cudaMalloc(input)");
        arrays_->inputs.push_back(d);
        cuda_check(cudaMemcpy(d, v.data(), v.size() * sizeof(float), cudaMemcpyHostToDevice), "cudaMemcpy(input)");
    }
    arrays_->out_count = spec.items();
    arrays_->out = device_alloc<float>(arrays_->out_count, "cudaMalloc(output)");
    if (options_.check) {
        std::vector<const std::vector<float>*> inputs;
        for (const auto& v : host_inputs) inputs.push_back(&v);
        reference_ = reference_output(spec, inputs);
    }
    data_key_ = key;
}

std::function<void()> BenchRunner::launcher(const BenchConfig& config, Instantiation instantiation,
                                            BlockPlacement* placement, WarpTiming* warps) const {
    const cachesim::WorkloadSpec& s = config.spec;
    const std::uint32_t block = config.block;
    cudaStream_t stream = stream_;
    // The kernel's launch function for the instantiation, bound to its arguments.
    auto bind = [&](const auto& args, auto timed, auto profiled, auto placed, auto end_stamped) -> std::function<void()> {
        auto launch = instantiation == Instantiation::placed        ? placed
                      : instantiation == Instantiation::end_stamped ? end_stamped
                      : instantiation == Instantiation::profiled    ? profiled
                                                                    : timed;
        return [launch, args, block, stream] { launch(args, block, stream); };
    };
    if (s.kind == cachesim::WorkloadKind::stencil)
        return bind(StencilArgs{arrays_->out, arrays_->inputs[0], s.width, s.height, s.stencil_w, s.stencil_h, s.schedule,
                                placement, warps, config.variant, options_.smem_per_block.value_or(0)},
                    &launch_stencil<TimedLaunch>, &launch_stencil<ProfiledLaunch>, &launch_stencil<PlacedLaunch>,
                    &launch_stencil<EndStampedLaunch>);
    return bind(MatmulArgs{arrays_->out, arrays_->inputs[0], arrays_->inputs[1], s.width, s.height, s.depth, s.schedule,
                           placement, warps, config.variant, options_.smem_per_block.value_or(0)},
                &launch_matmul<TimedLaunch>, &launch_matmul<ProfiledLaunch>, &launch_matmul<PlacedLaunch>,
                &launch_matmul<EndStampedLaunch>);
}

void write_placement_header(std::ostream& out) {
    out << "kernel,width,height,stencil_w,stencil_h,depth,schedule,block_size,launch,block,sm,start_ns,end_ns\n";
}

void write_warp_times_header(std::ostream& out) {
    out << "kernel,width,height,stencil_w,stencil_h,depth,schedule,block_size,launch,block,warp,sm,slot,start_ns,end_ns\n";
}

void BenchRunner::record_placement(const BenchConfig& config, std::ostream* blocks_out, std::ostream* warps_out) {
    prepare_data(config.spec);
    const std::uint64_t blocks = (config.spec.items() + config.block - 1) / config.block;
    const std::uint64_t warps_per_block = (config.block + 31) / 32;
    const std::uint64_t warps = blocks * warps_per_block;
    const std::unique_ptr<BlockPlacement, cudaError_t (*)(void*)> device(
        device_alloc<BlockPlacement>(blocks, "cudaMalloc(placement)"), cudaFree);
    const std::unique_ptr<WarpTiming, cudaError_t (*)(void*)> device_warps(
        warps_out ? device_alloc<WarpTiming>(warps, "cudaMalloc(warp times)") : nullptr, cudaFree);
    std::vector<BlockPlacement> host(blocks);
    std::vector<WarpTiming> host_warps(warps_out ? warps : 0);
    for (int launch = 0; launch < options_.placement_repetitions; ++launch) {
        cuda_check(cudaMemsetAsync(device.get(), 0, blocks * sizeof(BlockPlacement), stream_), "cudaMemset(placement)");
        if (warps_out)
            cuda_check(cudaMemsetAsync(device_warps.get(), 0, warps * sizeof(WarpTiming), stream_),
                       "cudaMemset(warp times)");
        prepare_l2(config);
        launcher(config, Instantiation::placed, device.get(), device_warps.get())();
        cuda_check(cudaStreamSynchronize(stream_), "placement launch");
        cuda_check(cudaMemcpy(host.data(), device.get(), blocks * sizeof(BlockPlacement), cudaMemcpyDeviceToHost),
                   "cudaMemcpy(placement)");
        if (warps_out)
            cuda_check(cudaMemcpy(host_warps.data(), device_warps.get(), warps * sizeof(WarpTiming),
                                  cudaMemcpyDeviceToHost),
                       "cudaMemcpy(warp times)");
        // Times count from the launch's first recorded start (a block's other warps may start
        // before the warp that holds its thread 0).
        unsigned long long first = ~0ull;
        for (const BlockPlacement& p : host) first = std::min(first, p.start_ns);
        for (const WarpTiming& t : host_warps)
            if (t.start_ns != 0) first = std::min(first, t.start_ns);
        for (std::uint64_t b = 0; blocks_out && b < blocks; ++b) {
            write_config_fields(*blocks_out, config);
            *blocks_out << ',' << launch << ',' << b << ',' << host[b].sm << ',' << (host[b].start_ns - first) << ','
                        << (host[b].end_ns - first) << '\n';
        }
        if (!warps_out) continue;
        for (std::uint64_t w = 0; w < warps; ++w) {
            const WarpTiming& t = host_warps[w];
            if (t.start_ns == 0) continue;  // a warp with no thread in range records nothing
            write_config_fields(*warps_out, config);
            *warps_out << ',' << launch << ',' << w / warps_per_block << ',' << w % warps_per_block << ',' << t.sm << ','
                       << t.slot << ',' << (t.start_ns - first) << ',' << (t.end_ns - first) << '\n';
        }
    }
}

void write_warp_ends_header(std::ostream& out) {
    out << "kernel,width,height,stencil_w,stencil_h,depth,schedule,block_size,launch,block,warp,sm,slot,end_ns\n";
}

void BenchRunner::record_warp_ends(const BenchConfig& config, std::ostream& out) {
    prepare_data(config.spec);
    const cachesim::WorkloadSpec& s = config.spec;
    const std::uint64_t blocks = (s.items() + config.block - 1) / config.block;
    const std::uint64_t warps_per_block = (config.block + 31) / 32;
    const std::uint64_t warps = blocks * warps_per_block;
    const std::unique_ptr<WarpTiming, cudaError_t (*)(void*)> device_warps(
        device_alloc<WarpTiming>(warps, "cudaMalloc(warp ends)"), cudaFree);
    const std::unique_ptr<unsigned long long, cudaError_t (*)(void*)> stamp(
        device_alloc<unsigned long long>(1, "cudaMalloc(stamp)"), cudaFree);
    std::vector<WarpTiming> host(warps);
    for (int launch = 0; launch < options_.placement_repetitions; ++launch) {
        cuda_check(cudaMemsetAsync(device_warps.get(), 0, warps * sizeof(WarpTiming), stream_), "cudaMemset(warp ends)");
        prepare_l2(config);
        stamp_time(stamp.get(), stream_);  // just before the launch: the origin of its times
        launcher(config, Instantiation::end_stamped, nullptr, device_warps.get())();
        cuda_check(cudaStreamSynchronize(stream_), "end-stamped launch");
        unsigned long long origin = 0;
        cuda_check(cudaMemcpy(&origin, stamp.get(), sizeof origin, cudaMemcpyDeviceToHost), "cudaMemcpy(stamp)");
        cuda_check(cudaMemcpy(host.data(), device_warps.get(), warps * sizeof(WarpTiming), cudaMemcpyDeviceToHost),
                   "cudaMemcpy(warp ends)");
        for (std::uint64_t w = 0; w < warps; ++w) {
            const WarpTiming& t = host[w];
            if (t.end_ns == 0) continue;  // a warp with no thread in range records nothing
            write_config_fields(out, config);
            out << ',' << launch << ',' << w / warps_per_block << ',' << w % warps_per_block << ',' << t.sm << ','
                << t.slot << ',' << static_cast<long long>(t.end_ns - origin) << '\n';
        }
    }
}

double BenchRunner::check(const BenchConfig& config) {
    fill_bits(arrays_->out, arrays_->out_count, kPoisonBits, stream_);
    launcher(config, Instantiation::timed)();
    cuda_check(cudaStreamSynchronize(stream_), "checked launch");
    host_out_.resize(arrays_->out_count);
    cuda_check(cudaMemcpy(host_out_.data(), arrays_->out, host_out_.size() * sizeof(float), cudaMemcpyDeviceToHost),
               "cudaMemcpy(output)");
    const CheckResult r = compare(host_out_, reference_);
    if (r.unwritten > 0)
        throw CheckFailed(config.label() + ": " + std::to_string(r.unwritten) + " output elements not written (first at " +
                          std::to_string(r.worst_index) + ")");
    if (r.relative_error > kMaxRelativeError || r.worst_element_error > kMaxElementError) {
        char text[160];
        std::snprintf(text, sizeof text, ": relative error %.3e, worst element %.3e at %llu", r.relative_error,
                      r.worst_element_error, static_cast<unsigned long long>(r.worst_index));
        throw CheckFailed(config.label() + text);
    }
    return r.relative_error;
}

void BenchRunner::prepare_l2(const BenchConfig& config) {
    flush_l2(flush_buffer_, flush_bytes_, stream_);
    if (options_.warm_l2) launcher(config, Instantiation::timed)();
}

void BenchRunner::time(const BenchConfig& config, ResultRow& row) {
    const std::function<void()> launch = launcher(config, Instantiation::timed);
    const std::vector<float> times = sorted_launch_times([&] { prepare_l2(config); },
                                                         launch, options_.warmup, options_.repetitions, stream_,
                                                         start_, stop_, "timed launch");
    row.time_ms = median_ms(times);
    row.time_ms_min = times.front();
    row.repetitions = options_.repetitions;
}

ResultRow BenchRunner::run(const BenchConfig& config) {
    prepare_data(config.spec);
    ResultRow row;
    row.config = config;
    row.gpu = device_.name;
    row.warm_l2 = options_.warm_l2;
    row.smem_per_block = options_.smem_per_block;
    row.metrics.assign(options_.counters == CounterMode::none ? 0 : options_.metrics.size(), std::nullopt);
    if (options_.check) row.relative_error = check(config);
    time(config, row);
    const auto flush = [&] { prepare_l2(config); };
    if (options_.counters == CounterMode::cupti) {
        // Run-to-run variation (which warps hit in L1 depends on timing) is damped by the median;
        // each metric's median stays a value one run produced.
        std::vector<std::vector<double>> runs(options_.metrics.size());
        int launches = 0;
        for (; needs_another_launch(options_.profile_reps, options_.metrics, runs, launches); ++launches) {
            // A short range name: CUPTI's counter data image keeps range names in a fixed space,
            // and labels of 60 characters crashed it (SIGSEGV) on the H200.
            const std::vector<double> values = profiler_->measure("launch", flush, launcher(config, Instantiation::profiled));
            for (std::size_t m = 0; m < values.size(); ++m) runs[m].push_back(values[m]);
        }
        for (std::size_t m = 0; m < runs.size(); ++m) {
            std::sort(runs[m].begin(), runs[m].end());
            row.metrics[m] = runs[m][runs[m].size() / 2];
            row.metric_spread.push_back({runs[m].front(), runs[m].back()});  // the hardware's own spread
        }
        if (options_.profile_reps.adaptive()) row.profile_launches = launches;
    } else if (options_.counters == CounterMode::ncu) {
        flush();  // ncu's --cache-control all flushes too; this keeps both paths alike
        cuda_check(cudaStreamSynchronize(stream_), "flush before the profiled launch");
        launcher(config, Instantiation::profiled)();
        cuda_check(cudaStreamSynchronize(stream_), "profiled launch");
    }
    return row;
}

}  // namespace gpubench
