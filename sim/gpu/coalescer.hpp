#pragma once
// Coalescing: one warp instruction (a request) of the active lanes becomes the set of distinct
// sectors it touches, grouped by line, in ascending address order. A lane's access may straddle
// sectors or lines; duplicates (broadcasts, overlapping lanes) count once.
#include <cstdint>
#include <utility>
#include <vector>

#include "sim/gpu/pod_vector.hpp"

namespace cachesim {

struct CoalescedLine {
    std::uint64_t line = 0;     // address >> log2(line bytes)
    std::uint64_t sectors = 0;  // bit i: sector i of the line is touched
};

// A sector a store request writes, and whether the request writes every byte of it.
struct WrittenSector {
    std::uint64_t sector = 0;  // address >> log2(sector bytes)
    bool full = false;
};

struct CoalescedRequest {
    PodVector<CoalescedLine> lines;
    std::uint32_t sector_count = 0;
};

class Coalescer {
public:
    // line_bytes and sector_bytes: powers of two, sector <= line, at most 64 sectors per line.
    Coalescer(std::uint32_t line_bytes = 128, std::uint32_t sector_bytes = 32);

    // `addresses` of the `lanes` active lanes, each accessing `size` bytes (size >= 1).
    void coalesce(const std::uint64_t* addresses, std::uint32_t lanes, std::uint32_t size,
                  CoalescedRequest& out);

    // An even request (lane l at base + l x stride, mod 2^64) worked out from base and stride
    // alone where its lanes' sectors form one run: each access aligned to its power-of-two size
    // (at most a sector) and the step no more than a sector. Returns false, `out` unspecified,
    // otherwise (the caller then expands the lanes for coalesce()). The same result as coalesce().
    // (inlined: a call cost a tenth of an even request's instructions, mostly passing and saving)
    [[gnu::always_inline]] bool coalesce_even(std::uint64_t base, std::uint64_t stride, std::uint32_t lanes,
                                              std::uint32_t size, CoalescedRequest& out) {
        const std::uint64_t sector_bytes = 1ull << sector_shift_;
        if (lanes == 0 || size == 0 || (size & (size - 1)) != 0 || size > sector_bytes || stride > sector_bytes ||
            ((base | stride) & (size - 1)) != 0)
            return false;
        const std::uint64_t last = base + (lanes - 1) * stride;
        if (last < base) return false;  // wraps past the top of the address space
        const std::uint64_t first_sector = base >> sector_shift_, last_sector = last >> sector_shift_;
        const std::uint64_t first_line = first_sector >> per_line_shift_, last_line = last_sector >> per_line_shift_;
        const std::uint64_t head = (all_sectors_ << (first_sector & per_line_mask_)) & all_sectors_;
        const std::uint64_t tail = all_sectors_ >> (per_line_mask_ - (last_sector & per_line_mask_));
        out.sector_count = static_cast<std::uint32_t>(last_sector - first_sector + 1);
        out.lines.clear();
        if (first_line == last_line) {
            out.lines.push_back({first_line, head & tail});
            return true;
        }
        out.lines.push_back({first_line, head});
        for (std::uint64_t line = first_line + 1; line < last_line; ++line) out.lines.push_back({line, all_sectors_});
        out.lines.push_back({last_line, tail});
        return true;
    }

    // A store whose lanes' bytes form one range [begin, end) (an even store stepping no more than
    // its size): its sectors of 2^sector_shift bytes, as written_sectors() gives them.
    static void written_range(std::uint64_t begin, std::uint64_t end, std::uint32_t sector_shift,
                              std::vector<WrittenSector>& out) {
        out.clear();
        const std::uint64_t first = begin >> sector_shift, last = (end - 1) >> sector_shift;
        for (std::uint64_t s = first; s <= last; ++s)
            out.push_back({s, (s << sector_shift) >= begin && ((s + 1) << sector_shift) <= end});
    }

    // Stores: the distinct sectors of 2^sector_shift bytes the lanes write, ascending, each marked
    // full when the lanes' byte ranges cover it (the L2 then need not fetch it before merging).
    void written_sectors(const std::uint64_t* addresses, std::uint32_t lanes, std::uint32_t size,
                         std::uint32_t sector_shift, std::vector<WrittenSector>& out);

    std::uint32_t line_shift() const { return line_shift_; }
    std::uint32_t sector_shift() const { return sector_shift_; }

private:
    void group(CoalescedRequest& out) const;
    bool coalesce_sorted(const std::uint64_t* addresses, std::uint32_t lanes, std::uint32_t size,
                         CoalescedRequest& out);

    std::uint32_t line_shift_, sector_shift_;
    std::uint32_t per_line_shift_;                   // log2 of the sectors in a line
    std::uint64_t per_line_mask_, all_sectors_;      // sectors in a line less one; a mask of them all
    std::vector<std::uint64_t> sectors_;  // scratch: sector ids
    std::vector<std::pair<std::uint64_t, std::uint64_t>> intervals_;  // scratch: stores
};

}  // namespace cachesim
