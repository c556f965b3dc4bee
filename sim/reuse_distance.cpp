#include "sim/reuse_distance.hpp"

#include <algorithm>
#include <utility>

namespace cachesim {

ReuseDistanceTracker::ReuseDistanceTracker() : tree_(1 << 12, 0), last_time_(1024) {}

void ReuseDistanceTracker::add(std::size_t pos, int delta) {
    for (std::size_t i = pos + 1; i < tree_.size(); i += i & (~i + 1)) tree_[i] += delta;
}

std::uint64_t ReuseDistanceTracker::prefix(std::size_t pos) const {
    std::int64_t sum = 0;
    for (std::size_t i = pos + 1; i > 0; i -= i & (~i + 1)) sum += tree_[i];
    return static_cast<std::uint64_t>(sum);
}

std::uint64_t ReuseDistanceTracker::access(std::uint64_t line) {
    if (time_ + 1 >= tree_.size()) compact();
    bool inserted = false;
    std::uint64_t& last = last_time_.find_or_insert(line, time_, inserted);
    std::uint64_t distance = kColdMiss;
    if (!inserted) {
        // Marks after `last` = live lines whose latest access is newer than this line's.
        distance = live_ - prefix(static_cast<std::size_t>(last));
        add(static_cast<std::size_t>(last), -1);
    } else {
        ++live_;
    }
    last = time_;
    add(static_cast<std::size_t>(time_), +1);
    ++time_;
    return distance;
}

// Renumbers the live marks 0..k-1 in time order and sizes the tree to twice that.
void ReuseDistanceTracker::compact() {
    std::vector<std::pair<std::uint64_t, std::uint64_t*>> order;
    order.reserve(last_time_.size());
    last_time_.for_each([&](std::uint64_t, std::uint64_t& t) { order.emplace_back(t, &t); });
    std::sort(order.begin(), order.end(),
              [](const auto& a, const auto& b) { return a.first < b.first; });
    for (std::size_t i = 0; i < order.size(); ++i) *order[i].second = i;
    const std::size_t capacity = std::max<std::size_t>(1 << 12, 2 * order.size() + 2);
    tree_.assign(capacity + 1, 0);
    // Linear Fenwick build: every position 0..k-1 holds one mark.
    for (std::size_t i = 1; i < tree_.size(); ++i) {
        if (i <= order.size()) tree_[i] += 1;
        const std::size_t parent = i + (i & (~i + 1));
        if (parent < tree_.size()) tree_[parent] += tree_[i];
    }
    time_ = order.size();
}

}  // namespace cachesim
