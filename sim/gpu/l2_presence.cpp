#include "sim/gpu/l2_presence.hpp"

#include <algorithm>

namespace cachesim {

L2Presence::L2Presence(std::uint32_t sms, std::uint32_t granule_shift) : shift_(granule_shift) {
    pending_.assign(sms, {});
}

void L2Presence::merge() {
    for (std::vector<Pending>& asked : pending_) {
        for (const Pending& p : asked) insert(p.key, p.arrival);
        asked.clear();
    }
}

void L2Presence::settle() {
    merge();
    std::fill(arrivals_.begin(), arrivals_.end(), 0);
}

void L2Presence::insert(std::uint64_t key, std::uint64_t arrival) {
    if (keys_.empty()) {
        keys_.assign(std::size_t{1} << 16, 0);
        arrivals_.assign(keys_.size(), 0);
        mask_ = keys_.size() - 1;
    }
    std::size_t i = slot_of(key);
    for (; keys_[i] != 0; i = (i + 1) & mask_)
        if (keys_[i] == key) {
            arrivals_[i] = std::min(arrivals_[i], arrival);
            return;
        }
    keys_[i] = key;
    arrivals_[i] = arrival;
    if (++size_ * 2 > keys_.size()) grow();
}

void L2Presence::grow() {
    std::vector<std::uint64_t> old_keys(keys_.size() * 2, 0), old_arrivals(keys_.size() * 2, 0);
    old_keys.swap(keys_);
    old_arrivals.swap(arrivals_);
    mask_ = keys_.size() - 1;
    size_ = 0;
    for (std::size_t i = 0; i < old_keys.size(); ++i)
        if (old_keys[i] != 0) insert(old_keys[i], old_arrivals[i]);
}

}  // namespace cachesim
