#pragma once
// gpubench's output: one CSV row per measured configuration, metrics named as in Nsight Compute.
#include <optional>
#include <ostream>
#include <string>
#include <vector>

#include "apps/gpubench/bench_config.hpp"

namespace gpubench {

struct ResultRow {
    BenchConfig config;
    std::string gpu;
    double time_ms = 0;      // median over the repetitions
    double time_ms_min = 0;
    int repetitions = 0;
    std::optional<double> relative_error;  // empty with --no-check
    std::vector<std::optional<double>> metrics;  // empty cells when not collected
    // --counters cupti only: each metric's smallest and largest value over the profiled launches
    // (one per metric, in the same order); empty otherwise.
    struct Spread {
        double min = 0, max = 0;
    };
    std::vector<Spread> metric_spread;
    bool warm_l2 = false;  // measured with --warm-l2: the l2_start column says "warm"
    std::optional<std::uint32_t> smem_per_block;  // --smem-per-block: the smem_per_block column
    std::optional<int> profile_launches;  // --profile-reps N..M: the profile_reps column
};

// The configuration and timing columns, in order, before the metric columns.
const std::vector<std::string>& fixed_columns();

// The metric columns, then with `spread_columns` "<metric>:min,<metric>:max" for every metric:
// after all the medians, so readers that look columns up by name see the same table as before.
// With `warm_l2` a column l2_start says each row's launches started with their arrays in the L2
// (gpubench --warm-l2); without it the column is left out (the L2 flushed: a cold start). With
// `smem_column` a column smem_per_block gives the launches' dynamic shared memory, and with
// `profile_reps_column` a last column, profile_reps, how many profiled launches per metric group
// each row got (gpubench --profile-reps N..M).
void write_header(std::ostream& out, const std::vector<std::string>& metric_names, bool spread_columns,
                  bool warm_l2 = false, bool smem_column = false, bool profile_reps_column = false);
// True for a column write_header adds with spread_columns.
bool is_spread_column(const std::string& name);
// The configuration fields kernel,width,height,stencil_w,stencil_h,depth,schedule,block (no
// trailing comma); the unused fields of a configuration are 0 (expand_configs).
void write_config_fields(std::ostream& out, const BenchConfig& config);
void write_row(std::ostream& out, const ResultRow& row);
// Counters are whole numbers and written as such; rates keep six decimals.
std::string format_metric(double value);

}  // namespace gpubench
