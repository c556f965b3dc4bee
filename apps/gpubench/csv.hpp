#pragma once
// gpubench's CSV needs, on the project's one CSV reader (traces/csv_table.hpp).
#include <string>

#include "traces/csv_table.hpp"

namespace gpubench {

using cachesim::CsvTable;

inline std::string csv_field(const std::string& text) { return cachesim::csv_quote(text); }

// Lines before the first one containing `header_must_contain` are skipped (ncu prints its own
// messages before the table); every row must be as wide as the header (InputError otherwise).
inline CsvTable read_csv(const std::string& path, const std::string& header_must_contain) {
    return cachesim::read_csv_file(path, header_must_contain);
}

}  // namespace gpubench
