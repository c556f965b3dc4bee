#pragma once
// Sweep results on disk. While running, each finished configuration is appended (one JSON line,
// flushed) to OUTPUT.partial (OUTPUT.partial.<rank> under MPI); a rerun reads those and a
// finished OUTPUT to skip configurations already done. The final CSV is written atomically.
#include <cstdio>
#include <map>
#include <string>
#include <vector>

#include "apps/cachesim/sweep_expand.hpp"
#include "apps/cachesim/sweep_run.hpp"

namespace cachesim::cli {

inline constexpr const char* kSweepKeyColumn = "sweep_config";

// Appends finished configurations, one line each, flushed so an interrupted run keeps them.
class PartialLog {
public:
    explicit PartialLog(std::string path);
    ~PartialLog();
    PartialLog(const PartialLog&) = delete;
    PartialLog& operator=(const PartialLog&) = delete;
    void append(const std::string& key, const SweepColumns& columns);
    const std::string& path() const { return path_; }

private:
    std::string path_;
    std::FILE* file_ = nullptr;
};

std::string partial_log_path(const std::string& output, int rank);

// Results already on disk for `output` (its CSV and every partial log), by configuration key.
// A torn last line of a partial log (an interrupted write) is ignored.
std::map<std::string, SweepColumns> load_finished(const std::string& output);

// Serialises results as JSON lines (key + columns), the partial-log and MPI wire format.
std::string encode_results(const std::vector<std::pair<std::string, SweepColumns>>& results);
std::vector<std::pair<std::string, SweepColumns>> decode_results(const std::string& text, bool tolerate_torn_tail);

// The CSV: a sweep_config column, then the union of the rows' columns in first-seen order.
std::string format_sweep_csv(const std::vector<SweepConfiguration>& configs,
                             const std::vector<SweepColumns>& rows);
// Parses CSV text (quoted fields, doubled quotes, newlines inside quotes) into rows of fields.
std::vector<std::vector<std::string>> parse_csv(const std::string& text);

void remove_partial_logs(const std::string& output);

}  // namespace cachesim::cli
