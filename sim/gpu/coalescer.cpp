#include "sim/gpu/coalescer.hpp"

#include <algorithm>
#include <bit>

namespace cachesim {

Coalescer::Coalescer(std::uint32_t line_bytes, std::uint32_t sector_bytes)
    : line_shift_(static_cast<std::uint32_t>(std::countr_zero(line_bytes))),
      sector_shift_(static_cast<std::uint32_t>(std::countr_zero(sector_bytes ? sector_bytes : line_bytes))) {
    per_line_shift_ = line_shift_ - sector_shift_;
    per_line_mask_ = (1ull << per_line_shift_) - 1;
    all_sectors_ = per_line_mask_ == 63 ? ~0ull : (1ull << (per_line_mask_ + 1)) - 1;
    sectors_.reserve(256);
}

// The common case in one pass: every lane's access aligned to its (power-of-two) size, so it lies
// inside one sector, and lanes in ascending address order (broadcasts included). The only branch
// is taken when the sector changes. Returns false (out unspecified) when the case does not hold.
bool Coalescer::coalesce_sorted(const std::uint64_t* addresses, std::uint32_t lanes,
                                std::uint32_t size, CoalescedRequest& out) {
    if (lanes == 0 || size == 0 || (size & (size - 1)) != 0 || size > (1u << sector_shift_)) return false;
    const std::uint32_t per_line_shift = line_shift_ - sector_shift_;
    const std::uint64_t sector_mask = (1ull << per_line_shift) - 1;
    out.lines.clear();
    std::uint64_t misaligned = addresses[0] & (size - 1);
    std::uint64_t previous = addresses[0] >> sector_shift_;
    out.lines.push_back({previous >> per_line_shift, 1ull << (previous & sector_mask)});
    CoalescedLine* current = &out.lines.back();
    std::uint32_t count = 1;
    bool descending = false;
    for (std::uint32_t i = 1; i < lanes; ++i) {
        const std::uint64_t address = addresses[i];
        misaligned |= address & (size - 1);
        const std::uint64_t sector = address >> sector_shift_;
        if (sector == previous) continue;
        descending |= sector < previous;
        previous = sector;
        ++count;
        const std::uint64_t line = sector >> per_line_shift;
        if (line != current->line) {
            out.lines.push_back({line, 0});
            current = &out.lines.back();
        }
        current->sectors |= 1ull << (sector & sector_mask);
    }
    out.sector_count = count;
    return misaligned == 0 && !descending;
}

void Coalescer::coalesce(const std::uint64_t* addresses, std::uint32_t lanes, std::uint32_t size,
                         CoalescedRequest& out) {
    if (coalesce_sorted(addresses, lanes, size, out)) return;
    sectors_.clear();
    const std::uint64_t span = size ? size - 1 : 0;
    std::uint64_t last = ~0ull;
    bool sorted = true;
    for (std::uint32_t lane = 0; lane < lanes; ++lane) {
        const std::uint64_t first = addresses[lane] >> sector_shift_;
        const std::uint64_t end = (addresses[lane] + span) >> sector_shift_;
        for (std::uint64_t s = first; s <= end; ++s) {
            if (s == last) continue;  // neighbouring lanes in one sector: the common case
            if (last != ~0ull && s < last) sorted = false;
            sectors_.push_back(s);
            last = s;
        }
    }
    if (!sorted) std::sort(sectors_.begin(), sectors_.end());
    sectors_.erase(std::unique(sectors_.begin(), sectors_.end()), sectors_.end());
    group(out);
}

void Coalescer::group(CoalescedRequest& out) const {
    out.lines.clear();
    out.sector_count = static_cast<std::uint32_t>(sectors_.size());
    const std::uint32_t per_line_shift = line_shift_ - sector_shift_;
    const std::uint64_t sector_mask = (1ull << per_line_shift) - 1;
    for (std::uint64_t s : sectors_) {
        const std::uint64_t line = s >> per_line_shift;
        if (out.lines.empty() || out.lines.back().line != line) out.lines.push_back({line, 0});
        out.lines.back().sectors |= 1ull << (s & sector_mask);
    }
}

void Coalescer::written_sectors(const std::uint64_t* addresses, std::uint32_t lanes,
                                std::uint32_t size, std::uint32_t sector_shift,
                                std::vector<WrittenSector>& out) {
    out.clear();
    intervals_.clear();
    for (std::uint32_t lane = 0; lane < lanes; ++lane)
        intervals_.emplace_back(addresses[lane], addresses[lane] + (size ? size : 1));
    std::sort(intervals_.begin(), intervals_.end());
    const std::uint64_t sector_bytes = 1ull << sector_shift;
    for (std::size_t i = 0; i < intervals_.size();) {
        const std::uint64_t lo = intervals_[i].first;
        std::uint64_t hi = intervals_[i].second;
        for (++i; i < intervals_.size() && intervals_[i].first <= hi; ++i)
            hi = std::max(hi, intervals_[i].second);
        // Merged byte range [lo, hi): a sector is full when it lies inside. A sector shared with
        // the previous range has a gap between the two, so it is not full.
        for (std::uint64_t s = lo >> sector_shift; s <= (hi - 1) >> sector_shift; ++s) {
            const bool full = (s << sector_shift) >= lo && (s << sector_shift) + sector_bytes <= hi;
            if (!out.empty() && out.back().sector == s) out.back().full = false;
            else out.push_back({s, full});
        }
    }
}

}  // namespace cachesim
