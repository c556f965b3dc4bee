#pragma once
// Minimal CSV: quoting on write, quoted fields (with doubled quotes) on read.
#include <istream>
#include <string>
#include <vector>

namespace gpubench {

std::string csv_field(const std::string& text);  // quotes when the text needs it
// Splits one line; throws cachesim::InputError on an unterminated quote, naming `where`.
std::vector<std::string> split_csv_line(const std::string& line, const std::string& where);

struct CsvTable {
    std::vector<std::string> header;
    std::vector<std::vector<std::string>> rows;
    int column(const std::string& name) const;  // -1 when absent
};

// Reads a whole file; every row must have as many fields as the header (InputError otherwise).
// Lines before the first one containing `header_must_contain` are skipped (ncu prints its own
// messages before the table).
CsvTable read_csv(const std::string& path, const std::string& header_must_contain);

}  // namespace gpubench
