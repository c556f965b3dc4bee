#include "sim/gpu/recorded_warps.hpp"

#include <algorithm>

#include "traces/input_error.hpp"

namespace cachesim {

RecordedWarps::RecordedWarps(const std::string& path) : source_(path) {
    if (!source_.header().launch)
        throw InputError(path + ": a version " + std::to_string(source_.header().version) +
                         " trace holds no launch; the GPU model replays version 2 traces (cachesim trace "
                         "--trace-version 2, or a recorded kernel)");
    threads_per_block_ = launch().threads_per_block();
}

void RecordedWarps::read_through(std::uint64_t block) {
    while (!finished_ && next_block_ <= block) {
        if (!source_.next_threads(batch_)) {
            finished_ = true;
            break;
        }
        PendingBlock* p_last = nullptr;
        std::uint64_t b_last = ~0ull;
        for (std::size_t i = 0; i < batch_.threads.size(); ++i) {
            const std::uint64_t thread = batch_.threads[i];
            const std::uint64_t b = thread / threads_per_block_;
            const std::uint32_t t = static_cast<std::uint32_t>(thread % threads_per_block_);
            if (b != b_last) {  // threads come in order: one lookup per block
                p_last = &pending_[b];
                b_last = b;
                if (p_last->begin.empty()) {
                    p_last->begin.assign(threads_per_block_, 0);
                    p_last->end.assign(threads_per_block_, 0);
                    p_last->accesses.reserve(std::min<std::uint64_t>(
                        static_cast<std::uint64_t>(threads_per_block_) * header().accesses_per_step, 1u << 20));
                }
            }
            PendingBlock& p = *p_last;
            p.begin[t] = static_cast<std::uint32_t>(p.accesses.size());
            p.accesses.insert(p.accesses.end(), batch_.accesses.begin() + batch_.first[i],
                              batch_.accesses.begin() + batch_.first[i + 1]);
            p.end[t] = static_cast<std::uint32_t>(p.accesses.size());
            next_block_ = b;  // threads increase: every block before this one is complete
        }
    }
}

std::uint32_t RecordedWarps::load(std::uint64_t block, std::uint32_t warp, std::uint32_t warp_size,
                                  WarpRequests& out) {
    out.requests.clear();
    out.addresses.clear();
    read_through(block);
    const auto found = pending_.find(block);
    if (found == pending_.end()) return 0;  // no thread of the block made an access
    const PendingBlock& p = found->second;
    const std::uint32_t first = warp * warp_size;
    const std::uint32_t lanes = first >= threads_per_block_ ? 0 : std::min(warp_size, threads_per_block_ - first);
    lane_count_.assign(lanes, 0);
    lane_accesses_.assign(lanes, nullptr);
    std::uint32_t active = 0, most = 0;
    for (std::uint32_t l = 0; l < lanes; ++l) {
        const std::uint32_t t = first + l;
        lane_count_[l] = p.end[t] - p.begin[t];
        lane_accesses_[l] = p.accesses.data() + p.begin[t];
        active += lane_count_[l] != 0;
        most = std::max(most, lane_count_[l]);
    }
    // Request k: the k-th access of every lane that has one, one request per (direction, size) in
    // the order the lanes first show it (one request in any kernel whose lanes run the same code).
    struct Kind {
        bool is_write;
        std::uint32_t size;
    };
    Kind kinds[64];
    for (std::uint32_t k = 0; k < most; ++k) {
        // The common case: every lane that has a k-th access makes one of the same kind.
        const std::size_t mark = out.addresses.size();
        RecordedRequest one{{}, static_cast<std::uint32_t>(mark)};
        bool uniform = true;
        for (std::uint32_t l = 0; l < lanes && uniform; ++l) {
            if (lane_count_[l] <= k) continue;
            const Access& a = lane_accesses_[l][k];
            if (one.shape.lanes == 0) one.shape = {a.size, a.array, a.is_write, 0};
            uniform = a.is_write == one.shape.is_write && a.size == one.shape.size;
            out.addresses.push_back(a.address);
            ++one.shape.lanes;
        }
        if (uniform) {
            out.requests.push_back(one);
            continue;
        }
        out.addresses.resize(mark);
        std::uint32_t count = 0;
        for (std::uint32_t l = 0; l < lanes; ++l) {
            if (lane_count_[l] <= k) continue;
            const Access& a = lane_accesses_[l][k];
            bool seen = false;
            for (std::uint32_t g = 0; g < count && !seen; ++g) seen = kinds[g].is_write == a.is_write && kinds[g].size == a.size;
            if (!seen) kinds[count++] = {a.is_write, a.size};
        }
        for (std::uint32_t g = 0; g < count; ++g) {
            RecordedRequest r{{}, static_cast<std::uint32_t>(out.addresses.size())};
            for (std::uint32_t l = 0; l < lanes; ++l) {
                if (lane_count_[l] <= k) continue;
                const Access& a = lane_accesses_[l][k];
                if (a.is_write != kinds[g].is_write || a.size != kinds[g].size) continue;
                if (r.shape.lanes == 0) r.shape = {a.size, a.array, a.is_write, 0};
                out.addresses.push_back(a.address);
                ++r.shape.lanes;
            }
            out.requests.push_back(r);
        }
    }
    if (warp + 1 == (threads_per_block_ + warp_size - 1) / warp_size) pending_.erase(found);
    return active;
}

}  // namespace cachesim
