#pragma once
// --model gpu: runs the GPU model for a configuration from read_simulation_options and fills a
// report with its levels, the Nsight Compute counters ("ncu") and the launch parameters.
#include "apps/common/options.hpp"
#include "apps/cachesim/report.hpp"
#include "sim/gpu/gpu_model.hpp"

namespace cachesim::cli {

// The report of a finished GPU run (model, workload, hierarchy, result, ncu, parameters).
void fill_gpu_report(const SimulationOptions& sim, const GpuResult& result, RunReport& report);

// Turns on counting the L1's hit sources where a known-miss region of the launch is bounded by
// them (sim/gpu/known_misses.hpp), so that the run can tell whether it lies in it.
void count_hit_sources_for_cautions(SimulationOptions& sim);

// Simulates `sim` (model gpu, a workload) and fills `report`; throws SimulationError / Cancelled.
GpuResult run_gpu_model(const SimulationOptions& sim, RunReport& report, const RunControl& control = {});

}  // namespace cachesim::cli
