// libFuzzer target: the option value parsers (sizes "32K", ways, dimensions "16x16", schedules,
// sweep lists and ranges "1K,2K" / "32K..256K*2") and a whole simulate command line must accept a
// value or throw InputError / an option error; never crash, hang or allocate without bound. The
// first byte picks the parser, the rest is the text.
#include <string>
#include <vector>

#include "apps/cachesim/sweep_expand.hpp"
#include "apps/common/options.hpp"
#include "sim/thread_model.hpp"
#include "traces/input_error.hpp"
#include "traces/workload_spec.hpp"

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
    namespace cli = cachesim::cli;
    if (size == 0) return 0;
    const std::string text(reinterpret_cast<const char*>(data) + 1, size - 1);
    try {
        switch (data[0] % 6) {
            case 0: cachesim::parse_size(text, "--l1-size"); break;
            case 1: cli::parse_ways(text, "--l1-ways"); break;
            case 2: {
                std::uint32_t w = 0, h = 0;
                cachesim::parse_dimensions(text, "--size", w, h);
                break;
            }
            case 3: cachesim::parse_schedule(text); break;
            case 4: cli::expand_values(text, "l1-size"); break;
            default: {
                // Words of a simulate command line (no --trace/--config: they would open files).
                if (text.find("trace") != std::string::npos || text.find("config") != std::string::npos) break;
                std::vector<std::string> args = {"simulate"};
                std::string word;
                for (char c : text) {
                    if (c == ' ' || c == '\n') {
                        if (!word.empty()) args.push_back(word);
                        word.clear();
                    } else {
                        word += c;
                    }
                }
                if (!word.empty()) args.push_back(word);
                cli::read_simulation_args(args, cli::simulation_option_groups(), "fuzz: ");
            }
        }
    } catch (const cachesim::InputError&) {
    } catch (const cachesim::SimulationError&) {
    } catch (const cli::po::error&) {
    }
    return 0;
}
