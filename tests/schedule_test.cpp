// Schedules are bijections on awkward sizes, with known small mappings.
#include <gtest/gtest.h>

#include <vector>

#include "traces/input_error.hpp"
#include "traces/schedule.hpp"
#include "traces/workload_spec.hpp"

namespace cachesim {
namespace {

std::vector<std::uint64_t> mapping(const char* schedule, std::uint32_t iw, std::uint32_t ih) {
    const Schedule s = parse_schedule(schedule);
    std::vector<std::uint64_t> items;
    for (std::uint64_t t = 0; t < static_cast<std::uint64_t>(iw) * ih; ++t)
        items.push_back(schedule_map(s, t, iw, ih));
    return items;
}

TEST(Schedule, EveryScheduleIsABijectionOnAwkwardSizes) {
    const char* schedules[] = {"linear", "column:1", "column:3", "column:4", "column:7", "column:64",
                               "zigzag:1", "zigzag:3", "zigzag:5", "zigzag:32", "tiled:1x1",
                               "tiled:3x2", "tiled:4x4", "tiled:5x7", "tiled:100x3", "morton"};
    const std::pair<std::uint32_t, std::uint32_t> sizes[] = {{1, 1}, {1, 9}, {9, 1}, {7, 5}, {16, 16},
                                                             {13, 29}, {33, 3}, {64, 17}};
    for (const char* name : schedules) {
        for (auto [iw, ih] : sizes) {
            const auto items = mapping(name, iw, ih);
            std::vector<bool> seen(items.size(), false);
            for (std::uint64_t j : items) {
                ASSERT_LT(j, items.size()) << name << " " << iw << "x" << ih;
                ASSERT_FALSE(seen[j]) << name << " " << iw << "x" << ih << " repeats " << j;
                seen[j] = true;
            }
        }
    }
}

TEST(Schedule, LinearIsIdentity) {
    EXPECT_EQ(mapping("linear", 3, 2), (std::vector<std::uint64_t>{0, 1, 2, 3, 4, 5}));
}

TEST(Schedule, ColumnWalksColumnsTopToBottomWithNarrowLastColumn) {
    // 5x3 grid, width 2: columns x=0..1, x=2..3, and the last one x=4 alone (eq. 4.2).
    EXPECT_EQ(mapping("column:2", 5, 3),
              (std::vector<std::uint64_t>{0, 1, 5, 6, 10, 11, 2, 3, 7, 8, 12, 13, 4, 9, 14}));
}

TEST(Schedule, ZigzagReversesOddRowsInsideTheColumn) {
    EXPECT_EQ(mapping("zigzag:2", 5, 3),
              (std::vector<std::uint64_t>{0, 1, 6, 5, 10, 11, 2, 3, 8, 7, 12, 13, 4, 9, 14}));
}

TEST(Schedule, TiledIsRowMajorTilesWithCutEdges) {
    // 5x3 grid, 2x2 tiles: the right tiles are 1 wide, the bottom band 1 high.
    EXPECT_EQ(mapping("tiled:2x2", 5, 3),
              (std::vector<std::uint64_t>{0, 1, 5, 6, 2, 3, 7, 8, 4, 9, 10, 11, 12, 13, 14}));
}

TEST(Schedule, MortonFollowsZOrderAndSkipsCellsOutsideTheGrid) {
    EXPECT_EQ(mapping("morton", 4, 4),
              (std::vector<std::uint64_t>{0, 1, 4, 5, 2, 3, 6, 7, 8, 9, 12, 13, 10, 11, 14, 15}));
    // 3x2: the padded 4x4 Z order visits (0,0) (1,0) (0,1) (1,1) (2,0) (2,1).
    EXPECT_EQ(mapping("morton", 3, 2), (std::vector<std::uint64_t>{0, 1, 3, 4, 2, 5}));
}

TEST(Schedule, ColumnMatchesThesisEquations) {
    // Eq. 4.1-4.6 written out directly, for an uneven width.
    const std::uint32_t iw = 11, ih = 6, w = 4;
    const Schedule s = parse_schedule("column:4");
    for (std::uint64_t i = 0; i < iw * ih; ++i) {
        const std::uint64_t o = i / (ih * w) * w;
        const std::uint64_t wp = (o + w > iw) ? iw - o : w;
        const std::uint64_t ip = (i - o * ih) % (ih * wp);
        const std::uint64_t x = ip % wp, y = ip / wp;
        EXPECT_EQ(schedule_map(s, i, iw, ih), x + y * iw + o) << i;
    }
}

TEST(Schedule, ParsingAndErrors) {
    EXPECT_EQ(schedule_name(parse_schedule("column:32")), "column:32");
    EXPECT_EQ(schedule_name(parse_schedule("tiled:8x4")), "tiled:8x4");
    EXPECT_THROW(parse_schedule("column:0"), InputError);
    EXPECT_THROW(parse_schedule("column"), InputError);
    EXPECT_THROW(parse_schedule("column:x"), InputError);
    EXPECT_THROW(parse_schedule("spiral"), InputError);
    EXPECT_THROW(parse_schedule("tiled:8"), InputError);
    EXPECT_THROW(parse_schedule("linear:3"), InputError);
    EXPECT_THROW(parse_schedule("zigzag:99999999999"), InputError);
}

}  // namespace
}  // namespace cachesim
