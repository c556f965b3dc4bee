#include "sim/geometry.hpp"

#include <bit>

namespace cachesim {

namespace {
std::string prefix(const CacheConfig& c) { return c.name + ": "; }
}  // namespace

GeometryResult make_geometry(const CacheConfig& config) {
    GeometryResult result;
    const std::string at = prefix(config);
    if (config.size_bytes == 0) {
        result.error = at + "size is 0 (the level is disabled)";
        return result;
    }
    if (config.line_bytes == 0 || !std::has_single_bit(config.line_bytes)) {
        result.error = at + "line size " + std::to_string(config.line_bytes) +
                       " B must be a power of two";
        return result;
    }
    const std::uint32_t sector = config.sector_bytes == 0 ? config.line_bytes : config.sector_bytes;
    // A line (sector) number of ~0 marks an empty way and a free table slot: with 1-byte lines
    // the last byte of the address space would have that number.
    if (sector < 2) {
        result.error = at + (config.line_bytes < 2 ? "line" : "sector") +
                       " size 1 B is too small: lines and sectors are at least 2 B";
        return result;
    }
    if (!std::has_single_bit(sector) || sector > config.line_bytes) {
        result.error = at + "sector size " + std::to_string(sector) +
                       " B must be a power of two that divides the line size " +
                       std::to_string(config.line_bytes) + " B";
        return result;
    }
    if (config.line_bytes / sector > 32) {
        result.error = at + "at most 32 sectors per line are supported";
        return result;
    }
    if (config.size_bytes % config.line_bytes != 0) {
        result.error = at + "size " + std::to_string(config.size_bytes) +
                       " B is not a whole number of " + std::to_string(config.line_bytes) +
                       " B lines";
        return result;
    }
    const std::uint64_t lines = config.size_bytes / config.line_bytes;
    const std::uint64_t ways = config.ways == 0 ? lines : config.ways;
    if (ways > lines) {
        result.error = at + std::to_string(ways) + " ways exceed the " + std::to_string(lines) +
                       " lines of the cache";
        return result;
    }
    if (lines % ways != 0) {
        result.error = at + std::to_string(lines) + " lines do not divide into " +
                       std::to_string(ways) + " ways: the set count must be a whole number";
        return result;
    }
    if (lines > (1ull << 31)) {
        result.error = at + "more than 2^31 lines are not supported";
        return result;
    }
    if (config.policy == PolicyKind::random4 && ways % 4 != 0) {
        result.error = at + "random4 evicts aligned groups of 4 ways, so ways (" +
                       std::to_string(ways) + ") must be a multiple of 4";
        return result;
    }
    if (config.policy == PolicyKind::plru && !std::has_single_bit(ways)) {
        result.error = at + "plru (tree pseudo-LRU) needs a power-of-two number of ways, not " +
                       std::to_string(ways);
        return result;
    }
    CacheGeometry g;
    g.lines = lines;
    g.ways = static_cast<std::uint32_t>(ways);
    g.sets = static_cast<std::uint32_t>(lines / ways);
    g.line_bytes = config.line_bytes;
    g.sector_bytes = sector;
    g.sectors_per_line = config.line_bytes / sector;
    g.line_shift = static_cast<std::uint32_t>(std::countr_zero(config.line_bytes));
    g.sector_shift = static_cast<std::uint32_t>(std::countr_zero(sector));
    result.geometry = g;
    return result;
}

}  // namespace cachesim
