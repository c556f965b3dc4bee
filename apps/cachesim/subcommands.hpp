#pragma once
// Every `cachesim <name>` subcommand: one file each (cmd_<name>.cpp), listed in main.cpp.
#include <string_view>

namespace cachesim::cli {

struct Subcommand {
    std::string_view name;
    std::string_view summary;
    int (*run)(int argc, char** argv);  // argv[0] is the subcommand name
};

int run_simulate(int argc, char** argv);
int run_compare(int argc, char** argv);
int run_diagram(int argc, char** argv);
int run_trace(int argc, char** argv);
int run_info(int argc, char** argv);
int run_sweep(int argc, char** argv);

}  // namespace cachesim::cli
