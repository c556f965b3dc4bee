#pragma once
// A small CSV reader: quoted fields with doubled quotes, one record per line, every record as
// wide as the header. Errors name the source, the line and what is wrong.
#include <cstddef>
#include <string>
#include <string_view>
#include <vector>

namespace cachesim {

struct CsvTable {
    std::string source;  // file name, for messages
    std::vector<std::string> header;
    std::vector<std::vector<std::string>> rows;
    std::vector<std::size_t> lines;  // 1-based line number of each row in the source
    int column(std::string_view name) const;  // -1 when absent
};

// Lines before the first one that contains `header_marker` are skipped (tools print messages
// before their tables); an empty marker takes the first non-empty line as the header. Blank lines
// and records whose every field is empty (",,,," as spreadsheets write) are skipped. A header
// naming a column twice is refused. Throws InputError.
CsvTable parse_csv(std::string_view text, const std::string& source,
                   std::string_view header_marker = {});
std::vector<std::string> split_csv_record(std::string_view line, const std::string& where);
// The whole file as text (InputError naming it when it cannot be opened).
std::string read_text_file(const std::string& path);
// Reads a whole file and parses it (InputError when it cannot be opened).
CsvTable read_csv_file(const std::string& path, std::string_view header_marker = {});
// The field as written in a CSV record: quoted (quotes doubled) when it holds , " or a newline.
std::string csv_quote(std::string_view text);

}  // namespace cachesim
