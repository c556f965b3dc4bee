#pragma once
// The tests' reference for reuse distances, independent of sim/reuse_distance: a Fenwick tree over
// time marks (a line's latest access), renumbered by a sort when it fills; the distance is the
// number of marks after the line's previous one.
#include <algorithm>
#include <cstdint>
#include <unordered_map>
#include <utility>
#include <vector>

#include "sim/reuse_distance.hpp"

namespace cachesim::test {

class FenwickReference {
public:
    std::uint64_t access(std::uint64_t line) {
        if (time_ + 1 >= tree_.size()) compact();
        auto [it, inserted] = last_.try_emplace(line, time_);
        std::uint64_t distance = kColdMiss;
        if (!inserted) {
            distance = live_ - prefix(it->second);
            add(it->second, -1);
        } else {
            ++live_;
        }
        it->second = time_;
        add(time_, +1);
        ++time_;
        return distance;
    }

private:
    void add(std::uint64_t pos, int delta) {
        for (std::size_t i = pos + 1; i < tree_.size(); i += i & (~i + 1)) tree_[i] += delta;
    }
    std::uint64_t prefix(std::uint64_t pos) const {
        std::int64_t sum = 0;
        for (std::size_t i = pos + 1; i > 0; i -= i & (~i + 1)) sum += tree_[i];
        return static_cast<std::uint64_t>(sum);
    }
    void compact() {
        std::vector<std::pair<std::uint64_t, std::uint64_t*>> order;
        for (auto& [line, t] : last_) order.emplace_back(t, &t);
        std::sort(order.begin(), order.end());
        for (std::size_t i = 0; i < order.size(); ++i) *order[i].second = i;
        tree_.assign(std::max<std::size_t>(64, 2 * order.size() + 2) + 1, 0);
        for (std::size_t i = 0; i < order.size(); ++i) add(i, +1);
        time_ = order.size();
    }
    std::vector<std::int32_t> tree_ = std::vector<std::int32_t>(65, 0);
    std::unordered_map<std::uint64_t, std::uint64_t> last_;
    std::uint64_t time_ = 0, live_ = 0;
};

}  // namespace cachesim::test
