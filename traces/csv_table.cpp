#include "traces/csv_table.hpp"

#include <fstream>
#include <sstream>

#include "traces/input_error.hpp"
#include "traces/text_bom.hpp"

namespace cachesim {

int CsvTable::column(std::string_view name) const {
    for (std::size_t i = 0; i < header.size(); ++i)
        if (header[i] == name) return static_cast<int>(i);
    return -1;
}

std::vector<std::string> split_csv_record(std::string_view line, const std::string& where) {
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
    if (quoted) throw InputError(where + ": unterminated quoted field");
    return fields;
}

namespace {

// A record with nothing in any field, as spreadsheets write trailing empty rows (",,,,"): no data.
bool every_field_empty(const std::vector<std::string>& fields) {
    for (const std::string& field : fields)
        if (!field.empty()) return false;
    return true;
}

// A column named twice would leave one of the two unread, whichever a reader looks up. Unnamed
// columns (a trailing comma) cannot be looked up, so they may repeat.
void refuse_duplicate_columns(const std::vector<std::string>& header, const std::string& where) {
    for (std::size_t i = 0; i < header.size(); ++i)
        for (std::size_t j = 0; j < i; ++j)
            if (!header[i].empty() && header[i] == header[j])
                throw InputError(where + ": column '" + header[i] + "' is named twice in the header (columns " +
                                 std::to_string(j + 1) + " and " + std::to_string(i + 1) + ")");
}

}  // namespace

CsvTable parse_csv(std::string_view text, const std::string& source, std::string_view header_marker) {
    CsvTable table;
    table.source = source;
    text = without_byte_order_mark(text);
    std::size_t line_number = 0;
    bool have_header = false;
    while (!text.empty()) {
        const std::size_t end = text.find('\n');
        std::string_view line = text.substr(0, end);
        text.remove_prefix(end == std::string_view::npos ? text.size() : end + 1);
        ++line_number;
        if (line.find_first_not_of(" \t\r") == std::string_view::npos) continue;
        const std::string where = source + ":" + std::to_string(line_number);
        if (!have_header && !header_marker.empty() && line.find(header_marker) == std::string_view::npos) continue;
        std::vector<std::string> fields = split_csv_record(line, where);
        if (every_field_empty(fields)) continue;
        if (!have_header) {
            refuse_duplicate_columns(fields, where);
            table.header = std::move(fields);
            have_header = true;
            continue;
        }
        if (fields.size() != table.header.size())
            throw InputError(where + ": " + std::to_string(fields.size()) + " fields, but the header has " +
                             std::to_string(table.header.size()));
        table.rows.push_back(std::move(fields));
        table.lines.push_back(line_number);
    }
    if (!have_header)
        throw InputError(source + ": no header line" +
                         (header_marker.empty() ? std::string() : " containing " + std::string(header_marker)));
    return table;
}

std::string read_text_file(const std::string& path) {
    std::ifstream in(path, std::ios::binary);
    if (!in) throw InputError("cannot open '" + path + "'");
    std::ostringstream text;
    text << in.rdbuf();
    return text.str();
}

CsvTable read_csv_file(const std::string& path, std::string_view header_marker) {
    return parse_csv(read_text_file(path), path, header_marker);
}

std::string csv_quote(std::string_view text) {
    if (text.find_first_of(",\"\n") == std::string_view::npos) return std::string(text);
    std::string quoted = "\"";
    for (char c : text) {
        if (c == '"') quoted += '"';
        quoted += c;
    }
    return quoted + "\"";
}

}  // namespace cachesim
