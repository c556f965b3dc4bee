#include "apps/common/cli_errors.hpp"

#include <boost/program_options/errors.hpp>
#include <cerrno>
#include <cstdio>
#include <cstring>
#include <iostream>
#include <new>

#include "apps/common/config_origins.hpp"
#include "sim/thread_model.hpp"
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

}  // namespace

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
