// The thread model's caches with sets of many ways (more than kIndexAboveWays), which find lines
// through a hash index and empty ways through a bitmap instead of scanning the set: every lookup's
// outcome equals that of a plain cache written here that scans its ways and asks the same policy,
// for each policy; and FIFO, whose victims follow a queue of fills, against a list of fills
// (tests/list_cache_reference.hpp), at few ways and at many.
#include <gtest/gtest.h>

#include <bit>
#include <cstdint>
#include <random>
#include <vector>

#include "sim/cache.hpp"
#include "sim/policies/fifo.hpp"
#include "sim/policies/plru.hpp"
#include "sim/policies/random.hpp"
#include "tests/list_cache_reference.hpp"

namespace cachesim {
namespace {

using test::ReferenceOutcome;

// The cache's contract, by scanning: a hit sets the sector (and its dirty bit for an allocating
// store); a miss that allocates fills the lowest empty way, or else empties the ways the policy
// names (writing back their dirty sectors) and fills the first of them.
template <class Policy>
class ScanCache {
public:
    ScanCache(const CacheGeometry& g, std::uint64_t seed) : g_(g), tags_(g.lines, kEmptyTag), valid_(g.lines), dirty_(g.lines) {
        policy_.reset(PolicyContext{g.sets, g.ways, seed, nullptr});
    }
    ReferenceOutcome access(std::uint64_t line, std::uint32_t sector, bool is_write, bool allocate) {
        ReferenceOutcome out;
        const std::uint64_t now = now_++;
        const std::uint32_t set = static_cast<std::uint32_t>(line % g_.sets);
        const std::size_t base = static_cast<std::size_t>(set) * g_.ways;
        const std::uint32_t bit = 1u << sector;
        std::uint32_t empty = g_.ways;
        for (std::uint32_t w = 0; w < g_.ways; ++w) {
            if (tags_[base + w] == kEmptyTag) {
                empty = std::min(empty, w);
                continue;
            }
            if (tags_[base + w] != line) continue;
            out.line_present = true;
            out.hit = (valid_[base + w] & bit) != 0;
            if (out.hit || allocate) {
                valid_[base + w] |= bit;
                if (is_write && allocate) dirty_[base + w] |= bit;
                policy_.on_hit(set, w, now);
            }
            return out;
        }
        if (!allocate) return out;
        std::uint32_t way = empty;
        if (way == g_.ways) {
            const Victim v = policy_.victim(set, now);
            for (std::uint32_t w = v.first_way; w < v.first_way + v.count; ++w) {
                if (tags_[base + w] == kEmptyTag) continue;
                out.evicted.push_back(tags_[base + w]);
                out.written_back += static_cast<std::uint32_t>(std::popcount(dirty_[base + w]));
                tags_[base + w] = kEmptyTag;
                valid_[base + w] = dirty_[base + w] = 0;
                policy_.on_invalidate(set, w);
            }
            way = v.first_way;
        }
        tags_[base + way] = line;
        valid_[base + way] = bit;
        dirty_[base + way] = is_write ? bit : 0;
        policy_.on_fill(set, way, now);
        return out;
    }
    bool contains(std::uint64_t line, std::uint32_t sector) const {
        const std::size_t base = static_cast<std::size_t>(line % g_.sets) * g_.ways;
        for (std::uint32_t w = 0; w < g_.ways; ++w)
            if (tags_[base + w] == line) return (valid_[base + w] >> sector) & 1u;
        return false;
    }

private:
    CacheGeometry g_;
    Policy policy_;
    std::uint64_t now_ = 0;
    std::vector<std::uint64_t> tags_;
    std::vector<std::uint32_t> valid_, dirty_;
};

CacheGeometry geometry(std::uint64_t lines, std::uint32_t ways, std::uint32_t line_bytes, std::uint32_t sector_bytes,
                       PolicyKind policy) {
    CacheConfig c;
    c.size_bytes = lines * line_bytes;
    c.line_bytes = line_bytes;
    c.sector_bytes = sector_bytes;
    c.ways = ways;
    c.policy = policy;
    const GeometryResult r = make_geometry(c);
    EXPECT_TRUE(r.geometry.has_value()) << r.error;
    return *r.geometry;
}

// Lines near a drifting point, some far away, some repeats of the line just used; a fifth
// stores, a tenth lookups that do not allocate.
template <class Policy, class Reference>
void expect_same_outcomes(const CacheGeometry& g, Reference& reference, std::uint64_t footprint, std::uint32_t seed) {
    Cache<Policy> cache(g, 7);
    std::mt19937_64 rng(seed);
    std::uint64_t centre = 0, line = 0;
    for (int i = 0; i < 60000; ++i) {
        const std::uint32_t kind = rng() % 100;
        if (kind >= 5 && kind < 80) {
            centre = (centre + rng() % 3) % footprint;
            line = (centre + rng() % (2 * g.lines)) % footprint;
        } else if (kind >= 80) {
            line = rng() % footprint;
        }
        const std::uint32_t sector = static_cast<std::uint32_t>(rng() % g.sectors_per_line);
        const bool is_write = rng() % 5 == 0, allocate = rng() % 10 != 0;
        const LookupOutcome got = cache.access(line, sector, is_write, allocate);
        const ReferenceOutcome want = reference.access(line, sector, is_write, allocate);
        ASSERT_EQ(got.hit, want.hit) << "access " << i << ", line " << line;
        ASSERT_EQ(got.line_present, want.line_present) << "access " << i;
        ASSERT_EQ(got.evicted_count, want.evicted.size()) << "access " << i;
        for (std::uint32_t e = 0; e < got.evicted_count; ++e) {
            ASSERT_EQ(cache.evicted_line(e), want.evicted[e]) << "access " << i << ", eviction " << e;
        }
        ASSERT_EQ(got.written_back_sectors, want.written_back) << "access " << i;
        if (i % 89 == 0) {
            const std::uint64_t probe = rng() % footprint;
            ASSERT_EQ(cache.contains(probe, 0), reference.contains(probe, 0)) << "access " << i << ", line " << probe;
        }
    }
}

template <class Policy>
void expect_same_as_scanning(PolicyKind kind, std::uint64_t lines, std::uint32_t ways, std::uint32_t seed) {
    const CacheGeometry g = geometry(lines, ways, 64, 16, kind);
    ASSERT_TRUE(indexed_sets(g));
    ScanCache<Policy> reference(g, 7);
    expect_same_outcomes<Policy>(g, reference, 3 * lines, seed);
}

TEST(CacheManyWays, FifoMatchesAScan) {
    expect_same_as_scanning<FifoPolicy>(PolicyKind::fifo, 1024, 0, 1);
    expect_same_as_scanning<FifoPolicy>(PolicyKind::fifo, 3 * 48, 48, 2);
}

TEST(CacheManyWays, PlruMatchesAScan) {
    expect_same_as_scanning<PlruPolicy>(PolicyKind::plru, 1024, 0, 3);
    expect_same_as_scanning<PlruPolicy>(PolicyKind::plru, 4 * 64, 64, 4);
}

TEST(CacheManyWays, RandomMatchesAScan) {
    expect_same_as_scanning<RandomPolicy>(PolicyKind::random, 1024, 0, 5);
    expect_same_as_scanning<RandomPolicy>(PolicyKind::random, 3 * 40, 40, 6);
}

// random4 empties four ways and fills one, so sets keep empty ways to fill later: the bitmap's
// lowest empty way must be the scan's.
TEST(CacheManyWays, Random4MatchesAScan) {
    expect_same_as_scanning<Random4Policy>(PolicyKind::random4, 1024, 0, 7);
    expect_same_as_scanning<Random4Policy>(PolicyKind::random4, 3 * 36, 36, 8);
}

// FIFO by a list of each set's lines in fill order, independent of the policy's queue.
TEST(CacheManyWays, FifoEvictsInFillOrderAtAnyAssociativity) {
    for (const auto& [lines, ways] : std::vector<std::pair<std::uint64_t, std::uint32_t>>{
             {64, 4}, {96, 3}, {64, 0}, {2048, 0}, {5 * 40, 40}}) {
        const CacheGeometry g = geometry(lines, ways, 32, 0, PolicyKind::fifo);
        test::ListCache reference(g.sets, g.ways, test::ListCache::Order::fifo);
        expect_same_outcomes<FifoPolicy>(g, reference, 3 * lines, static_cast<std::uint32_t>(lines + ways));
    }
}

}  // namespace
}  // namespace cachesim
