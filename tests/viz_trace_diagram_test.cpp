// Diagrams of a recorded kernel: the naive transpose of an 8 x 2 float matrix (examples/kernels.hpp,
// recorded on the host as examples/record_kernel_host does) drawn by the arrays the trace's header
// holds. Thread model: every cell derived by hand from the launch order and the cache. GPU model:
// every fetched cell where an observer of the model's own lookups logged an L1 miss. Also the
// array view of a step and the rows a long 1D array is folded into.
#include <gtest/gtest.h>
#include <unistd.h>

#include <filesystem>
#include <set>
#include <string>
#include <utility>
#include <vector>

#include "examples/kernels.hpp"
#include "sim/gpu/gpu_model.hpp"
#include "sim/gpu/gpu_presets.hpp"
#include "tests/miss_log.hpp"
#include "traces/recorder_host.hpp"
#include "traces/trace_format_reader.hpp"
#include "viz/array_view.hpp"
#include "viz/record.hpp"
#include "viz/render.hpp"

namespace cachesim::viz {
namespace {

// in: 8 x 2 floats at 0 (64 B); out: 2 x 8 floats at 4096 (the recorder places arrays at 4 KiB
// multiples). Blocks of 4 x 2 threads, a grid of 2 x 1.
std::string record_transpose_8x2() {
    const auto dir = std::filesystem::temp_directory_path() / ("cachesim-trace-diagram-" + std::to_string(::getpid()));
    std::filesystem::create_directories(dir);
    const std::string path = (dir / "transpose.cst").string();
    std::vector<float> in(16), out(16);
    RecordingWriter writer(path, {2, 1, 1}, {4, 2, 1}, {{"in", in.data(), 4, 8, 2}, {"out", out.data(), 4, 2, 8}});
    EXPECT_EQ(record_on_host(writer, examples::Transpose{in.data(), out.data(), 8, 2}), 32u);
    return path;
}

// The thesis's cache: one fully associative LRU L1 of 24 lines of 16 B (4 floats),
// write-through without write-allocate, no L2. Nothing is evicted here (8 lines in all).
HierarchyConfig thesis_l1() {
    HierarchyConfig h;
    h.l1.size_bytes = 384;
    h.l1.line_bytes = 16;
    return h;
}

RecordedRun record_thread(const std::string& path, RecorderOptions options = {}) {
    cst::TraceFileSource source(path);
    return record_thread_model(source, thesis_l1(), options, std::nullopt);
}

// Rows: in's lines 0..3 (row 0: in[0..3] = (0..3, 0); 1: (4..7, 0); 2: (0..3, 1); 3: (4..7, 1)),
// then out's lines 4..7 (out[x][y] at x * 2 + y: row 4 holds x 0..1, 5: x 2..3, 6: x 4..5, 7: x 6..7).
// Steps are threads in launch order: block 0 is x 0..3, its threads x fastest (y 0, then y 1);
// block 1 is x 4..7. Thread (x, y) loads in[y][x] and stores out[x][y].
TEST(VizTraceDiagram, ThreadModelCellsByHand) {
    const RecordedRun run = record_thread(record_transpose_8x2());
    const Diagram& d = run.diagram;
    ASSERT_EQ(d.rows(), 8u);
    ASSERT_EQ(d.steps(), 16u);
    ASSERT_TRUE(d.exact());
    std::vector<std::vector<CellState>> want(16, std::vector<CellState>(8, CellState::not_cached));
    std::set<std::uint64_t> in_l1;  // the lines of `in` loaded so far (stores do not allocate)
    for (std::uint64_t step = 0; step < 16; ++step) {
        const std::uint64_t block = step / 8, x = block * 4 + step % 4, y = step % 8 / 4;
        const std::uint64_t in_row = y * 2 + x / 4, out_row = 4 + x / 2;
        const bool miss = in_l1.insert(in_row).second;
        for (std::uint64_t row : in_l1) want[step][row] = CellState::in_l1;
        want[step][in_row] = miss ? CellState::fetched_from_memory : CellState::accessed;
        want[step][out_row] = CellState::stored;  // the store: forwarded to memory, never in L1
    }
    for (std::uint64_t step = 0; step < 16; ++step)
        for (std::uint64_t row = 0; row < 8; ++row)
            EXPECT_EQ(d.at_step(step, row), want[step][row]) << "step " << step << " row " << row;
    // 4 misses: steps 0, 4, 8 and 12, the first thread of each row of 4 of `in`; 12 hits.
    ASSERT_EQ(run.result.levels.size(), 1u);
    EXPECT_EQ(run.result.levels[0].read_misses, 4u);
    EXPECT_EQ(run.result.levels[0].read_hits, 12u);
}

// The array view at step 4 (thread (0, 1)): it loaded in[1][0], which fetched its line in[1][0..3],
// and stored out[0][1] (element 0 x 2 + 1: column 1 of out's row 0). The elements it touched show
// their lines' state at the step, the others where their lines live after it: in[1][1..3] and
// in[0][0..3] in L1, out's line in no cache (a write-through L1 without write-allocate), the rest
// in no cache.
TEST(VizTraceDiagram, ArrayViewOfAStep) {
    RecorderOptions o;
    o.snapshot_step = 4;
    const RecordedRun run = record_thread(record_transpose_8x2(), o);
    ASSERT_TRUE(run.snapshot);
    const ArrayView v = make_array_view(run.diagram.layout(), *run.snapshot, std::nullopt);
    ASSERT_EQ(v.arrays.size(), 2u);
    const ArrayGrid& in = v.arrays[0];
    const ArrayGrid& out = v.arrays[1];
    EXPECT_EQ(in.name, "in");
    EXPECT_EQ(in.width, 8u);
    EXPECT_EQ(in.height, 2u);
    EXPECT_FALSE(in.folded);
    EXPECT_EQ(out.width, 2u);
    EXPECT_EQ(out.height, 8u);
    for (std::uint32_t y = 0; y < 2; ++y)
        for (std::uint32_t x = 0; x < 8; ++x) {
            const CellState want = x >= 4                 ? CellState::not_cached
                                   : x == 0 && y == 1     ? CellState::fetched_from_memory
                                                          : CellState::in_l1;
            EXPECT_EQ(in.at(x, y), want) << "in " << x << "," << y;
        }
    for (std::uint32_t y = 0; y < 8; ++y)
        for (std::uint32_t x = 0; x < 2; ++x)
            EXPECT_EQ(out.at(x, y), x == 1 && y == 0 ? CellState::stored : CellState::not_cached) << "out " << x << "," << y;
}

// GPU model (H200, one SM so both blocks share an L1): a cell shows a fetch exactly where the
// model's own lookups, in a run without the recorder, missed in L1 at that round.
TEST(VizTraceDiagram, GpuModelFetchesAreTheLoggedMisses) {
    const std::string path = record_transpose_8x2();
    GpuConfig config = with_sms(find_gpu_preset("h200")->config, 1);
    config.block = 8;
    GpuResult plain;
    const test::MissLog log = test::log_misses([&](const RunControl& c) { plain = simulate_gpu_trace(path, config, c); });
    GpuResult recorded;
    const RecordedRun run = record_gpu_trace(path, config, {}, {}, &recorded);
    EXPECT_EQ(recorded.rounds, plain.rounds);
    const Diagram& d = run.diagram;
    ASSERT_TRUE(d.exact());
    ASSERT_EQ(d.steps(), plain.rounds);
    std::set<std::pair<std::uint64_t, std::uint64_t>> missed;  // (round, row)
    for (const auto& [step, line] : log.misses) missed.insert({step, d.layout().row_of_line(line)});
    ASSERT_FALSE(missed.empty());
    for (std::uint64_t step = 0; step < d.steps(); ++step)
        for (std::uint64_t row = 0; row < d.rows(); ++row) {
            const CellState s = d.at_step(step, row);
            const bool fetched = s == CellState::fetched_from_memory || s == CellState::fetched_from_l2;
            EXPECT_EQ(fetched, missed.count({step, row}) == 1) << "round " << step << " row " << row;
        }
    // Rows: the lines (128 B on the GPU's L1) of the trace's arrays: one of `in`, one of `out`.
    ASSERT_EQ(d.layout().groups().size(), 2u);
    EXPECT_EQ(d.layout().groups()[0].array.name, "in");
    EXPECT_EQ(d.layout().groups()[1].array.name, "out");
    EXPECT_EQ(d.rows(), 2u);
}

// A 1D array longer than a row: 1000 floats with 16 B lines (4 per line) are drawn in rows of 32,
// the power of two whose square first reaches 1000 (and a multiple of the 4 elements of a line):
// 32 rows, the last 8 elements long (the 24 cells after them are padding).
TEST(VizTraceDiagram, LongFlatArraysAreFolded) {
    EXPECT_EQ(folded_row_width(1000, 4), 32u);
    EXPECT_EQ(folded_row_width(65536, 4), 256u);
    EXPECT_EQ(folded_row_width(65, 128), 128u);  // at least a line (1-byte elements, 128 B lines)
    const RowLayout rows({{"flat", 0, 4, 1000, 1}}, 16);
    LineSnapshot snap;
    snap.state.assign(rows.rows(), CellState::in_l1);
    snap.residency.assign(rows.rows(), CellState::in_l1);
    const ArrayView v = make_array_view(rows, snap, std::nullopt);
    ASSERT_EQ(v.arrays.size(), 1u);
    const ArrayGrid& g = v.arrays[0];
    EXPECT_TRUE(g.folded);
    EXPECT_EQ(g.width, 32u);
    EXPECT_EQ(g.height, 32u);
    EXPECT_EQ(g.elements, 1000u);
    EXPECT_EQ(g.at(7, 31), CellState::in_l1);        // element 999
    EXPECT_EQ(g.at(8, 31), CellState::not_cached);   // padding
    // Drawn as 32 x 32 cells: element 999 (7, 31) in the L1 colour.
    const RenderedArrayView r = render_array_view(v, {});
    const PixelRect last = r.layout.cell(0, 7, 31);
    EXPECT_EQ(r.layout.arrays[0].w, 32 * r.layout.cell_size[0]);
    EXPECT_EQ(r.layout.arrays[0].h, 32 * r.layout.cell_size[0]);
    EXPECT_EQ(r.image.pixel(last.cx(), last.cy()), cell_color(CellState::in_l1));
}

}  // namespace
}  // namespace cachesim::viz
