// cst version 3: a launch whose header carries its kernel's recorded loop. The loop survives the
// round trip byte for byte, a file without one stays version 2, and a loop no trace could give
// (no requests, fewer instructions than requests, more than 4 pipe cycles an instruction, an
// iteration of no loads or of more loads than there are) is refused, naming the byte.
#include <gtest/gtest.h>

#include "tests/trace_format_test_util.hpp"
#include "traces/input_error.hpp"
#include "traces/trace_format_reader.hpp"

namespace cachesim {
namespace {

RecordedLoop sample_loop() {
    RecordedLoop l;
    l.load_requests = 12;
    l.warp_instructions = 39;
    l.alu_cycles = 6;
    l.fma_heavy_only_cycles = 96;
    l.fma_either_cycles = 0;
    l.loads_per_iteration = 4;
    return l;
}

using test::write_one_block_launch;

TEST(TraceFormatLoop, TheLoopSurvivesTheRoundTrip) {
    const cst::TraceFileSource with(write_one_block_launch("loop.cst", sample_loop()).string());
    ASSERT_TRUE(with.header().loop);
    EXPECT_EQ(*with.header().loop, sample_loop());
    EXPECT_EQ(with.header().version, cst::kVersionLoop);
    ASSERT_TRUE(with.header().launch);
    EXPECT_EQ(with.header().launch->threads(), 32u);
    const cst::TraceFileSource without(write_one_block_launch("noloop.cst", std::nullopt).string());
    EXPECT_FALSE(without.header().loop);
    EXPECT_EQ(without.header().version, cst::kVersionLaunch);
}

TEST(TraceFormatLoop, TheWriterRefusesALoopWithoutALaunchOrLoads) {
    cst::TraceHeader h;
    h.arrays = {{"a", 0, 4, 1, 1}};
    h.loop = sample_loop();
    EXPECT_THROW(cst::TraceWriter((test::trace_temp_dir() / "x.cst").string(), h), InputError);
    h.launch = cst::LaunchGeometry{};
    h.loop = RecordedLoop{};
    EXPECT_THROW(cst::TraceWriter((test::trace_temp_dir() / "y.cst").string(), h), InputError);
}

// The loop is the header body's last 44 bytes; each field replaced in turn, the checksum redone.
std::string rejection_with(const std::function<void(RecordedLoop&)>& change) {
    RecordedLoop l = sample_loop();
    change(l);
    const auto write_loop = [&](std::string& body) {
        for (std::uint64_t v : {l.load_requests, l.warp_instructions, l.alu_cycles, l.fma_heavy_only_cycles, l.fma_either_cycles})
            cst::put_u64(body, v);
        cst::put_u32(body, l.loads_per_iteration);
    };
    return test::rejection_of_header_tail(test::slurp(write_one_block_launch("good.cst", sample_loop())), 44, write_loop,
                                          cst::kVersionLoop, "bad_loop.cst");
}

TEST(TraceFormatLoop, ImpossibleLoopsAreRefusedByByte) {
    EXPECT_EQ(rejection_with([](RecordedLoop&) {}), "");  // the surgery itself keeps a good file good
    auto expect = [](const std::string& message, const std::string& part) {
        EXPECT_NE(message.find(part), std::string::npos) << message;
        EXPECT_NE(message.find("byte "), std::string::npos) << message;
    };
    expect(rejection_with([](RecordedLoop& l) { l.load_requests = 0; }), "0 load requests in 39 warp instructions");
    expect(rejection_with([](RecordedLoop& l) { l.warp_instructions = 11; }), "12 load requests in 11 warp instructions");
    expect(rejection_with([](RecordedLoop& l) { l.alu_cycles = 4 * 39 + 1; }), "pipe cycles exceed 4 per warp instruction");
    expect(rejection_with([](RecordedLoop& l) { l.fma_either_cycles = 4 * 39 - 95; }), "pipe cycles exceed 4");
    expect(rejection_with([](RecordedLoop& l) { l.fma_heavy_only_cycles = ~0ull; }), "pipe cycles exceed 4");
    expect(rejection_with([](RecordedLoop& l) { l.loads_per_iteration = 0; }), "loads per iteration 0 is outside 1..12");
    expect(rejection_with([](RecordedLoop& l) { l.loads_per_iteration = 13; }), "loads per iteration 13 is outside 1..12");
}

// A version 2 file relabelled 3 lacks the loop: its header is too short.
TEST(TraceFormatLoop, AVersion2HeaderIsNotAVersion3One) {
    std::string file = test::slurp(write_one_block_launch("v2.cst", std::nullopt));
    const std::uint32_t body_bytes = cst::load_le<std::uint32_t>(file.data() + 12);
    const std::string body = file.substr(cst::kPreambleBytes, body_bytes);
    const std::string rest = file.substr(cst::kPreambleBytes + body_bytes + 8);
    const auto path = test::trace_temp_dir() / "relabelled.cst";
    test::spit(path, test::file_with_header_body(body, rest, cst::kVersionLoop));
    EXPECT_THROW(cst::TraceFileSource(path.string()), InputError);
}

}  // namespace
}  // namespace cachesim
