#pragma once
// Cycle timing's guess at where the L2 serves an L1 miss (GpuConfig::lat_dram): from DRAM when no
// SM has asked for the sector's DRAM fetch granule before, else from the L2, which keeps the data
// it has read (evictions are not followed: the launches measured fit the H200's L2). Each SM runs
// alone through a chunk of cycles, so it sees the requests of earlier chunks only (merged between
// chunks, on one thread); what several SMs ask for within one chunk comes from DRAM for all of
// them, as a sector still on its way from DRAM does on the chip. The table changes only between
// chunks, so the answers do not depend on the thread count.
#include <cstdint>
#include <vector>

namespace cachesim {

class L2Presence {
public:
    // granule_shift: log2 of the DRAM fetch granule in bytes.
    L2Presence(std::uint32_t sms, std::uint32_t granule_shift);

    // Whether an earlier chunk asked for the granule of `address` (read only during a chunk).
    bool holds(std::uint64_t address) const {
        if (keys_.empty()) return false;
        const std::uint64_t key = (address >> shift_) + 1;
        for (std::size_t i = slot_of(key);; i = (i + 1) & mask_) {
            if (keys_[i] == key) return true;
            if (keys_[i] == 0) return false;
        }
    }
    // SM s asks for the granule of `address` in this chunk (touches SM s's own list only).
    void note(std::uint32_t s, std::uint64_t address) { pending_[s].push_back((address >> shift_) + 1); }
    // Between chunks: what the SMs asked for is in the L2 from now on.
    void merge();

private:
    std::size_t slot_of(std::uint64_t key) const {
        return static_cast<std::size_t>((key * 0x9e3779b97f4a7c15ull) >> 20) & mask_;
    }
    void insert(std::uint64_t key);
    void grow();

    std::uint32_t shift_;
    // granule index + 1; 0: empty (open addressing). None until the first merge: a run without
    // GpuConfig::lat_dram never allocates it.
    std::vector<std::uint64_t> keys_;
    std::size_t mask_ = 0, size_ = 0;
    std::vector<std::vector<std::uint64_t>> pending_;  // per SM: keys asked for in this chunk
};

}  // namespace cachesim
