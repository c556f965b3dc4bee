#pragma once
// --model gpu: runs the GPU model for a configuration from read_simulation_options and fills a
// report with its levels, the Nsight Compute counters ("ncu") and the launch parameters.
#include "apps/common/options.hpp"
#include "apps/cachesim/report.hpp"
#include "sim/gpu/gpu_model.hpp"

namespace cachesim::cli {

// The report of a finished GPU run (model, workload, hierarchy, result, ncu, parameters).
void fill_gpu_report(const SimulationOptions& sim, const GpuResult& result, RunReport& report);

// Simulates `sim` (model gpu, a workload) and fills `report`; throws SimulationError / Cancelled.
GpuResult run_gpu_model(const SimulationOptions& sim, RunReport& report, const RunControl& control = {});

}  // namespace cachesim::cli
