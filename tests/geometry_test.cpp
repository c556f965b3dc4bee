// Cache geometry: what is allowed (non-power-of-two sizes and sets) and what is rejected.
#include <gtest/gtest.h>

#include "sim/geometry.hpp"
#include "sim/rng.hpp"

namespace cachesim {
namespace {

CacheConfig config(std::uint64_t size, std::uint32_t line, std::uint32_t ways,
                   std::uint32_t sector = 0) {
    CacheConfig c;
    c.size_bytes = size;
    c.line_bytes = line;
    c.ways = ways;
    c.sector_bytes = sector;
    return c;
}

TEST(Geometry, ThesisToyCacheIs24FullyAssociativeLines) {
    const GeometryResult g = make_geometry(config(384, 16, 0));
    ASSERT_TRUE(g.geometry) << g.error;
    EXPECT_EQ(g.geometry->lines, 24u);
    EXPECT_EQ(g.geometry->ways, 24u);
    EXPECT_EQ(g.geometry->sets, 1u);
}

TEST(Geometry, NonPowerOfTwoSetCount) {
    const GeometryResult g = make_geometry(config(3 * 4 * 64, 64, 4));
    ASSERT_TRUE(g.geometry);
    EXPECT_EQ(g.geometry->sets, 3u);
}

TEST(Geometry, SectorsDefaultToTheLine) {
    const auto g = make_geometry(config(4096, 128, 4)).geometry;
    EXPECT_EQ(g->sector_bytes, 128u);
    EXPECT_EQ(g->sectors_per_line, 1u);
    const auto s = make_geometry(config(4096, 128, 4, 32)).geometry;
    EXPECT_EQ(s->sectors_per_line, 4u);
}

struct Rejected {
    CacheConfig config;
    const char* expected_words;
};

TEST(Geometry, RejectsImpossibleConfigurations) {
    const Rejected cases[] = {
        {config(0, 64, 1), "size is 0"},
        {config(1000, 64, 1), "whole number of 64 B lines"},
        {config(4096, 48, 1), "power of two"},
        {config(4096, 0, 1), "power of two"},
        {config(4096, 64, 3), "set count must be a whole number"},
        {config(4096, 64, 128), "exceed"},
        {config(4096, 64, 4, 48), "sector size"},
        {config(4096, 64, 4, 128), "sector size"},
    };
    for (const Rejected& r : cases) {
        const GeometryResult g = make_geometry(r.config);
        EXPECT_FALSE(g.geometry);
        EXPECT_NE(g.error.find(r.expected_words), std::string::npos) << g.error;
    }
}

TEST(Geometry, FastSetIndexMatchesModulo) {
    Rng rng(5);
    for (std::uint32_t sets : {1u, 2u, 3u, 5u, 6u, 7u, 12u, 24u, 100u, 1000u, 65535u, 1u << 20, 3000017u}) {
        const SetIndexer index(sets);
        for (int i = 0; i < 20000; ++i) {
            const std::uint64_t line = i < 100 ? static_cast<std::uint64_t>(i) : rng.next() >> (i % 40);
            ASSERT_EQ(index(line), line % sets) << "sets " << sets << " line " << line;
        }
        EXPECT_EQ(index(~0ull >> 1), (~0ull >> 1) % sets);
    }
}

}  // namespace
}  // namespace cachesim
