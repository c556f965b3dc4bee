#pragma once
// Shared by the measured CSV tests: what parsing a file's text throws.
#include <string>

#include "traces/input_error.hpp"
#include "traces/measured_csv.hpp"

namespace cachesim::test {

// The InputError message parse_measured_csv gives `text` (as file m.csv), or "(no error)".
inline std::string measured_csv_error(const std::string& text) {
    try {
        parse_measured_csv(text, "m.csv");
    } catch (const InputError& e) {
        return e.what();
    }
    return "(no error)";
}

}  // namespace cachesim::test
