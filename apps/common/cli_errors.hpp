#pragma once
// One place that turns exceptions into a clear message on stderr and an exit code.
#include <exception>
#include <functional>
#include <string>
#include <string_view>

namespace cachesim::cli {

inline constexpr int kExitOk = 0;
inline constexpr int kExitInternal = 1;  // a bug: please report
inline constexpr int kExitUsage = 2;     // bad input: options, geometry, files
inline constexpr int kExitNoDevice = 3;  // a GPU was needed and none is present

// The message of any exception, safe for option errors: Boost.Program_options fills a message by
// replacing %tokens% until none is left, so an option name or value that itself contains a token
// (typed in a config file or a GUI field) would never finish. Their percent signs are escaped first.
std::string error_text(const std::exception& e);

// Runs `body`; bad input (InputError, SimulationError, option errors) -> message + exit 2, the
// message starting with `program` ("cachesim simulate", "cacheviz"), as does one for a report
// lost on standard output.
int guarded(std::string_view program, const std::function<int()>& body);

}  // namespace cachesim::cli
