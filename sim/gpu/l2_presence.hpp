#pragma once
// Cycle timing's guess at where the L2 serves an L1 miss (GpuConfig::lat_dram), and when: from
// DRAM when no SM has asked for the sector's DRAM fetch granule before; else from the L2 once the
// granule's DRAM read has arrived, so a request for a granule still on its way waits for it, as on
// the chip (evictions are not followed: the launches measured fit the H200's L2). Each SM runs
// alone through a chunk of cycles, so it sees the requests of earlier chunks only (merged between
// chunks, on one thread, each granule keeping its earliest arrival); what several SMs ask for
// within one chunk comes from DRAM for each of them. The table changes only between chunks, so
// the answers do not depend on the thread count.
#include <cstdint>
#include <vector>

namespace cachesim {

class L2Presence {
public:
    static constexpr std::uint64_t kAbsent = ~0ull;

    // granule_shift: log2 of the DRAM fetch granule in bytes.
    L2Presence(std::uint32_t sms, std::uint32_t granule_shift);

    // The cycle the granule of `address` arrives (or arrived) from DRAM, as an earlier chunk asked
    // for it; kAbsent when none did (read only during a chunk).
    // `tag` tells apart tables of several places in one (an L2 partition's copies): 0 or 1.
    std::uint64_t arrival(std::uint64_t address, std::uint32_t tag = 0) const {
        if (keys_.empty()) return kAbsent;
        const std::uint64_t key = key_of(address, tag);
        for (std::size_t i = slot_of(key);; i = (i + 1) & mask_) {
            if (keys_[i] == key) return arrivals_[i];
            if (keys_[i] == 0) return kAbsent;
        }
    }
    bool holds(std::uint64_t address, std::uint32_t tag = 0) const { return arrival(address, tag) != kAbsent; }
    // SM s asks for the granule of `address` in this chunk, its data there at cycle `arrival`
    // (touches SM s's own list only).
    void note(std::uint32_t s, std::uint64_t address, std::uint64_t arrival = 0, std::uint32_t tag = 0) {
        pending_[s].push_back({key_of(address, tag), arrival});
    }
    // Between chunks: what the SMs asked for is in the L2 from now on, at its earliest arrival.
    void merge();
    // A new launch (a warm L2 start): everything held is there from its first cycle.
    void settle();

private:
    struct Pending {
        std::uint64_t key, arrival;
    };
    std::uint64_t key_of(std::uint64_t address, std::uint32_t tag) const {
        return (((address >> shift_) << 1) | tag) + 1;
    }
    std::size_t slot_of(std::uint64_t key) const {
        return static_cast<std::size_t>((key * 0x9e3779b97f4a7c15ull) >> 20) & mask_;
    }
    void insert(std::uint64_t key, std::uint64_t arrival);
    void grow();

    std::uint32_t shift_;
    // (granule index, tag) + 1; 0: empty (open addressing), and each one's arrival cycle. None until the
    // first merge: a run without GpuConfig::lat_dram never allocates them.
    std::vector<std::uint64_t> keys_, arrivals_;
    std::size_t mask_ = 0, size_ = 0;
    std::vector<std::vector<Pending>> pending_;  // per SM: asked for in this chunk
};

}  // namespace cachesim
