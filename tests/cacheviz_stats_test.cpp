// The Stats tab's miss classes under a virtual X server, read through --state (the table's rows as
// drawn): the GPU model does not classify its misses, so its rows show "-", as `cachesim simulate`
// prints no classes for it; the thread model shows its counts.
#include <gtest/gtest.h>

#include <filesystem>
#include <string>

#include "tests/viz_gui_util.hpp"

namespace vt = cachesim::viz::testing;
namespace fs = std::filesystem;

namespace {

vt::State run_state(const std::string& name, const std::string& args) {
    const fs::path dir = vt::test_dir(name);
    const int code = vt::run_under_xvfb(vt::cacheviz_bin(), args + " --window 1280x800 --frames 3 --screenshot '" +
                                                                (dir / "shot.png").string() + "' --state '" +
                                                                (dir / "state.txt").string() + "'",
                                        dir / "log.txt");
    EXPECT_EQ(code, 0) << vt::read_file(dir / "log.txt");
    return vt::State(vt::read_file(dir / "state.txt"));
}

}  // namespace

TEST(CachevizStats, GpuModelShowsNoMissClasses) {
    REQUIRE_GUI();
    const vt::State s = run_state("gpuclasses", "--start-gpu h200 --start-sms 4 --start-block 64 --size 64x64");
    ASSERT_EQ(s.value("pane A stat first level name ="), "L1");
    ASSERT_EQ(s.value("pane A stat second level name ="), "L2");
    for (const char* level : {"first", "second"})
        for (const char* cls : {"compulsory", "capacity", "conflict"})
            EXPECT_EQ(s.value(std::string("pane A stat ") + level + " level " + cls + " ="), "-") << level << " " << cls;
    // The counters the model does keep stay numbers.
    EXPECT_NE(s.value("pane A stat first level misses ="), "-");
}

// The thesis stencil (16 x 16 floats, 24 fully associative lines of 16 B): its 316 L1 misses
// (thesis Table 3.1) are the first touches of in's 16 * 16 * 4 / 16 = 64 lines, and 252 capacity
// misses; a fully associative cache has no conflict misses.
TEST(CachevizStats, ThreadModelShowsMissClasses) {
    REQUIRE_GUI();
    const vt::State s = run_state("threadclasses", "--preset thesis-stencil");
    EXPECT_EQ(s.value("pane A stat first level misses ="), "316");
    EXPECT_EQ(s.value("pane A stat first level compulsory ="), "64");
    EXPECT_EQ(s.value("pane A stat first level capacity ="), "252");
    EXPECT_EQ(s.value("pane A stat first level conflict ="), "0");
    EXPECT_EQ(s.value("pane A stat second level compulsory ="), "-");  // no L2
}

// The row "model known off here" names the regions where the GPU model is known to miss the chip
// (sim/gpu/known_misses.hpp): the matmul's naive order at block 32 is one (one-warp blocks), the
// same at block 64 none, and the thread model has no such row's value.
TEST(CachevizStats, KnownMissesAreNamedForTheGpuModelOnly) {
    REQUIRE_GUI();
    const std::string matmul = "--workload matmul --size 64x64 --depth 4 --start-gpu h200 --start-sms 4 --start-block ";
    const vt::State one_warp = run_state("knownoneWarp", matmul + "32");
    EXPECT_EQ(one_warp.value("pane A stat model known off here ="),
              "one-warp matmul blocks, naive, tiles or strips >= 128: L1 3 to 22 points low (docs/cli.md)");
    const vt::State two_warps = run_state("knowntwowarps", matmul + "64");
    EXPECT_EQ(two_warps.value("pane A stat model known off here ="), "in none of the measured regions");
    const vt::State thread = run_state("knownthread", "--preset thesis-stencil");
    EXPECT_EQ(thread.value("pane A stat model known off here ="), "- (GPU model only)");
}
