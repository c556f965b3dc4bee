#include "apps/gpubench/profile_reps.hpp"

#include <algorithm>
#include <charconv>
#include <cstdio>

#include "traces/input_error.hpp"

namespace gpubench {

namespace {

constexpr int kMostLaunches = 1000;

// A whole number 1..1000, or nothing.
bool parse_launches(std::string_view text, int& value) {
    const auto [ptr, ec] = std::from_chars(text.data(), text.data() + text.size(), value);
    return !text.empty() && ec == std::errc() && ptr == text.data() + text.size() && value >= 1 &&
           value <= kMostLaunches;
}

}  // namespace

ProfileReps parse_profile_reps(std::string_view text) {
    ProfileReps reps;
    const std::size_t dots = text.find("..");
    bool ok = false;
    if (dots == std::string_view::npos) {
        ok = parse_launches(text, reps.least);
        reps.most = reps.least;
    } else {
        ok = parse_launches(text.substr(0, dots), reps.least) && parse_launches(text.substr(dots + 2), reps.most) &&
             reps.least <= reps.most;
    }
    if (!ok)
        throw cachesim::InputError("--profile-reps: '" + std::string(text) + "' is neither a whole number N nor a range "
                                   "N..M of them (1 to " + std::to_string(kMostLaunches) + ", N no more than M)");
    return reps;
}

bool needs_another_launch(const ProfileReps& reps, const std::vector<std::string>& metrics,
                          const std::vector<std::vector<double>>& runs, int done) {
    if (done < reps.least) return true;
    if (done >= reps.most) return false;
    for (std::size_t m = 0; m < metrics.size() && m < runs.size(); ++m) {
        if (!metrics[m].ends_with(".pct") || runs[m].empty()) continue;
        const auto [lo, hi] = std::minmax_element(runs[m].begin(), runs[m].end());
        if (*hi - *lo > reps.spread_points) return true;
    }
    return false;
}

std::string describe(const ProfileReps& reps) {
    if (!reps.adaptive()) return std::to_string(reps.least);
    char points[32];
    std::snprintf(points, sizeof points, "%g", reps.spread_points);
    return std::to_string(reps.least) + " (" + std::to_string(reps.most) + " where a hit rate moves by more than " +
           points + " points)";
}

}  // namespace gpubench
