#include "apps/common/cli_errors.hpp"

#include <boost/program_options/errors.hpp>
#include <iostream>
#include <new>

#include "sim/thread_model.hpp"
#include "traces/input_error.hpp"

namespace cachesim::cli {

int guarded(std::string_view subcommand, const std::function<int()>& body) {
    // Appended piecewise: GCC 12 warns (-Wrestrict, falsely) on the chained operator+ form.
    std::string who = "cachesim ";
    who.append(subcommand).append(": error: ");
    try {
        return body();
    } catch (const InputError& e) {
        std::cerr << who << e.what() << "\n";
    } catch (const SimulationError& e) {
        std::cerr << who << e.what() << "\n";
    } catch (const boost::program_options::error& e) {
        std::cerr << who << e.what() << " (see cachesim " << subcommand << " --help)\n";
    } catch (const std::bad_alloc&) {
        std::cerr << who << "out of memory\n";
        return kExitInternal;
    } catch (const std::exception& e) {
        std::cerr << "cachesim " << subcommand << ": internal error: " << e.what() << "\n";
        return kExitInternal;
    }
    return kExitUsage;
}

}  // namespace cachesim::cli
