#pragma once
// A reference cache for the tests of LRU and FIFO: per set a list of its lines, the first the one
// most recently used (LRU) or filled (FIFO), each with its valid and dirty sectors. A miss that
// allocates evicts the last when the set is full. Written as plainly as possible: the caches
// under test must give its outcomes access for access.
#include <bit>
#include <cstdint>
#include <list>
#include <vector>

namespace cachesim::test {

struct ReferenceOutcome {
    bool hit = false, line_present = false;
    std::vector<std::uint64_t> evicted;
    std::uint32_t written_back = 0;  // dirty sectors of the evicted lines
};

class ListCache {
public:
    enum class Order { lru, fifo };
    ListCache(std::uint32_t sets, std::uint32_t ways, Order order) : ways_(ways), order_(order), lists_(sets) {}

    // A hit sets the sector (and its dirty bit for an allocating store); a miss that allocates
    // brings the line in with that sector.
    ReferenceOutcome access(std::uint64_t line, std::uint32_t sector, bool is_write, bool allocate) {
        ReferenceOutcome out;
        std::list<Line>& list = lists_[line % lists_.size()];
        const std::uint32_t bit = 1u << sector;
        for (auto it = list.begin(); it != list.end(); ++it) {
            if (it->line != line) continue;
            out.line_present = true;
            out.hit = (it->valid & bit) != 0;
            if (out.hit || allocate) {
                it->valid |= bit;
                if (is_write && allocate) it->dirty |= bit;
                if (order_ == Order::lru) list.splice(list.begin(), list, it);
            }
            return out;
        }
        if (!allocate) return out;
        if (list.size() == ways_) {
            out.evicted.push_back(list.back().line);
            out.written_back = static_cast<std::uint32_t>(std::popcount(list.back().dirty));
            list.pop_back();
        }
        list.push_front(Line{line, bit, is_write ? bit : 0u});
        return out;
    }
    bool contains(std::uint64_t line, std::uint32_t sector) const {
        for (const Line& l : lists_[line % lists_.size()])
            if (l.line == line) return (l.valid >> sector) & 1u;
        return false;
    }

private:
    struct Line {
        std::uint64_t line;
        std::uint32_t valid, dirty;
    };
    std::uint32_t ways_;
    Order order_;
    std::vector<std::list<Line>> lists_;
};

}  // namespace cachesim::test
