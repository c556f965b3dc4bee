#include "apps/gpubench/csv.hpp"

#include <fstream>

#include "traces/input_error.hpp"

namespace gpubench {

std::string csv_field(const std::string& text) {
    if (text.find_first_of(",\"\n") == std::string::npos) return text;
    std::string quoted = "\"";
    for (char c : text) {
        if (c == '"') quoted += '"';
        quoted += c;
    }
    return quoted + "\"";
}

std::vector<std::string> split_csv_line(const std::string& line, const std::string& where) {
    std::vector<std::string> fields(1);
    bool quoted = false;
    for (std::size_t i = 0; i < line.size(); ++i) {
        const char c = line[i];
        if (quoted) {
            if (c == '"' && i + 1 < line.size() && line[i + 1] == '"') {
                fields.back() += '"';
                ++i;
            } else if (c == '"') {
                quoted = false;
            } else {
                fields.back() += c;
            }
        } else if (c == '"') {
            quoted = true;
        } else if (c == ',') {
            fields.emplace_back();
        } else if (c != '\r') {
            fields.back() += c;
        }
    }
    if (quoted) throw cachesim::InputError(where + ": unterminated quoted field");
    return fields;
}

int CsvTable::column(const std::string& name) const {
    for (std::size_t i = 0; i < header.size(); ++i)
        if (header[i] == name) return static_cast<int>(i);
    return -1;
}

CsvTable read_csv(const std::string& path, const std::string& header_must_contain) {
    std::ifstream in(path);
    if (!in) throw cachesim::InputError("cannot open '" + path + "'");
    CsvTable table;
    std::string line;
    std::size_t line_number = 0;
    while (std::getline(in, line)) {
        ++line_number;
        const std::string where = path + ":" + std::to_string(line_number);
        if (table.header.empty()) {
            if (line.find(header_must_contain) == std::string::npos) continue;
            table.header = split_csv_line(line, where);
            continue;
        }
        if (line.empty() || line == "\r") continue;
        std::vector<std::string> fields = split_csv_line(line, where);
        if (fields.size() != table.header.size())
            throw cachesim::InputError(where + ": " + std::to_string(fields.size()) + " fields, the header has " +
                                       std::to_string(table.header.size()));
        table.rows.push_back(std::move(fields));
    }
    if (table.header.empty())
        throw cachesim::InputError(path + ": no header line containing '" + header_must_contain + "'");
    return table;
}

}  // namespace gpubench
