// WorkloadSource writes each item's accesses a row at a time; they must be exactly the pure
// functions' StencilWorkload::access / MatmulWorkload::access, item by item in schedule order.
#include <gtest/gtest.h>

#include "traces/workload_source.hpp"

namespace cachesim {
namespace {

void expect_same_as_access_functions(const WorkloadSpec& w) {
    WorkloadSource source(w);
    AccessBatch batch;
    std::uint64_t t = 0;
    const std::uint32_t per_item = w.accesses_per_item();
    while (source.next(batch, 1000)) {
        ASSERT_EQ(batch.accesses.size() % per_item, 0u);
        for (std::size_t i = 0; i < batch.accesses.size(); ++i, ++t) {
            const std::uint64_t item = source.item_at(t / per_item);
            const std::uint32_t k = static_cast<std::uint32_t>(t % per_item);
            const Access want = w.kind == WorkloadKind::stencil ? w.stencil().access(item, k)
                                                                : w.matmul().access(item, k);
            const Access& got = batch.accesses[i];
            ASSERT_EQ(got.address, want.address) << w.describe() << " item " << item << " k " << k;
            ASSERT_EQ(got.size, want.size);
            ASSERT_EQ(got.array, want.array);
            ASSERT_EQ(got.is_write, want.is_write);
        }
    }
    EXPECT_EQ(t, w.total_accesses());
}

TEST(WorkloadSource, StencilRowsEqualAccessFunction) {
    struct Case { std::uint32_t iw, ih, sw, sh; const char* schedule; };
    for (const Case c : {Case{16, 16, 7, 7, "linear"}, Case{37, 11, 9, 9, "column:8"},
                         Case{5, 3, 9, 7, "linear"}, Case{20, 30, 3, 5, "zigzag:6"},
                         Case{24, 18, 4, 6, "tiled:5x4"}, Case{13, 9, 1, 1, "morton"},
                         Case{64, 3, 8, 2, "column:64"}}) {
        WorkloadSpec w;
        w.width = c.iw;
        w.height = c.ih;
        w.stencil_w = c.sw;
        w.stencil_h = c.sh;
        w.schedule = parse_schedule(c.schedule);
        expect_same_as_access_functions(w);
        w.elem_bytes = 8;
        expect_same_as_access_functions(w);
    }
}

TEST(WorkloadSource, MatmulEqualsAccessFunction) {
    for (const char* schedule : {"linear", "column:4", "morton"}) {
        WorkloadSpec w;
        w.kind = WorkloadKind::matmul;
        w.width = 9;
        w.height = 7;
        w.depth = 5;
        w.schedule = parse_schedule(schedule);
        expect_same_as_access_functions(w);
    }
}

}  // namespace
}  // namespace cachesim
