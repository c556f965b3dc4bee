#pragma once
// The names of the time diagram's view options as `cachesim diagram` and cacheviz spell them
// (--aggregate, --colour-by, --miss-rate), one table each (sim/enum_choices.hpp): parsing, help
// and the error messages' lists of choices all come from these.
#include <span>
#include <string_view>

#include "sim/enum_choices.hpp"
#include "viz/render.hpp"

namespace cachesim::viz {

inline constexpr EnumChoice<AggregateRule> kAggregateChoices[] = {
    {AggregateRule::density, "density", "pixels with misses coloured by misses per cell"},
    {AggregateRule::any_miss, "any-miss", "a fetch wins"},
    {AggregateRule::priority, "priority", "a hit wins"},
};

inline constexpr EnumChoice<TimeDiagramStyle::ColourBy> kColourByChoices[] = {
    {TimeDiagramStyle::ColourBy::state, "state", ""},
    {TimeDiagramStyle::ColourBy::sm, "sm", "GPU model: accessed cells in the colour of their SM"},
    {TimeDiagramStyle::ColourBy::hit_source, "source",
     "GPU model: L1 hits in the colour of who brought the sector (own warp, own block, another block)"},
};

inline constexpr EnumChoice<TimeDiagramStyle::Strip> kMissRateChoices[] = {
    {TimeDiagramStyle::Strip::automatic, "auto", "when cells are aggregated"},
    {TimeDiagramStyle::Strip::on, "on", ""},
    {TimeDiagramStyle::Strip::off, "off", ""},
};
// cacheviz always aggregates as it zooms out, so it has no "auto": on and off only.
inline constexpr std::span<const EnumChoice<TimeDiagramStyle::Strip>> kMissRateOnOffChoices =
    std::span(kMissRateChoices).subspan(1);

inline std::string_view aggregate_name(AggregateRule rule) { return choice_name<AggregateRule>(kAggregateChoices, rule); }

}  // namespace cachesim::viz
