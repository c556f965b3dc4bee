// A workload written to a cst file replays exactly: same accesses, steps, arrays and header.
#include <gtest/gtest.h>

#include "sim/thread_model.hpp"
#include "tests/trace_format_test_util.hpp"
#include "traces/trace_format_reader.hpp"

namespace cachesim {
namespace {

std::vector<Access> all_accesses(AccessSource& source, std::size_t batch_size,
                                 std::vector<std::uint64_t>* first_steps = nullptr) {
    std::vector<Access> out;
    AccessBatch batch;
    source.rewind();
    while (source.next(batch, batch_size)) {
        if (first_steps) first_steps->push_back(batch.first_step);
        out.insert(out.end(), batch.accesses.begin(), batch.accesses.end());
    }
    return out;
}

void expect_same(const std::vector<Access>& a, const std::vector<Access>& b) {
    ASSERT_EQ(a.size(), b.size());
    for (std::size_t i = 0; i < a.size(); ++i) {
        ASSERT_EQ(a[i].address, b[i].address) << "access " << i;
        ASSERT_EQ(a[i].size, b[i].size) << "access " << i;
        ASSERT_EQ(a[i].array, b[i].array) << "access " << i;
        ASSERT_EQ(a[i].is_write, b[i].is_write) << "access " << i;
    }
}

TEST(TraceFormatRoundtrip, StencilAccessesHeaderAndArraysSurvive) {
    const WorkloadSpec w = test::small_stencil("zigzag:7");
    const auto path = test::write_workload_trace(w, "stencil.cst");
    cst::TraceFileSource file(path.string());
    WorkloadSource generator(w);
    expect_same(all_accesses(file, 1000), all_accesses(generator, 1000));
    const cst::TraceHeader& h = file.header();
    EXPECT_EQ(h.steps, w.items());
    EXPECT_EQ(h.accesses, w.total_accesses());
    EXPECT_EQ(h.accesses_per_step, w.accesses_per_item());
    ASSERT_TRUE(h.workload.has_value());
    EXPECT_EQ(h.workload->describe(), w.describe());
    ASSERT_EQ(file.arrays().size(), 2u);
    EXPECT_EQ(file.arrays()[1].name, "out");
    EXPECT_EQ(file.arrays()[1].base, w.arrays()[1].base);
    EXPECT_EQ(file.size_hint(), w.total_accesses());
}

TEST(TraceFormatRoundtrip, MatmulSpanningManyBlocksReplaysWithWholeSteps) {
    WorkloadSpec w;
    w.kind = WorkloadKind::matmul;
    w.width = 64;
    w.height = 48;
    w.depth = 100;  // 201 accesses per step; 617k accesses in dozens of blocks
    w.schedule = parse_schedule("tiled:8x4");
    const auto path = test::write_workload_trace(w, "matmul.cst");
    cst::TraceFileSource file(path.string());
    EXPECT_GT(file.header().blocks, 5u);
    std::vector<std::uint64_t> first_steps;
    WorkloadSource generator(w);
    expect_same(all_accesses(file, 5000, &first_steps), all_accesses(generator, 5000));
    for (std::size_t i = 1; i < first_steps.size(); ++i) EXPECT_GT(first_steps[i], first_steps[i - 1]);
    // A second pass after rewind (OPT replays) gives the same stream again.
    expect_same(all_accesses(file, 333), all_accesses(generator, 333));
}

TEST(TraceFormatRoundtrip, SimulatingTheFileGivesTheGeneratorsCounters) {
    const WorkloadSpec w = test::small_stencil("tiled:5x3");
    const auto path = test::write_workload_trace(w, "sim.cst");
    HierarchyConfig config;
    config.l1.size_bytes = 2048;
    config.l1.line_bytes = 32;
    config.l1.ways = 4;
    config.l1.policy = PolicyKind::opt;  // two passes over the file
    config.l2.size_bytes = 16384;
    config.l2.ways = 8;
    cst::TraceFileSource file(path.string());
    WorkloadSource generator(w);
    const SimulationResult a = simulate_thread_model(file, config);
    const SimulationResult b = simulate_thread_model(generator, config);
    ASSERT_EQ(a.levels.size(), b.levels.size());
    EXPECT_EQ(a.accesses, b.accesses);
    EXPECT_EQ(a.steps, b.steps);
    for (std::size_t i = 0; i < a.levels.size(); ++i) {
        EXPECT_EQ(a.levels[i].misses(), b.levels[i].misses());
        EXPECT_EQ(a.levels[i].hits(), b.levels[i].hits());
    }
}

TEST(TraceFormatRoundtrip, SameInputGivesByteIdenticalFiles) {
    const WorkloadSpec w = test::small_stencil();
    const auto a = test::write_workload_trace(w, "same-a.cst");
    const auto b = test::write_workload_trace(w, "same-b.cst");
    EXPECT_EQ(test::slurp(a), test::slurp(b));
}

TEST(TraceFormatRoundtrip, PlainTraceWithArbitraryAddressesAndSizes) {
    // Large jumps both ways, top-of-space addresses and mixed sizes exercise the delta coding.
    struct VectorSource final : AccessSource {
        std::vector<Access> accesses;
        std::size_t position = 0;
        std::vector<ArrayInfo> arrays() const override { return {{"trace", 0, 1, 0, 1}}; }
        bool next(AccessBatch& batch, std::size_t max) override {
            const std::size_t n = std::min(max, accesses.size() - position);
            batch.first_step = position;
            batch.accesses_per_step = 1;
            batch.accesses.assign(accesses.begin() + static_cast<long>(position),
                                  accesses.begin() + static_cast<long>(position + n));
            position += n;
            return n > 0;
        }
        void rewind() override { position = 0; }
    } source;
    std::uint64_t x = 12345;
    for (int i = 0; i < 200000; ++i) {
        x = x * 6364136223846793005ull + 1442695040888963407ull;
        Access a;
        a.address = (i % 3 == 0) ? x >> 1 : (i % 3 == 1 ? ~0ull - 64 : i * 8ull);
        a.size = 1 + static_cast<std::uint32_t>(x % 32);
        a.is_write = (x >> 40) & 1;
        source.accesses.push_back(a);
    }
    const auto path = test::trace_temp_dir() / "plain.cst";
    cst::write_trace(source, path.string(), {});
    cst::TraceFileSource file(path.string());
    EXPECT_FALSE(file.header().workload.has_value());
    expect_same(all_accesses(file, 4096), source.accesses);
}

}  // namespace
}  // namespace cachesim
