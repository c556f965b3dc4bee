// cst version 4: a launch whose header carries what each of its blocks holds on an SM (shared
// memory per block, registers per thread), with its loop where there is one. Both survive the
// round trip, a file without resources keeps version 2 or 3, and sections or values no launch
// could have are refused, naming the byte.
#include <gtest/gtest.h>

#include <functional>

#include "tests/trace_format_test_util.hpp"
#include "traces/input_error.hpp"
#include "traces/trace_format_reader.hpp"

namespace cachesim {
namespace {

RecordedLoop sample_loop() {
    RecordedLoop l;
    l.load_requests = 12;
    l.warp_instructions = 39;
    l.loads_per_iteration = 4;
    return l;
}

constexpr cst::LaunchResources kResources{49152, 64};

using test::write_one_block_launch;

TEST(TraceFormatResources, ResourcesSurviveTheRoundTripWithOrWithoutALoop) {
    const cst::TraceFileSource both(write_one_block_launch("both.cst", sample_loop(), kResources).string());
    EXPECT_EQ(both.header().version, cst::kVersionResources);
    ASSERT_TRUE(both.header().resources);
    EXPECT_EQ(*both.header().resources, kResources);
    ASSERT_TRUE(both.header().loop);
    EXPECT_EQ(*both.header().loop, sample_loop());

    const cst::TraceFileSource no_loop(write_one_block_launch("noloop.cst", std::nullopt, kResources).string());
    EXPECT_EQ(no_loop.header().version, cst::kVersionResources);
    EXPECT_FALSE(no_loop.header().loop);
    ASSERT_TRUE(no_loop.header().resources);
    EXPECT_EQ(*no_loop.header().resources, kResources);

    // Without resources the writer keeps the older versions, which older readers read.
    EXPECT_EQ(cst::TraceFileSource(write_one_block_launch("v3.cst", sample_loop(), std::nullopt).string()).header().version,
              cst::kVersionLoop);
    EXPECT_EQ(cst::TraceFileSource(write_one_block_launch("v2.cst", std::nullopt, std::nullopt).string()).header().version,
              cst::kVersionLaunch);
}

TEST(TraceFormatResources, TheWriterRefusesResourcesWithoutALaunch) {
    cst::TraceHeader h;
    h.arrays = {{"a", 0, 4, 1, 1}};
    h.resources = kResources;
    EXPECT_THROW(cst::TraceWriter((test::trace_temp_dir() / "x.cst").string(), h), InputError);
}

// The header body of a file without a loop ends with the sections byte and the two u32 values
// (9 bytes); `tail` replaces them, the checksum redone. The reader's message, or "".
std::string rejection_with(const std::function<void(std::string&)>& tail) {
    return test::rejection_of_header_tail(test::slurp(write_one_block_launch("good.cst", std::nullopt, kResources)), 9,
                                          tail, cst::kVersionResources, "bad_resources.cst");
}

void put_resources(std::string& body, std::uint8_t sections, std::uint32_t smem, std::uint32_t regs) {
    cst::put_u8(body, sections);
    cst::put_u32(body, smem);
    cst::put_u32(body, regs);
}

TEST(TraceFormatResources, ImpossibleSectionsAndValuesAreRefusedByByte) {
    // The surgery itself keeps a good file good, at the largest values allowed.
    EXPECT_EQ(rejection_with([](std::string& b) { put_resources(b, 2, 1u << 20, 255); }), "");
    auto expect = [](const std::string& message, const std::string& part) {
        EXPECT_NE(message.find(part), std::string::npos) << message;
        EXPECT_NE(message.find("byte "), std::string::npos) << message;
    };
    expect(rejection_with([](std::string& b) { put_resources(b, 0, 0, 0); }), "sections 0 must be 2");
    expect(rejection_with([](std::string& b) { put_resources(b, 6, 0, 0); }), "sections 6 must be 2");
    // Sections 3 promise a loop the 8 bytes that follow cannot hold.
    expect(rejection_with([](std::string& b) { put_resources(b, 3, 0, 0); }), "byte ");
    expect(rejection_with([](std::string& b) { put_resources(b, 2, (1u << 20) + 1, 64); }),
           "shared memory per block 1048577 bytes exceeds 1048576");
    expect(rejection_with([](std::string& b) { put_resources(b, 2, 0, 256); }), "registers per thread 256 exceed 255");
}

}  // namespace
}  // namespace cachesim
