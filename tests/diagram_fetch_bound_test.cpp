// Sec. 3.3.1's worst-case fetch bound for the naive stencil, ceil((I_w + S_w) / L) I_h S_h, counts
// each input line once per output row and stencil row, so it needs each line to stay cached from
// one work item to the next: one item's box of lines (and, in a cache that allocates on stores,
// the output line) must fit. Where it does not, the legend says so instead of printing the bound;
// where it does, an LRU cache keeps within the bound.
#include <gtest/gtest.h>

#include <string>
#include <vector>

#include "sim/thread_model.hpp"
#include "traces/workload_source.hpp"
#include "viz/analytic.hpp"
#include "viz/notes.hpp"

using namespace cachesim;
using namespace cachesim::viz;

namespace {

std::uint64_t ceil_div(std::uint64_t a, std::uint64_t b) { return (a + b - 1) / b; }

// The thesis's cache (Table 3.1): fully associative LRU, 16 B lines, write-through.
CacheConfig thesis_l1(std::uint64_t lines, WritePolicy write = WritePolicy::write_through_no_allocate) {
    CacheConfig c;
    c.name = "L1";
    c.line_bytes = 16;
    c.size_bytes = lines * 16;
    c.write_policy = write;
    return c;
}

WorkloadSpec stencil(std::uint32_t w, std::uint32_t h, std::uint32_t sw, std::uint32_t sh) {
    WorkloadSpec s;
    s.width = w;
    s.height = h;
    s.stencil_w = sw;
    s.stencil_h = sh;
    return s;
}

SimulationResult simulate(const WorkloadSpec& w, const CacheConfig& l1) {
    HierarchyConfig h;
    h.l1 = l1;
    WorkloadSource source(w);
    return simulate_thread_model(source, h);
}

bool has_line_starting(const std::vector<std::string>& notes, const std::string& start) {
    for (const std::string& n : notes)
        if (n.rfind(start, 0) == 0) return true;
    return false;
}

}  // namespace

// A box of S_w elements starting at the last element of a line spans ceil((S_w - 1) / L) + 1 lines.
TEST(DiagramFetchBound, BoxLinesByHand) {
    EXPECT_EQ(analytic::stencil_box_lines(7, 7, 4), 21u);  // 7 rows x (ceil(6/4) + 1)
    EXPECT_EQ(analytic::stencil_box_lines(9, 9, 4), 27u);  // 9 x (2 + 1)
    EXPECT_EQ(analytic::stencil_box_lines(5, 5, 4), 10u);  // 5 x (1 + 1)
    EXPECT_EQ(analytic::stencil_box_lines(1, 1, 16), 1u);
    EXPECT_EQ(analytic::stencil_box_lines(3, 2, 1), 6u);   // one element a line: 2 x 3
}

// `cachesim diagram --preset thesis-stencil --l1-lines 4` and `--stencil 9x9`: the box needs 21
// and 27 lines, the cache holds 4 and 24; the runs fetch more than the worst-case figure.
TEST(DiagramFetchBound, NotPrintedWhereTheBoxDoesNotFit) {
    const struct {
        WorkloadSpec w;
        std::uint64_t lines, box;
    } cases[] = {{stencil(16, 16, 7, 7), 4, 21}, {stencil(16, 16, 9, 9), 24, 27}};
    for (const auto& c : cases) {
        SCOPED_TRACE(c.w.describe() + ", " + std::to_string(c.lines) + " lines");
        const CacheConfig l1 = thesis_l1(c.lines);
        const analytic::Summary s = analytic::summarize(c.w, l1);
        EXPECT_FALSE(s.fetch_bound);
        EXPECT_NE(s.no_bound_reason.find(std::to_string(c.box) + " lines"), std::string::npos) << s.no_bound_reason;
        EXPECT_NE(s.no_bound_reason.find("it holds " + std::to_string(c.lines)), std::string::npos) << s.no_bound_reason;

        HierarchyConfig h;
        h.l1 = l1;
        const SimulationResult r = simulate(c.w, l1);
        const std::uint64_t worst = ceil_div(c.w.width + c.w.stencil_w, 4) * c.w.height * c.w.stencil_h;
        EXPECT_GT(r.levels[0].read_misses, worst);  // the figure would have been false
        const std::vector<std::string> notes = run_notes(c.w, h, r);
        EXPECT_FALSE(has_line_starting(notes, "thesis sec. 3.3.1 worst case"));
        EXPECT_TRUE(has_line_starting(notes, "no thesis fetch bound: sec. 3.3.1's worst case needs a work item's"));
    }
}

// The edge: 21 lines hold the 7x7 box (L = 4), 20 do not; a write-back, write-allocate cache also
// keeps the item's output line, so it needs 22.
TEST(DiagramFetchBound, ConditionEdge) {
    const WorkloadSpec w = stencil(16, 16, 7, 7);
    EXPECT_TRUE(analytic::summarize(w, thesis_l1(21)).fetch_bound);
    EXPECT_FALSE(analytic::summarize(w, thesis_l1(20)).fetch_bound);
    EXPECT_FALSE(analytic::summarize(w, thesis_l1(21, WritePolicy::write_back_allocate)).fetch_bound);
    const analytic::Summary s = analytic::summarize(w, thesis_l1(22, WritePolicy::write_back_allocate));
    ASSERT_TRUE(s.fetch_bound);
    EXPECT_EQ(*s.fetch_bound, 6.0 * 16 * 7);  // ceil(23/4) x 16 x 7 = 672, Table 3.1's worst case
    EXPECT_EQ(analytic::summarize(w, thesis_l1(24)).fetch_equation, "sec. 3.3.1 worst case");
}

// Wherever the worst case is printed (eq. 3.2 fails, the box fits), an LRU cache fetches no more:
// images whose rows do and do not end on a line boundary, stencils of odd and even sizes, lines of
// 4 and 8 elements, both write policies, every cache size from the box up to eq. 3.2's lines.
TEST(DiagramFetchBound, PrintedBoundHolds) {
    int printed = 0;
    for (const auto& [iw, ih] : {std::pair{16u, 16u}, std::pair{37u, 21u}})
        for (const auto& [sw, sh] : {std::pair{3u, 3u}, std::pair{4u, 6u}, std::pair{7u, 7u}, std::pair{9u, 9u}})
            for (const std::uint32_t line : {16u, 32u})
                for (const WritePolicy write : {WritePolicy::write_through_no_allocate, WritePolicy::write_back_allocate}) {
                    const WorkloadSpec w = stencil(iw, ih, sw, sh);
                    const std::uint64_t l = line / 4;
                    const std::uint64_t need = ceil_div(iw + sw, l) * sh;  // eq. 3.2
                    for (std::uint64_t lines = 1; lines < need; ++lines) {
                        CacheConfig c = thesis_l1(lines, write);
                        c.line_bytes = line;
                        c.size_bytes = lines * line;
                        const analytic::Summary s = analytic::summarize(w, c);
                        if (!s.fetch_bound) continue;
                        ++printed;
                        const std::uint64_t worst = ceil_div(iw + sw, l) * ih * sh;
                        EXPECT_EQ(*s.fetch_bound, static_cast<double>(worst));
                        EXPECT_LE(simulate(w, c).levels[0].read_misses, worst)
                            << w.describe() << ", " << lines << " lines of " << line << " B";
                    }
                }
    EXPECT_GT(printed, 100);
}
