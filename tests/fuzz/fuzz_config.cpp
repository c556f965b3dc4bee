// libFuzzer target: a --config file must become a configuration (and its memory estimate) or an
// InputError / option error / SimulationError naming the problem; never a crash or a huge
// allocation.
#include "apps/common/memory_estimate.hpp"
#include "apps/common/options.hpp"
#include "sim/thread_model.hpp"
#include "tests/fuzz/fuzz_input_file.hpp"
#include "traces/input_error.hpp"

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
    namespace cli = cachesim::cli;
    static const cli::po::options_description options = [] {
        cli::po::options_description d;
        d.add(cli::simulation_option_groups()).add(cli::memory_options());
        return d;
    }();
    cachesim::fuzz::InputFile file(data, size);
    std::string words[] = {"simulate", "--config", file.path()};
    char* argv[] = {words[0].data(), words[1].data(), words[2].data()};
    try {
        const auto vm = cli::parse_command_line(3, argv, options, "");
        // A trace named in the file would be opened (a FIFO could block): the parsing is what is fuzzed.
        if (!vm || vm->count("trace")) return 0;
        const cli::SimulationOptions sim = cli::read_simulation_options(*vm);
        cli::estimate_memory(sim, cli::max_memory_option(*vm));
    } catch (const cachesim::InputError&) {
    } catch (const cachesim::SimulationError&) {
    } catch (const cli::po::error&) {
    }
    return 0;
}
