// The table of line times: every (line, level) keeps the last value written through at() or
// slot(), compared with a std::unordered_map, while keys move from the hash table into a dense
// window and the window grows; for_each visits exactly the written slots; the window forms only
// over ranges at least half in use, so scattered lines stay in the hash table.
#include <gtest/gtest.h>

#include <cstdint>
#include <unordered_map>
#include <vector>

#include "sim/line_times.hpp"
#include "sim/rng.hpp"

namespace cachesim {
namespace {

struct Written {
    std::unordered_map<std::uint64_t, std::uint32_t> value[2];
};

// Writes `lines` (value = position + 1) through slot() in batches of 64 after reserve(), as the
// trackers do, alternating levels, and through at() for every third line.
void write_all(LineTimes& times, unsigned levels, const std::vector<std::uint64_t>& lines, Written& written) {
    for (std::size_t start = 0; start < lines.size(); start += 64) {
        const std::size_t n = std::min<std::size_t>(64, lines.size() - start);
        times.reserve(n);
        std::uint32_t* slots[64];
        for (std::size_t k = 0; k < n; ++k) slots[k] = times.slot(lines[start + k], (start + k) % levels);
        for (std::size_t k = 0; k < n; ++k) {
            const std::size_t i = start + k;
            *slots[k] = static_cast<std::uint32_t>(i + 1);
            written.value[i % levels][lines[i]] = static_cast<std::uint32_t>(i + 1);
        }
        for (std::size_t k = 0; k < n; k += 3) {
            const std::size_t i = start + k;
            const unsigned level = (i + 1) % levels;
            times.at(lines[i], level) = static_cast<std::uint32_t>(i + 7);
            written.value[level][lines[i]] = static_cast<std::uint32_t>(i + 7);
        }
    }
}

void expect_same(LineTimes& times, unsigned levels, const Written& written) {
    for (unsigned level = 0; level < levels; ++level) {
        for (const auto& [line, value] : written.value[level]) ASSERT_EQ(times.at(line, level), value) << line;
        std::size_t nonzero = 0;
        times.for_each(level, [&](std::uint32_t v) { nonzero += v != 0; });
        EXPECT_EQ(nonzero, written.value[level].size()) << "level " << level;
    }
}

TEST(LineTimes, StreamRandomAndFarLinesKeepTheirValues) {
    for (unsigned levels = 1; levels <= 2; ++levels) {
        LineTimes times(levels);
        Rng rng(11);
        std::vector<std::uint64_t> lines;
        std::uint64_t next = 1000;
        for (int i = 0; i < 400000; ++i) {
            const std::uint64_t pick = rng.below(8);
            if (pick < 3) lines.push_back(next++);                          // a stream, upwards
            else if (pick < 6) lines.push_back(rng.below(1u << 17));        // a random range
            else if (pick < 7) lines.push_back((1ull << 40) + rng.below(5000));  // another array, far away
            else lines.push_back(rng.next() >> 8);                          // scattered
        }
        Written written;
        write_all(times, levels, lines, written);
        expect_same(times, levels, written);
        // The window covers the random range and the stream, not the far array or the scattered lines.
        const std::uint64_t per = times.lines_per_chunk();
        EXPECT_LE(times.dense_first(), 1000 / per);
        EXPECT_GE((times.dense_first() + times.dense_chunks()) * per, next);
        EXPECT_LT((times.dense_first() + times.dense_chunks()) * per, 1ull << 40);
    }
}

TEST(LineTimes, ScatteredLinesMakeNoWindow) {
    LineTimes times(2);
    Rng rng(12);
    std::vector<std::uint64_t> lines;
    for (int i = 0; i < 100000; ++i) lines.push_back(rng.below(1u << 30) * 64);  // one line in 8 chunks at most
    Written written;
    write_all(times, 2, lines, written);
    expect_same(times, 2, written);
    EXPECT_EQ(times.dense_chunks(), 0u);
}

TEST(LineTimes, WindowMovesToTheLargerRange) {
    // A small dense range first (it makes the first window), then a large one far away.
    LineTimes times(2);
    Rng rng(14);
    std::vector<std::uint64_t> lines;
    for (std::uint64_t line = 0; line < 2000; ++line) lines.push_back(line);
    for (int i = 0; i < 300000; ++i) lines.push_back((1ull << 36) + rng.below(1u << 18));
    for (int i = 0; i < 1000; ++i) lines.push_back(rng.below(2000));
    Written written;
    write_all(times, 2, lines, written);
    expect_same(times, 2, written);
    const std::uint64_t per = times.lines_per_chunk();
    // Most of the large range (keys that came after the table's last growth may stay hashed).
    EXPECT_LE(times.dense_first() * per, (1ull << 36) + (1u << 18) / 10);
    EXPECT_GE((times.dense_first() + times.dense_chunks()) * per, (1ull << 36) + (1u << 18) * 9 / 10);
}

TEST(LineTimes, WindowMemoryFollowsTheChunksInUse) {
    // Three chunks in four of a range in use, in random order: the window forms (at least half
    // in use) and holds at most 3 chunks per chunk in use (2 at its widest, and room to grow).
    LineTimes times(1);
    Rng rng(13);
    std::vector<std::uint64_t> lines;
    for (int i = 0; i < 200000; ++i) {
        const std::uint64_t r = rng.below(30000);
        lines.push_back(((r / 3) * 4 + r % 3) * 16 + rng.below(16));
    }
    Written written;
    write_all(times, 1, lines, written);
    expect_same(times, 1, written);
    std::vector<bool> used(40000);
    for (std::uint64_t line : lines) used[line / 16] = true;
    std::size_t in_use = 0;
    for (bool u : used) in_use += u;
    EXPECT_GT(times.dense_chunks(), 0u);
    EXPECT_LE(times.dense_chunks(), in_use * 3);
}

}  // namespace
}  // namespace cachesim
