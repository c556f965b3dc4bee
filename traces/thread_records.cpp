#include "traces/thread_records.hpp"

#include <algorithm>

namespace cachesim::cst {

void ThreadDecoder::decode(const ThreadRecords& records, std::size_t i, Access* out) {
    if (last_.size() < records.arrays) {
        last_.resize(records.arrays);
        stamp_.resize(records.arrays, 0);
    }
    if (++current_ == 0) {  // the stamps wrapped: forget them all once
        std::fill(stamp_.begin(), stamp_.end(), 0);
        current_ = 1;
    }
    const std::uint64_t* starts = records.starts_of(i);
    const std::uint32_t* metas = records.metas.data() + records.at[i];
    const std::uint64_t* deltas = records.deltas.data() + records.at[i];
    const std::size_t count = records.count(i);
    for (std::size_t k = 0; k < count; ++k) {
        const std::uint32_t meta = metas[k];
        const std::uint32_t array = meta_array(meta);
        std::uint64_t address;
        if (stamp_[array] != current_) {  // the array's first use in the thread: its start
            stamp_[array] = current_;
            address = *starts++;
        } else {
            address = last_[array] + deltas[k];
        }
        last_[array] = address;
        Access& a = out[k];
        a.address = address;
        a.size = meta_size(meta);
        a.array = static_cast<std::uint16_t>(array);
        a.is_write = meta_is_write(meta);
    }
}

}  // namespace cachesim::cst
