// cacheviz opens a recorded kernel (--trace K.cst, the naive transpose of an 8 x 2 float matrix
// in blocks of 4 x 2, recorded on the host as examples/record_kernel_host does) with the thread
// model and the GPU model: the pane names the trace, the thread model's 16 steps are its threads
// with the 4 misses worked out in viz_trace_diagram_test, the contents panel replays the trace,
// and the copied `cachesim diagram` command draws the same trace. A trace without an array
// layout is refused before any window opens. (Suite VizGui*: the sanitizer run skips leak checks
// for the OpenGL driver, as for the other GUI tests.)
#include <gtest/gtest.h>
#include <sys/wait.h>

#include <filesystem>
#include <fstream>
#include <map>
#include <sstream>
#include <string>
#include <vector>

#include "examples/kernels.hpp"
#include "tests/cli_util.hpp"
#include "tests/viz_gui_util.hpp"
#include "traces/recorder_host.hpp"

namespace vt = cachesim::viz::testing;
namespace fs = std::filesystem;

namespace {

fs::path recorded_transpose() {
    const fs::path path = vt::test_dir("trace") / "transpose.cst";
    std::vector<float> in(16), out(16);
    cachesim::RecordingWriter writer(path.string(), {2, 1, 1}, {4, 2, 1}, {{"in", in.data(), 4, 8, 2}, {"out", out.data(), 4, 2, 8}});
    cachesim::record_on_host(writer, cachesim::examples::Transpose{in.data(), out.data(), 8, 2});
    return path;
}

// Runs cacheviz on the trace with `args` to a screenshot and returns its --state.
vt::State run_on_trace(const std::string& name, const fs::path& trace, const std::string& args) {
    const fs::path dir = vt::test_dir("trace-" + name);
    const int code = vt::run_under_xvfb(vt::cacheviz_bin(),
                                        "--trace '" + trace.string() + "' " + args + " --window 1280x800 --frames 4 --screenshot '" +
                                            (dir / "shot.png").string() + "' --state '" + (dir / "state.txt").string() + "'",
                                        dir / "log.txt");
    EXPECT_EQ(code, 0) << vt::read_file(dir / "log.txt");
    return vt::State(vt::read_file(dir / "state.txt"));
}

// The copied command, its --out replaced, run through cachesim.
void expect_copied_command_draws(const vt::State& s, const std::string& name) {
    const std::string command = s.value("pane A command");
    EXPECT_NE(command.find(" --trace "), std::string::npos) << command;
    const std::string prefix = "cachesim diagram ";
    ASSERT_EQ(command.rfind(prefix, 0), 0u) << command;
    const fs::path out = vt::test_dir("trace-" + name) / "copied.png";
    std::string args = command.substr(prefix.size());
    args = args.substr(0, args.rfind(" --out ")) + " --out '" + out.string() + "'";
    const auto r = cachesim::test::run_cachesim("diagram " + args);
    EXPECT_EQ(r.exit_code, 0) << args << "\n" << r.err;
    EXPECT_TRUE(fs::exists(out));
}

}  // namespace

TEST(VizGuiTrace, ThreadModelShowsTheRecordedThreads) {
    REQUIRE_GUI();
    const vt::State s = run_on_trace("thread", recorded_transpose(), "--tab contents --playhead 4");
    EXPECT_EQ(s.value("pane A config"), "trace transpose.cst (grid 2x1x1, block 4x2x1)");
    EXPECT_EQ(s.value("pane A shown"), "trace transpose.cst (grid 2x1x1, block 4x2x1)");
    EXPECT_EQ(s.value("pane A steps"), "16");
    EXPECT_NE(s.value("pane A misses L1").find("read_misses 4"), std::string::npos) << s.value("pane A misses L1");
    // After step 4 the L1 holds in's lines 0 and 2 (the loads so far; the stores do not allocate),
    // line 2 the most recent (age 0).
    std::map<std::uint64_t, std::uint64_t> age_of_line;
    for (const std::string& l : s.lines) {
        if (l.rfind("pane A way L1 ", 0) != 0) continue;
        std::istringstream in(l.substr(14));
        std::uint64_t set = 0, way = 0, line = 0, dirty = 0, age = 0;
        std::string valid_key, line_key, dirty_key, age_key;
        int valid = 0;
        in >> set >> way >> valid_key >> valid >> line_key >> line >> dirty_key >> dirty >> age_key >> age;
        if (valid == 1) age_of_line[line] = age;
    }
    EXPECT_EQ(age_of_line, (std::map<std::uint64_t, std::uint64_t>{{0, 1}, {2, 0}}));
    expect_copied_command_draws(s, "thread");
}

TEST(VizGuiTrace, GpuModelReplaysTheRecordedBlocks) {
    REQUIRE_GUI();
    const fs::path trace = recorded_transpose();
    const vt::State s = run_on_trace("gpu", trace, "--model gpu");
    EXPECT_EQ(s.value("pane A config"), "trace transpose.cst (grid 2x1x1, block 4x2x1)");
    EXPECT_TRUE(s.any_starting("pane A misses L1 ")) << "the run did not finish";
    EXPECT_NE(s.value("pane A steps"), "0");  // scheduling rounds
    expect_copied_command_draws(s, "gpu");
}

TEST(VizGuiTrace, TraceWithoutArraysIsRefusedBeforeAWindow) {
    if (vt::cacheviz_bin().empty()) GTEST_SKIP() << "cacheviz is not built";
    const fs::path dir = vt::test_dir("trace-din");
    std::ofstream(dir / "a.din") << "0 1000\n";
    const std::string cmd = "env -u DISPLAY '" + vt::cacheviz_bin() + "' --trace '" + (dir / "a.din").string() + "' >'" +
                            (dir / "log.txt").string() + "' 2>&1";
    const int status = std::system(cmd.c_str());
    ASSERT_TRUE(WIFEXITED(status));
    EXPECT_EQ(WEXITSTATUS(status), 2) << vt::read_file(dir / "log.txt");
    EXPECT_NE(vt::read_file(dir / "log.txt").find("a.din: a din trace: it has no array layout to draw"), std::string::npos)
        << vt::read_file(dir / "log.txt");
}
