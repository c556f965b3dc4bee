#pragma once
// The tests' in-memory trace: a list of accesses handed out as steps of one access each.
#include <algorithm>
#include <cstddef>
#include <utility>
#include <vector>

#include "traces/access_source.hpp"

namespace cachesim::test {

class VectorSource final : public AccessSource {
public:
    explicit VectorSource(std::vector<Access> accesses, ArrayInfo array = {"trace", 0, 1, 0, 1})
        : accesses_(std::move(accesses)), array_(std::move(array)) {}
    std::vector<ArrayInfo> arrays() const override { return {array_}; }
    bool next(AccessBatch& batch, std::size_t max) override {
        const std::size_t n = std::min(max, accesses_.size() - position_);
        batch.accesses.assign(accesses_.begin() + static_cast<std::ptrdiff_t>(position_),
                              accesses_.begin() + static_cast<std::ptrdiff_t>(position_ + n));
        batch.first_step = position_;
        batch.accesses_per_step = 1;
        position_ += n;
        return n > 0;
    }
    void rewind() override { position_ = 0; }

private:
    std::vector<Access> accesses_;
    ArrayInfo array_;
    std::size_t position_ = 0;
};

}  // namespace cachesim::test
