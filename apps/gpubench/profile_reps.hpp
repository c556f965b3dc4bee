#pragma once
// How many profiled launches a configuration gets per metric group: a fixed number, or a least
// and a most, the most only where a hit rate moves more than a few points between launches. On
// the H200 a stencil's hit rates repeat within 1.4 points over 7 launches while a matmul's L2 rate
// moves by tens of points (docs/h200-data.md, "Run-to-run spread of the counters"), so a fixed
// number is either too few for the one or wasted on the other.
#include <string>
#include <string_view>
#include <vector>

namespace gpubench {

struct ProfileReps {
    int least = 3;  // launches every configuration gets
    int most = 3;   // launches one whose hit rates move more than spread_points gets
    double spread_points = 2.0;
    bool adaptive() const { return most > least; }
};

// "N" (N launches) or "N..M" (N, and up to M where a hit rate moves), N and M 1..1000, N <= M;
// anything else throws cachesim::InputError naming the option and the text.
ProfileReps parse_profile_reps(std::string_view text);

// Whether a configuration profiled `done` times needs another launch: below the least, yes; at
// the most, no; in between, while a hit rate (a metric in percent, its name ending in ".pct") has
// moved more than spread_points between the launches so far. runs[m] holds metric m's values.
bool needs_another_launch(const ProfileReps& reps, const std::vector<std::string>& metrics,
                          const std::vector<std::vector<double>>& runs, int done);

// "3", or "3 (21 where a hit rate moves by more than 2 points)", for gpubench's own messages.
std::string describe(const ProfileReps& reps);

}  // namespace gpubench
