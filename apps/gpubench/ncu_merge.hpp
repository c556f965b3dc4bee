#pragma once
// Fallback for machines where CUPTI's range profiler fails: gpubench runs under Nsight Compute
// with --counters ncu, which launches one ProfiledLaunch kernel per configuration; this fills
// the rows' metric columns from ncu's raw CSV, matching rows and profiled launches in order.
#include <string>

namespace gpubench {

// Throws cachesim::InputError naming the file, row and column of anything that does not fit.
void merge_ncu_csv(const std::string& ncu_csv, const std::string& rows_csv, const std::string& out_path);

}  // namespace gpubench
