#pragma once
// The input files a sweep configuration reads (--trace, --config, --warp-times) as part of what
// identifies it for resuming: a finished row whose inputs have changed since is stale, and its
// configuration runs again.
#include <string>

#include "apps/cachesim/sweep_expand.hpp"

namespace cachesim::cli {

// " inputs=HASH" over each input file's path and what identifies its content: a trace's and a
// warp-times file's size and modification time; a regular --config file's settings that this
// configuration takes from it (config_file_settings_taken against `simulate_options`), so that
// comments, layout and entries it does not use leave its row current. Empty when the
// configuration reads no file (or one that does not exist: the run itself reports it).
std::string input_fingerprint(const SweepConfiguration& config,
                              const boost::program_options::options_description& simulate_options);

// Whether the configuration reads its trace from standard input, which is new on every run: its
// finished row is never reused.
bool reads_standard_input(const SweepConfiguration& config);

}  // namespace cachesim::cli
