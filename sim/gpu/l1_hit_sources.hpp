#pragma once
// Where the sectors an L1 hit finds came from: the warp looking them up brought them (its own
// earlier request), another warp of its block did, or another block on the SM did. A schedule's
// hits of the last kind exist only while the SM's blocks keep within the L1's reach of each
// other, the timing the model is least sure of (docs/fidelity.md), so a run reports them apart.
#include <bit>
#include <cstddef>
#include <cstdint>
#include <vector>

#include "sim/gpu/host_line_allocator.hpp"
#include "sim/observer.hpp"

namespace cachesim {

// L1 sector hits of loads by the warp that filled the sector; they add up to the L1's read hits.
struct L1HitSourceCounts {
    std::uint64_t own_warp = 0;     // filled by the same warp
    std::uint64_t own_block = 0;    // by another warp of the same block
    std::uint64_t other_block = 0;  // by a warp of another block on the SM

    std::uint64_t total() const { return own_warp + own_block + other_block; }
    L1HitSourceCounts& operator+=(const L1HitSourceCounts& o) {
        own_warp += o.own_warp;
        own_block += o.own_block;
        other_block += o.other_block;
        return *this;
    }
    // The points of the L1 load hit rate that hits from other blocks make up, out of the L1's load
    // sector lookups.
    double other_block_points(std::uint64_t load_sectors) const {
        return load_sectors ? 100.0 * static_cast<double>(other_block) / static_cast<double>(load_sectors) : 0.0;
    }
};

// From this many points of its L1 rate from other blocks on, a launch's predicted rate rests on
// how long the SM's blocks keep in step, the timing the model is least sure of: the fidelity
// tables and compare's summary split launches here, and simulate says so beside such a rate
// (docs/fidelity.md, "Which launches to trust").
inline constexpr double kTimingDependentPoints = 10.0;

// The filling warp (dispatch order, WarpSlot::age, and block) of every sector of every SM's L1
// slots. Each SM's part is written only by the thread running that SM, in its request order, so
// the counts are the same on any number of threads. An invalid sector is never looked up as a
// hit, so what a slot held before its line was replaced needs no clearing.
class L1HitSources {
public:
    // Bytes kept per L1 sector (the memory estimate counts them).
    static constexpr std::size_t kBytesPerSector = 2 * sizeof(std::uint64_t);

    L1HitSources(std::uint32_t sms, std::uint32_t lines, std::uint32_t sectors_per_line)
        : lines_(lines), sectors_per_line_(sectors_per_line),
          sources_(static_cast<std::size_t>(sms) * lines * sectors_per_line) {}

    // A load of warp (age, block) looked up the line in `slot` of SM s: `hit` are the sectors it
    // found, `filled` those it brings in now.
    void lookup(std::uint32_t s, std::uint32_t slot, std::uint64_t hit, std::uint64_t filled, std::uint64_t age,
                std::uint64_t block, L1HitSourceCounts& counts) {
        Source* const line = &sources_[(static_cast<std::size_t>(s) * lines_ + slot) * sectors_per_line_];
        // (without branches: which source a hit has is as good as random to the host's predictor)
        for (std::uint64_t m = hit; m; m &= m - 1) {
            const Source& from = line[std::countr_zero(m)];
            const bool own_warp = from.age == age, own_block = from.block == block;
            counts.own_warp += own_warp;
            counts.own_block += own_block & !own_warp;
            counts.other_block += !own_block;
        }
        for (std::uint64_t m = filled; m; m &= m - 1) line[std::countr_zero(m)] = Source{age, block};
    }

    // Who filled `sector` of the line in `slot` of SM s, for a lookup by warp (age, block) that
    // found it (an observer's view; the counts come from lookup()).
    HitSource source_of(std::uint32_t s, std::uint32_t slot, std::uint32_t sector, std::uint64_t age,
                        std::uint64_t block) const {
        const Source& from = sources_[(static_cast<std::size_t>(s) * lines_ + slot) * sectors_per_line_ + sector];
        return from.age == age ? HitSource::own_warp : from.block == block ? HitSource::own_block : HitSource::other_block;
    }

private:
    struct Source {
        std::uint64_t age = 0, block = 0;
    };
    std::uint32_t lines_, sectors_per_line_;
    // [(SM * lines + slot) * sectors per line + sector]: a line's sources in one host cache line
    // where it has four sectors.
    HostVector<Source> sources_;
};

}  // namespace cachesim
