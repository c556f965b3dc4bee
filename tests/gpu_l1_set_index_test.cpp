// The L1's set index (--l1-index): which sets lines land in, worked out by hand for 512 sets, a
// cache of 512 sets of 4 ways (LRU) reading those lines in a cycle, and the option on the
// command line.
#include <gtest/gtest.h>

#include <algorithm>
#include <set>
#include <vector>

#include "sim/geometry.hpp"
#include "sim/gpu/list_policies.hpp"
#include "sim/gpu/sector_cache.hpp"
#include "tests/cli_util.hpp"

namespace cachesim {
namespace {

// 1,024 lines 32 apart (a column of a matrix whose rows are 32 lines long).
std::vector<std::uint64_t> column_lines() {
    std::vector<std::uint64_t> lines;
    for (std::uint64_t i = 0; i < 1024; ++i) lines.push_back(32 * i);
    return lines;
}

// `line mod 512` puts line 32i in set 32 (i mod 16): 16 sets of 64 lines. The fold (fields of
// log2 512 = 9 bits) puts it in set 32 (i mod 16) XOR (i >> 4), since 32i >> 9 = i >> 4 and
// 32i >> 18 = 0 for i < 1,024: a set v is reached from the two values of i mod 16 whose upper
// three bits give v >> 6, so every set receives exactly 2 lines.
TEST(GpuL1SetIndex, TheFoldSpreadsAPowerOfTwoStrideEvenly) {
    for (SetIndex index : {SetIndex::mod, SetIndex::fold}) {
        const SetMapping map(512, index);
        std::vector<int> per_set(512, 0);
        for (std::uint64_t line : column_lines()) ++per_set[map(line)];
        std::set<int> loads(per_set.begin(), per_set.end());
        if (index == SetIndex::fold) {
            EXPECT_EQ(loads, std::set<int>{2});
        } else {
            EXPECT_EQ(static_cast<int>(std::count(per_set.begin(), per_set.end(), 64)), 16);
            EXPECT_EQ(static_cast<int>(std::count(per_set.begin(), per_set.end(), 0)), 512 - 16);
        }
    }
    EXPECT_EQ(SetMapping(1, SetIndex::fold)(12345), 0u);  // one set: every line in it
}

// A cache of 512 sets of 4 ways read twice in the same cyclic order: with the fold every line
// stays (2 a set), with `line mod sets` none does (64 lines cycling through 4 ways, LRU).
TEST(GpuL1SetIndex, AFourWayCacheKeepsTheColumnOnlyWithTheFold) {
    CacheConfig config;
    config.size_bytes = 512 * 4 * 128;
    config.line_bytes = 128;
    config.sector_bytes = 32;
    config.ways = 4;
    const CacheGeometry g = *make_geometry(config).geometry;
    ASSERT_EQ(g.sets, 512u);
    for (SetIndex index : {SetIndex::mod, SetIndex::fold}) {
        SectorCache<ListLruPolicy> cache;
        cache.reset(g, 1, index);
        int second_pass_hits = 0;
        for (int pass = 0; pass < 2; ++pass)
            for (std::uint64_t line : column_lines()) {
                const std::uint32_t slot = cache.find(line);
                if (slot != SectorCache<ListLruPolicy>::kNone) {
                    second_pass_hits += pass;
                    cache.touch(slot);
                } else {
                    SectorEviction evicted;
                    cache.insert(line, 1, 0, evicted);
                }
            }
        EXPECT_EQ(second_pass_hits, index == SetIndex::fold ? 1024 : 0) << static_cast<int>(index);
    }
}

TEST(GpuL1SetIndex, TheOptionTakesModFoldOrHash) {
    const std::string launch = "simulate --model gpu --preset h200 --workload matmul --size 64x64 --depth 64 --l1-ways 4";
    EXPECT_EQ(test::run_cachesim(launch + " --l1-index fold").exit_code, 0);
    const auto bad = test::run_cachesim(launch + " --l1-index xor");
    EXPECT_EQ(bad.exit_code, 2);
    EXPECT_NE(bad.err.find("--l1-index: expected mod, fold or hash, not 'xor'"), std::string::npos) << bad.err;
}

}  // namespace
}  // namespace cachesim
