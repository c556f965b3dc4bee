#include "sim/gpu/dram_blocks.hpp"

#include <algorithm>
#include <bit>

#include "traces/trace_generation_functor.hpp"

namespace cachesim {

namespace {

// The load indices sampled of a work item with `loads` loads: 8 pairs spread evenly.
std::vector<std::uint32_t> sampled_loads(std::uint32_t loads) {
    std::vector<std::uint32_t> samples;
    for (std::uint32_t j = 0; j < 8; ++j) {
        const auto a = static_cast<std::uint32_t>(static_cast<std::uint64_t>(j) * loads / 8);
        for (std::uint32_t k = a; k < std::min(a + 2, loads); ++k)
            if (samples.empty() || samples.back() < k) samples.push_back(k);
    }
    return samples;
}

}  // namespace

std::vector<std::uint8_t> blocks_reading_dram(const WorkloadSpec& spec, std::uint32_t block_threads,
                                              std::uint32_t warp_size, std::uint64_t blocks, std::uint64_t recent,
                                              std::uint32_t line_bytes, std::uint32_t sector_bytes) {
    std::vector<std::uint8_t> dram(blocks, 0);
    // Both built-in kernels end an item with its one write (C, or the stencil's output).
    const std::uint32_t loads = spec.accesses_per_item() - 1;
    if (loads == 0 || block_threads == 0 || warp_size == 0) return dram;
    const std::vector<std::uint32_t> samples = sampled_loads(loads);
    std::uint64_t span = 0;
    for (const ArrayInfo& a : spec.arrays()) span = std::max(span, a.base + a.bytes());
    const unsigned line_shift = static_cast<unsigned>(std::countr_zero(std::max(1u, line_bytes)));
    const unsigned sector_shift =
        static_cast<unsigned>(std::countr_zero(std::max(1u, sector_bytes ? sector_bytes : line_bytes)));
    constexpr std::uint64_t kUnread = ~0ull;
    std::vector<std::uint64_t> first_reader((span >> line_shift) + 1, kUnread);
    const std::uint64_t items = spec.items();
    const std::uint64_t per_item = spec.accesses_per_item();
    std::vector<std::uint64_t> sectors;
    sectors.reserve(warp_size);
    with_trace_functor(spec, [&](const auto& record_at) {
        // The distinct sectors of load k of the warp of threads [t0, t1).
        const auto warp_sectors = [&](std::uint64_t t0, std::uint64_t t1, std::uint32_t k) -> const auto& {
            sectors.clear();
            for (std::uint64_t t = t0; t < t1; ++t) sectors.push_back(record_at(t * per_item + k).address >> sector_shift);
            std::sort(sectors.begin(), sectors.end());
            sectors.erase(std::unique(sectors.begin(), sectors.end()), sectors.end());
            return sectors;
        };
        for (std::uint64_t b = 0; b < blocks; ++b) {
            std::uint64_t sampled = 0, recent_reads = 0;
            const std::uint64_t end = std::min(items, (b + 1) * block_threads);
            for (std::uint64_t t0 = b * block_threads; t0 < end; t0 += warp_size)
                for (std::uint32_t k : samples)
                    for (std::uint64_t sector : warp_sectors(t0, std::min(end, t0 + warp_size), k)) {
                        std::uint64_t& reader = first_reader[(sector << sector_shift) >> line_shift];
                        if (reader == kUnread) reader = b;
                        ++sampled;
                        if (b - reader <= recent) ++recent_reads;
                    }
            dram[b] = 2 * recent_reads > sampled;
        }
    });
    return dram;
}

}  // namespace cachesim
