#pragma once
// One place that turns exceptions into a clear message on stderr and an exit code.
#include <exception>
#include <functional>
#include <optional>
#include <string>
#include <string_view>

namespace boost::program_options {
class options_description;
}

namespace cachesim::cli {

inline constexpr int kExitOk = 0;
inline constexpr int kExitInternal = 1;  // a bug: please report
inline constexpr int kExitUsage = 2;     // bad input: options, geometry, files
inline constexpr int kExitNoDevice = 3;  // a GPU was needed and none is present

// The message of any exception, safe for option errors: Boost.Program_options fills a message by
// replacing %tokens% until none is left, so an option name or value that itself contains a token
// (typed in a config file or a GUI field) would never finish. Their percent signs are escaped first.
std::string error_text(const std::exception& e);

// Remembers the options of the command being parsed (every long name), so that an unrecognised
// option's message can name the closest of them ("did you mean --l1-size?"). parse_command_line
// notes its options before it parses.
void note_known_options(const boost::program_options::options_description& options);

// The long name among `options` that `name` is a slip of (one or two letters off), if any; for a
// name typed where no command line is parsed (a --config file's line).
std::optional<std::string> closest_option(std::string_view name, const boost::program_options::options_description& options);

// Runs `body`; bad input (InputError, SimulationError, option errors) -> message + exit 2, the
// message starting with `program` ("cachesim simulate", "cacheviz"), as does one for a report
// lost on standard output. An unrecognised option's message adds the closest option the command
// knows, or where the option is taken (compare's --gpu KEY=VALUE, cachesim simulate). (A choice
// given in the wrong case gets its hint where it is parsed: traces/choice_hint.hpp.)
int guarded(std::string_view program, const std::function<int()>& body);

}  // namespace cachesim::cli
