#include "apps/cachesim/sweep_results.hpp"

#include <algorithm>
#include <cerrno>
#include <cstring>
#include <fcntl.h>
#include <filesystem>
#include <fstream>
#include <nlohmann/json.hpp>
#include <sstream>
#include <sys/stat.h>
#include <unistd.h>

#include "apps/cachesim/report.hpp"
#include "apps/cachesim/sweep_record_check.hpp"
#include "traces/atomic_output.hpp"
#include "traces/input_error.hpp"

namespace cachesim::cli {

namespace fs = std::filesystem;

namespace {

std::string read_text(const std::string& path) {
    std::ifstream in(path, std::ios::binary);
    if (!in) throw InputError(path + ": cannot read (" + std::strerror(errno) + ")");
    std::ostringstream s;
    s << in.rdbuf();
    if (in.bad()) throw InputError(path + ": read failed");
    return s.str();
}

std::string line_list(const std::vector<std::size_t>& lines) {
    std::string text;
    for (std::size_t i = 0; i < lines.size() && i < 5; ++i) text += (i ? ", " : "") + std::to_string(lines[i]);
    if (lines.size() > 5) text += ", ...";
    return text;
}

}  // namespace

std::vector<std::string> partial_logs(const std::string& output) {
    std::vector<std::string> logs;
    const fs::path out(replaced_file_path(output));
    const fs::path dir = out.has_parent_path() ? out.parent_path() : fs::path(".");
    const std::string prefix = out.filename().string() + ".partial";
    std::error_code ec;
    for (const auto& entry : fs::directory_iterator(dir, ec)) {
        const std::string name = entry.path().filename().string();
        if (name.rfind(prefix, 0) != 0) continue;
        // OUTPUT.partial or OUTPUT.partial.<rank>
        const std::string rest = name.substr(prefix.size());
        if (!rest.empty() && (rest[0] != '.' || rest.size() == 1 ||
                              rest.find_first_not_of("0123456789", 1) != std::string::npos))
            continue;
        logs.push_back((out.has_parent_path() ? dir / name : fs::path(name)).string());
    }
    std::sort(logs.begin(), logs.end());
    return logs;
}

PartialLog::PartialLog(std::string path) : path_(std::move(path)) {
    fd_ = ::open(path_.c_str(), O_RDWR | O_CREAT | O_APPEND | O_CLOEXEC, 0644);
    if (fd_ < 0) throw InputError(path_ + ": cannot write (" + std::strerror(errno) + ")");
    struct stat st {};
    if (::fstat(fd_, &st) != 0) {
        const int error = errno;
        ::close(fd_);
        throw InputError(path_ + ": cannot read (" + std::strerror(error) + ")");
    }
    // Keep everything up to the last newline: what follows it is a record torn by an interruption,
    // and appending after it would glue the next record to it.
    const std::uint64_t size = static_cast<std::uint64_t>(st.st_size);
    std::uint64_t keep = 0, end = size;
    char buffer[1 << 16];
    while (end > 0 && keep == 0) {
        const std::size_t n = static_cast<std::size_t>(std::min<std::uint64_t>(end, sizeof buffer));
        const ssize_t got = ::pread(fd_, buffer, n, static_cast<off_t>(end - n));
        if (got != static_cast<ssize_t>(n)) {
            ::close(fd_);
            throw InputError(path_ + ": read failed");
        }
        for (std::size_t i = n; i-- > 0;)
            if (buffer[i] == '\n') {
                keep = end - n + i + 1;
                break;
            }
        end -= n;
    }
    if (keep < size) {
        if (::ftruncate(fd_, static_cast<off_t>(keep)) != 0) {
            const int error = errno;
            ::close(fd_);
            throw InputError(path_ + ": cannot cut off a torn last record (" + std::strerror(error) + ")");
        }
        torn_bytes_removed_ = size - keep;
    }
    size_ = keep;
}

PartialLog::~PartialLog() {
    if (fd_ >= 0) ::close(fd_);
}

void PartialLog::append(const std::string& key, const SweepColumns& columns) {
    const std::string line = encode_results({{key, columns}});
    try {
        write_all(fd_, line.data(), line.size(), path_);
    } catch (const InputError&) {
        // Leave no torn record behind: a rerun appends to this log.
        [[maybe_unused]] const int ignored = ::ftruncate(fd_, static_cast<off_t>(size_));
        throw;
    }
    size_ += line.size();
}

std::string partial_log_path(const std::string& output, int rank) {
    // Beside the file the output replaces, where the lock is: every name of the output resumes it.
    const std::string file = replaced_file_path(output);
    return rank == 0 ? file + ".partial" : file + ".partial." + std::to_string(rank);
}

std::string encode_results(const std::vector<std::pair<std::string, SweepColumns>>& results) {
    std::string text;
    for (const auto& [key, columns] : results) {
        nlohmann::ordered_json j;
        j["key"] = key;
        j["columns"] = nlohmann::ordered_json::array();
        for (const auto& [name, value] : columns) j["columns"].push_back({name, value});
        text += j.dump() + "\n";
    }
    return text;
}

std::vector<std::pair<std::string, SweepColumns>> decode_results(const std::string& text, const std::string& source,
                                                                 std::vector<std::size_t>* torn_lines,
                                                                 std::vector<std::size_t>* line_numbers) {
    std::vector<std::pair<std::string, SweepColumns>> results;
    std::size_t number = 0, start = 0;
    while (start < text.size()) {
        std::size_t end = text.find('\n', start);
        if (end == std::string::npos) end = text.size();
        const std::string_view line(text.data() + start, end - start);
        start = end + 1;
        ++number;
        if (line.empty()) continue;
        nlohmann::json j = nlohmann::json::parse(line, nullptr, false);
        if (j.is_discarded()) {
            if (!torn_lines) throw InputError(source + " line " + std::to_string(number) + ": not a JSON record");
            torn_lines->push_back(number);
            continue;
        }
        const std::string where = source + " line " + std::to_string(number);
        if (!j.is_object() || !j.contains("key") || !j["key"].is_string() || !j.contains("columns") ||
            !j["columns"].is_array())
            throw InputError(where + ": not a sweep record (expected {\"key\": ..., \"columns\": [...]})");
        SweepColumns columns;
        for (const auto& pair : j["columns"]) {
            if (!pair.is_array() || pair.size() != 2 || !pair[0].is_string() || !pair[1].is_string())
                throw InputError(where + ": a column is not a [name, value] pair of strings");
            columns.emplace_back(pair[0].get<std::string>(), pair[1].get<std::string>());
        }
        results.emplace_back(j["key"].get<std::string>(), std::move(columns));
        if (line_numbers) line_numbers->push_back(number);
    }
    return results;
}

std::vector<std::vector<std::string>> parse_csv(const std::string& text, std::vector<std::size_t>* first_lines) {
    std::vector<std::vector<std::string>> rows;
    std::vector<std::string> row;
    std::string field;
    bool quoted = false, field_started = false;
    std::size_t line = 1, row_line = 1;
    for (std::size_t i = 0; i < text.size(); ++i) {
        const char c = text[i];
        if (quoted) {
            if (c == '"' && i + 1 < text.size() && text[i + 1] == '"') field += '"', ++i;
            else if (c == '"') quoted = false;
            else field += c;
            if (c == '\n') ++line;
        } else if (c == '"') {
            quoted = field_started = true;
        } else if (c == ',') {
            row.push_back(std::move(field));
            field.clear();
            field_started = true;
        } else if (c == '\n') {
            row.push_back(std::move(field));
            field.clear();
            rows.push_back(std::move(row));
            if (first_lines) first_lines->push_back(row_line);
            row.clear();
            field_started = false;
            row_line = ++line;
        } else if (c != '\r') {
            field += c;
            field_started = true;
        }
    }
    if (field_started || !field.empty()) {
        row.push_back(std::move(field));
        rows.push_back(std::move(row));
        if (first_lines) first_lines->push_back(row_line);
    }
    return rows;
}

namespace {

// Throws unless `rows`, the CSV at `output`, are empty or a sweep result's.
void check_sweep_rows(const std::vector<std::vector<std::string>>& rows, const std::string& output) {
    if (!rows.empty() && (rows[0].empty() || rows[0][0] != kSweepKeyColumn))
        throw InputError(output + ": exists but is not a sweep result (no '" + kSweepKeyColumn +
                         "' column); remove it or choose another --output");
}

}  // namespace

void check_sweep_output_replaceable(const std::string& output) {
    std::error_code ec;
    if (fs::is_regular_file(output, ec)) check_sweep_rows(parse_csv(read_text(output)), output);
}

FinishedResults load_finished(const std::string& output, const ExpectedColumns& expected_columns) {
    FinishedResults finished;
    auto keep = [&](std::string key, SweepColumns columns, const std::string& where) {
        check_sweep_record(key, columns, where, expected_columns ? expected_columns(key) : std::vector<std::string>{});
        if (!finished.rows.count(key)) finished.order.push_back(key);
        finished.rows[key] = std::move(columns);
    };
    std::error_code ec;
    // Only a regular file (through symlinks) holds earlier rows: a FIFO or device is written, not read.
    if (fs::is_regular_file(output, ec)) {
        std::vector<std::size_t> lines;
        const auto rows = parse_csv(read_text(output), &lines);
        check_sweep_rows(rows, output);
        if (!rows.empty()) {
            const auto& header = rows[0];
            for (std::size_t r = 1; r < rows.size(); ++r) {
                const auto& row = rows[r];
                const std::string where = output + " line " + std::to_string(lines[r]);
                if (row.size() != header.size())
                    throw InputError(where + ": " + std::to_string(row.size()) + " fields, the header has " +
                                     std::to_string(header.size()));
                SweepColumns columns;
                // An empty field is a column another model's rows have, but for miss classes,
                // which a run that does not classify leaves empty.
                for (std::size_t c = 1; c < row.size(); ++c)
                    if (!row[c].empty() || is_miss_class_column(header[c])) columns.emplace_back(header[c], row[c]);
                keep(row[0], std::move(columns), where);
            }
        }
    }
    for (const std::string& log : partial_logs(output)) {
        std::vector<std::size_t> torn, lines;
        const std::string text = read_text(log);
        auto records = decode_results(text, log, &torn, &lines);
        // A torn record with no newline after it is the log's last: the run that appends to the
        // log cuts it off and says so, so it is not reported here a second time.
        const auto last_line = static_cast<std::size_t>(std::count(text.begin(), text.end(), '\n')) + 1;
        if (!text.empty() && text.back() != '\n' && !torn.empty() && torn.back() == last_line) torn.pop_back();
        for (std::size_t i = 0; i < records.size(); ++i)
            keep(std::move(records[i].first), std::move(records[i].second), log + " line " + std::to_string(lines[i]));
        if (!torn.empty())
            finished.notes.push_back(log + ": skipped " + std::to_string(torn.size()) + " torn record" +
                                     (torn.size() == 1 ? "" : "s") + " (line " + line_list(torn) +
                                     ") left by an interrupted run; those configurations run again");
    }
    return finished;
}

std::string format_sweep_csv(const std::vector<std::string>& keys, const std::vector<SweepColumns>& rows) {
    std::vector<std::string> names;
    std::map<std::string, std::size_t> position;
    for (const SweepColumns& row : rows)
        for (const auto& [name, value] : row)
            if (position.emplace(name, names.size()).second) names.push_back(name);
    std::string csv = kSweepKeyColumn;
    for (const std::string& name : names) csv += "," + csv_field(name);
    csv += "\n";
    for (std::size_t i = 0; i < rows.size(); ++i) {
        std::vector<std::string> cells(names.size());
        for (const auto& [name, value] : rows[i]) cells[position[name]] = value;
        csv += csv_field(keys[i]);
        for (const std::string& cell : cells) csv += "," + csv_field(cell);
        csv += "\n";
    }
    return csv;
}

std::string format_sweep_csv(const std::vector<SweepConfiguration>& configs, const std::vector<SweepColumns>& rows) {
    std::vector<std::string> keys;
    keys.reserve(configs.size());
    for (const SweepConfiguration& c : configs) keys.push_back(c.key);
    return format_sweep_csv(keys, rows);
}

void remove_partial_logs(const std::string& output) {
    for (const std::string& log : partial_logs(output)) {
        std::error_code ignored;
        fs::remove(log, ignored);
    }
}

}  // namespace cachesim::cli
