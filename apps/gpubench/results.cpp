#include "apps/gpubench/results.hpp"

#include <cmath>
#include <cstdio>
#include <string_view>

#include "apps/gpubench/csv.hpp"
#include "traces/ncu_metrics.hpp"

namespace gpubench {

const std::vector<std::string>& fixed_columns() {
    static const std::vector<std::string> columns{
        "kernel", "width",      "height",    "stencil_w",   "stencil_h", "depth",   "schedule",
        "block",  "elem_bytes", "gpu",       "time_ms",     "time_ms_min", "repetitions", "rel_error",
        "variant"};
    return columns;
}

namespace {

using cachesim::ncu::kMaxSuffix;
using cachesim::ncu::kMinSuffix;

}  // namespace

void write_header(std::ostream& out, const std::vector<std::string>& metric_names, bool spread_columns,
                  bool warm_l2, bool smem_column, bool profile_reps_column) {
    bool first = true;
    for (const std::string& c : fixed_columns()) {
        out << (first ? "" : ",") << c;
        first = false;
    }
    for (const std::string& m : metric_names) out << "," << csv_field(m);
    if (spread_columns)
        for (const std::string& m : metric_names)
            out << "," << csv_field(m + std::string(kMinSuffix)) << "," << csv_field(m + std::string(kMaxSuffix));
    if (warm_l2) out << ",l2_start";
    if (smem_column) out << ",smem_per_block";
    if (profile_reps_column) out << ",profile_reps";
    out << "\n";
}

bool is_spread_column(const std::string& name) { return name.ends_with(kMinSuffix) || name.ends_with(kMaxSuffix); }

std::string format_metric(double value) {
    char text[64];
    if (std::isfinite(value) && value == std::floor(value) && std::fabs(value) < 1e15)
        std::snprintf(text, sizeof text, "%.0f", value);
    else
        std::snprintf(text, sizeof text, "%.6f", value);
    return text;
}

namespace {

std::string format_time(double ms) {
    char text[64];
    std::snprintf(text, sizeof text, "%.6f", ms);
    return text;
}

}  // namespace

void write_config_fields(std::ostream& out, const BenchConfig& config) {
    const cachesim::WorkloadSpec& s = config.spec;
    out << cachesim::workload_name(s.kind) << "," << s.width << "," << s.height << "," << s.stencil_w
        << "," << s.stencil_h << "," << s.depth << "," << csv_field(cachesim::schedule_name(s.schedule))
        << "," << config.block;
}

void write_row(std::ostream& out, const ResultRow& row) {
    const cachesim::WorkloadSpec& s = row.config.spec;
    char error[64] = "";
    if (row.relative_error) std::snprintf(error, sizeof error, "%.3e", *row.relative_error);
    write_config_fields(out, row.config);
    out << "," << s.elem_bytes << "," << csv_field(row.gpu) << ","
        << format_time(row.time_ms) << "," << format_time(row.time_ms_min) << "," << row.repetitions
        << "," << error << "," << kernel_variant_name(row.config.variant);
    for (const std::optional<double>& m : row.metrics) out << "," << (m ? format_metric(*m) : "");
    for (const ResultRow::Spread& spread : row.metric_spread)
        out << "," << format_metric(spread.min) << "," << format_metric(spread.max);
    if (row.warm_l2) out << ",warm";
    if (row.smem_per_block) out << "," << *row.smem_per_block;
    if (row.profile_launches) out << "," << *row.profile_launches;
    out << "\n";
}

}  // namespace gpubench
