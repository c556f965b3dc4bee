#pragma once
// The sweep heat map: one axis of the sweep across, another down, each cell coloured (viridis)
// by a result column, e.g. schedule x block size by L1 hit rate as in the thesis's tables.
// Configurations that differ in other varied options are averaged into their cell.
#include <utility>
#include <string>
#include <vector>

#include "apps/cachesim/sweep_expand.hpp"
#include "apps/cachesim/sweep_run.hpp"
#include "viz/canvas.hpp"

namespace cachesim::cli {

struct HeatMap {
    std::string title, x_label, y_label, value_label;
    std::vector<std::string> xs, ys;
    std::vector<double> values;   // ys.size() x xs.size(), row-major; NaN where no configuration
    std::vector<int> counts;      // configurations averaged into each cell
};

// The heat map's axes: x_axis / y_axis as given, or where "", the last two varied options that
// some configuration has both of. Throws InputError for an unknown axis, or two that no
// configuration has together.
std::pair<std::string, std::string> heat_map_axes(const std::vector<SweepAxis>& axes,
                                                  const std::vector<SweepConfiguration>& configs, std::string x_axis,
                                                  std::string y_axis);

// The axis option `given` names (for `flag`: --plot-x, --plot-y), spelled as the sweep's axis is:
// "l1-size", "--l1-size" and "l1_size" alike, or another name of the same option. Throws
// InputError naming `flag` and the sweep's options where it names none of them.
std::string plot_axis_option(const std::vector<SweepAxis>& axes, const boost::program_options::options_description& simulate,
                             const std::string& given, const std::string& flag);

// Throws InputError naming both when --plot-x and --plot-y (as given and as resolved) are one option.
void check_distinct_plot_axes(const std::string& x_given, const std::string& x_axis, const std::string& y_given,
                              const std::string& y_axis);

// The result column `given` names for --plot-value, spelled as the CSV spells it: "l1_hit_rate"
// also as "l1-hit-rate" or "--l1_hit_rate". `given` itself where it matches none (for
// check_heat_map_options to refuse).
std::string plot_value_column(const std::string& given, const std::vector<std::string>& columns);

// x_axis / y_axis: as heat_map_axes takes them. Throws InputError for an unknown axis or a value
// column that is missing or not numeric.
HeatMap build_heat_map(const std::vector<SweepAxis>& axes, const std::vector<SweepConfiguration>& configs,
                       const std::vector<SweepColumns>& rows, std::string x_axis, std::string y_axis,
                       const std::string& value_column);

// The checks of build_heat_map that need no results, made before the first configuration runs:
// --plot-x/--plot-y name options of this sweep; `value_column` is among `columns` and numeric.
void check_heat_map_options(const std::vector<SweepAxis>& axes, const std::string& x_axis, const std::string& y_axis,
                            const std::string& value_column, const std::vector<std::string>& columns,
                            const std::vector<bool>& numeric);

viz::Canvas render_heat_map(const HeatMap& map);

}  // namespace cachesim::cli
