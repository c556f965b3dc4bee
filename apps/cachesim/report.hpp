#pragma once
// Printers for simulation results: a readable table, one JSON object, or CSV. The statistics
// structs stay plain; everything about presentation lives here.
#include <nlohmann/json.hpp>
#include <optional>
#include <ostream>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

#include "sim/gpu/l1_hit_sources.hpp"
#include "sim/level_stats.hpp"
#include "sim/thread_model.hpp"
#include "traces/workload_spec.hpp"

namespace cachesim::cli {

struct RunReport {
    std::string model = "thread";
    std::optional<WorkloadSpec> workload;
    std::string trace_path;
    HierarchyConfig hierarchy;
    SimulationResult result;
    // GPU model: Nsight Compute metric name -> value, printed under "ncu".
    std::vector<std::pair<std::string, double>> ncu;
    // Extra key/values describing the run (GPU model: block size, SMs, ...).
    std::vector<std::pair<std::string, std::string>> parameters;
    // GPU model: the L1's load hits by the warp that brought the sector.
    std::optional<L1HitSourceCounts> l1_hit_sources;
    // GPU model: the regions this launch is in where the model is known to miss the chip
    // (sim/gpu/known_misses.hpp), one sentence each.
    std::vector<std::string> cautions;
};

// Whether an ncu metric counts something (printed as a whole number, as ncu prints it).
bool is_count_metric(std::string_view name);
// A metric's value as the table and CSV print it: counts whole, rates with up to 10 digits.
std::string metric_text(std::string_view name, double value);

nlohmann::ordered_json to_json(const RunReport& report);
void print_table(std::ostream& out, const RunReport& report, bool show_reuse);
// Flat column name -> value pairs with stable names, for CSV rows and sweeps.
std::vector<std::pair<std::string, std::string>> to_columns(const RunReport& report);
void print_csv(std::ostream& out, const RunReport& report);
// Quotes a CSV field when needed.
std::string csv_field(const std::string& text);

}  // namespace cachesim::cli
