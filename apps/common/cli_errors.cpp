#include "apps/common/cli_errors.hpp"

#include <boost/program_options/errors.hpp>
#include <boost/program_options/options_description.hpp>
#include <algorithm>
#include <cctype>
#include <cerrno>
#include <cstdio>
#include <cstring>
#include <iostream>
#include <new>
#include <optional>
#include <vector>

#include "apps/common/config_origins.hpp"
#include "apps/common/options.hpp"
#include "sim/gpu/gpu_parameters.hpp"
#include "sim/thread_model.hpp"
#include "traces/choice_hint.hpp"
#include "traces/input_error.hpp"

namespace cachesim::cli {
namespace {

namespace po = boost::program_options;

// A copy of an option error whose substituted names and values carry no '%' ("%25" instead).
class EscapedOptionError : public po::error_with_option_name {
public:
    explicit EscapedOptionError(const po::error_with_option_name& original) : po::error_with_option_name(original) {
        for (auto& [parameter, value] : m_substitutions) {
            std::string escaped;
            for (char c : value) escaped += c == '%' ? std::string("%25") : std::string(1, c);
            value = escaped;
        }
    }
};

// Whether everything written to standard output reached it; a report lost to a full disk or a
// closed descriptor must not look like success. errno says why when it did not.
bool standard_output_written() {
    errno = 0;
    std::cout.flush();
    const bool streams = static_cast<bool>(std::cout);
    return std::fflush(stdout) == 0 && !std::ferror(stdout) && streams;
}

std::vector<std::string>& known_option_names() {
    static std::vector<std::string> names;
    return names;
}

std::optional<std::string> closest_known_option(std::string_view name) { return closest_name(name, known_option_names()); }

std::vector<std::string> long_names_of(const po::options_description& options) {
    std::vector<std::string> names;
    for (const auto& option : options.options()) {
        const auto [long_names, count] = option->long_names();
        names.insert(names.end(), long_names, long_names + count);
    }
    return names;
}

// Where an option this command does not know is taken: compare takes the GPU model's parameters
// as --gpu KEY=VALUE, and simulate the options of a simulation.
std::string taken_elsewhere(std::string_view program, const std::string& name) {
    if (program == "cachesim compare" && find_gpu_parameter(name))
        return "compare takes GPU model parameters as --gpu " + name + "=VALUE; ";
    if (program.starts_with("cachesim ") && program != "cachesim simulate") {
        po::options_description simulate = simulation_option_groups();
        simulate.add(timing_options());
        if (simulate.find_nothrow(name, false)) return "--" + name + " is an option of cachesim simulate; ";
    }
    return "";
}

// What to add to an unrecognised option's message before its "see ... --help": the option meant,
// or where it is taken; nothing for a short option or one unlike any.
std::string unknown_option_hint(std::string_view program, const po::unknown_option& e) {
    const std::string token = e.get_option_name();  // "--l1-sise", "--l1-sise=1K", "-x"
    if (!token.starts_with("--")) return "";
    const std::string name = token.substr(2, token.find('=') - 2);  // up to a value written in
    if (const std::optional<std::string> meant = closest_known_option(name)) return "did you mean --" + *meant + "? ";
    return taken_elsewhere(program, name);
}

}  // namespace

void note_known_options(const po::options_description& options) { known_option_names() = long_names_of(options); }

std::optional<std::string> closest_option(std::string_view name, const po::options_description& options) {
    return closest_name(name, long_names_of(options));
}

std::string error_text(const std::exception& e) {
    if (const auto* named = dynamic_cast<const po::error_with_option_name*>(&e)) return EscapedOptionError(*named).what();
    return e.what();
}

int guarded(std::string_view program, const std::function<int()>& body) {
    // Appended piecewise: GCC 12 warns (-Wrestrict, falsely) on the chained operator+ form.
    std::string who(program);
    who.append(": error: ");
    try {
        const int code = body();
        if (!standard_output_written()) {
            const int error = errno;
            std::cerr << who << "writing standard output failed" << (error ? std::string(" (") + std::strerror(error) + ")" : "")
                      << ": the output is incomplete\n";
            return kExitUsage;
        }
        return code;
    } catch (const InputError& e) {
        std::cerr << who << e.what() << config_origin_note(e.what()) << "\n";
    } catch (const SimulationError& e) {
        std::cerr << who << e.what() << config_origin_note(e.what()) << "\n";
    } catch (const po::unknown_option& e) {
        std::cerr << who << error_text(e) << " (" << unknown_option_hint(program, e) << "see " << program << " --help)\n";
    } catch (const boost::program_options::error& e) {
        std::cerr << who << error_text(e) << " (see " << program << " --help)\n";
    } catch (const std::bad_alloc&) {
        std::cerr << who << "out of memory\n";
        return kExitInternal;
    } catch (const std::exception& e) {
        std::cerr << program << ": internal error: " << e.what() << "\n";
        return kExitInternal;
    }
    return kExitUsage;
}

}  // namespace cachesim::cli
