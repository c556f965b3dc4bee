// cachesim: simulate, sweep, diagram and compare cache behaviour of GPU thread schedules.
#include <iostream>
#include <string>
#include <string_view>

#include "apps/common/cli_errors.hpp"
#include "apps/cachesim/subcommands.hpp"

namespace {

using cachesim::cli::Subcommand;

constexpr Subcommand kSubcommands[] = {
    {"simulate", "replay a workload or trace through the cache hierarchy and report counters",
     cachesim::cli::run_simulate},
    {"diagram", "draw the spatial-temporal diagram or the array view of a run into a PNG", cachesim::cli::run_diagram},
    {"trace", "write a workload's per-thread address trace to a cst trace file", cachesim::cli::run_trace},
    {"info", "print a cst trace file's header and counts", cachesim::cli::run_info},
    {"sweep", "run the cross product of option lists/ranges in parallel; CSV and heat map", cachesim::cli::run_sweep},
    {"compare", "simulate measured GPU runs with the GPU model; side-by-side table, joined CSV, plot",
     cachesim::cli::run_compare},
};

void print_usage(std::ostream& out) {
    out << "usage: cachesim <subcommand> [options]   (cachesim <subcommand> --help for details)\n\n"
           "subcommands:\n";
    for (const Subcommand& s : kSubcommands)
        out << "  " << s.name << std::string(12 - std::min<std::size_t>(11, s.name.size()), ' ')
            << s.summary << "\n";
    out << "\nWith no options, `cachesim simulate` runs the thesis's Table 3.1 scenario.\n";
}

}  // namespace

int main(int argc, char** argv) {
    if (argc < 2) {
        print_usage(std::cerr);
        return cachesim::cli::kExitUsage;
    }
    const std::string_view name = argv[1];
    if (name == "--help" || name == "-h" || name == "help") {
        print_usage(std::cout);
        return 0;
    }
    for (const Subcommand& s : kSubcommands)
        if (s.name == name)
            return cachesim::cli::guarded(std::string("cachesim ").append(s.name), [&] { return s.run(argc - 1, argv + 1); });
    std::cerr << "cachesim: unknown subcommand '" << name << "'\n\n";
    print_usage(std::cerr);
    return cachesim::cli::kExitUsage;
}
