// The GPU model's list LRU and FIFO (sim/gpu/list_policies.hpp) against a reference kept here: per
// set, its ways in recency (or fill) order, the victim the last of them. Random hits, fills and
// invalidations as a cache makes them, with sets small enough for the packed order (4 and 16 ways)
// and larger ones kept as linked lists (17 and 40 ways).
#include <gtest/gtest.h>

#include <algorithm>
#include <cstdint>
#include <vector>

#include "sim/gpu/list_policies.hpp"
#include "sim/rng.hpp"

namespace cachesim {
namespace {

template <class Policy>
void check_against_reference(std::uint32_t ways, bool hits_reorder) {
    const std::uint32_t sets = 3;
    Policy policy;
    policy.reset(PolicyContext{sets, ways, 1, nullptr});
    // Per set, the resident ways, most recently used (or filled) first.
    std::vector<std::vector<std::uint32_t>> order(sets);
    Rng rng(ways);
    std::uint32_t victims = 0;
    for (int step = 0; step < 20000; ++step) {
        const std::uint32_t set = static_cast<std::uint32_t>(rng.below(sets));
        std::vector<std::uint32_t>& o = order[set];
        const std::uint64_t what = rng.below(10);
        if (what < 5 && !o.empty()) {  // a hit
            const std::uint32_t way = o[rng.below(o.size())];
            policy.on_hit(set, way, 0);
            if (hits_reorder) {
                o.erase(std::find(o.begin(), o.end(), way));
                o.insert(o.begin(), way);
            }
        } else if (what < 6 && !o.empty()) {  // an invalidation
            const std::uint32_t way = o[rng.below(o.size())];
            policy.on_invalidate(set, way);
            o.erase(std::find(o.begin(), o.end(), way));
        } else if (o.size() < ways) {  // a fill of an empty way (the lowest, as the caches pick)
            std::uint32_t way = 0;
            while (std::find(o.begin(), o.end(), way) != o.end()) ++way;
            policy.on_fill(set, way, 0);
            o.insert(o.begin(), way);
        } else {  // full: the victim is evicted and its way filled again
            const Victim v = policy.victim(set, 0);
            ASSERT_EQ(v.count, 1u);
            ASSERT_EQ(v.first_way, o.back()) << "ways " << ways << " step " << step;
            ++victims;
            policy.on_invalidate(set, v.first_way);
            o.pop_back();
            policy.on_fill(set, v.first_way, 0);
            o.insert(o.begin(), v.first_way);
        }
    }
    EXPECT_GT(victims, 500u);  // the victims were checked often
}

TEST(GpuListPolicies, LruEvictsTheLeastRecentlyUsed) {
    for (std::uint32_t ways : {1u, 4u, 16u, 17u, 40u}) check_against_reference<ListLruPolicy>(ways, true);
}

TEST(GpuListPolicies, FifoEvictsTheFirstFilled) {
    for (std::uint32_t ways : {1u, 4u, 16u, 17u, 40u}) check_against_reference<ListFifoPolicy>(ways, false);
}

}  // namespace
}  // namespace cachesim
