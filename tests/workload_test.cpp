// Workload address functions and array layout, against their definitions (row-major floats, arrays 4 KiB aligned).
#include <gtest/gtest.h>

#include "traces/input_error.hpp"
#include "traces/workload_source.hpp"

namespace cachesim {
namespace {

TEST(Workload, ArraysStartAtNextMultipleOf4096) {
    WorkloadSpec w;
    w.width = 10;
    w.height = 10;  // 400 bytes per array
    const auto arrays = w.arrays();
    ASSERT_EQ(arrays.size(), 2u);
    EXPECT_EQ(arrays[0].name, "in");
    EXPECT_EQ(arrays[0].base, 0u);
    EXPECT_EQ(arrays[1].name, "out");
    EXPECT_EQ(arrays[1].base, 4096u);
    w.kind = WorkloadKind::matmul;
    w.depth = 1100;  // A: 10x1100x4 = 44000 bytes -> B at 45056
    const auto m = w.arrays();
    EXPECT_EQ(m[1].base, 45056u);
    EXPECT_EQ(m[2].base, 45056u + 45056u);  // B: 1100x10x4 = 44000 -> next multiple
}

TEST(Workload, StencilReadsClampedBoxRowByRowThenWrites) {
    const StencilWorkload s{4, 3, 3, 3, 4};
    // Item (0,0): dy=-1 clamps to row 0, dx=-1 clamps to column 0.
    const std::uint64_t expected_elems[] = {0, 0, 1, 0, 0, 1, 4, 4, 5};
    for (std::uint32_t k = 0; k < 9; ++k) {
        const Access a = s.access(0, k);
        EXPECT_EQ(a.address, expected_elems[k] * 4) << k;
        EXPECT_FALSE(a.is_write);
        EXPECT_EQ(a.array, StencilWorkload::kIn);
    }
    const Access w = s.access(0, 9);
    EXPECT_TRUE(w.is_write);
    EXPECT_EQ(w.address, 4096u);
    // Item (3,2), the far corner: clamps to x=3, y=2.
    EXPECT_EQ(s.access(11, 8).address, 11u * 4);
    EXPECT_EQ(s.access(11, 0).address, (1u * 4 + 2) * 4);
}

TEST(Workload, MatmulAlternatesAAndBThenWritesC) {
    const MatmulWorkload m{3, 2, 5, 4};  // C 2x3, A 2x5, B 5x3
    const std::uint64_t item = 1 * 3 + 2;  // (x=2, y=1)
    for (std::uint32_t i = 0; i < 5; ++i) {
        EXPECT_EQ(m.access(item, 2 * i).address, m.a_base() + (1 * 5 + i) * 4);
        EXPECT_EQ(m.access(item, 2 * i + 1).address, m.b_base() + (i * 3 + 2) * 4);
    }
    const Access c = m.access(item, 10);
    EXPECT_TRUE(c.is_write);
    EXPECT_EQ(c.address, m.c_base() + item * 4);
}

TEST(Workload, SourceStreamsInScheduleOrderWithoutMaterialising) {
    WorkloadSpec w;
    w.width = 5;
    w.height = 3;
    w.stencil_w = 1;
    w.stencil_h = 1;
    w.schedule = parse_schedule("column:2");
    WorkloadSource source(w);
    AccessBatch batch;
    std::vector<std::uint64_t> reads;
    while (source.next(batch, 4))  // 2 items per batch
        for (const Access& a : batch.accesses)
            if (!a.is_write) reads.push_back(a.address / 4);
    EXPECT_EQ(reads, (std::vector<std::uint64_t>{0, 1, 5, 6, 10, 11, 2, 3, 7, 8, 12, 13, 4, 9, 14}));
    EXPECT_EQ(source.size_hint(), 30u);
}

TEST(Workload, RejectsOverflowingSizes) {
    WorkloadSpec w;
    w.width = 4000000000u;
    w.height = 4000000000u;
    EXPECT_THROW(validate(w), InputError);
}

}  // namespace
}  // namespace cachesim
