#pragma once
// One place that turns exceptions into a clear message on stderr and an exit code.
#include <functional>
#include <string_view>

namespace cachesim::cli {

inline constexpr int kExitOk = 0;
inline constexpr int kExitInternal = 1;  // a bug: please report
inline constexpr int kExitUsage = 2;     // bad input: options, geometry, files
inline constexpr int kExitNoDevice = 3;  // a GPU was needed and none is present

// Runs `body`; bad input (InputError, SimulationError, option errors) -> message + exit 2.
int guarded(std::string_view subcommand, const std::function<int()>& body);

}  // namespace cachesim::cli
