#pragma once
// The command line shared by record_kernel_host and record_kernel_cuda:
//   record_kernel_* transpose WxH BXxBY OUT.cst   naive transpose of a W x H float matrix
//   record_kernel_* stencil WxH SWxSH BLOCK OUT.cst   box stencil, 1D blocks of BLOCK threads
//   record_kernel_* example SPEC OUT.cst             an example launch (examples/example_spec.hpp)
// Backend supplies alloc(bytes), upload(p, data, bytes), release(p) and record(writer, body). Exit
// 2 on bad input or a failed recording, with one message.
#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <exception>
#include <string>
#include <type_traits>
#include <vector>

#include "examples/example_spec.hpp"
#include "examples/kernels.hpp"
#include "traces/recorder_writer.hpp"

namespace cachesim::examples {

inline bool parse_pair(const char* text, std::uint32_t& a, std::uint32_t& b) {
    char* end = nullptr;
    const unsigned long x = std::strtoul(text, &end, 10);
    if (end == text || (*end != 'x' && *end != 'X')) return false;
    const char* second = end + 1;
    const unsigned long y = std::strtoul(second, &end, 10);
    if (end == second || *end != '\0' || x == 0 || y == 0 || x > 1u << 20 || y > 1u << 20) return false;
    a = static_cast<std::uint32_t>(x);
    b = static_cast<std::uint32_t>(y);
    return true;
}

// What is wrong with a transpose or stencil command line of the right length, or "" when nothing
// is: a size or a block shape that does not parse is named, not answered with the usage alone.
inline std::string shape_argument_problem(bool stencil, char** argv, std::uint32_t& w, std::uint32_t& h,
                                          std::uint32_t& a, std::uint32_t& b, std::uint32_t& block) {
    const std::string pair_rule = "': expected two whole numbers from 1 to 1048576 joined by x";
    if (!parse_pair(argv[2], w, h)) return "size '" + std::string(argv[2]) + pair_rule + " (WxH)";
    if (!parse_pair(argv[3], a, b))
        return (stencil ? "stencil '" : "block '") + std::string(argv[3]) + pair_rule +
               (stencil ? " (SWxSH)" : " (BXxBY)");
    if (!stencil) return "";
    char* end = nullptr;
    const unsigned long threads = std::strtoul(argv[4], &end, 10);
    if (end == argv[4] || *end != '\0' || argv[4][0] == '-' || threads == 0 || threads > 1024)
        return "block '" + std::string(argv[4]) + "': expected a whole number of threads from 1 to 1024";
    block = static_cast<std::uint32_t>(threads);
    return "";
}

// Records the example launch `spec` into `out`; returns the accesses written. Throws.
template <class Backend>
std::uint64_t record_example(const ExampleSpec& spec, const std::string& out, Backend& backend) {
    std::vector<ExampleArray> arrays = example_arrays(spec);
    std::vector<void*> pointers;
    struct Release {  // frees what was allocated, however the recording ends
        Backend& backend;
        std::vector<void*>& pointers;
        ~Release() {
            for (void* p : pointers) backend.release(p);
        }
    } release{backend, pointers};
    std::vector<RecordingArray> registered;
    for (ExampleArray& a : arrays) {
        const std::uint64_t bytes = a.count() * a.elem_bytes;
        pointers.push_back(backend.alloc(bytes));
        if (!a.contents.empty()) backend.upload(pointers.back(), a.contents.data(), bytes);
        a.contents = {};
        registered.push_back({a.name, pointers.back(), a.elem_bytes, a.width, a.height});
    }
    RecordingWriter writer(out, example_grid(spec), example_block(spec), registered);
    return with_example_body(spec, pointers, [&](const auto& body) -> std::uint64_t {
        using Body = std::decay_t<decltype(body)>;
        if constexpr (shared_tiles_of<Body>::value > 0)
            return backend.record(writer, WithoutSharedMemory<Body>{body});
        else
            return backend.record(writer, body);
    });
}

template <class Backend>
int record_main(int argc, char** argv, Backend& backend) {
    const char* usage =
        "usage: %s transpose WxH BXxBY OUT.cst | stencil WxH SWxSH BLOCK OUT.cst | example SPEC OUT.cst\n"
        "SPEC: %s\n"
        "Records the example kernel's global accesses as a cst version 2 trace (cachesim info / simulate\n"
        "--model gpu --trace OUT.cst).\n";
    const std::string kernel = argc > 1 ? argv[1] : "";
    std::uint32_t w = 0, h = 0, a = 0, b = 0, block = 0;
    const bool transpose = kernel == "transpose" && argc == 5;
    const bool stencil = kernel == "stencil" && argc == 6;
    const bool example = kernel == "example" && argc == 4;
    if (!transpose && !stencil && !example) {
        std::fprintf(stderr, usage, argv[0], example_spec_usage());
        return 2;
    }
    if (!example) {
        const std::string problem = shape_argument_problem(stencil, argv, w, h, a, b, block);
        if (!problem.empty()) {
            std::fprintf(stderr, "%s: error: %s %s\n", argv[0], kernel.c_str(), problem.c_str());
            return 2;
        }
    }
    const std::string out = argv[argc - 1];
    if (example) {
        try {
            const ExampleSpec spec = parse_example_spec(argv[2]);
            const auto t0 = std::chrono::steady_clock::now();
            const std::uint64_t accesses = record_example(spec, out, backend);
            const double seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
            std::printf("wrote %s: %llu accesses in %.2f s (%s)\n", out.c_str(), static_cast<unsigned long long>(accesses),
                        seconds, backend.name());
            return 0;
        } catch (const std::exception& e) {
            std::fprintf(stderr, "%s: error: %s\n", argv[0], e.what());
            return 2;
        }
    }
    const std::uint64_t elems = static_cast<std::uint64_t>(w) * h;
    float* in = nullptr;
    float* result = nullptr;
    try {
        in = static_cast<float*>(backend.alloc(elems * sizeof(float)));
        result = static_cast<float*>(backend.alloc(elems * sizeof(float)));
        const auto t0 = std::chrono::steady_clock::now();
        std::uint64_t accesses = 0;
        if (transpose) {
            const Dim3 blk{a, b, 1}, grid{(w + a - 1) / a, (h + b - 1) / b, 1};
            RecordingWriter writer(out, grid, blk, {{"in", in, 4, w, h}, {"out", result, 4, h, w}});
            accesses = backend.record(writer, Transpose{in, result, w, h});
        } else {
            const Dim3 blk{block, 1, 1}, grid{static_cast<std::uint32_t>((elems + block - 1) / block), 1, 1};
            RecordingWriter writer(out, grid, blk, {{"in", in, 4, w, h}, {"out", result, 4, w, h}});
            accesses = backend.record(writer, BoxStencil{in, result, w, h, a, b});
        }
        const double seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
        std::printf("wrote %s: %llu accesses in %.2f s (%s)\n", out.c_str(), static_cast<unsigned long long>(accesses),
                    seconds, backend.name());
    } catch (const std::exception& e) {
        std::fprintf(stderr, "%s: error: %s\n", argv[0], e.what());
        backend.release(in);
        backend.release(result);
        return 2;
    }
    backend.release(in);
    backend.release(result);
    return 0;
}

}  // namespace cachesim::examples
