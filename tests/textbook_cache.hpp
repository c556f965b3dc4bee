#pragma once
// An independent textbook model of the classic trace-driven simulators (Dinero IV, pycachesim):
// per-set recency lists, write-back and write-allocate, whole-line fills, the level below fetched
// before the victim is written back. The tests compare cachesim against it access for access; the
// core benchmark runs it on the same traces as an in-run baseline.
#include <cstdint>
#include <list>
#include <utility>
#include <vector>

namespace cachesim::test {

class TextbookCache {
public:
    TextbookCache(std::uint64_t size, std::uint64_t line, std::uint64_t ways, TextbookCache* below)
        : line_(line), ways_(ways), sets_(size / line / ways), below_(below), lru_(sets_) {}

    void access(std::uint64_t address, bool write) {
        const std::uint64_t line = address / line_;
        auto& set = lru_[line % sets_];
        for (auto it = set.begin(); it != set.end(); ++it) {
            if (it->first != line) continue;
            it->second |= write;
            set.splice(set.begin(), set, it);
            return;
        }
        ++misses;
        (write ? write_misses : read_misses)++;
        if (below_) below_->access(line * line_, false);  // fetch the line
        if (set.size() == ways_) {
            if (set.back().second && below_) below_->access(set.back().first * line_, true);
            set.pop_back();
        }
        set.emplace_front(line, write);
    }
    std::uint64_t misses = 0, read_misses = 0, write_misses = 0;

private:
    std::uint64_t line_, ways_, sets_;
    TextbookCache* below_;
    std::vector<std::list<std::pair<std::uint64_t, bool>>> lru_;
};

}  // namespace cachesim::test
