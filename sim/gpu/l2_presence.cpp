#include "sim/gpu/l2_presence.hpp"

namespace cachesim {

L2Presence::L2Presence(std::uint32_t sms, std::uint32_t granule_shift) : shift_(granule_shift) {
    pending_.assign(sms, {});
}

void L2Presence::merge() {
    for (std::vector<std::uint64_t>& keys : pending_) {
        for (std::uint64_t key : keys) insert(key);
        keys.clear();
    }
}

void L2Presence::insert(std::uint64_t key) {
    if (keys_.empty()) {
        keys_.assign(std::size_t{1} << 16, 0);
        mask_ = keys_.size() - 1;
    }
    std::size_t i = slot_of(key);
    for (; keys_[i] != 0; i = (i + 1) & mask_)
        if (keys_[i] == key) return;
    keys_[i] = key;
    if (++size_ * 2 > keys_.size()) grow();
}

void L2Presence::grow() {
    std::vector<std::uint64_t> old(keys_.size() * 2, 0);
    old.swap(keys_);
    mask_ = keys_.size() - 1;
    size_ = 0;
    for (std::uint64_t key : old)
        if (key != 0) insert(key);
}

}  // namespace cachesim
