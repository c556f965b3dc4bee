#pragma once
// Measured GPU runs, as gpubench writes them (one row per launch: the configuration, the time and
// one column per Nsight Compute metric) or as `ncu --csv --page raw` prints them (the
// configuration then comes from the command line, one launch per row in order).
#include <algorithm>
#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "traces/input_error.hpp"
#include "traces/loop_counters.hpp"
#include "traces/workload_spec.hpp"

namespace cachesim {

// A metric's lowest and highest value over repeated launches (gpubench's `<metric>:min` and
// `<metric>:max` columns): the hardware's own run-to-run variation.
struct MeasuredRange {
    double min = 0, max = 0;
    // How far `value` lies outside [min, max]; 0 inside.
    double distance(double value) const { return value < min ? min - value : value > max ? value - max : 0.0; }
};

// The Nsight Compute metrics compared against the GPU model.
struct MeasuredMetrics {
    double l1_requests = 0;      // l1tex__t_requests_pipe_lsu_mem_global_op_ld.sum
    double l1_sectors = 0;       // l1tex__t_sectors_pipe_lsu_mem_global_op_ld.sum
    double l1_sector_hits = 0;   // l1tex__t_sectors_pipe_lsu_mem_global_op_ld_lookup_hit.sum
    double l1_hit_rate_pct = 0;  // l1tex__t_sector_pipe_lsu_mem_global_op_ld_hit_rate.pct
    double l2_sectors = 0;       // lts__t_sectors_srcunit_tex_op_read.sum
    double l2_sector_hits = 0;   // lts__t_sectors_srcunit_tex_op_read_lookup_hit.sum
    double dram_bytes_read = 0;  // dram__bytes_read.sum
    // lts__t_sector_op_read_hit_rate.pct when the file has it: a ratio Nsight Compute measures in
    // one pass. The L2 lookup and hit counts cannot be collected in the same pass on Hopper, so
    // their ratio mixes two launches.
    std::optional<double> l2_read_hit_rate_pct;
    // Run-to-run ranges of the L1 hit rate and of the L2 rate above, when the file has them
    // (the L2 range capped at 100 like the rate).
    std::optional<MeasuredRange> l1_hit_rate_range, l2_hit_rate_range;
    // The highest single-pass L2 rate the row reports, its median or its range's top, before the
    // capping (0 without that rate): above 100 a pass counted more hits than lookups, which is
    // no hit rate, and compare says so.
    double l2_read_hit_rate_top_pct = 0;
    // The single-pass rate when present, else hits / lookups capped at 100.
    double l2_hit_rate_pct() const {
        if (l2_read_hit_rate_pct) return std::min(100.0, *l2_read_hit_rate_pct);
        return l2_sectors > 0 ? std::min(100.0, 100.0 * l2_sector_hits / l2_sectors) : 0.0;
    }
};

// Column names, in the order above.
const std::vector<std::string>& measured_metric_names();

struct MeasuredRun {
    std::size_t line = 0;  // line in the source file, for messages
    std::string source;    // the file, for messages and reports
    // The measurement set the row belongs to (e.g. training, heldout): the file's `set` column when
    // it has one, else empty (the caller names it, e.g. from the file name).
    std::string set;
    // How the kernel was compiled, gpubench's `variant` column (index64, index32, unroll1); empty
    // when the file has no such column.
    std::string variant;
    // gpubench's l2_start column: "warm" for launches that started with their arrays in the L2
    // (--warm-l2), else empty (a cold L2, as the GPU model starts every launch).
    std::string l2_start;
    WorkloadSpec workload;  // a recorded kernel's row: only width, height and depth are its own
    std::uint32_t block = 0;
    std::string gpu;
    std::optional<double> time_ms;
    MeasuredMetrics metrics;
    // A recorded kernel's row (a non-empty `trace` cell, as gpubench --examples writes): the cst
    // trace of the same launch, its path resolved against the CSV's folder, which the GPU model
    // replays instead of a built-in workload; the kernel, block order (`schedule`) and example
    // spec as the row names them; the compiled kernel's shared memory per block and registers per
    // thread when the row has them. An Nsight Compute launch's `kernel` is its Kernel Name.
    std::string trace, kernel, order, example;
    // Shared memory per block: a recorded row's shared_bytes, or a built-in row's smem_per_block
    // (gpubench --smem-per-block); the L1 is what the carve-out for it leaves.
    std::optional<std::uint32_t> shared_bytes, registers;
    // What limits the launch's compiled loop, when the row has its counters (smsp__inst_executed.sum
    // and sm__pipe_<name>_cycles_active.sum columns, filled): loop_counters.hpp.
    std::optional<LoopCounters> loop;
    // An Nsight Compute launch's grid, from its "Grid Size" column: the blocks it ran (0 where the
    // page has no such column), and whether grid and block were both one-dimensional, (n, 1, 1).
    std::uint64_t grid_blocks = 0;
    bool one_dimensional_launch = false;
    bool recorded() const { return !trace.empty(); }
};

// The row's kernel and schedule (block order) names, for recorded and built-in rows alike.
std::string measured_kernel_name(const MeasuredRun& run);
std::string measured_schedule_name(const MeasuredRun& run);

// A row whose counters contradict each other: more hits than lookups beyond what separate
// profiling passes explain (110%), or an L1 (or L2) hit-rate column more than rounding away from
// the rate its own hit and lookup counts give (10 points where the two may come from different
// launches: a rate with a run-to-run range, or the L2's all-source counts). The message names the
// counters and their values.
class InconsistentCountersError : public InputError {
public:
    using InputError::InputError;
};

// A row left out instead of refusing the file (see parse_measured_csv's `invalid`).
struct InvalidMeasuredRow {
    std::string source;
    std::size_t line = 0;
    std::size_t row = 0;  // 1-based: the data row of a measured CSV, the launch of an ncu page
    std::string reason;
};

// gpubench's CSV. Required columns: kernel, width, height, stencil_w, stencil_h, depth, schedule,
// block, and the seven metrics; optional: elem_bytes (4), gpu, time_ms, set, variant, l2_start,
// smem_per_block, the loop's counters (smsp__inst_executed.sum with one or more
// sm__pipe_<name>_cycles_active.sum; a row may leave them empty), and for recorded kernels trace,
// example, shared_bytes, registers (a row with a trace may name any kernel).
// Numbers may have thousands separators (1,234,567) but no decimal comma; request, sector and byte
// counts must be whole. Throws InputError naming the line and column of anything missing, unknown,
// non-numeric or a fractional count. A row with inconsistent counters
// throws InconsistentCountersError, or, when `invalid` is given, is left out and listed there.
std::vector<MeasuredRun> parse_measured_csv(std::string_view text, const std::string& source,
                                            std::vector<InvalidMeasuredRow>* invalid = nullptr);

// ncu's raw page. Each launch row (rows with an ID) takes the workload `base` with the next of
// `schedules` (one per launch, or one for all); the block size comes from ncu's "Block Size"
// column, the grid from "Grid Size" where the page has it (for ncu_launch_size_mismatch), the GPU from "device__attribute_display_name" (or a "Device Name" column). Units other
// than plain bytes, sectors, requests and % are rejected: collect with `--print-units base`.
std::vector<MeasuredRun> parse_ncu_raw_csv(std::string_view text, const std::string& source,
                                           const WorkloadSpec& base,
                                           const std::vector<Schedule>& schedules,
                                           std::vector<InvalidMeasuredRow>* invalid = nullptr);

// Where an Nsight Compute launch (`run`, its grid read from the page) cannot have computed
// `run.workload`, one thread per work item: what it ran against what the workload takes. A launch
// of a one-dimensional grid of one-dimensional blocks, as gpubench's, runs exactly
// ceil(work items / block) blocks; any other launch at least as many threads as work items.
// Empty where it may have, or where the page gave no grid.
std::string ncu_launch_size_mismatch(const MeasuredRun& run);

// True when the text looks like ncu's raw CSV rather than gpubench's.
bool looks_like_ncu_csv(std::string_view text);

}  // namespace cachesim
