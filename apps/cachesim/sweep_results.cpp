#include "apps/cachesim/sweep_results.hpp"

#include <algorithm>
#include <cerrno>
#include <cstring>
#include <filesystem>
#include <fstream>
#include <nlohmann/json.hpp>
#include <sstream>

#include "apps/cachesim/report.hpp"
#include "traces/input_error.hpp"

namespace cachesim::cli {

namespace fs = std::filesystem;

namespace {

std::string read_text(const fs::path& path) {
    std::ifstream in(path, std::ios::binary);
    if (!in) throw InputError(path.string() + ": cannot read");
    std::ostringstream s;
    s << in.rdbuf();
    return s.str();
}

// Every partial log of `output`: OUTPUT.partial and OUTPUT.partial.<rank>.
std::vector<fs::path> partial_logs(const std::string& output) {
    std::vector<fs::path> logs;
    const fs::path out(output);
    const fs::path dir = out.has_parent_path() ? out.parent_path() : fs::path(".");
    const std::string prefix = out.filename().string() + ".partial";
    std::error_code ec;
    for (const auto& entry : fs::directory_iterator(dir, ec)) {
        const std::string name = entry.path().filename().string();
        if (name.rfind(prefix, 0) == 0 && (name.size() == prefix.size() || name[prefix.size()] == '.'))
            logs.push_back(entry.path());
    }
    std::sort(logs.begin(), logs.end());
    return logs;
}

}  // namespace

PartialLog::PartialLog(std::string path) : path_(std::move(path)) {
    file_ = std::fopen(path_.c_str(), "ab");
    if (!file_) throw InputError(path_ + ": cannot write (" + std::strerror(errno) + ")");
}

PartialLog::~PartialLog() {
    if (file_) std::fclose(file_);
}

void PartialLog::append(const std::string& key, const SweepColumns& columns) {
    const std::string line = encode_results({{key, columns}});
    if (std::fwrite(line.data(), 1, line.size(), file_) != line.size() || std::fflush(file_) != 0)
        throw InputError(path_ + ": write failed (" + std::strerror(errno) + ")");
}

std::string partial_log_path(const std::string& output, int rank) {
    return rank == 0 ? output + ".partial" : output + ".partial." + std::to_string(rank);
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

std::vector<std::pair<std::string, SweepColumns>> decode_results(const std::string& text, bool tolerate_torn_tail) {
    std::vector<std::pair<std::string, SweepColumns>> results;
    std::istringstream in(text);
    std::string line;
    std::size_t number = 0;
    while (std::getline(in, line)) {
        ++number;
        if (line.empty()) continue;
        try {
            const auto j = nlohmann::json::parse(line);
            SweepColumns columns;
            for (const auto& pair : j.at("columns")) columns.emplace_back(pair.at(0).get<std::string>(), pair.at(1).get<std::string>());
            results.emplace_back(j.at("key").get<std::string>(), std::move(columns));
        } catch (const nlohmann::json::exception& e) {
            // Only the last line can be torn by an interruption; anything else is damage.
            if (tolerate_torn_tail && in.peek() == EOF) break;
            throw InputError("sweep results line " + std::to_string(number) + ": " + e.what());
        }
    }
    return results;
}

std::vector<std::vector<std::string>> parse_csv(const std::string& text) {
    std::vector<std::vector<std::string>> rows;
    std::vector<std::string> row;
    std::string field;
    bool quoted = false, field_started = false;
    for (std::size_t i = 0; i < text.size(); ++i) {
        const char c = text[i];
        if (quoted) {
            if (c == '"' && i + 1 < text.size() && text[i + 1] == '"') field += '"', ++i;
            else if (c == '"') quoted = false;
            else field += c;
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
            row.clear();
            field_started = false;
        } else if (c != '\r') {
            field += c;
            field_started = true;
        }
    }
    if (field_started || !field.empty()) {
        row.push_back(std::move(field));
        rows.push_back(std::move(row));
    }
    return rows;
}

std::map<std::string, SweepColumns> load_finished(const std::string& output) {
    std::map<std::string, SweepColumns> finished;
    std::error_code ec;
    if (fs::exists(output, ec)) {
        const auto rows = parse_csv(read_text(output));
        if (!rows.empty()) {
            const auto& header = rows[0];
            if (header.empty() || header[0] != kSweepKeyColumn)
                throw InputError(output + ": exists but is not a sweep result (no '" + kSweepKeyColumn +
                                 "' column); remove it or choose another --output");
            for (std::size_t r = 1; r < rows.size(); ++r) {
                const auto& row = rows[r];
                if (row.size() != header.size())
                    throw InputError(output + ": row " + std::to_string(r + 1) + " has " + std::to_string(row.size()) +
                                     " fields, the header " + std::to_string(header.size()));
                SweepColumns columns;
                for (std::size_t c = 1; c < row.size(); ++c)
                    if (!row[c].empty()) columns.emplace_back(header[c], row[c]);
                finished[row[0]] = std::move(columns);
            }
        }
    }
    for (const fs::path& log : partial_logs(output))
        for (auto& [key, columns] : decode_results(read_text(log), true)) finished[key] = std::move(columns);
    return finished;
}

std::string format_sweep_csv(const std::vector<SweepConfiguration>& configs, const std::vector<SweepColumns>& rows) {
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
        csv += csv_field(configs[i].key);
        for (const std::string& cell : cells) csv += "," + csv_field(cell);
        csv += "\n";
    }
    return csv;
}

void remove_partial_logs(const std::string& output) {
    for (const fs::path& log : partial_logs(output)) {
        std::error_code ignored;
        fs::remove(log, ignored);
    }
}

}  // namespace cachesim::cli
