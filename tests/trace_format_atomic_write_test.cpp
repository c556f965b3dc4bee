// The writer works in a temporary file: until finish() nothing exists at the target path, and an
// abandoned writer (an exception, an interrupted run) leaves neither the target nor a temp file.
#include <gtest/gtest.h>

#include "tests/scratch_dir.hpp"
#include "tests/trace_format_test_util.hpp"
#include "traces/input_error.hpp"
#include "traces/trace_format_reader.hpp"

namespace cachesim {
namespace {

TEST(TraceFormatAtomicWrite, NothingAppearsUntilFinishAndAbandonedWritesVanish) {
    const auto dir = test::trace_temp_dir() / "atomic";
    std::filesystem::create_directories(dir);
    const auto target = dir / "out.cst";
    WorkloadSource source(test::small_stencil());
    cst::TraceHeader header;
    header.arrays = source.arrays();
    AccessBatch batch;
    {
        cst::TraceWriter writer(target.string(), header);
        ASSERT_TRUE(source.next(batch, 1000));
        writer.append(batch);
        EXPECT_FALSE(std::filesystem::exists(target));
    }  // abandoned
    EXPECT_FALSE(std::filesystem::exists(target));
    EXPECT_EQ(test::files_in(dir), 0u);

    {
        cst::TraceWriter writer(target.string(), header);
        source.rewind();
        while (source.next(batch, 1000)) writer.append(batch);
        EXPECT_FALSE(std::filesystem::exists(target));
        writer.finish();
    }
    EXPECT_TRUE(std::filesystem::exists(target));
    EXPECT_EQ(test::files_in(dir), 1u);
    cst::TraceFileSource reader(target.string());
    EXPECT_EQ(reader.header().accesses, test::small_stencil().total_accesses());
}

TEST(TraceFormatAtomicWrite, AnUnwritableTargetIsAnInputError) {
    EXPECT_THROW(cst::TraceWriter("/nonexistent-dir/out.cst", {}), InputError);
}

TEST(TraceFormatAtomicWrite, StepsOutOfOrderAreRefused) {
    const auto target = test::trace_temp_dir() / "order.cst";
    cst::TraceWriter writer(target.string(), {});
    AccessBatch batch;
    batch.accesses.resize(2);
    batch.first_step = 7;
    EXPECT_THROW(writer.append(batch), InputError);
}

}  // namespace
}  // namespace cachesim
