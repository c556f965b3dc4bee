#include "viz/diagram_recorder.hpp"

#include <algorithm>
#include <limits>
#include <utility>

#include "traces/schedule.hpp"
#include "viz/grid_shape.hpp"

namespace cachesim::viz {

DiagramRecorder::DiagramRecorder(const std::vector<ArrayInfo>& arrays, const HierarchyConfig& hierarchy,
                                 const RecorderOptions& options, std::optional<WorkloadSpec> workload)
    : workload_(std::move(workload)), options_(options) {
    if (options_.gpu_events) options_.shared_level_indices = true;
    const CacheConfig* enabled[2] = {nullptr, nullptr};
    int count = 0;
    if (hierarchy.l1.enabled()) enabled[count++] = &hierarchy.l1;
    if (hierarchy.l2.enabled()) enabled[count++] = &hierarchy.l2;
    const std::uint32_t row_line = count > 0 ? enabled[0]->line_bytes : std::max<std::uint32_t>(hierarchy.l1.line_bytes, 1);
    rows_ = RowLayout(arrays, row_line);
    top_is_l1_ = hierarchy.l1.enabled() || !hierarchy.l2.enabled();
    has_l2_below_top_ = count == 2;

    options_.first_row = std::min(options_.first_row, rows_.rows());
    window_rows_ = rows_.rows() - options_.first_row;
    if (options_.window_rows > 0) window_rows_ = std::min(window_rows_, options_.window_rows);
    std::uint64_t window = options_.window_steps;
    if (window == 0 && options_.expected_steps > options_.first_step)
        window = options_.expected_steps - options_.first_step;
    GridShape shape = grid_shape(rows_, options_.first_row, window_rows_, 1, options_.max_rows, options_.max_cells, window);
    row_buckets_ = std::move(shape.rows);
    buckets_ = row_buckets_.buckets();
    max_columns_ = shape.max_columns;
    steps_per_column_ = shape.steps_per_column;

    for (int i = 0; i < count; ++i) {
        LevelTrack t;
        t.physical = enabled[i] == &hierarchy.l1 ? kL1 : kL2;
        t.lines = RowLayout(arrays, enabled[i]->line_bytes);
        t.copies.assign(t.lines.rows(), 0);
        t.row_count.assign(rows_.rows(), 0);
        t.bucket_count.assign(buckets_, 0);
        t.write_allocate = enabled[i]->write_policy == WritePolicy::write_back_allocate;
        levels_.push_back(std::move(t));
    }
    enumerate_stores_ = workload_.has_value() && (levels_.empty() || !levels_[0].write_allocate);

    const std::uint64_t count_cells = options_.max_count_cells ? options_.max_count_cells : options_.max_cells / 8;
    counts_ = MissCounts(rows_, options_.first_row, window_rows_, row_buckets_.rows_per_bucket(), options_.max_count_rows,
                         count_cells, window);
    for (int i = 0; i < count; ++i) rates_.emplace_back(enabled[i]->name, options_.max_rate_buckets, window);
    step_lookups_.assign(count, 0);
    step_misses_.assign(count, 0);
    if (options_.record_sm && options_.issue_log) {
        sms_ = TagGrid(buckets_);
        sm_column_.assign(buckets_, 0);
        row_request_.assign(rows_.rows(), 0);
    }
    if (options_.record_hit_sources) {
        hit_sources_ = TagGrid(buckets_);
        step_sources_.assign(buckets_, SourceCounts{});
        column_sources_.assign(buckets_, SourceCounts{});
        source_column_.assign(buckets_, 0);
    }
    row_flags_.assign(rows_.rows(), 0);
    bucket_dirty_.assign(buckets_, 0);
    column_.assign(buckets_, 0);
    base_ = CellGrid(0, buckets_);
    if (window > 0) base_.reserve_columns(std::min(max_columns_, ceil_div(window, steps_per_column_)));
}

template <class F>
void DiagramRecorder::for_rows_of(const LevelTrack& t, std::uint64_t line, F&& f) const {
    const std::uint64_t lb = t.lines.line_bytes(), rb = rows_.line_bytes();
    if (lb == rb) {
        const std::uint64_t row = rows_.row_of_line(line);
        if (row != kNoRow) f(row);
        return;
    }
    const std::uint64_t first = line * lb / rb, last = ((line + 1) * lb - 1) / rb;
    for (std::uint64_t l = first; l <= last; ++l) {
        const std::uint64_t row = rows_.row_of_line(l);
        if (row != kNoRow) f(row);
    }
}

bool DiagramRecorder::in_window(std::uint64_t step) const {
    if (step < options_.first_step) return false;
    return options_.window_steps == 0 || step - options_.first_step < options_.window_steps;
}

void DiagramRecorder::mark_rows(int level, std::uint64_t line, std::uint8_t flag) {
    for_rows_of(levels_[level], line, [&](std::uint64_t row) {
        if (row_flags_[row] == 0) touched_rows_.push_back(row);
        row_flags_[row] |= flag;
    });
}

void DiagramRecorder::on_lookup(int level, std::uint64_t line, bool hit, bool is_write, std::uint16_t) {
    if (level < 0 || level >= static_cast<int>(levels_.size())) return;
    if (!is_write) {
        ++step_lookups_[level];
        step_misses_[level] += !hit;
    }
    if (level == 0) {
        if (!row_request_.empty()) {
            const auto request = static_cast<std::uint32_t>(options_.issue_log->size());
            for_rows_of(levels_[0], line, [&](std::uint64_t row) {
                if (row_flags_[row] == 0) touched_rows_.push_back(row);
                row_flags_[row] |= kSmKnown;
                row_request_[row] = request;
            });
        }
        if (hit) mark_rows(0, line, kAccessed);
        else if (options_.gpu_events) mark_rows(0, line, has_l2_below_top_ ? kFetchPending : kFetchedMemory);
        else pending_from_memory_ = !has_l2_below_top_;
        return;
    }
    // The level below the top one.
    if (is_write) {
        // A forwarded store (the top level does not allocate on stores) is a thread's access; a
        // write-back from a write-allocate top level is not.
        if (!levels_[0].write_allocate && !enumerate_stores_) mark_rows(level, line, kStored);
        return;
    }
    if (!hit) {
        pending_from_memory_ = true;
        // GPU model: the L1 misses of this step whose lines this L2 miss covers came from memory.
        if (options_.gpu_events)
            for_rows_of(levels_[level], line, [&](std::uint64_t row) {
                if (row_flags_[row] & kFetchPending) row_flags_[row] |= kFetchedMemory;
            });
    }
}

void DiagramRecorder::on_l1_hit_source(std::uint64_t line, HitSource source) {
    if (step_sources_.empty() || levels_.empty()) return;
    for_rows_of(levels_[0], line, [&](std::uint64_t row) {
        const std::uint64_t b = bucket_of(row);
        if (b == kNoRow) return;
        SourceCounts& n = step_sources_[b];
        if (n[0] == 0 && n[1] == 0 && n[2] == 0) source_buckets_.push_back(b);
        ++n[static_cast<std::size_t>(source) - 1];
    });
}

void DiagramRecorder::change_residency(int level, std::uint64_t line, bool fill) {
    LevelTrack& t = levels_[level];
    const std::uint64_t slot = t.lines.row_of_line(line);
    if (slot == kNoRow) return;
    std::uint16_t& copies = t.copies[slot];
    if (fill) {
        const bool was_absent = copies == 0;
        if (options_.shared_level_indices) {
            if (copies < std::numeric_limits<std::uint16_t>::max()) ++copies;
        } else {
            copies = 1;
        }
        if (!was_absent) return;
    } else {
        if (copies == 0) return;
        copies = options_.shared_level_indices ? static_cast<std::uint16_t>(copies - 1) : 0;
        if (copies != 0) return;
    }
    for_rows_of(t, line, [&](std::uint64_t row) {
        const std::uint64_t b = bucket_of(row);
        bool row_changed = false;
        if (fill) {
            row_changed = t.row_count[row]++ == 0;
        } else if (t.row_count[row] > 0) {
            row_changed = --t.row_count[row] == 0;
        }
        if (!row_changed || b == kNoRow) return;
        const bool bucket_changed = fill ? t.bucket_count[b]++ == 0 : --t.bucket_count[b] == 0;
        if (bucket_changed && !bucket_dirty_[b]) {
            bucket_dirty_[b] = 1;
            dirty_buckets_.push_back(b);
        }
    });
}

void DiagramRecorder::on_fill(int level, std::uint64_t line) {
    if (level < 0 || level >= static_cast<int>(levels_.size())) return;
    change_residency(level, line, true);
    if (level == 0 && !options_.gpu_events) {
        const bool from_memory = !has_l2_below_top_ || pending_from_memory_;
        mark_rows(0, line, from_memory ? kFetchedMemory : kFetchedL2);
        pending_from_memory_ = false;
    }
}

void DiagramRecorder::on_evict(int level, std::uint64_t line) {
    if (level < 0 || level >= static_cast<int>(levels_.size())) return;
    change_residency(level, line, false);
}

CellState DiagramRecorder::residency_of_bucket(std::uint64_t bucket) const {
    CellState s = CellState::not_cached;
    for (const LevelTrack& t : levels_)
        if (t.bucket_count[bucket] > 0) s = combine(s, t.physical == kL1 ? CellState::in_l1 : CellState::in_l2);
    return s;
}

CellState DiagramRecorder::residency_of_row(std::uint64_t row) const {
    CellState s = CellState::not_cached;
    for (const LevelTrack& t : levels_)
        if (t.row_count[row] > 0) s = combine(s, t.physical == kL1 ? CellState::in_l1 : CellState::in_l2);
    return s;
}

namespace {

CellState classify(std::uint8_t flags) {
    if (flags & 2) return CellState::fetched_from_memory;
    if (flags & (4 | 8)) return CellState::fetched_from_l2;  // 8: a GPU fetch no L2 miss covered
    if (flags & 1) return CellState::accessed;
    if (flags & 32) return CellState::stored;  // a store that went past a write-through L1
    return CellState::not_cached;
}

}  // namespace

void DiagramRecorder::mark_workload_stores(std::uint64_t step) {
    const WorkloadSpec& spec = *workload_;
    if (step >= spec.items()) return;
    const std::uint64_t item = schedule_map(spec.schedule, step, spec.width, spec.height);
    const std::uint32_t n = spec.accesses_per_item();
    const StencilWorkload stencil = spec.stencil();
    const MatmulWorkload matmul = spec.matmul();
    for (std::uint32_t k = 0; k < n; ++k) {
        const Access a = spec.kind == WorkloadKind::stencil ? stencil.access(item, k) : matmul.access(item, k);
        if (a.is_write) mark_store(a.address, a.size);
    }
}

void DiagramRecorder::mark_listed_stores(std::uint64_t step) {
    StepStores& s = *listed_stores_;
    for (; s.next < s.stores.size() && s.stores[s.next].step <= step; ++s.next)
        if (s.stores[s.next].step == step) mark_store(s.stores[s.next].address, s.stores[s.next].size);
}

void DiagramRecorder::mark_store(std::uint64_t address, std::uint32_t size) {
    const std::uint64_t rb = rows_.line_bytes();
    for (std::uint64_t l = address / rb; l <= (address + std::max<std::uint32_t>(size, 1) - 1) / rb; ++l) {
        const std::uint64_t row = rows_.row_of_line(l);
        if (row == kNoRow) continue;
        if (row_flags_[row] == 0) touched_rows_.push_back(row);
        row_flags_[row] |= kStored;
    }
}

void DiagramRecorder::take_stores_from(StepStores* stores) {
    listed_stores_ = stores;
    enumerate_stores_ = stores && !workload_ && (levels_.empty() || !levels_[0].write_allocate);
}

void DiagramRecorder::on_step_end(std::uint64_t step) {
    pending_from_memory_ = false;
    if (in_window(step)) {
        if (enumerate_stores_) {
            if (workload_) mark_workload_stores(step);
            else mark_listed_stores(step);
        }
        std::uint64_t col = (step - options_.first_step) / steps_per_column_;
        if (column_index_ && *column_index_ != col) {
            flush_column();  // may merge columns (steps_per_column_ grows): recompute
            col = (step - options_.first_step) / steps_per_column_;
        }
        if (!column_index_) {
            column_index_ = col;
            std::fill(column_.begin(), column_.end(), 0);
            std::fill(sm_column_.begin(), sm_column_.end(), 0);
            column_needs_residency_ = true;
        }
        const std::uint64_t rel = step - options_.first_step;
        counts_.end_step(rel);
        for (std::size_t i = 0; i < rates_.size(); ++i) rates_[i].add(rel, step_lookups_[i], step_misses_[i]);
        for (std::uint64_t row : touched_rows_) {
            const std::uint64_t b = bucket_of(row);
            if (b == kNoRow) continue;
            const CellState s = classify(row_flags_[row]);
            column_[b] = combine_codes(column_[b], encode(s));
            if (s == CellState::fetched_from_memory || s == CellState::fetched_from_l2)
                counts_.add(rel, row - options_.first_row);
            if ((row_flags_[row] & kSmKnown) && row_request_[row] < options_.issue_log->size())
                sm_column_[b] = sm_tag((*options_.issue_log)[row_request_[row]].sm);
        }
        for (std::uint64_t b : source_buckets_)
            for (std::size_t k = 0; k < 3; ++k) column_sources_[b][k] += step_sources_[b][k];
        if (column_needs_residency_) {
            for (std::uint64_t b = 0; b < buckets_; ++b)
                column_[b] = combine_codes(column_[b], encode(residency_of_bucket(b)));
            column_needs_residency_ = false;
        } else {
            for (std::uint64_t b : dirty_buckets_)
                column_[b] = combine_codes(column_[b], encode(residency_of_bucket(b)));
        }
        if (options_.snapshot_step && *options_.snapshot_step == step) {
            LineSnapshot snap;
            snap.step = step;
            snap.state.resize(rows_.rows());
            snap.residency.resize(rows_.rows());
            for (std::uint64_t r = 0; r < rows_.rows(); ++r) {
                snap.residency[r] = residency_of_row(r);
                snap.state[r] = combine(snap.residency[r], classify(row_flags_[r]));
            }
            if (listed_stores_ && listed_stores_->snapshot_step == step) {
                snap.accesses = listed_stores_->snapshot_accesses;
                std::sort(snap.accesses->begin(), snap.accesses->end());
            }
            snapshot_ = std::move(snap);
        }
        last_step_ = step;
        any_step_ = true;
        if (options_.window_steps > 0 && step + 1 - options_.first_step == options_.window_steps) {
            window_recorded_ = true;
            if (options_.stop_when_recorded) options_.stop_when_recorded->store(true);
        }
    }
    for (std::uint64_t row : touched_rows_) row_flags_[row] = 0;
    touched_rows_.clear();
    std::fill(step_lookups_.begin(), step_lookups_.end(), 0);
    std::fill(step_misses_.begin(), step_misses_.end(), 0);
    if (options_.issue_log) options_.issue_log->clear();
    for (std::uint64_t b : source_buckets_) step_sources_[b] = SourceCounts{};
    source_buckets_.clear();
    for (std::uint64_t b : dirty_buckets_) bucket_dirty_[b] = 0;
    dirty_buckets_.clear();
}

void DiagramRecorder::store_column(std::uint64_t column, const std::vector<std::uint8_t>& states) {
    while (column >= max_columns_) {
        base_.halve_columns();
        if (!sm_column_.empty()) sms_.halve_columns();
        if (!column_sources_.empty()) hit_sources_.halve_columns();
        steps_per_column_ *= 2;
        column /= 2;
    }
    if (!sm_column_.empty()) sms_.store(column, sm_column_);
    if (!column_sources_.empty()) {
        for (std::uint64_t b = 0; b < buckets_; ++b) {
            const SourceCounts& n = column_sources_[b];
            // The most hits; a tie goes to the farther source (the later one in HitSource).
            std::size_t best = 2;
            for (std::size_t k : {std::size_t{1}, std::size_t{0}})
                if (n[k] > n[best]) best = k;
            source_column_[b] = n[best] ? static_cast<std::uint8_t>(best + 1) : 0;
        }
        hit_sources_.store(column, source_column_);
        std::fill(column_sources_.begin(), column_sources_.end(), SourceCounts{});
    }
    if (column < base_.columns()) {
        for (std::uint64_t b = 0; b < buckets_; ++b) base_.merge(column, b, states[b]);
        return;
    }
    const std::vector<std::uint8_t> empty(buckets_, 0);
    while (base_.columns() < column) base_.append_column(empty);
    base_.append_column(states);
}

void DiagramRecorder::flush_column() {
    if (!column_index_) return;
    store_column(*column_index_, column_);
    column_index_.reset();
}

Diagram DiagramRecorder::finish() {
    flush_column();
    const std::uint64_t steps = any_step_ ? last_step_ + 1 - options_.first_step : 0;
    Diagram d(rows_, std::move(base_), options_.first_step, steps, steps_per_column_, row_buckets_, options_.first_row);
    base_ = CellGrid(0, buckets_);
    d.set_miss_counts(std::move(counts_));
    d.set_miss_rates(std::move(rates_));
    d.set_sms(std::move(sms_));
    d.set_hit_sources(std::move(hit_sources_));
    return d;
}

}  // namespace cachesim::viz
