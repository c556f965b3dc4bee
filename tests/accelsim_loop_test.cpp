// A traceg's instructions give the kernel's loop (traces/instruction_pipes.hpp): the handwritten
// loop kernel of tests/traceg_loop_kernel.hpp, whose counts are worked out by hand there, read
// and converted; the cst carries the loop (version 3), and a kernel without global loads has none.
#include <gtest/gtest.h>

#include <filesystem>
#include <fstream>
#include <sstream>
#include <unistd.h>

#include "tests/traceg_loop_kernel.hpp"
#include "traces/accelsim_reader.hpp"
#include "traces/trace_format_reader.hpp"

namespace cachesim::accelsim {
namespace {

RecordedLoop by_hand() {
    RecordedLoop l;
    l.warp_instructions = 43;
    l.load_requests = 9;
    l.alu_cycles = 4;
    l.fma_heavy_only_cycles = 60;
    l.fma_either_cycles = 10;
    l.loads_per_iteration = 2;
    return l;
}

TEST(AccelsimLoop, TheReaderGivesTheLoopWorkedOutByHand) {
    std::istringstream in(test::traceg_loop_kernel());
    TracegReader reader(in, "loop.traceg");
    WarpAccesses warp;
    while (reader.next_warp(warp)) {
    }
    EXPECT_EQ(reader.loop(), by_hand());
    EXPECT_EQ(reader.counts().instructions, 43u);
    const LoopCounters counters = reader.loop().counters();
    EXPECT_EQ(counters.busiest, "fmaheavy");
    EXPECT_DOUBLE_EQ(counters.cycles_per_request, 60.0 / 9);
    EXPECT_EQ(reader.loop().describe(), "2 loads an iteration, 6.67 cycles per load request (fmaheavy pipe)");
}

TEST(AccelsimLoop, TheConversionWritesItIntoTheCst) {
    const auto dir = std::filesystem::temp_directory_path() / ("accelsim-loop-" + std::to_string(::getpid()));
    std::filesystem::create_directories(dir);
    const std::string in = (dir / "kernel-1.traceg").string(), out = (dir / "k.cst").string();
    std::ofstream(in) << test::traceg_loop_kernel();
    const TracegConversion c = convert_traceg(in, out);
    EXPECT_EQ(c.loop, by_hand());
    const cst::TraceFileSource source(out);
    ASSERT_TRUE(source.header().loop);
    EXPECT_EQ(*source.header().loop, by_hand());
    EXPECT_EQ(source.header().version, cst::kVersionLoop);

    // Stores only: no load requests, so no loop, and a version 2 launch.
    std::ofstream(in) << "-grid dim = (1,1,1)\n-block dim = (32,1,1)\n-accelsim tracer version = 3\n#BEGIN_TB\n"
                         "thread block = 0,0,0\nwarp = 0\ninsts = 1\n0000 ffffffff 0 STG.E 2 R4 R2 4 1 0x40000 4 \n#END_TB\n";
    const TracegConversion stores = convert_traceg(in, out);
    EXPECT_TRUE(stores.loop.empty());
    const cst::TraceFileSource plain(out);
    EXPECT_FALSE(plain.header().loop);
    EXPECT_EQ(plain.header().version, cst::kVersionLaunch);
    std::filesystem::remove_all(dir);
}

}  // namespace
}  // namespace cachesim::accelsim
