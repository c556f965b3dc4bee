// cacheviz's starting view (--playhead, --zoom, --zoom-lines) against the run it shows, for both
// models: a step or line past the run exits 2 with one message naming the option and the run's
// range, and leaves neither the screenshot nor the state behind; the last step and the last line
// themselves are accepted and shown. The GPU model's rounds are known only once it has run, so
// its steps are checked then.
#include <gtest/gtest.h>

#include <filesystem>
#include <string>

#include "tests/viz_gui_util.hpp"

namespace vt = cachesim::viz::testing;
namespace fs = std::filesystem;

namespace {

// 64 x 64 floats on 4 SMs: 64 blocks of 64 threads. Its two arrays take 2 x 64 x 64 x 4 B in the
// H200's 128 B L1 lines: 256 lines.
const std::string kGpuRun = "--start-gpu h200 --start-sms 4 --start-block 64 --size 64x64";
constexpr std::uint64_t kGpuRunLines = 2 * 64 * 64 * 4 / 128;
// The thesis stencil: 16 x 16 floats, 16 B lines: 2 x 16 x 16 x 4 / 16 lines, one step per element.
constexpr std::uint64_t kThesisLines = 2 * 16 * 16 * 4 / 16, kThesisSteps = 16 * 16;

struct Outcome {
    int code = -1;
    std::string log;
    bool screenshot = false, state = false;  // written
    vt::State shown{""};
};

Outcome run_cacheviz(const std::string& name, const std::string& args) {
    const fs::path dir = vt::test_dir("startview-" + name);
    const fs::path shot = dir / "shot.png", state = dir / "state.txt";
    fs::remove(shot);
    fs::remove(state);
    Outcome o;
    o.code = vt::run_under_xvfb(vt::cacheviz_bin(),
                                args + " --frames 2 --screenshot '" + shot.string() + "' --state '" + state.string() + "'",
                                dir / "log.txt");
    o.log = vt::read_file(dir / "log.txt");
    o.screenshot = fs::exists(shot);
    o.state = fs::exists(state);
    if (o.state) o.shown = vt::State(vt::read_file(state));
    return o;
}

// Refused with exactly this message (once), and nothing written.
void expect_refused(const std::string& args, const std::string& message) {
    const Outcome o = run_cacheviz("refused", args);
    EXPECT_EQ(o.code, 2) << args << "\n" << o.log;
    const std::string line = "cacheviz: error: " + message + "\n";
    const std::size_t at = o.log.find(line);
    EXPECT_NE(at, std::string::npos) << args << "\n" << o.log;
    if (at != std::string::npos) {
        EXPECT_EQ(o.log.find(line, at + 1), std::string::npos) << "said twice: " << o.log;
    }
    EXPECT_FALSE(o.screenshot) << args;
    EXPECT_FALSE(o.state) << args;
}

// The GPU run's steps (scheduling rounds), as a run that fits shows them.
std::uint64_t gpu_run_steps() {
    const Outcome o = run_cacheviz("gpusteps", kGpuRun);
    EXPECT_EQ(o.code, 0) << o.log;
    return std::stoull(o.shown.value("pane A steps"));
}

}  // namespace

TEST(CachevizStartView, ThreadModelLinesPastTheRunRefused) {
    REQUIRE_GUI();
    const std::string n = std::to_string(kThesisLines);
    expect_refused("--preset thesis-stencil --zoom-lines 500:600", "--zoom-lines: the run has " + n + " lines (0:" + n + ")");
    expect_refused("--preset thesis-stencil --zoom-lines 8:" + std::to_string(kThesisLines + 1),
                   "--zoom-lines: the run has " + n + " lines (0:" + n + ")");
    const Outcome last = run_cacheviz("thread-lastlines", "--preset thesis-stencil --zoom-lines 120:" + n);
    ASSERT_EQ(last.code, 0) << last.log;
    EXPECT_EQ(last.shown.value("view"), "0.000 " + std::to_string(kThesisSteps) + ".000 120.000 " + n + ".000");
}

TEST(CachevizStartView, GpuModelStepsPastTheRunRefused) {
    REQUIRE_GUI();
    const std::uint64_t steps = gpu_run_steps();
    ASSERT_GT(steps, 1u);
    const std::string n = std::to_string(steps);
    expect_refused(kGpuRun + " --zoom " + std::to_string(steps * 3) + ":" + std::to_string(steps * 4),
                   "--zoom: the run has " + n + " steps (0:" + n + ")");
    expect_refused(kGpuRun + " --zoom 0:" + std::to_string(steps + 1), "--zoom: the run has " + n + " steps (0:" + n + ")");
    expect_refused(kGpuRun + " --playhead 99999999", "--playhead: step 99999999 is past the last step " + std::to_string(steps - 1));
    expect_refused(kGpuRun + " --playhead " + n, "--playhead: step " + n + " is past the last step " + std::to_string(steps - 1));
    // The whole run and its last step are fine.
    const Outcome last = run_cacheviz("gpu-last", kGpuRun + " --zoom 0:" + n + " --playhead " + std::to_string(steps - 1));
    ASSERT_EQ(last.code, 0) << last.log;
    EXPECT_EQ(last.shown.value("playhead"), std::to_string(steps - 1));
    EXPECT_EQ(last.shown.value("view").substr(0, ("0.000 " + n + ".000").size()), "0.000 " + n + ".000");
}

TEST(CachevizStartView, GpuModelLinesPastTheRunRefused) {
    REQUIRE_GUI();
    const std::string n = std::to_string(kGpuRunLines);
    expect_refused(kGpuRun + " --zoom-lines 0:" + std::to_string(kGpuRunLines + 1), "--zoom-lines: the run has " + n + " lines (0:" + n + ")");
    const Outcome last = run_cacheviz("gpu-lastlines", kGpuRun + " --zoom-lines 200:" + n);
    ASSERT_EQ(last.code, 0) << last.log;
    const std::string view = last.shown.value("view");
    EXPECT_EQ(view.substr(view.size() - ("200.000 " + n + ".000").size()), "200.000 " + n + ".000");
}
