// The cache contents at a step (viz/cache_contents.hpp): a two-set, two-way cache worked by hand
// under LRU and FIFO, 1 MiB caches (65,536 ways or sets) that list only the lines filled, the
// observer beside a run that goes on, and the thesis stencil's 24-line fully associative LRU against an
// independent recency list written from the stencil's definition.
#include <gtest/gtest.h>

#include <algorithm>
#include <vector>

#include "tests/lru_reference.hpp"
#include "tests/vector_source.hpp"
#include "traces/workload_source.hpp"
#include "viz/cache_contents.hpp"

using namespace cachesim;
using namespace cachesim::viz;

namespace {

// The array the hand stream reads: 64 floats.
const ArrayInfo kArray{"a", 0, 4, 64, 1};

// One access per step.
Access read(std::uint64_t a) { return {a, 4, 0, false}; }
Access write(std::uint64_t a) { return {a, 4, 0, true}; }

// 64 B, 16 B lines, 2 ways: 2 sets; even lines go to set 0, odd lines to set 1. Write-back,
// write-allocate, so stores dirty their line.
HierarchyConfig two_by_two(PolicyKind policy) {
    HierarchyConfig h;
    h.l1 = {"L1", 64, 16, 0, 2, policy, WritePolicy::write_back_allocate};
    return h;
}

// Steps: 0 read line 0, 1 read line 2, 2 write line 0, 3 read line 1, 4 read line 4.
std::vector<Access> hand_stream() { return {read(0), read(32), write(0), read(16), read(64)}; }

}  // namespace

TEST(CacheContents, LruByHand) {
    test::VectorSource src(hand_stream(), kArray);
    // After step 2: set 0 holds line 0 (way 0, written, most recent) and line 2 (way 1, least
    // recent: the next victim); set 1 is empty and would fill way 0.
    CacheContents c = cache_contents_at(src, two_by_two(PolicyKind::lru), 2);
    ASSERT_EQ(c.levels.size(), 1u);
    const LevelContents& l1 = c.levels[0];
    ASSERT_EQ(l1.sets, 2u);
    ASSERT_EQ(l1.ways, 2u);
    EXPECT_TRUE(l1.ages_known);
    const WayContents w0 = l1.way(0, 0), w1 = l1.way(0, 1);
    EXPECT_TRUE(w0.valid);
    EXPECT_EQ(w0.line, 0u);
    EXPECT_TRUE(w0.dirty);
    EXPECT_EQ(w0.age, 0u);
    EXPECT_EQ(w0.last_used_step, 2u);
    EXPECT_EQ(w0.filled_step, 0u);
    EXPECT_EQ(w1.line, 2u);
    EXPECT_FALSE(w1.dirty);
    EXPECT_EQ(w1.age, 1u);
    EXPECT_EQ(l1.next_victim(0), 1u);
    EXPECT_FALSE(l1.way(1, 0).valid);
    EXPECT_EQ(l1.next_victim(1), 0u);
    ASSERT_EQ(l1.step_events.size(), 1u);  // step 2 hit line 0 in set 0, way 0
    EXPECT_EQ(l1.step_events[0].event, WayEvent::hit);
    EXPECT_EQ(l1.step_events[0].way, 0u);

    // After step 4: line 4 missed in the full set 0 and replaced the least recent line 2 in way 1;
    // line 0 is now the least recent (next victim). Line 1 sits in way 0 of set 1.
    test::VectorSource src4(hand_stream(), kArray);
    c = cache_contents_at(src4, two_by_two(PolicyKind::lru), 4, /*focus_line=*/0);
    const LevelContents& a = c.levels[0];
    EXPECT_EQ(a.way(0, 0).line, 0u);
    EXPECT_EQ(a.way(0, 0).age, 1u);
    EXPECT_EQ(a.way(0, 1).line, 4u);
    EXPECT_EQ(a.way(0, 1).age, 0u);
    EXPECT_EQ(a.next_victim(0), 0u);
    EXPECT_EQ(a.way(1, 0).line, 1u);
    EXPECT_FALSE(a.way(1, 1).valid);
    EXPECT_EQ(a.next_victim(1), 1u);
    EXPECT_EQ(a.valid_lines(), 3u);
    ASSERT_EQ(a.step_events.size(), 2u);
    EXPECT_EQ(a.step_events[0].event, WayEvent::evicted);
    EXPECT_EQ(a.step_events[0].line, 2u);
    EXPECT_EQ(a.step_events[1].event, WayEvent::fill);
    EXPECT_EQ(a.step_events[1].line, 4u);
    EXPECT_EQ(a.step_events[1].way, 1u);
    // Line 0: last used at step 2; since its access at step 0 one other line (2) was used.
    ASSERT_TRUE(c.focus);
    EXPECT_EQ(c.focus->last_access_step, 2u);
    EXPECT_EQ(c.focus->reuse_distance, 1u);
    EXPECT_TRUE(c.focus->resident);
    EXPECT_FALSE(c.focus->evicted_step);

    // Line 2: used once (no reuse distance), evicted at step 4 by line 4's fill.
    test::VectorSource src2(hand_stream(), kArray);
    c = cache_contents_at(src2, two_by_two(PolicyKind::lru), 4, /*focus_line=*/2);
    EXPECT_EQ(c.focus->last_access_step, 1u);
    EXPECT_FALSE(c.focus->reuse_distance);
    EXPECT_FALSE(c.focus->resident);
    EXPECT_EQ(c.focus->evicted_step, 4u);
    EXPECT_EQ(c.focus->evicted_by_line, 4u);
}

TEST(CacheContents, FifoByHand) {
    // FIFO ignores the hit at step 2: at step 4 the oldest fill, line 0 (way 0), is the victim.
    test::VectorSource src(hand_stream(), kArray);
    const CacheContents c = cache_contents_at(src, two_by_two(PolicyKind::fifo), 4);
    const LevelContents& l1 = c.levels[0];
    EXPECT_EQ(l1.way(0, 0).line, 4u);
    EXPECT_EQ(l1.way(0, 0).age, 0u);
    EXPECT_FALSE(l1.way(0, 0).dirty);  // the new line; the dirty line 0 left
    EXPECT_EQ(l1.way(0, 1).line, 2u);
    EXPECT_EQ(l1.way(0, 1).age, 1u);
    EXPECT_EQ(l1.next_victim(0), 1u);
}

TEST(CacheContents, RandomPolicyLeavesAgesUnknown) {
    test::VectorSource src(hand_stream(), kArray);
    HierarchyConfig h = two_by_two(PolicyKind::random);
    const CacheContents c = cache_contents_at(src, h, 4);
    EXPECT_FALSE(c.levels[0].ages_known);
    EXPECT_EQ(c.levels[0].valid_lines(), 3u);
    EXPECT_EQ(c.levels[0].way(0, 0).age, kUnknownAge);
    EXPECT_FALSE(c.levels[0].next_victim(0));  // full set: the random stream decides
    EXPECT_EQ(c.levels[0].next_victim(1), 1u);   // an empty way is filled first
}

TEST(CacheContents, StepPastTheEndIsAnError) {
    test::VectorSource src(hand_stream(), kArray);
    EXPECT_THROW(cache_contents_at(src, two_by_two(PolicyKind::lru), 5), SimulationError);
}

// 1 MiB of 16 B lines: 65,536 ways in one set (ways = 0) or 65,536 sets of one way. The contents
// list the lines the stream filled, not the ways it left empty.
HierarchyConfig one_mebibyte(std::uint32_t ways) {
    HierarchyConfig h;
    h.l1 = {"L1", 1u << 20, 16, 0, ways, PolicyKind::lru, WritePolicy::write_back_allocate};
    return h;
}

TEST(CacheContents, LargeFullyAssociativeKeepsOnlyTheFilledWays) {
    test::VectorSource src(hand_stream(), kArray);
    const CacheContents c = cache_contents_at(src, one_mebibyte(0), 4);
    const LevelContents& l1 = c.levels[0];
    ASSERT_EQ(l1.sets, 1u);
    ASSERT_EQ(l1.ways, 65536u);
    // Lines 0, 2, 1, 4 filled ways 0 to 3 in that order; most recent first: 4, 1, 0 (written at
    // step 2), 2.
    ASSERT_EQ(l1.resident.size(), 4u);
    EXPECT_EQ(l1.valid_lines(), 4u);
    const std::uint64_t lines[] = {0, 2, 1, 4};
    const std::uint32_t ages[] = {2, 3, 1, 0};
    for (std::uint32_t way = 0; way < 4; ++way) {
        SCOPED_TRACE("way " + std::to_string(way));
        EXPECT_EQ(l1.resident[way].set, 0u);
        EXPECT_EQ(l1.resident[way].way, way);
        EXPECT_EQ(l1.way(0, way).line, lines[way]);
        EXPECT_EQ(l1.way(0, way).age, ages[way]);
    }
    EXPECT_TRUE(l1.way(0, 0).dirty);
    EXPECT_FALSE(l1.way(0, 4).valid);
    EXPECT_FALSE(l1.way(0, 65535).valid);
    EXPECT_EQ(l1.set_ways(0).size(), 4u);
    EXPECT_EQ(l1.next_victim(0), 4u);  // the first empty way
}

TEST(CacheContents, LargeDirectMappedListsSetsInOrder) {
    test::VectorSource src(hand_stream(), kArray);
    const CacheContents c = cache_contents_at(src, one_mebibyte(1), 4);
    const LevelContents& l1 = c.levels[0];
    ASSERT_EQ(l1.sets, 65536u);
    ASSERT_EQ(l1.ways, 1u);
    // Line n sits in set n: sets 0, 1, 2 and 4 hold a line, by set.
    ASSERT_EQ(l1.resident.size(), 4u);
    const std::uint32_t sets[] = {0, 1, 2, 4};
    for (std::size_t i = 0; i < 4; ++i) {
        EXPECT_EQ(l1.resident[i].set, sets[i]);
        EXPECT_EQ(l1.resident[i].way, 0u);
        EXPECT_EQ(l1.resident[i].contents.line, sets[i]);
        EXPECT_EQ(l1.resident[i].contents.age, 0u);
    }
    EXPECT_FALSE(l1.way(3, 0).valid);
    EXPECT_EQ(l1.set_ways(3).size(), 0u);
    EXPECT_EQ(l1.set_ways(4).size(), 1u);
    EXPECT_EQ(l1.next_victim(4), 0u);  // full: its only line
    EXPECT_EQ(l1.next_victim(3), 0u);  // empty: its first way
    EXPECT_EQ(l1.next_victim(65535), 0u);
    ASSERT_EQ(l1.step_events.size(), 1u);  // step 4 filled line 4 into set 4
    EXPECT_EQ(l1.step_events[0].event, WayEvent::fill);
    EXPECT_EQ(l1.step_events[0].set, 4u);
}

// Beside a run that goes on (as cacheviz attaches it to the run it draws), the observer keeps
// the step's contents and ignores the steps after it.
TEST(CacheContents, ObserverBesideAWholeRunKeepsTheStep) {
    test::VectorSource whole(hand_stream(), kArray);
    ContentsObserver observer(two_by_two(PolicyKind::lru), 2, std::nullopt, ContentsObserver::AfterStep::kKeepRunning);
    RunControl control;
    control.observer = &observer;
    const SimulationResult r = simulate_thread_model(whole, two_by_two(PolicyKind::lru), control);
    EXPECT_EQ(r.steps, 5u);
    std::optional<CacheContents> kept = observer.take();
    ASSERT_TRUE(kept);
    test::VectorSource stopped(hand_stream(), kArray);
    const CacheContents expected = cache_contents_at(stopped, two_by_two(PolicyKind::lru), 2);
    ASSERT_EQ(kept->levels.size(), 1u);
    const LevelContents& a = kept->levels[0];
    const LevelContents& b = expected.levels[0];
    EXPECT_EQ(kept->step, 2u);
    ASSERT_EQ(a.resident.size(), 2u);  // set 0: line 0 (way 0) and line 2 (way 1)
    ASSERT_EQ(a.resident.size(), b.resident.size());
    for (std::size_t i = 0; i < a.resident.size(); ++i) {
        EXPECT_EQ(a.resident[i].set, b.resident[i].set);
        EXPECT_EQ(a.resident[i].way, b.resident[i].way);
        EXPECT_EQ(a.resident[i].contents.line, b.resident[i].contents.line);
        EXPECT_EQ(a.resident[i].contents.age, b.resident[i].contents.age);
        EXPECT_EQ(a.resident[i].contents.dirty, b.resident[i].contents.dirty);
    }
    EXPECT_EQ(a.next_victim(0), 1u);
    EXPECT_EQ(a.step_events.size(), 1u);
}

// Table 3.1: 7x7 stencil on 16x16 floats, linear order, 24 lines of 16 B, fully associative LRU,
// write-through no-allocate (so only the loads of `in` reach it). The reference: the stencil's
// loads from its definition through a recency list of 24 lines (tests/lru_reference.hpp).
TEST(CacheContents, ThesisStencilMatchesARecencyList) {
    for (std::uint64_t step : {0ull, 3ull, 40ull, 100ull, 255ull}) {
        SCOPED_TRACE("step " + std::to_string(step));
        test::LruList recency(24);
        for (std::uint64_t item = 0; item <= step; ++item)
            for (const std::uint64_t line : test::thesis_stencil_load_lines(item)) recency.touch(line);
        WorkloadSpec w;  // the defaults are the thesis stencil
        HierarchyConfig h;
        h.l1.size_bytes = 384;
        h.l1.line_bytes = 16;
        WorkloadSource src(w);
        const CacheContents c = cache_contents_at(src, h, step);
        ASSERT_EQ(c.levels.size(), 1u);
        const LevelContents& l1 = c.levels[0];
        ASSERT_EQ(l1.sets, 1u);
        ASSERT_EQ(l1.ways, 24u);
        std::vector<std::uint64_t> by_age(l1.valid_lines());
        ASSERT_EQ(by_age.size(), recency.size());
        for (const ResidentWay& r : l1.set_ways(0)) {
            ASSERT_LT(r.contents.age, by_age.size());
            by_age[r.contents.age] = r.contents.line;
        }
        EXPECT_EQ(by_age, recency.most_recent_first());
        if (recency.size() == 24) {
            EXPECT_EQ(l1.way(0, *l1.next_victim(0)).line, recency.least_recent());
        }
    }
}
