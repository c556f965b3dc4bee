#pragma once
// gpubench's command line parsed as the program parses it, for the option tests.
#include <string>
#include <vector>

#include "apps/gpubench/options.hpp"
#include "traces/input_error.hpp"

namespace gpubench::test {

// The options of `gpubench ARGS...`; throws the parser's InputError.
inline Options parse(std::vector<std::string> args) {
    args.insert(args.begin(), "gpubench");
    std::vector<char*> argv;
    for (std::string& a : args) argv.push_back(a.data());
    return parse_options(static_cast<int>(argv.size()), argv.data());
}

// The parser's message for `gpubench ARGS...`, or "(accepted)".
inline std::string refusal(const std::vector<std::string>& args) {
    try {
        parse(args);
        return "(accepted)";
    } catch (const cachesim::InputError& e) {
        return e.what();
    }
}

}  // namespace gpubench::test
