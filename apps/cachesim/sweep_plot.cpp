#include "apps/cachesim/sweep_plot.hpp"

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <limits>
#include <tuple>

#include "traces/input_error.hpp"

namespace cachesim::cli {

namespace {

std::size_t axis_index(const std::vector<SweepAxis>& axes, const std::string& name) {
    for (std::size_t i = 0; i < axes.size(); ++i)
        if (axes[i].name == name) return i;
    throw InputError("--plot-x/--plot-y: '" + name + "' is not an option of this sweep");
}

// "--l1_size" -> "l1_size": the dashes an option is written with, which a plot option's value may
// carry as well.
std::string without_leading_dashes(const std::string& text) {
    const std::size_t first = text.find_first_not_of('-');
    return first == std::string::npos ? std::string() : text.substr(first);
}

std::string with_every(std::string text, char from, char to) {
    std::replace(text.begin(), text.end(), from, to);
    return text;
}

std::string listed_options(const std::vector<SweepAxis>& axes) {
    std::string list;
    for (const SweepAxis& axis : axes) list += (list.empty() ? "--" : ", --") + axis.name;
    return list.empty() ? "none" : list;
}

std::string cell_text(double v, bool percent) {
    char buffer[32];
    if (std::isnan(v)) return "";
    if (percent) std::snprintf(buffer, sizeof buffer, "%.1f%%", 100 * v);
    else if (std::fabs(v) >= 1e6) std::snprintf(buffer, sizeof buffer, "%.3g", v);
    else std::snprintf(buffer, sizeof buffer, "%.4g", v);
    return buffer;
}

}  // namespace

std::string plot_axis_option(const std::vector<SweepAxis>& axes, const boost::program_options::options_description& simulate,
                             const std::string& given, const std::string& flag) {
    // Options are spelled with dashes; a CSV column of the same name with underscores.
    const std::string name = with_every(without_leading_dashes(given), '_', '-');
    if (name.empty())
        throw InputError(flag + " '" + given + "': name one of the sweep's options (" + listed_options(axes) + ")");
    for (const SweepAxis& axis : axes)
        if (axis.name == name) return axis.name;
    const auto* option = simulate.find_nothrow(name, false);
    if (!option)
        throw InputError(flag + " " + given + ": --" + name + " is not an option of cachesim simulate (the sweep's options: " +
                         listed_options(axes) + ")");
    for (const SweepAxis& axis : axes)
        if (simulate.find_nothrow(axis.name, false) == option) return axis.name;  // another name of it
    throw InputError(flag + " " + given + ": the sweep is not given --" + name + " (its options: " + listed_options(axes) +
                     ")");
}

void check_distinct_plot_axes(const std::string& x_given, const std::string& x_axis, const std::string& y_given,
                              const std::string& y_axis) {
    if (!x_axis.empty() && x_axis == y_axis)
        throw InputError("--plot-x " + x_given + " and --plot-y " + y_given + " name the same option, --" + x_axis +
                         ": the heat map needs two different ones (leave one out to take another varied option)");
}

std::string plot_value_column(const std::string& given, const std::vector<std::string>& columns) {
    const std::string name = with_every(without_leading_dashes(given), '-', '_');
    return std::find(columns.begin(), columns.end(), name) != columns.end() ? name : given;
}

void check_heat_map_options(const std::vector<SweepAxis>& axes, const std::string& x_axis, const std::string& y_axis,
                            const std::string& value_column, const std::vector<std::string>& columns,
                            const std::vector<bool>& numeric) {
    if (!x_axis.empty()) axis_index(axes, x_axis);
    if (!y_axis.empty()) axis_index(axes, y_axis);
    const auto found = std::find(columns.begin(), columns.end(), value_column);
    if (found == columns.end())
        throw InputError("--plot-value: no column '" + value_column + "' in this sweep's results");
    if (!numeric[static_cast<std::size_t>(found - columns.begin())])
        throw InputError("--plot-value: column '" + value_column + "' is not numeric");
}

std::pair<std::string, std::string> heat_map_axes(const std::vector<SweepAxis>& axes,
                                                  const std::vector<SweepConfiguration>& configs, std::string x_axis,
                                                  std::string y_axis) {
    std::vector<std::size_t> varied;
    for (std::size_t i = 0; i < axes.size(); ++i)
        if (axes[i].values.size() > 1) varied.push_back(i);
    // Whether some configuration has a value of both axes (a sweep over both workloads gives
    // --depth and --stencil to different configurations).
    auto share = [&](const std::string& a, const std::string& b) {
        if (a.empty() || b.empty()) return true;
        const std::size_t i = axis_index(axes, a), j = axis_index(axes, b);
        return std::any_of(configs.begin(), configs.end(), [&](const SweepConfiguration& c) {
            return !c.axis_values[i].empty() && !c.axis_values[j].empty();
        });
    };
    auto pick = [&](std::string& chosen, const std::string& other) {
        if (!chosen.empty()) return;
        for (std::size_t k = varied.size(); k-- > 0;)
            if (axes[varied[k]].name != other && share(axes[varied[k]].name, other)) {
                chosen = axes[varied[k]].name;
                return;
            }
    };
    pick(x_axis, y_axis);
    pick(y_axis, x_axis);
    if (!share(x_axis, y_axis))
        throw InputError("--plot-x " + x_axis + " and --plot-y " + y_axis +
                         ": no configuration of the sweep has both (each shapes another workload)");
    return {x_axis, y_axis};
}

HeatMap build_heat_map(const std::vector<SweepAxis>& axes, const std::vector<SweepConfiguration>& configs,
                       const std::vector<SweepColumns>& rows, std::string x_axis, std::string y_axis,
                       const std::string& value_column) {
    std::tie(x_axis, y_axis) = heat_map_axes(axes, configs, x_axis, y_axis);
    const std::size_t none = std::numeric_limits<std::size_t>::max();
    const std::size_t xi = x_axis.empty() ? none : axis_index(axes, x_axis);
    const std::size_t yi = y_axis.empty() ? none : axis_index(axes, y_axis);

    HeatMap map;
    map.x_label = x_axis.empty() ? "" : "--" + x_axis;
    map.y_label = y_axis.empty() ? "" : "--" + y_axis;
    map.value_label = value_column;
    map.xs = xi == none ? std::vector<std::string>{""} : axes[xi].values;
    map.ys = yi == none ? std::vector<std::string>{""} : axes[yi].values;
    if (map.xs.empty()) map.xs = {""};
    if (map.ys.empty()) map.ys = {""};
    std::vector<double> sums(map.xs.size() * map.ys.size(), 0.0);
    map.counts.assign(sums.size(), 0);
    auto position = [](const std::vector<std::string>& values, const std::string& v) {
        return static_cast<std::size_t>(std::find(values.begin(), values.end(), v) - values.begin());
    };
    for (std::size_t c = 0; c < configs.size() && c < rows.size(); ++c) {
        const std::size_t x = xi == none ? 0 : position(map.xs, configs[c].axis_values[xi]);
        const std::size_t y = yi == none ? 0 : position(map.ys, configs[c].axis_values[yi]);
        if (x == map.xs.size() || y == map.ys.size()) continue;  // a row the axis does not apply to
        const auto found = std::find_if(rows[c].begin(), rows[c].end(),
                                        [&](const auto& column) { return column.first == value_column; });
        if (found == rows[c].end())
            throw InputError("--plot-value: no column '" + value_column + "' in the results");
        char* end = nullptr;
        const double v = std::strtod(found->second.c_str(), &end);
        if (end == found->second.c_str() || *end != '\0')
            throw InputError("--plot-value: column '" + value_column + "' is not numeric ('" + found->second + "')");
        sums[y * map.xs.size() + x] += v;
        ++map.counts[y * map.xs.size() + x];
    }
    map.values.resize(sums.size());
    int most = 0;
    for (std::size_t i = 0; i < sums.size(); ++i) {
        map.values[i] = map.counts[i] ? sums[i] / map.counts[i] : std::numeric_limits<double>::quiet_NaN();
        most = std::max(most, map.counts[i]);
    }
    map.title = value_column;
    if (!map.y_label.empty() || !map.x_label.empty())
        map.title += " by " + map.y_label + (map.y_label.empty() || map.x_label.empty() ? "" : " x ") + map.x_label;
    if (most > 1) map.title += " (mean over " + std::to_string(most) + " configurations per cell)";
    return map;
}

viz::Canvas render_heat_map(const HeatMap& map) {
    using namespace viz;
    const double label_px = 13, title_px = 16;
    const bool percent = map.value_label.size() >= 8 &&
                         map.value_label.compare(map.value_label.size() - 8, 8, "hit_rate") == 0;
    int cell_w = 64, y_label_w = 0, x_label_w = 0;
    for (const std::string& x : map.xs) x_label_w = std::max(x_label_w, measure_text(x, label_px).width);
    for (const std::string& y : map.ys) y_label_w = std::max(y_label_w, measure_text(y, label_px).width);
    const bool vertical_x = x_label_w + 8 > cell_w;
    const int cell_h = 30;
    const int left = 40 + y_label_w + 12, top = 48;
    const int grid_w = cell_w * static_cast<int>(map.xs.size());
    const int grid_h = cell_h * static_cast<int>(map.ys.size());
    const int x_labels_h = vertical_x ? x_label_w + 10 : 22;
    const int bar_x = left + grid_w + 24;
    const int width = std::max(bar_x + 100, left + measure_text(map.title, title_px).width + 20);
    const int height = top + grid_h + x_labels_h + 40;
    Canvas canvas(width, height, colors::white);

    double low = std::numeric_limits<double>::infinity(), high = -low;
    for (double v : map.values)
        if (!std::isnan(v)) low = std::min(low, v), high = std::max(high, v);
    if (!(low <= high)) low = high = 0;
    auto shade = [&](double v) { return high > low ? (v - low) / (high - low) : 0.5; };

    canvas.draw_text(left, 14, map.title, {title_px, colors::black, HAlign::left, VAlign::top});
    for (std::size_t y = 0; y < map.ys.size(); ++y) {
        const int cy = top + static_cast<int>(y) * cell_h;
        canvas.draw_text(left - 8, cy + cell_h / 2.0, map.ys[y], {label_px, colors::black, HAlign::right, VAlign::middle});
        for (std::size_t x = 0; x < map.xs.size(); ++x) {
            const int cx = left + static_cast<int>(x) * cell_w;
            const double v = map.values[y * map.xs.size() + x];
            const Rgba fill = std::isnan(v) ? colors::light_gray : viridis(shade(v));
            canvas.fill_rect(cx, cy, cell_w, cell_h, fill);
            canvas.draw_rect(cx, cy, cell_w, cell_h, colors::white);
            const Rgba ink = !std::isnan(v) && shade(v) < 0.55 ? colors::white : colors::black;
            canvas.draw_text(cx + cell_w / 2.0, cy + cell_h / 2.0, cell_text(v, percent),
                             {11, ink, HAlign::center, VAlign::middle});
        }
    }
    for (std::size_t x = 0; x < map.xs.size(); ++x) {
        const double cx = left + (static_cast<double>(x) + 0.5) * cell_w;
        if (vertical_x)
            canvas.draw_text(cx, top + grid_h + 6, map.xs[x], {label_px, colors::black, HAlign::right, VAlign::middle, true});
        else
            canvas.draw_text(cx, top + grid_h + 6, map.xs[x], {label_px, colors::black, HAlign::center, VAlign::top});
    }
    canvas.draw_text(left + grid_w / 2.0, top + grid_h + x_labels_h + 10, map.x_label,
                     {label_px, colors::dark_gray, HAlign::center, VAlign::top});
    canvas.draw_text(16, top + grid_h / 2.0, map.y_label, {label_px, colors::dark_gray, HAlign::center, VAlign::middle, true});
    // Colour bar: high at the top. One value everywhere (or none) has no scale: a single swatch
    // in the cells' colour, saying so, rather than a gradient labelled "97.5%" at both ends.
    const int bar_h = std::max(grid_h, 60);
    if (high > low) {
        for (int i = 0; i < bar_h; ++i)
            canvas.hline(bar_x, bar_x + 14, top + i, viridis(1.0 - static_cast<double>(i) / (bar_h - 1)));
        canvas.draw_text(bar_x + 20, top, cell_text(high, percent), {11, colors::black, HAlign::left, VAlign::top});
        canvas.draw_text(bar_x + 20, top + bar_h, cell_text(low, percent), {11, colors::black, HAlign::left, VAlign::bottom});
    } else {
        const bool any = std::any_of(map.values.begin(), map.values.end(), [](double v) { return !std::isnan(v); });
        canvas.fill_rect(bar_x, top, 15, 15, any ? viridis(shade(low)) : colors::light_gray);
        canvas.draw_text(bar_x + 20, top + 7.5, any ? "all " + cell_text(low, percent) : std::string("no values"),
                         {11, colors::black, HAlign::left, VAlign::middle});
    }
    return canvas;
}

}  // namespace cachesim::cli
