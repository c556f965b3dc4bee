#pragma once
// Sweep results on disk. While running, each finished configuration is appended (one JSON line)
// to OUTPUT.partial (OUTPUT.partial.<rank> under MPI); a rerun reads those and a finished OUTPUT
// to skip configurations already done. The final CSV is written atomically.
// Interruptions at any moment, repeated, leave a log a rerun can use: a torn last line is cut off
// before the next append, and a torn line anywhere is skipped and counted. Records that parse but
// hold impossible values are errors naming the file and line (sweep_record_check.hpp).
#include <cstdint>
#include <functional>
#include <map>
#include <string>
#include <vector>

#include "apps/cachesim/sweep_expand.hpp"
#include "apps/cachesim/sweep_run.hpp"

namespace cachesim::cli {

inline constexpr const char* kSweepKeyColumn = "sweep_config";

// Appends finished configurations, one line each, written through at once so that a killed run
// keeps them. Opening it cuts off a torn last line left by an interrupted run; an append that
// fails (a full disk) is cut off again before the error is thrown.
class PartialLog {
public:
    explicit PartialLog(std::string path);
    ~PartialLog();
    PartialLog(const PartialLog&) = delete;
    PartialLog& operator=(const PartialLog&) = delete;
    void append(const std::string& key, const SweepColumns& columns);
    const std::string& path() const { return path_; }
    // Bytes of a torn last record cut off when the log was opened.
    std::uint64_t torn_bytes_removed() const { return torn_bytes_removed_; }

private:
    std::string path_;
    int fd_ = -1;
    std::uint64_t size_ = 0;
    std::uint64_t torn_bytes_removed_ = 0;
};

std::string partial_log_path(const std::string& output, int rank);

// Every partial log of `output`: OUTPUT.partial and OUTPUT.partial.<rank>, beside the file the
// output replaces (a symlink's target), as partial_log_path names them.
std::vector<std::string> partial_logs(const std::string& output);

// What an earlier run of a sweep into the same output left.
struct FinishedResults {
    std::map<std::string, SweepColumns> rows;  // by configuration key
    std::vector<std::string> order;            // keys in the order first read (the CSV's, then the logs')
    std::vector<std::string> notes;            // torn records skipped, one line per file
};

// Results already on disk for `output` (its CSV, when it is a regular file, and every partial
// log). `expected_columns(key)` gives the columns a configuration of this sweep reports (empty
// for keys outside it); every record is checked (sweep_record_check.hpp). Torn lines are skipped
// and noted.
using ExpectedColumns = std::function<std::vector<std::string>(const std::string& key)>;
FinishedResults load_finished(const std::string& output, const ExpectedColumns& expected_columns = {});

// Throws InputError unless `output` may be replaced by a sweep's CSV: absent, empty, not a
// regular file, or a sweep result (its first column sweep_config). --fresh discards a sweep's
// rows, never a file of another kind.
void check_sweep_output_replaceable(const std::string& output);

// Serialises results as JSON lines (key + columns), the partial-log and MPI wire format.
std::string encode_results(const std::vector<std::pair<std::string, SweepColumns>>& results);
// Decodes them; `source` names the text in messages ("FILE line N: ..."). With `torn_lines`, a
// line that is not JSON (the remains of an interrupted write) is skipped and its number added;
// without, it is an error. A line that is JSON but not a record is always an error.
std::vector<std::pair<std::string, SweepColumns>> decode_results(const std::string& text, const std::string& source,
                                                                 std::vector<std::size_t>* torn_lines = nullptr,
                                                                 std::vector<std::size_t>* line_numbers = nullptr);

// The CSV: a sweep_config column, then the union of the rows' columns in first-seen order.
std::string format_sweep_csv(const std::vector<std::string>& keys, const std::vector<SweepColumns>& rows);
std::string format_sweep_csv(const std::vector<SweepConfiguration>& configs,
                             const std::vector<SweepColumns>& rows);
// Parses CSV text (quoted fields, doubled quotes, newlines inside quotes) into rows of fields;
// `first_lines` (optional) receives each row's first line number (1-based).
std::vector<std::vector<std::string>> parse_csv(const std::string& text,
                                                std::vector<std::size_t>* first_lines = nullptr);

void remove_partial_logs(const std::string& output);

}  // namespace cachesim::cli
