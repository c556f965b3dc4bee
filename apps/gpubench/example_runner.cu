#include "apps/gpubench/example_runner.hpp"

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <cstring>
#include <iostream>
#include <memory>
#include <optional>
#include <sstream>
#include <stdexcept>
#include <type_traits>

#include "apps/gpubench/csv.hpp"
#include "apps/gpubench/cuda_check.hpp"
#include "apps/gpubench/bench_runner.hpp"
#include "apps/gpubench/exit_codes.hpp"
#include "apps/gpubench/kernels.cuh"
#include "apps/gpubench/output_file.hpp"
#include "apps/gpubench/range_profiler.hpp"
#include "apps/gpubench/results.hpp"
#include "examples/example_launch.cuh"
#include "traces/input_error.hpp"

namespace gpubench {

namespace ex = cachesim::examples;

namespace {

constexpr double kMaxRelativeError = 1e-5;

float as_float(std::uint32_t word) {
    float f;
    std::memcpy(&f, &word, sizeof f);
    return f;
}

// The spec's arrays on the device (example_arrays' order), freed on destruction.
struct DeviceExample {
    std::vector<ex::ExampleArray> arrays;
    std::vector<void*> pointers;
    ~DeviceExample() {
        for (void* p : pointers) cudaFree(p);
    }
};

// The output element indices the check looks at and their reference values (double). The GEMM's
// is a sample (every 61st element: k multiply-adds each); the others are complete.
struct Reference {
    std::vector<std::uint64_t> index;
    std::vector<double> value;
    std::vector<double> scale;  // the sum of |terms| of each value: its float rounding bound
};

Reference reference_of(const ex::ExampleSpec& s, const std::vector<ex::ExampleArray>& a) {
    Reference r;
    auto in = [&](std::size_t array, std::uint64_t i) { return static_cast<double>(as_float(a[array].contents[i])); };
    auto add = [&](std::uint64_t i, double v, double scale) {
        r.index.push_back(i);
        r.value.push_back(v);
        r.scale.push_back(scale);
    };
    switch (s.kind) {
        case ex::ExampleKind::transpose:
        case ex::ExampleKind::transpose_tiled:
            for (std::uint64_t y = 0; y < s.height; ++y)
                for (std::uint64_t x = 0; x < s.width; ++x) {
                    const double v = in(0, y * s.width + x);
                    add(x * s.height + y, v, std::fabs(v));
                }
            break;
        case ex::ExampleKind::stencil3d: {
            const std::uint64_t row = s.width, plane = row * s.height;
            for (std::uint64_t z = 0; z < s.depth; ++z)
                for (std::uint64_t y = 0; y < s.height; ++y)
                    for (std::uint64_t x = 0; x < s.width; ++x) {
                        const std::uint64_t i = z * plane + y * row + x;
                        const double n = in(0, i - (x > 0 ? 1 : 0)) + in(0, i + (x + 1 < s.width ? 1 : 0)) +
                                         in(0, i - (y > 0 ? row : 0)) + in(0, i + (y + 1 < s.height ? row : 0)) +
                                         in(0, i - (z > 0 ? plane : 0)) + in(0, i + (z + 1 < s.depth ? plane : 0));
                        const double v = 0.4 * in(0, i) + 0.1 * n;  // inputs >= 0: v is its own scale
                        add(i, v, v);
                    }
            break;
        }
        case ex::ExampleKind::gemm: {
            const std::uint64_t m = s.height, n = s.width, k = s.depth;
            for (std::uint64_t i = 0; i < m * n; i += 61) {
                double v = 0;
                for (std::uint64_t j = 0; j < k; ++j) v += in(0, (i / n) * k + j) * in(1, j * n + i % n);
                add(i, v, v);
            }
            break;
        }
        case ex::ExampleKind::spmv:
            for (std::uint64_t row = 0; row < s.height; ++row) {
                double v = 0;
                for (std::uint32_t j = a[0].contents[row]; j < a[0].contents[row + 1]; ++j)
                    v += in(2, j) * in(3, a[1].contents[j]);
                add(row, v, v);
            }
            break;
    }
    return r;
}

// ||out - ref|| / ||ref|| over the checked elements; throws CheckFailed for an unwritten (NaN)
// element or one further from the reference than float rounding allows.
double check_output(const ex::ExampleSpec& s, const std::vector<float>& out, const Reference& r) {
    double diff = 0, norm = 0;
    for (std::size_t e = 0; e < r.index.size(); ++e) {
        const float o = out[r.index[e]];
        if (std::isnan(o))
            throw CheckFailed(s.text + ": output element " + std::to_string(r.index[e]) + " not written");
        const double d = std::fabs(static_cast<double>(o) - r.value[e]);
        if (d > 1e-3 * r.scale[e] + 1e-6)
            throw CheckFailed(s.text + ": output element " + std::to_string(r.index[e]) + " is " + std::to_string(o) +
                              ", the reference " + std::to_string(r.value[e]));
        diff += d * d;
        norm += r.value[e] * r.value[e];
    }
    const double rel = norm > 0 ? std::sqrt(diff / norm) : std::sqrt(diff);
    if (rel > kMaxRelativeError)
        throw CheckFailed(s.text + ": relative error " + std::to_string(rel));
    return rel;
}

// The compiled kernel's static shared memory per block and registers per thread (they decide how
// many blocks an SM holds and how much of its memory is left to L1; cachesim compare applies them).
cudaFuncAttributes kernel_attributes(const ex::ExampleSpec& s, const std::vector<void*>& pointers) {
    cudaFuncAttributes attributes{};
    ex::with_example_body(s, pointers, [&](const auto& body) {
        using Body = std::decay_t<decltype(body)>;
        cuda_check(cudaFuncGetAttributes(&attributes, ex::example_kernel<Body>), "cudaFuncGetAttributes");
    });
    return attributes;
}

// The configuration columns of a row: kernel, width, height, stencil_w, stencil_h, depth,
// schedule (the block order), block (threads per block).
void write_example_config(std::ostream& out, const ex::ExampleSpec& s, std::uint64_t nonzeros) {
    const cachesim::Dim3 b = ex::example_block(s);
    const std::uint64_t depth = s.kind == ex::ExampleKind::spmv       ? nonzeros
                                : s.kind == ex::ExampleKind::stencil3d || s.kind == ex::ExampleKind::gemm ? s.depth
                                                                                                           : 0;
    out << ex::example_kind_name(s.kind) << "," << s.width << "," << s.height << ",0,0," << depth << ","
        << csv_field(ex::example_order_name(s)) << "," << b.x * b.y * b.z;
}

}  // namespace

void write_example_header(std::ostream& out, const std::vector<std::string>& metric_names, bool spread_columns) {
    std::ostringstream base;
    write_header(base, metric_names, spread_columns);
    std::string header = base.str();
    const std::string after = ",variant";
    header.insert(header.find(after) + after.size(), ",example,trace,shared_bytes,registers");
    out << header;
}

int run_examples(const Options& options) {
    std::vector<ex::ExampleSpec> specs;
    for (const std::string& text : options.examples) {
        try {
            specs.push_back(ex::parse_example_spec(text));
        } catch (const std::invalid_argument& e) {
            throw cachesim::InputError(std::string("--examples: ") + e.what());
        }
    }
    if (options.dry_run) {
        for (const ex::ExampleSpec& s : specs) {
            const cachesim::Dim3 g = ex::example_grid(s), b = ex::example_block(s);
            std::cout << s.text << ": grid " << g.x << "x" << g.y << "x" << g.z << ", block " << b.x << "x" << b.y << "x"
                      << b.z << ", order " << ex::example_order_name(s) << ", trace " << options.trace_dir << "/"
                      << ex::example_trace_name(s) << "\n";
        }
        return kExitOk;
    }
    const DeviceInfo device = open_device(options.device);
    std::fprintf(stderr, "gpubench: %s, sm_%d%d, %d SMs, L2 %zu bytes, %zu example launches\n", device.name.c_str(),
                 device.major, device.minor, device.sm_count, device.l2_bytes, specs.size());
    std::unique_ptr<RangeProfiler> profiler;
    if (options.counters == CounterMode::cupti) {
        profiler = std::make_unique<RangeProfiler>(options.device, options.metrics);
        std::fprintf(stderr, "gpubench: metric groups %s\n", profiler->describe_groups().c_str());
    }  // (--counters ncu with --examples is refused while the options are parsed)
    cudaStream_t stream = nullptr;
    cuda_check(cudaStreamCreateWithFlags(&stream, cudaStreamNonBlocking), "cudaStreamCreate");
    cudaEvent_t start = nullptr, stop = nullptr;
    cuda_check(cudaEventCreate(&start), "cudaEventCreate");
    cuda_check(cudaEventCreate(&stop), "cudaEventCreate");
    const std::size_t flush_bytes = std::max<std::size_t>(2 * device.l2_bytes, 64u << 20);
    std::uint32_t* flush_buffer = nullptr;
    cuda_check(cudaMalloc(&flush_buffer, flush_bytes), "cudaMalloc(flush buffer)");
    const auto flush = [&] { flush_l2(flush_buffer, flush_bytes, stream); };

    OutputFile output(options.out_path);
    std::ostream& out = output.stream();
    const bool counters = options.counters == CounterMode::cupti;
    write_example_header(out, counters ? options.metrics : std::vector<std::string>{}, counters);
    std::size_t failures = 0;
    for (std::size_t c = 0; c < specs.size(); ++c) {
        const ex::ExampleSpec& s = specs[c];
        DeviceExample d;
        d.arrays = ex::example_arrays(s);
        for (const ex::ExampleArray& a : d.arrays) {
            void* p = nullptr;
            cuda_check(cudaMalloc(&p, a.count() * a.elem_bytes), "cudaMalloc(example array)");
            d.pointers.push_back(p);
            if (!a.contents.empty())
                cuda_check(cudaMemcpy(p, a.contents.data(), a.count() * a.elem_bytes, cudaMemcpyHostToDevice),
                           "cudaMemcpy(example input)");
        }
        const ex::ExampleArray& output_array = d.arrays.back();
        const std::uint64_t nonzeros = s.kind == ex::ExampleKind::spmv ? d.arrays[1].count() : 0;
        const auto launch = [&] {
            ex::with_example_body(s, d.pointers, [&](const auto& body) { ex::launch_example_body(body, s, stream); });
            cuda_check_launch("example kernel launch");
        };
        const cudaFuncAttributes attributes = kernel_attributes(s, d.pointers);
        std::optional<double> relative_error;
        try {
            if (options.check) {
                fill_bits(static_cast<float*>(d.pointers.back()), output_array.count(), 0xffffffffu, stream);
                launch();
                cuda_check(cudaStreamSynchronize(stream), "checked example launch");
                std::vector<float> host(output_array.count());
                cuda_check(cudaMemcpy(host.data(), d.pointers.back(), host.size() * sizeof(float), cudaMemcpyDeviceToHost),
                           "cudaMemcpy(example output)");
                relative_error = check_output(s, host, reference_of(s, d.arrays));
            }
        } catch (const CheckFailed& e) {
            ++failures;
            std::fprintf(stderr, "[%zu/%zu] CHECK FAILED %s\n", c + 1, specs.size(), e.what());
            continue;
        }
        const std::vector<float> times = sorted_launch_times(flush, launch, options.warmup, options.repetitions,
                                                             stream, start, stop, "timed example launch");
        const double median = median_ms(times);
        std::vector<std::optional<double>> metrics;
        std::vector<ResultRow::Spread> spread;
        if (counters) {
            std::vector<std::vector<double>> runs(options.metrics.size());
            for (int r = 0; r < options.profile_reps.least; ++r) {  // a fixed number here (options.cpp)
                const std::vector<double> values = profiler->measure("launch", flush, launch);
                for (std::size_t m = 0; m < values.size(); ++m) runs[m].push_back(values[m]);
            }
            for (std::vector<double>& v : runs) {
                std::sort(v.begin(), v.end());
                metrics.push_back(v[v.size() / 2]);
                spread.push_back({v.front(), v.back()});
            }
        }
        char error[64] = "";
        if (relative_error) std::snprintf(error, sizeof error, "%.3e", *relative_error);
        char time_text[64], min_text[64];
        std::snprintf(time_text, sizeof time_text, "%.6f", median);
        std::snprintf(min_text, sizeof min_text, "%.6f", static_cast<double>(times.front()));
        write_example_config(out, s, nonzeros);
        out << ",4," << csv_field(device.name) << "," << time_text << "," << min_text << "," << options.repetitions << ","
            << error << ",example," << csv_field(s.text) << ","
            << csv_field(options.trace_dir + "/" + ex::example_trace_name(s)) << "," << attributes.sharedSizeBytes << ","
            << attributes.numRegs;
        for (const std::optional<double>& m : metrics) out << "," << (m ? format_metric(*m) : "");
        for (const ResultRow::Spread& r : spread) out << "," << format_metric(r.min) << "," << format_metric(r.max);
        out << "\n";
        out.flush();
        std::fprintf(stderr, "[%zu/%zu] %s: %.4f ms\n", c + 1, specs.size(), s.text.c_str(), median);
    }
    output.commit();
    cudaFree(flush_buffer);
    cudaEventDestroy(start);
    cudaEventDestroy(stop);
    cudaStreamDestroy(stream);
    if (failures > 0) {
        std::fprintf(stderr, "gpubench: %zu of %zu example launches gave wrong output\n", failures, specs.size());
        return kExitCheckFailed;
    }
    return kExitOk;
}

}  // namespace gpubench
