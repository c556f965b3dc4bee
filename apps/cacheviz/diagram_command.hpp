#pragma once
// "Copy as a `cachesim diagram` command": the options that reproduce a pane's run (workload,
// schedule, model and every cache or GPU parameter, spelled out rather than as a preset, so that
// later edits in the GUI are kept) and the view's window of steps.
#include <optional>
#include <string>
#include <utility>
#include <vector>

#include "apps/cacheviz/sim_job.hpp"

namespace cachesim::gui {

// The simulation options of `input` (as `cachesim simulate` reads them).
std::vector<std::string> simulation_args(const JobInput& input);
// How the view draws the cells, for the command to draw them alike: the aggregation rule
// (--aggregate; density is the default and left out), colour by SM or hit source (--colour-by,
// GPU runs) and the lines shown when the view is cropped to some (--lines FROM:TO).
struct DiagramViewOptions {
    viz::AggregateRule aggregate = viz::AggregateRule::density;
    viz::ColourBy colour_by = viz::ColourBy::state;
    std::optional<std::pair<std::uint64_t, std::uint64_t>> lines;
};
// `cachesim diagram OPTIONS --from FROM --to TO [view options] --out OUT`, quoted for a POSIX shell.
std::string diagram_command(const JobInput& input, std::uint64_t from, std::uint64_t to, const std::string& out,
                            const DiagramViewOptions& view = {});

}  // namespace cachesim::gui
