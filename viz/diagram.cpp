#include "viz/diagram.hpp"

#include <algorithm>
#include <array>
#include <utility>

namespace cachesim::viz {

void CellGrid::append_column(const std::vector<std::uint8_t>& states) {
    const std::size_t at = cells_.size();
    cells_.resize(at + stride_, 0);
    for (std::uint64_t r = 0; r < rows_; ++r) {
        const std::uint8_t v = states[r] & 15;
        cells_[at + r / 2] |= static_cast<std::uint8_t>((r & 1) ? (v << 4) : v);
    }
    ++columns_;
}

namespace {

// Combines two packed bytes nibble by nibble.
struct CodeTable {
    std::array<std::array<std::uint8_t, 16>, 16> t{};
    CodeTable() {
        for (int a = 0; a < 16; ++a)
            for (int b = 0; b < 16; ++b)
                t[a][b] = combine_codes(static_cast<CellCode>(a), static_cast<CellCode>(b));
    }
};
const CodeTable kCodes;

std::uint8_t combine_packed(std::uint8_t a, std::uint8_t b) {
    const std::uint8_t lo = kCodes.t[a & 15][b & 15];
    const std::uint8_t hi = kCodes.t[a >> 4][b >> 4];
    return static_cast<std::uint8_t>(lo | (hi << 4));
}

}  // namespace

void CellGrid::halve_columns() {
    const std::uint64_t out = (columns_ + 1) / 2;
    for (std::uint64_t k = 0; k < out; ++k) {
        std::uint8_t* dst = &cells_[k * stride_];
        const std::uint8_t* a = &cells_[2 * k * stride_];
        if (2 * k + 1 < columns_) {
            const std::uint8_t* b = &cells_[(2 * k + 1) * stride_];
            for (std::uint64_t i = 0; i < stride_; ++i) dst[i] = combine_packed(a[i], b[i]);
        } else if (dst != a) {
            std::copy(a, a + stride_, dst);
        }
    }
    columns_ = out;
    cells_.resize(columns_ * stride_);
}

CellGrid CellGrid::halved_in_time() const {
    CellGrid g = *this;
    g.halve_columns();
    g.cells_.shrink_to_fit();
    return g;
}

CellGrid CellGrid::halved_in_rows() const {
    CellGrid g(columns_, (rows_ + 1) / 2);
    for (std::uint64_t c = 0; c < columns_; ++c)
        for (std::uint64_t r = 0; r < g.rows_; ++r) {
            CellCode s = code(c, 2 * r);
            if (2 * r + 1 < rows_) s = combine_codes(s, code(c, 2 * r + 1));
            g.set_code(c, r, s);
        }
    return g;
}

Diagram::Diagram(RowLayout layout, CellGrid base, std::uint64_t first_step, std::uint64_t steps,
                 std::uint64_t steps_per_column, RowBuckets row_buckets, std::uint64_t first_row)
    : layout_(std::move(layout)),
      first_step_(first_step),
      steps_(steps),
      first_row_(first_row),
      recorded_rows_(row_buckets.rows()),
      steps_per_column_(steps_per_column),
      row_buckets_(std::move(row_buckets)) {
    // Build the ripmap: first along time at full row resolution, then each of those along rows.
    std::vector<CellGrid> time_chain;
    time_chain.push_back(std::move(base));
    while (time_chain.back().columns() > 1) time_chain.push_back(time_chain.back().halved_in_time());
    for (CellGrid& g : time_chain) {
        std::vector<CellGrid> row_chain;
        row_chain.push_back(std::move(g));
        while (row_chain.back().rows() > 1) row_chain.push_back(row_chain.back().halved_in_rows());
        levels_.push_back(std::move(row_chain));
    }
    // Every time level must have the same number of row levels; they do, since the row count is
    // the same at every time level.
}

CellState Diagram::at_step(std::uint64_t step, std::uint64_t row) const {
    if (levels_.empty() || step < first_step_ || row < first_row_ || row - first_row_ >= recorded_rows_)
        return CellState::not_cached;
    const std::uint64_t c = (step - first_step_) / steps_per_column_;
    const std::uint64_t b = row_buckets_.bucket_of(row - first_row_);
    const CellGrid& g = levels_[0][0];
    if (c >= g.columns() || b >= g.rows()) return CellState::not_cached;
    return g.get(c, b);
}

std::uint8_t Diagram::tag_at_step(ColourBy by, std::uint64_t step, std::uint64_t row) const {
    const TagGrid* g = tags(by);
    if (!g || step < first_step_ || row < first_row_ || row - first_row_ >= recorded_rows_) return 0;
    return g->at((step - first_step_) / steps_per_column_, row_buckets_.bucket_of(row - first_row_));
}

namespace {

// Splits [lo, hi) of an axis of n cells into aligned power-of-two blocks (level, index), each
// block at level l covering cells [index << l, min((index + 1) << l, n)).
template <class F>
void for_each_block(std::uint64_t lo, std::uint64_t hi, std::uint64_t n, int max_level, F&& f) {
    hi = std::min(hi, n);
    while (lo < hi) {
        int l = 0;
        while (l + 1 <= max_level) {
            const std::uint64_t size = std::uint64_t{1} << (l + 1);
            if (lo % size != 0) break;
            if (std::min(lo + size, n) > hi) break;
            ++l;
        }
        f(l, lo >> l);
        lo = std::min(lo + (std::uint64_t{1} << l), n);
    }
}

}  // namespace

CellCode Diagram::query_cells(std::uint64_t c0, std::uint64_t c1, std::uint64_t b0, std::uint64_t b1) const {
    if (levels_.empty()) return 0;
    const CellGrid& base = levels_[0][0];
    constexpr CellCode kAll = kCodeAccessed | kCodeHit | kCodeFromL2 | kCodeFromMemory;
    CellCode best = 0;
    for_each_block(c0, c1, base.columns(), time_levels() - 1, [&](int lt, std::uint64_t ct) {
        if (best == kAll) return;
        for_each_block(b0, b1, base.rows(), row_levels() - 1, [&](int lr, std::uint64_t rb) {
            if (best != kAll) best = combine_codes(best, levels_[lt][lr].code(ct, rb));
        });
    });
    return best;
}

CellCode Diagram::query_code(std::uint64_t t0, std::uint64_t t1, std::uint64_t r0, std::uint64_t r1) const {
    if (t1 <= first_step_ || t1 <= t0 || r1 <= first_row_ || r1 <= r0) return 0;
    t0 = std::max(t0, first_step_) - first_step_;
    t1 -= first_step_;
    r0 = std::max(r0, first_row_) - first_row_;
    r1 -= first_row_;
    const std::uint64_t c0 = t0 / steps_per_column_;
    const std::uint64_t c1 = (t1 + steps_per_column_ - 1) / steps_per_column_;
    const auto [b0, b1] = row_buckets_.buckets_of(r0, r1);
    return query_cells(c0, c1, b0, b1);
}

std::size_t Diagram::memory_bytes() const {
    std::size_t total = 0;
    for (const auto& chain : levels_)
        for (const CellGrid& g : chain) total += g.bytes();
    total += miss_counts_.bytes() + sms_.bytes() + hit_sources_.bytes();
    return total;
}

}  // namespace cachesim::viz
