#pragma once
// The input files a sweep configuration reads (--trace, --config, --warp-times) as part of what
// identifies it for resuming: a finished row whose inputs have changed since is stale, and its
// configuration runs again.
#include <string>

#include "apps/cachesim/sweep_expand.hpp"

namespace cachesim::cli {

// " inputs=HASH" over each input file's path, size and modification time; empty when the
// configuration reads no file (or one that does not exist: the run itself reports it).
std::string input_fingerprint(const SweepConfiguration& config);

// Whether the configuration reads its trace from standard input, which is new on every run: its
// finished row is never reused.
bool reads_standard_input(const SweepConfiguration& config);

}  // namespace cachesim::cli
