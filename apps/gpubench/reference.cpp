#include "apps/gpubench/reference.hpp"

#include <algorithm>
#include <cmath>
#include <random>
#include <thread>

#include "traces/workload.hpp"

namespace gpubench {

std::vector<float> random_floats(std::size_t count, std::uint64_t seed) {
    std::mt19937_64 rng(seed);
    std::uniform_real_distribution<float> uniform(0.0f, 1.0f);
    std::vector<float> values(count);
    for (float& v : values) v = uniform(rng);
    return values;
}

namespace {

// Splits [0, items) over the machine's cores.
template <class Body>
void parallel_items(std::uint64_t items, const Body& body) {
    const unsigned threads = std::max(1u, std::thread::hardware_concurrency());
    const std::uint64_t chunk = (items + threads - 1) / threads;
    std::vector<std::thread> pool;
    for (unsigned t = 0; t < threads; ++t) {
        const std::uint64_t first = t * chunk;
        const std::uint64_t last = std::min(items, first + chunk);
        if (first >= last) break;
        pool.emplace_back([&body, first, last] {
            for (std::uint64_t j = first; j < last; ++j) body(j);
        });
    }
    for (std::thread& t : pool) t.join();
}

std::uint64_t element(std::uint64_t address, std::uint64_t base, std::uint32_t elem_bytes) {
    return (address - base) / elem_bytes;
}

}  // namespace

std::vector<double> reference_output(const cachesim::WorkloadSpec& spec,
                                     const std::vector<const std::vector<float>*>& inputs) {
    std::vector<double> out(spec.items());
    if (spec.kind == cachesim::WorkloadKind::stencil) {
        const cachesim::StencilWorkload w = spec.stencil();
        const std::vector<float>& in = *inputs.at(0);
        const std::uint32_t reads = w.sw * w.sh;
        parallel_items(w.items(), [&](std::uint64_t item) {
            double sum = 0;
            for (std::uint32_t k = 0; k < reads; ++k)
                sum += in[element(w.access(item, k).address, w.in_base(), w.elem_bytes)];
            const cachesim::Access write = w.access(item, reads);
            out[element(write.address, w.out_base(), w.elem_bytes)] = sum / reads;
        });
    } else {
        const cachesim::MatmulWorkload w = spec.matmul();
        const std::vector<float>& a = *inputs.at(0);
        const std::vector<float>& b = *inputs.at(1);
        parallel_items(w.items(), [&](std::uint64_t item) {
            double sum = 0;
            for (std::uint32_t i = 0; i < w.depth; ++i) {
                const float av = a[element(w.access(item, 2 * i).address, w.a_base(), w.elem_bytes)];
                const float bv = b[element(w.access(item, 2 * i + 1).address, w.b_base(), w.elem_bytes)];
                sum += static_cast<double>(av) * bv;
            }
            const cachesim::Access write = w.access(item, 2 * w.depth);
            out[element(write.address, w.c_base(), w.elem_bytes)] = sum;
        });
    }
    return out;
}

CheckResult compare(const std::vector<float>& out, const std::vector<double>& ref) {
    CheckResult r;
    double diff2 = 0, ref2 = 0;
    for (std::size_t j = 0; j < ref.size(); ++j) {
        const double o = out[j];
        if (std::isnan(o)) {
            ++r.unwritten;
            r.worst_index = j;
            continue;
        }
        const double d = o - ref[j];
        diff2 += d * d;
        ref2 += ref[j] * ref[j];
        const double rel = std::abs(d) / std::max(std::abs(ref[j]), 1e-30);
        if (rel > r.worst_element_error) {
            r.worst_element_error = rel;
            if (r.unwritten == 0) r.worst_index = j;
        }
    }
    r.relative_error = ref2 > 0 ? std::sqrt(diff2 / ref2) : std::sqrt(diff2);
    return r;
}

}  // namespace gpubench
