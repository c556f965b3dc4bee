#pragma once
// Numbers as the CLI prints them, one formatter for every table, note and plot caption.
#include <cmath>
#include <cstdio>
#include <string>

namespace cachesim::cli {

// `value` with `decimals` digits after the point; "n/a" for NaN, so a missing figure never prints as "nan".
inline std::string fixed_text(double value, int decimals) {
    if (std::isnan(value)) return "n/a";
    char buffer[64];
    std::snprintf(buffer, sizeof buffer, "%.*f", decimals, value);
    return buffer;
}

// "1 block", "3 blocks": a count with its noun, singular for one.
inline std::string counted(unsigned long long count, const std::string& noun) {
    return std::to_string(count) + " " + noun + (count == 1 ? "" : "s");
}

}  // namespace cachesim::cli
