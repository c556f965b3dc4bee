#pragma once
// Records a spatial-temporal diagram while a simulation runs: a SimObserver. Attaching none
// costs the simulator nothing beyond its one predictable branch per event.
//
// Semantics (thread model): a time step is one work item (on_step_end). Rows are cache lines of
// the row line size (L1's line size, or L2's when L1 is off) in address order, grouped by array.
// Level indices in callbacks are positions among the enabled levels. A fill into L1 came from L2
// when the L2 lookups that the L1 miss caused (they arrive between the L1 lookup and the L1 fill)
// all hit, from memory otherwise; with no L2 it came from memory.
// Stores at a write-through, no-write-allocate L1 cause no L1 lookup; when the workload is known,
// or a trace's stores are handed over as it is read (StepStores), the recorder marks the stored
// line as accessed at its step, otherwise the L2 lookup of the forwarded store marks it.
#include <array>
#include <atomic>
#include <cstdint>
#include <optional>
#include <vector>

#include "sim/gpu/gpu_config.hpp"
#include "sim/observer.hpp"
#include "sim/thread_model.hpp"
#include "traces/workload_spec.hpp"
#include "viz/diagram.hpp"

namespace cachesim::viz {

struct RecorderOptions {
    std::uint64_t max_cells = std::uint64_t{1} << 25;  // base grid cap (see diagram.hpp)
    std::uint64_t max_rows = std::uint64_t{1} << 13;   // base rows before lines share a row
    std::uint64_t expected_steps = 0;  // 0: unknown (columns are merged as the run grows)
    // Record only steps in [first_step, first_step + window_steps) (0 = to the end); residency is
    // tracked throughout. Used to zoom into a window at full resolution, and for snapshots.
    std::uint64_t first_step = 0;
    std::uint64_t window_steps = 0;
    // Record only lines (rows) in [first_row, first_row + window_rows) (0 = to the last); residency
    // is tracked for every line. With a small window both ways, cacheviz's deep zoom.
    std::uint64_t first_row = 0;
    std::uint64_t window_rows = 0;
    // When set (and window_steps > 0), raised once the window's last step has ended: pass the
    // same flag as RunControl::cancel and the run stops there (record.hpp's functions then return
    // the diagram; the steps after the window cannot change it). Also the caller's cancel flag.
    std::atomic<bool>* stop_when_recorded = nullptr;
    // When set, also keep the exact state of every line at the end of this step (array view).
    std::optional<std::uint64_t> snapshot_step;
    // Several caches report as level 0 (the GPU model's per-SM L1s): count copies instead of
    // treating a level as one cache.
    bool shared_level_indices = false;
    // Events come from the GPU model: every SM's L1 is level 0 (implies shared_level_indices); an
    // L1 sector miss (even into a line already present) is a fetch, and its source is known only
    // from the L2 lookups replayed later in the same step (round).
    bool gpu_events = false;
    // GPU model: also record which SM accessed each base cell (Diagram::sms(), one byte per cell),
    // from `issue_log` (GpuConfig::issue_log of the same run, which the recorder empties at every
    // step's end: an L1 lookup belongs to the request the log receives next).
    bool record_sm = false;
    std::vector<GpuIssue>* issue_log = nullptr;
    // GPU model: also record who brought the sectors each base cell's L1 hits found
    // (Diagram::hit_sources(), one byte per cell: the HitSource most of them had; ties go to the
    // farther source, since then at least half the hits depend on it). Needs the model to count
    // the sources (GpuConfig::count_l1_hit_sources), which record_gpu_model and
    // record_gpu_trace ask for.
    bool record_hit_sources = false;
    // Miss counts (Diagram::miss_counts): at most this many blocks of 32-bit counts (0: max_cells
    // / 8, the base grid's bytes) and at most `max_count_rows` blocks of lines.
    std::uint64_t max_count_cells = 0;
    std::uint64_t max_count_rows = 2048;
    // Miss-rate series (Diagram::miss_rates): blocks of steps per level.
    std::uint64_t max_rate_buckets = std::uint64_t{1} << 14;
};

// Per line at one step: the cell state and where the line lives after the step.
struct LineSnapshot {
    std::uint64_t step = 0;
    std::vector<CellState> state;      // per row, as a cell of an exact diagram
    std::vector<CellState> residency;  // per row: in_l1, in_l2 or not_cached after the step
    // A trace's step on the thread model: the accesses it made (address, bytes), sorted, so that
    // the array view marks the elements it touched, not whole lines.
    std::optional<std::vector<std::pair<std::uint64_t, std::uint32_t>>> accesses;
};

// A trace's stores of the steps being replayed, in step order; whoever reads the trace fills
// `stores` (and rewinds `next`) with each batch it reads, before the batch's steps run.
struct StepStores {
    struct Store {
        std::uint64_t step, address;
        std::uint32_t size;
    };
    std::vector<Store> stores;
    std::size_t next = 0;  // the first store whose step has not ended
    // The snapshot's step (RecorderOptions::snapshot_step) and, once read, every access it made.
    std::optional<std::uint64_t> snapshot_step;
    std::vector<std::pair<std::uint64_t, std::uint32_t>> snapshot_accesses;
};

class DiagramRecorder final : public SimObserver {
public:
    // `workload` (optional) lets stores at a write-through L1 show as accesses.
    DiagramRecorder(const std::vector<ArrayInfo>& arrays, const HierarchyConfig& hierarchy,
                    const RecorderOptions& options = {},
                    std::optional<WorkloadSpec> workload = std::nullopt);

    void on_lookup(int level, std::uint64_t line, bool hit, bool is_write, std::uint16_t array) override;
    void on_l1_hit_source(std::uint64_t line, HitSource source) override;
    void on_fill(int level, std::uint64_t line) override;
    void on_evict(int level, std::uint64_t line) override;
    void on_step_end(std::uint64_t step) override;

    // Without a workload: the stores to mark at a write-through L1 (the recorder reads them at
    // each step's end; they must outlive the run).
    void take_stores_from(StepStores* stores);

    // Ends the recording and builds the pyramid. Call once, after the run.
    Diagram finish();
    const std::optional<LineSnapshot>& snapshot() const { return snapshot_; }
    const RowLayout& layout() const { return rows_; }
    std::uint64_t steps_per_column() const { return steps_per_column_; }
    std::uint64_t rows_per_bucket() const { return row_buckets_.rows_per_bucket(); }
    // The window's last step has ended (always false without window_steps).
    bool window_recorded() const { return window_recorded_; }

private:
    enum Flag : std::uint8_t { kAccessed = 1, kFetchedMemory = 2, kFetchedL2 = 4, kFetchPending = 8, kSmKnown = 16, kStored = 32 };
    enum Physical { kL1 = 0, kL2 = 1 };

    struct LevelTrack {
        int physical = kL1;
        RowLayout lines;                    // this level's lines over the arrays
        std::vector<std::uint16_t> copies;  // per line slot
        std::vector<std::uint16_t> row_count;  // per row: resident lines overlapping it
        std::vector<std::uint32_t> bucket_count;  // per row bucket: rows with row_count > 0
        bool write_allocate = true;
    };

    void mark_rows(int level, std::uint64_t line, std::uint8_t flag);
    void change_residency(int level, std::uint64_t line, bool fill);
    template <class F> void for_rows_of(const LevelTrack& t, std::uint64_t line, F&& f) const;
    CellState residency_of_bucket(std::uint64_t bucket) const;
    CellState residency_of_row(std::uint64_t row) const;
    void flush_column();
    void store_column(std::uint64_t column, const std::vector<std::uint8_t>& states);
    void mark_workload_stores(std::uint64_t step);
    void mark_listed_stores(std::uint64_t step);
    void mark_store(std::uint64_t address, std::uint32_t size);
    bool in_window(std::uint64_t step) const;
    // Base row bucket of a row, kNoRow outside the window of lines.
    std::uint64_t bucket_of(std::uint64_t row) const {
        return row >= options_.first_row ? row_buckets_.bucket_of(row - options_.first_row) : kNoRow;
    }

    RowLayout rows_;
    std::vector<LevelTrack> levels_;  // by enabled-level index
    bool top_is_l1_ = true;
    bool has_l2_below_top_ = false;
    std::optional<WorkloadSpec> workload_;
    bool enumerate_stores_ = false;
    StepStores* listed_stores_ = nullptr;
    RecorderOptions options_;

    std::uint64_t steps_per_column_ = 1;
    RowBuckets row_buckets_;  // the base rows of the window's lines
    std::uint64_t buckets_ = 0, max_columns_ = 0;
    std::uint64_t window_rows_ = 0;  // rows recorded, from options_.first_row
    bool window_recorded_ = false;

    // Current step.
    std::vector<std::uint8_t> row_flags_;
    std::vector<std::uint64_t> touched_rows_;
    std::vector<std::uint8_t> bucket_dirty_;
    std::vector<std::uint64_t> dirty_buckets_;
    bool pending_from_memory_ = false;

    // Current column.
    std::vector<std::uint8_t> column_;
    std::optional<std::uint64_t> column_index_;
    bool column_needs_residency_ = true;

    CellGrid base_;
    MissCounts counts_;
    std::vector<MissRateSeries> rates_;                 // by enabled-level index
    std::vector<std::uint64_t> step_lookups_, step_misses_;  // current step, by level
    TagGrid sms_;
    std::vector<std::uint8_t> sm_column_;       // current column: SM code per bucket
    std::vector<std::uint32_t> row_request_;    // current step: issue-log index per row
    // Hit sources: L1 hits per source (own warp, own block, other block) per bucket in the
    // current step and in the current column, and the step's buckets that have any.
    using SourceCounts = std::array<std::uint32_t, 3>;
    TagGrid hit_sources_;
    std::vector<SourceCounts> step_sources_, column_sources_;
    std::vector<std::uint64_t> source_buckets_;
    std::vector<std::uint8_t> source_column_;  // the current column's tags, when it is stored
    std::uint64_t last_step_ = 0;
    bool any_step_ = false;
    std::optional<LineSnapshot> snapshot_;
};

}  // namespace cachesim::viz
