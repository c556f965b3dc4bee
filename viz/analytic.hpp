#pragma once
// The thesis's analytic side (Prasetya 2022, ch. 3-4), evaluated for concrete parameters.
// Symbols: I_w x I_h work items, S_w x S_h stencil, D matmul depth, L elements per cache line,
// M_l cache lines, u bytes per element, t tile size, c column width.
#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include "sim/geometry.hpp"
#include "traces/workload_spec.hpp"

namespace cachesim::viz::analytic {

// Stencil
std::uint64_t naive_stencil_lines(std::uint64_t iw, std::uint64_t sw, std::uint64_t sh, std::uint64_t l);    // eq. 3.2
std::uint64_t tiled_stencil_lines(std::uint64_t t, std::uint64_t sw, std::uint64_t sh, std::uint64_t l);     // eq. 3.3
double max_stencil_tile(std::uint64_t l, std::uint64_t ml, std::uint64_t sh, std::uint64_t sw);              // eq. 3.4
// Lines one work item's S_w x S_h box reads at the worst alignment: S_h (ceil((S_w - 1) / L) + 1).
std::uint64_t stencil_box_lines(std::uint64_t sw, std::uint64_t sh, std::uint64_t l);
// Sec. 3.3.1's worst case; it holds where each line stays cached from one item to the next, for
// which an LRU cache must hold one box (stencil_box_lines, and the output line if stores allocate).
std::uint64_t naive_stencil_fetches_worst(std::uint64_t iw, std::uint64_t ih, std::uint64_t sw, std::uint64_t sh, std::uint64_t l);
std::uint64_t naive_stencil_fetches_fitting(std::uint64_t iw, std::uint64_t ih, std::uint64_t sw, std::uint64_t l);
// eq. 3.5 with a tile of tw x th (the thesis's square tile t: tw = th = t).
std::uint64_t tiled_stencil_fetches(std::uint64_t iw, std::uint64_t ih, std::uint64_t tw, std::uint64_t th,
                                    std::uint64_t sw, std::uint64_t sh, std::uint64_t l);
std::uint64_t column_stencil_fetches(std::uint64_t iw, std::uint64_t ih, std::uint64_t c, std::uint64_t sw,
                                     std::uint64_t sh, std::uint64_t l);                                      // eq. 4.8
// Section 4.3: c = (M_size - u (s_h s_w + t)) / (s_h u), t active threads.
double recommended_stencil_column(std::uint64_t cache_bytes, std::uint64_t u, std::uint64_t sw, std::uint64_t sh,
                                  std::uint64_t threads);

// Matrix multiplication
std::uint64_t naive_matmul_lines(std::uint64_t d, std::uint64_t l);                          // eq. 3.6 (M_l must exceed)
std::uint64_t naive_matmul_fetches_row_reuse(std::uint64_t iw, std::uint64_t ih, std::uint64_t d, std::uint64_t l);  // eq. 3.7
std::uint64_t naive_matmul_fetches_no_reuse(std::uint64_t iw, std::uint64_t ih, std::uint64_t d, std::uint64_t l);   // eq. 3.8
std::uint64_t full_reuse_matmul_lines(std::uint64_t iw, std::uint64_t d, std::uint64_t l);   // eq. 3.9 (M_l must exceed)
std::uint64_t full_reuse_matmul_fetches(std::uint64_t iw, std::uint64_t ih, std::uint64_t d, std::uint64_t l);      // eq. 3.10
// Section 4.4: M_l = ceil(I_w / L) + I_h ceil(c / L); c = M_size / (u I_h).
std::uint64_t column_matmul_lines(std::uint64_t iw, std::uint64_t ih, std::uint64_t c, std::uint64_t l);
double recommended_matmul_column(std::uint64_t cache_bytes, std::uint64_t u, std::uint64_t ih);

// One evaluated formula for display.
struct Item {
    std::string equation;     // "eq. 3.2"
    std::string meaning;      // what it is
    double value = 0;
    std::string comparison;   // "<= 24 lines: yes" and similar; may be empty
};

struct Summary {
    std::vector<Item> items;
    // The fetch figure that applies to this schedule and cache (lines fetched into the level
    // from below, reads of the input arrays), if the thesis gives one.
    std::optional<double> fetch_bound;
    std::string fetch_equation;  // which one
    bool fetch_is_estimate = false;  // "approximately" rather than an upper bound
    std::optional<std::uint64_t> recommended_column;
    // Why the fetch figure holds here (its condition, evaluated), or why there is none.
    std::string fetch_condition;
    std::string no_bound_reason;
};

// Every figure above models one cache serving the work items one at a time in launch order (the
// thread model). The reason they do not apply to a run of the GPU model (several SMs, each with
// its own L1, running warps interleaved), for display: short lines.
std::vector<std::string> gpu_model_reason(std::uint32_t sms);

// Evaluates every formula that applies to the workload for one cache level (the first enabled
// one: the thesis's cache). Line counts use L = line / element bytes, M_l = size / line.
Summary summarize(const WorkloadSpec& spec, const CacheConfig& cache, std::uint64_t active_threads = 1);


}  // namespace cachesim::viz::analytic
