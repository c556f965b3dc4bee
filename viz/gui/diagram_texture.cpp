#include "viz/gui/diagram_texture.hpp"

#include <imgui.h>

#include <algorithm>
#include <cmath>

namespace cachesim::viz::gui {

void DiagramTexture::set_diagram(std::shared_ptr<const Diagram> diagram) {
    diagram_ = std::move(diagram);
    other_.reset();
    valid_ = {};
    lt_ = lr_ = -1;
    count_table_.clear();
}

void DiagramTexture::set_difference(std::shared_ptr<const Diagram> diagram, std::shared_ptr<const Diagram> other) {
    set_diagram(std::move(diagram));
    if (diagram_ && other && same_shape(*diagram_, *other)) other_ = std::move(other);
}

void DiagramTexture::set_colouring(AggregateRule rule, ColourBy by) {
    if (rule == rule_ && by == by_) return;
    rule_ = rule;
    by_ = by;
    valid_ = {};  // densities or tags may be needed that were not computed
}

bool DiagramTexture::same_shape(const Diagram& a, const Diagram& b) {
    return a.steps() == b.steps() && a.rows() == b.rows() && a.first_step() == b.first_step() &&
           a.first_row() == b.first_row() && a.steps_per_column() == b.steps_per_column() &&
           a.rows_per_bucket() == b.rows_per_bucket() && a.time_levels() == b.time_levels() &&
           a.row_levels() == b.row_levels();
}

void DiagramTexture::choose_levels(const Viewport& v, int& lt, int& lr) const {
    // The finest level whose cells cover at least one pixel: a finer one would put two texels in
    // some pixels and nearest sampling would drop one of them (and a miss with it).
    const Diagram& d = *diagram_;
    const double cols_per_px = (v.t1 - v.t0) / d.steps_per_column() / std::max(1, v.width);
    const double rows_per_px = (v.r1 - v.r0) / d.rows_per_bucket() / std::max(1, v.height);
    lt = cols_per_px <= 1 ? 0 : std::min(static_cast<int>(std::ceil(std::log2(cols_per_px))), d.time_levels() - 1);
    lr = rows_per_px <= 1 ? 0 : std::min(static_cast<int>(std::ceil(std::log2(rows_per_px))), d.row_levels() - 1);
    lt = std::max(lt, 0);
    lr = std::max(lr, 0);
}

DiagramTexture::Range DiagramTexture::visible(const Viewport& v, int lt, int lr) const {
    const Diagram& d = *diagram_;
    const CellGrid& g = d.level(lt, lr);
    const double steps_per_cell = static_cast<double>(d.steps_per_column()) * std::ldexp(1.0, lt);
    const double first = static_cast<double>(d.first_step()), first_row = static_cast<double>(d.first_row());
    Range r;
    r.c0 = static_cast<std::uint64_t>(std::max(0.0, std::floor((v.t0 - first) / steps_per_cell)));
    r.c1 = std::min<std::uint64_t>(g.columns(), static_cast<std::uint64_t>(std::max(0.0, std::ceil((v.t1 - first) / steps_per_cell))));
    // Rows to base rows (each array's lines start one), then to this level's cells.
    const double recorded = static_cast<double>(d.recorded_rows());
    const auto row_a = static_cast<std::uint64_t>(std::clamp(std::floor(v.r0 - first_row), 0.0, recorded));
    const auto row_b = static_cast<std::uint64_t>(std::clamp(std::ceil(v.r1 - first_row), 0.0, recorded));
    const auto [b0, b1] = d.row_buckets().buckets_of(row_a, row_b);
    if (b0 < b1) {
        r.r0 = b0 >> lr;
        r.r1 = std::min<std::uint64_t>(g.rows(), ((b1 - 1) >> lr) + 1);
    }
    return r;
}

std::uint64_t DiagramTexture::count_sum(std::uint64_t c0, std::uint64_t c1, std::uint64_t b0, std::uint64_t b1) {
    const MissCounts& m = diagram_->miss_counts();
    const std::uint64_t stride = m.buckets() + 1;
    if (count_table_.empty()) {
        // Once per diagram: O(count blocks); every texel after that reads four entries.
        count_table_.assign((m.columns() + 1) * stride, 0);
        for (std::uint64_t c = 0; c < m.columns(); ++c)
            for (std::uint64_t b = 0; b < m.buckets(); ++b)
                count_table_[(c + 1) * stride + b + 1] = static_cast<std::uint32_t>(m.at(c, b)) + count_table_[c * stride + b + 1] +
                                                         count_table_[(c + 1) * stride + b] - count_table_[c * stride + b];
    }
    if (c0 >= c1 || b0 >= b1) return 0;
    const std::uint32_t sum = count_table_[c1 * stride + b1] - count_table_[c0 * stride + b1] - count_table_[c1 * stride + b0] +
                              count_table_[c0 * stride + b0];
    return sum;
}

void DiagramTexture::compute(std::uint64_t c0, std::uint64_t c1, std::uint64_t r0, std::uint64_t r1) {
    const Diagram& d = *diagram_;
    const CellGrid& g = d.level(lt_, lr_);
    const CellGrid* o = other_ ? &other_->level(lt_, lr_) : nullptr;
    const AggregateRule state_rule = colouring_.rule == AggregateRule::priority ? AggregateRule::priority : AggregateRule::any_miss;
    const std::uint64_t cols = std::uint64_t{1} << lt_, rows = std::uint64_t{1} << lr_;
    const std::uint64_t steps = cols * d.steps_per_column();
    const MissCounts& counts = d.miss_counts();
    for (std::uint64_t c = c0; c < c1; ++c)
        for (std::uint64_t r = r0; r < r1; ++r) {
            const CellCode code = g.code(c, r);
            const std::size_t i = at(c, r);
            codes_[i] = code;
            densities_[i] = 0;
            tags_[i] = 0;
            if (o) {
                tags_[i] = decode(o->code(c, r), state_rule) != decode(code, state_rule);
                continue;
            }
            if (colouring_.density && has_fetch(code)) {
                const auto [row_a, row_b] = d.row_buckets().rows_of(r * rows, (r + 1) * rows);
                const MissCounts::Blocks k = counts.blocks(c * steps, (c + 1) * steps, row_a, row_b);
                densities_[i] = static_cast<float>(miss_density({count_sum(k.c0, k.c1, k.b0, k.b1), k.cells}));
            }
            // A large texel's tag is the majority of a bounded sample of its base cells (16 x 16).
            if (const TagGrid* tags = d.tags(colouring_.by); tags && colouring_.wants_tag(code))
                tags_[i] = majority_tag(*tags, c * cols, (c + 1) * cols, r * rows, (r + 1) * rows, votes_, 16);
        }
}

std::size_t DiagramTexture::upload(std::uint64_t c0, std::uint64_t c1, std::uint64_t r0, std::uint64_t r1) {
    // Split at the torus seams so every piece is one contiguous texture rectangle.
    std::size_t written = 0;
    const AggregateRule state_rule = colouring_.rule == AggregateRule::priority ? AggregateRule::priority : AggregateRule::any_miss;
    for (std::uint64_t cs = c0; cs < c1;) {
        const std::uint64_t ce = std::min(c1, (cs / tw_ + 1) * tw_);
        for (std::uint64_t rs = r0; rs < r1;) {
            const std::uint64_t re = std::min(r1, (rs / th_ + 1) * th_);
            const unsigned w = static_cast<unsigned>(ce - cs), h = static_cast<unsigned>(re - rs);
            scratch_.resize(static_cast<std::size_t>(w) * h * 4);
            for (unsigned y = 0; y < h; ++y)
                for (unsigned x = 0; x < w; ++x) {
                    const std::size_t i = at(cs + x, rs + y);
                    const Rgba c = !other_ ? colouring_.colour(codes_[i], densities_[i], tags_[i])
                                   : tags_[i] ? kDifferent
                                             : pale(cell_color(decode(codes_[i], state_rule)));
                    std::uint8_t* p = &scratch_[(static_cast<std::size_t>(y) * w + x) * 4];
                    p[0] = c.r; p[1] = c.g; p[2] = c.b; p[3] = 255;
                }
            texture_.update(scratch_.data(), w, h, static_cast<unsigned>(cs % tw_), static_cast<unsigned>(rs % th_));
            written += static_cast<std::size_t>(w) * h;
            rs = re;
        }
        cs = ce;
    }
    return written;
}

std::size_t DiagramTexture::update(const Viewport& v) {
    if (!diagram_ || diagram_->time_levels() == 0) return 0;
    const Diagram& d = *diagram_;
    // Room for every visible cell: a cell covers at least a pixel on each axis, plus the edges.
    const unsigned max_size = std::min(8192u, sf::Texture::getMaximumSize());
    const unsigned want_w = std::min(max_size, static_cast<unsigned>(v.width + 4));
    const unsigned want_h = std::min(max_size, static_cast<unsigned>(v.height + 4));
    if (want_w != tw_ || want_h != th_) {
        tw_ = want_w;
        th_ = want_h;
        texture_.create(tw_, th_);
        texture_.setSmooth(false);
        const std::size_t n = static_cast<std::size_t>(tw_) * th_;
        codes_.assign(n, 0);
        tags_.assign(n, 0);
        densities_.assign(n, 0.0f);
        valid_ = {};
    }
    int lt, lr;
    choose_levels(v, lt, lr);
    if (lt != lt_ || lr != lr_) {
        lt_ = lt;
        lr_ = lr;
        valid_ = {};
    }
    aggregated_ = lt_ > 0 || lr_ > 0 || !d.exact();
    const CellColouring want = CellColouring::choose(rule_, aggregated_, d.tags(by_) && !other_ ? by_ : ColourBy::state);
    if (want.rule != colouring_.rule || want.density != colouring_.density || want.by != colouring_.by) {
        colouring_ = want;
        valid_ = {};
    }
    Range need = visible(v, lt_, lr_);
    need.c1 = std::min(need.c1, need.c0 + tw_);
    need.r1 = std::min(need.r1, need.r0 + th_);
    if (need.empty()) return 0;
    // The newly exposed texels: all of them, or the parts of `need` outside the old range.
    std::vector<Range> fresh;
    const Range& old = valid_;
    const std::uint64_t oc0 = std::max(need.c0, old.c0), oc1 = std::min(need.c1, old.c1);
    const std::uint64_t or0 = std::max(need.r0, old.r0), or1 = std::min(need.r1, old.r1);
    const bool whole = old.empty() || oc0 >= oc1 || or0 >= or1;
    if (whole) {
        fresh.push_back(need);
    } else {
        // Columns outside the overlap (all needed rows), then rows outside it (overlap columns).
        if (need.c0 < oc0) fresh.push_back({need.c0, oc0, need.r0, need.r1});
        if (oc1 < need.c1) fresh.push_back({oc1, need.c1, need.r0, need.r1});
        if (need.r0 < or0) fresh.push_back({oc0, oc1, need.r0, or0});
        if (or1 < need.r1) fresh.push_back({oc0, oc1, or1, need.r1});
    }
    for (const Range& f : fresh) compute(f.c0, f.c1, f.r0, f.r1);
    // The density range: over the whole view when it is rewritten; otherwise widened (never
    // narrowed) by the new texels, so that a pan costs only what it exposes.
    bool recolour = false;
    if (colouring_.density && !fresh.empty()) {
        double lo = whole ? 0 : colouring_.density_min, hi = whole ? 0 : colouring_.density_max;
        for (const Range& f : fresh)
            for (std::uint64_t c = f.c0; c < f.c1; ++c)
                for (std::uint64_t r = f.r0; r < f.r1; ++r) {
                    const std::size_t i = at(c, r);
                    if (!has_fetch(codes_[i])) continue;
                    const double x = densities_[i];
                    if (lo == 0 || x < lo) lo = std::exp2(std::floor(std::log2(x)));
                    if (x > hi) hi = std::exp2(std::ceil(std::log2(x)));
                }
        recolour = !whole && (lo != colouring_.density_min || hi != colouring_.density_max);
        colouring_.density_min = lo;
        colouring_.density_max = hi;
    }
    valid_ = need;
    if (recolour) return upload(need.c0, need.c1, need.r0, need.r1);
    std::size_t written = 0;
    for (const Range& f : fresh) written += upload(f.c0, f.c1, f.r0, f.r1);
    return written;
}

void DiagramTexture::draw(ImDrawList* list, float x, float y, const Viewport& v) const {
    if (!diagram_ || valid_.empty() || tw_ == 0) return;
    const Diagram& d = *diagram_;
    const double steps_per_cell = static_cast<double>(d.steps_per_column()) * std::ldexp(1.0, lt_);
    const double buckets_per_cell = std::ldexp(1.0, lr_), rows_per_bucket = static_cast<double>(d.rows_per_bucket());
    const double sx = v.width / (v.t1 - v.t0), sy = v.height / (v.r1 - v.r0);
    const double first = static_cast<double>(d.first_step()), first_row = static_cast<double>(d.first_row());
    // Steps past the end of the data (a last partial cell) are clipped to the data.
    const double t_end = first + static_cast<double>(d.steps());
    const auto id = reinterpret_cast<ImTextureID>(static_cast<std::intptr_t>(texture_.getNativeHandle()));
    for (std::uint64_t cs = valid_.c0; cs < valid_.c1;) {
        const std::uint64_t ce = std::min(valid_.c1, (cs / tw_ + 1) * tw_);
        const double ta = first + cs * steps_per_cell, tb = std::min(t_end, first + ce * steps_per_cell);
        const float u0 = static_cast<float>(cs % tw_) / tw_;
        const float u1 = u0 + static_cast<float>((tb - ta) / steps_per_cell) / tw_;
        for (std::uint64_t rs = valid_.r0; rs < valid_.r1;) {
            const std::uint64_t re = std::min(valid_.r1, (rs / th_ + 1) * th_);
            // Base rows map to lines evenly within an array, each array's from its first line: one
            // quad per array, each to its own lines (the last base row of an array may hold fewer).
            const std::uint64_t bs = rs << lr_, be = re << lr_;
            for (const RowBuckets::Segment& seg : d.row_buckets().segments()) {
                const std::uint64_t b_lo = std::max(bs, seg.first_bucket), b_hi = std::min(be, seg.first_bucket + seg.buckets);
                if (b_lo >= b_hi) continue;
                const double seg_row = first_row + static_cast<double>(seg.first_row);
                const double ra = seg_row + static_cast<double>(b_lo - seg.first_bucket) * rows_per_bucket;
                const double rb = seg_row + std::min(static_cast<double>(seg.rows),
                                                     static_cast<double>(b_hi - seg.first_bucket) * rows_per_bucket);
                // The texture's rows (in cells of this level) at those lines.
                const auto cell_at = [&](double row) {
                    return (static_cast<double>(seg.first_bucket) + (row - seg_row) / rows_per_bucket) / buckets_per_cell;
                };
                const float v0 = static_cast<float>(static_cast<double>(rs % th_) + cell_at(ra) - static_cast<double>(rs)) / th_;
                const float v1 = static_cast<float>(static_cast<double>(rs % th_) + cell_at(rb) - static_cast<double>(rs)) / th_;
                list->AddImage(id, ImVec2(x + static_cast<float>((ta - v.t0) * sx), y + static_cast<float>((ra - v.r0) * sy)),
                               ImVec2(x + static_cast<float>((tb - v.t0) * sx), y + static_cast<float>((rb - v.r0) * sy)),
                               ImVec2(u0, v0), ImVec2(u1, v1));
            }
            rs = re;
        }
        cs = ce;
    }
}

}  // namespace cachesim::viz::gui
