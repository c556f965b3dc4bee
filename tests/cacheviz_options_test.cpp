// cacheviz's command line: errors name cacheviz and its own options, empty file names and
// --start-* options without --start-gpu are refused (exit 2), as are a GPU given both with the
// simulation options and with --start-gpu, and colouring by GPU data on the thread model; the
// first pane takes simulate's GPU model options and --warp-times. Every output is checked before
// the run so that a failed one leaves no file behind and none replaces a file the run reads. The option checks
// come before any window, so most run without a display; the output checks run under a virtual X
// server, where cacheviz would otherwise get as far as writing its screenshot.
#include <gtest/gtest.h>
#include <sys/wait.h>

#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <sstream>
#include <string>

#include "tests/viz_gui_util.hpp"

namespace vt = cachesim::viz::testing;
namespace fs = std::filesystem;

namespace {

// cacheviz without a display (DISPLAY unset): its exit code; stdout and stderr to `log`.
int no_display(const std::string& args, const fs::path& log) {
    const std::string cmd = "env -u DISPLAY '" + vt::cacheviz_bin() + "' " + args + " >'" + log.string() + "' 2>&1";
    const int status = std::system(cmd.c_str());
    return WIFEXITED(status) ? WEXITSTATUS(status) : 128 + WTERMSIG(status);
}

bool contains(const std::string& text, const std::string& part) { return text.find(part) != std::string::npos; }

}  // namespace

TEST(CachevizOptions, ErrorsNameCacheviz) {
    if (vt::cacheviz_bin().empty()) GTEST_SKIP() << "cacheviz is not built";
    const fs::path log = vt::test_dir("optname") / "log.txt";
    EXPECT_EQ(no_display("--frobnicate", log), 2);
    const std::string out = vt::read_file(log);
    EXPECT_EQ(out.rfind("cacheviz: error: unrecognised option '--frobnicate' (see cacheviz --help)", 0), 0u) << out;
    EXPECT_FALSE(contains(out, "cachesim")) << out;
    EXPECT_EQ(no_display("--frames 0 --screenshot x.png", log), 2);
    EXPECT_EQ(vt::read_file(log), "cacheviz: error: --frames: at least 1\n");
}

// A mistake in --compare's options names the second pane's options, not only the option.
TEST(CachevizOptions, CompareMistakesNameTheComparePane) {
    if (vt::cacheviz_bin().empty()) GTEST_SKIP() << "cacheviz is not built";
    const fs::path log = vt::test_dir("optcompare") / "log.txt";
    EXPECT_EQ(no_display("--preset thesis-stencil --compare '--schedule bogus' --screenshot x.png", log), 2);
    EXPECT_EQ(vt::read_file(log).rfind("cacheviz: error: --compare \"--schedule bogus\": unknown schedule 'bogus'", 0), 0u)
        << vt::read_file(log);
    // --max-memory is the session's, not a pane's: the compare pane's options are read without it
    // (without a display, getting past the option checks means failing to open the window).
    EXPECT_EQ(no_display("--max-memory 4G --compare '--schedule column:4' --screenshot x.png", log), 1);
    EXPECT_TRUE(contains(vt::read_file(log), "cannot open the X display")) << vt::read_file(log);
}

TEST(CachevizOptions, EmptyFileNamesAreRefused) {
    if (vt::cacheviz_bin().empty()) GTEST_SKIP() << "cacheviz is not built";
    const fs::path dir = vt::test_dir("optempty");
    const std::string shot = " --screenshot '" + (dir / "s.png").string() + "'";
    const std::pair<std::string, std::string> cases[] = {
        {"--screenshot ''", "--screenshot"}, {"--state ''" + shot, "--state"},  {"--layout ''" + shot, "--layout"},
        {"--save-png ''" + shot, "--save-png"}, {"--script ''" + shot, "--script"},
    };
    for (const auto& [args, option] : cases) {
        EXPECT_EQ(no_display("--preset thesis-stencil --frames 1 " + args, dir / "log.txt"), 2) << args;
        EXPECT_EQ(vt::read_file(dir / "log.txt"), "cacheviz: error: " + option + ": empty file name\n") << args;
    }
    EXPECT_FALSE(fs::exists(dir / "s.png"));
}

// The GPU model's own checks name --sms and --block; cacheviz's options are --start-sms and
// --start-block. CUDA allows at most 1024 threads per block.
TEST(CachevizOptions, StartOptionsAreNamedAsGiven) {
    if (vt::cacheviz_bin().empty()) GTEST_SKIP() << "cacheviz is not built";
    const fs::path log = vt::test_dir("optstart") / "log.txt";
    const std::pair<std::string, std::string> cases[] = {
        {"--start-gpu h200 --start-sms 0", "--start-sms must be positive"},
        {"--start-gpu h200 --start-block 0", "--start-block must be positive"},
        {"--start-gpu h200 --start-block 2048", "--start-block 2048: CUDA allows at most 1024 threads per block"},
        {"--start-sms 4", "--start-sms needs --start-gpu"},
        {"--start-block 128", "--start-block needs --start-gpu"},
        {"--model gpu --size 64x64 --start-block 128", "--start-block needs --start-gpu"},
    };
    for (const auto& [args, message] : cases) {
        EXPECT_EQ(no_display(args + " --screenshot x.png", log), 2) << args;
        EXPECT_EQ(vt::read_file(log), "cacheviz: error: " + message + "\n") << args;
    }
}

// An output that cannot be written (its directory is missing) fails the run before the
// screenshot is written; so do two outputs naming one file, and a script's snapshot.
TEST(CachevizOptions, OutputsCheckedBeforeTheRun) {
    REQUIRE_GUI();
    const fs::path dir = vt::test_dir("optoutputs");
    const fs::path shot = dir / "n.png", missing = dir / "nodir", log = dir / "log.txt";
    const std::string screenshot = "--preset thesis-stencil --window 1280x800 --frames 1 --screenshot '" + shot.string() + "'";
    EXPECT_EQ(vt::run_under_xvfb(vt::cacheviz_bin(), screenshot + " --state '" + (missing / "s.txt").string() + "'", log), 2);
    EXPECT_TRUE(contains(vt::read_file(log), "cacheviz: error: --state " + (missing / "s.txt").string() + ": cannot write"))
        << vt::read_file(log);
    EXPECT_FALSE(fs::exists(shot));
    EXPECT_EQ(vt::run_under_xvfb(vt::cacheviz_bin(), screenshot + " --layout '" + (missing / "l.txt").string() + "'", log), 2);
    EXPECT_TRUE(contains(vt::read_file(log), "--layout " + (missing / "l.txt").string() + ": cannot write")) << vt::read_file(log);
    EXPECT_FALSE(fs::exists(shot));
    EXPECT_EQ(vt::run_under_xvfb(vt::cacheviz_bin(), screenshot + " --state '" + shot.string() + "'", log), 2);
    EXPECT_TRUE(contains(vt::read_file(log), "are the same file")) << vt::read_file(log);
    EXPECT_FALSE(fs::exists(shot));
    const fs::path script = dir / "script.txt";
    std::ofstream(script) << "0 snapshot " << (missing / "snap").string() << "\n";
    EXPECT_EQ(vt::run_under_xvfb(vt::cacheviz_bin(), screenshot + " --script '" + script.string() + "'", log), 2);
    EXPECT_TRUE(contains(vt::read_file(log), (missing / "snap.png").string() + ": cannot write")) << vt::read_file(log);
    EXPECT_FALSE(fs::exists(shot));
    EXPECT_EQ(vt::run_under_xvfb(vt::cacheviz_bin(), screenshot + " --save-png '" + (missing / "v.png").string() + "'", log), 2);
    EXPECT_TRUE(contains(vt::read_file(log), "--save-png " + (missing / "v.png").string() + ": cannot write")) << vt::read_file(log);
    EXPECT_FALSE(fs::exists(shot));
    // A PNG named as another image format.
    const fs::path jpg = dir / "n.jpg";
    EXPECT_EQ(vt::run_under_xvfb(vt::cacheviz_bin(), "--preset thesis-stencil --window 1280x800 --frames 1 --screenshot '" +
                                                         jpg.string() + "'", log), 2);
    EXPECT_TRUE(contains(vt::read_file(log), "--screenshot " + jpg.string() + ": the image is a PNG, not jpg")) << vt::read_file(log);
    EXPECT_FALSE(fs::exists(jpg));
    // Writable outputs are written.
    EXPECT_EQ(vt::run_under_xvfb(vt::cacheviz_bin(), screenshot + " --state '" + (dir / "s.txt").string() + "'", log), 0)
        << vt::read_file(log);
    EXPECT_TRUE(fs::exists(shot));
    EXPECT_TRUE(fs::exists(dir / "s.txt"));
}

// An output that is a file the run reads (by any spelling: ./, a symlink, a hard link) is refused
// before the window opens, naming both options, and the input keeps its bytes: the first pane's
// --trace and --config, the --compare pane's, --start-warp-times and --script, whichever output
// option names it.
TEST(CachevizOptions, OutputsNeverReplaceInputs) {
    REQUIRE_GUI();
    const char* cachesim = std::getenv("CACHESIM_BIN");
    ASSERT_NE(cachesim, nullptr) << "CACHESIM_BIN is not set (ctest sets it)";
    const fs::path dir = vt::test_dir("optinputs");
    const fs::path trace = dir / "t.cst", other = dir / "other.cst", config = dir / "v.cfg", script = dir / "s.txt",
                   warps = dir / "w.csv", shot = dir / "shot.png", log = dir / "log.txt";
    ASSERT_EQ(std::system(("'" + std::string(cachesim) + "' trace -q -o '" + trace.string() + "'").c_str()), 0);
    const std::string trace_bytes = vt::read_file(trace);
    ASSERT_FALSE(trace_bytes.empty());
    fs::copy_file(trace, other);
    const std::string config_bytes = "l1-size = 64\n", script_bytes = "0 key Space\n",
                      warps_bytes = "kernel,width,height,stencil_w,stencil_h,depth,schedule,block_size,launch,block,warp,sm,"
                                    "slot,start_ns,end_ns\nmatmul,32,2,0,0,4,linear,32,0,0,0,0,0,0,90\n"
                                    "matmul,32,2,0,0,4,linear,32,0,1,0,0,1,0,90\n";
    std::ofstream(config, std::ios::binary) << config_bytes;
    std::ofstream(script, std::ios::binary) << script_bytes;
    std::ofstream(warps, std::ios::binary) << warps_bytes;
    const fs::path config_link = dir / "v-link.cfg", trace_hard = dir / "t-hard.cst";
    fs::create_symlink(config, config_link);
    fs::create_hard_link(trace, trace_hard);
    const std::string dotted_trace = (dir / "." / "t.cst").string();
    const std::string rest = " --window 1280x800 --frames 1";
    const std::string warp_launch = "--workload matmul --size 32x2 --depth 4 --start-gpu h200 --start-block 32";
    struct Case {
        std::string args, output, output_path, input, input_path;
    };
    const Case cases[] = {
        {"--trace '" + trace.string() + "' --screenshot '" + trace.string() + "'", "--screenshot", trace.string(), "--trace",
         trace.string()},
        {"--trace '" + trace.string() + "' --screenshot '" + shot.string() + "' --state '" + dotted_trace + "'", "--state",
         dotted_trace, "--trace", trace.string()},
        {"--config '" + config.string() + "' --screenshot '" + config.string() + "'", "--screenshot", config.string(),
         "--config", config.string()},
        {"--config '" + config_link.string() + "' --screenshot '" + shot.string() + "' --layout '" + config.string() + "'",
         "--layout", config.string(), "--config", config_link.string()},
        {"--trace '" + other.string() + "' --compare '--trace " + trace.string() + "' --screenshot '" + shot.string() +
             "' --save-png '" + trace_hard.string() + "'",
         "--save-png", trace_hard.string(), "--compare's --trace", trace.string()},
        {"--preset thesis-stencil --compare '--config " + config.string() + "' --screenshot '" + config_link.string() + "'",
         "--screenshot", config_link.string(), "--compare's --config", config.string()},
        {"--preset thesis-stencil --script '" + script.string() + "' --screenshot '" + shot.string() + "' --state '" +
             script.string() + "'",
         "--state", script.string(), "--script", script.string()},
        {warp_launch + " --start-warp-times '" + warps.string() + "' --screenshot '" + warps.string() + "'", "--screenshot",
         warps.string(), "--start-warp-times", warps.string()},
    };
    for (const Case& c : cases) {
        EXPECT_EQ(vt::run_under_xvfb(vt::cacheviz_bin(), c.args + rest, log), 2) << c.args << "\n" << vt::read_file(log);
        EXPECT_EQ(vt::read_file(log), "cacheviz: error: " + c.output + " " + c.output_path + ": that is the file " + c.input +
                                          " reads (" + c.input_path + "); writing there would destroy it: give another output path\n")
            << c.args;
        // Compared whole rather than printed: a replaced trace would be a PNG's bytes.
        for (const auto& [file, bytes] : {std::pair{trace, trace_bytes}, {other, trace_bytes}, {config, config_bytes},
                                          {script, script_bytes}, {warps, warps_bytes}})
            EXPECT_TRUE(vt::read_file(file) == bytes) << file << " changed by " << c.args;
        EXPECT_TRUE(fs::is_symlink(config_link)) << c.args;
        EXPECT_FALSE(fs::exists(shot)) << c.args;
    }
    // Two outputs naming one file: --save-png is checked against the others too.
    EXPECT_EQ(vt::run_under_xvfb(vt::cacheviz_bin(),
                                 "--preset thesis-stencil --screenshot '" + shot.string() + "' --save-png '" +
                                     (dir / "." / "shot.png").string() + "'" + rest,
                                 log),
              2);
    EXPECT_EQ(vt::read_file(log), "cacheviz: error: --screenshot " + shot.string() + " and --save-png " +
                                      (dir / "." / "shot.png").string() + " are the same file: one would replace the other\n");
    EXPECT_FALSE(fs::exists(shot));
}

// Ctrl+S saves to --save-png, by default cacheviz-view.png in the working directory. Where that
// is a file the run reads, the save is refused in the status line and the session goes on, the
// file keeping its bytes; otherwise the default name is written as before.
TEST(CachevizOptions, TheDefaultSaveNameNeverReplacesAnInput) {
    REQUIRE_GUI();
    const fs::path dir = vt::test_dir("optdefaultsave");
    const fs::path log = dir / "log.txt", state = dir / "state.txt";
    const std::string config_bytes = "l1-size = 64\n";
    std::ofstream(dir / "cacheviz-view.png", std::ios::binary) << config_bytes;
    std::ofstream(dir / "v.cfg", std::ios::binary) << config_bytes;
    std::ofstream(dir / "keys.txt", std::ios::binary) << "1 key ctrl+S\n";
    // Run in `dir` (env -C), where the default name lands.
    const auto save_with_config = [&](const std::string& config) {
        fs::remove(state);
        return vt::run_under_xvfb("env", "-C '" + dir.string() + "' '" + vt::cacheviz_bin() + "' --config " + config +
                                             " --window 1280x800 --frames 2 --script keys.txt --screenshot shot.png "
                                             "--state state.txt",
                                  log);
    };
    const auto status = [&] {
        std::istringstream lines(vt::read_file(state));
        for (std::string line; std::getline(lines, line);)
            if (line.rfind("status ", 0) == 0) return line.substr(7);
        return std::string("(no status line)");
    };

    ASSERT_EQ(save_with_config("cacheviz-view.png"), 0) << vt::read_file(log);
    EXPECT_EQ(status(), "not saved: the default --save-png cacheviz-view.png: that is the file --config reads "
                        "(cacheviz-view.png); writing there would destroy it: give another output path");
    EXPECT_TRUE(vt::read_file(dir / "cacheviz-view.png") == config_bytes);
    EXPECT_TRUE(fs::exists(dir / "shot.png"));  // the session went on to its screenshot

    fs::remove(dir / "cacheviz-view.png");
    ASSERT_EQ(save_with_config("v.cfg"), 0) << vt::read_file(log);
    EXPECT_EQ(status(), "saved the window to cacheviz-view.png");
    EXPECT_EQ(vt::read_file(dir / "cacheviz-view.png").substr(0, 4), "\x89PNG");
}

// A compare pane that switches the workload leaves the first pane's shape behind (its box is the
// stencil's alone), and takes its own: the stencil 16x16 with a 5x5 box beside the 16x16 matmul of
// depth 8. Both panes' steps are known up front, so a zoom into the longer one is accepted.
TEST(CachevizOptions, AComparePaneOfTheOtherWorkloadTakesOnlyItsOwnShape) {
    const fs::path dir = vt::test_dir("optcompareworkload");
    const fs::path state = dir / "s.txt", log = dir / "log.txt";
    const std::string shot = " --frames 2 --screenshot '" + (dir / "shot.png").string() + "'";
    ASSERT_EQ(vt::run_under_xvfb(vt::cacheviz_bin(),
                                 "--size 16x16 --stencil 5x5 --compare '--workload matmul --depth 8'" + shot + " --state '" +
                                     state.string() + "'",
                                 log),
              0)
        << vt::read_file(log);
    const std::string text = vt::read_file(state);
    EXPECT_TRUE(contains(text, "pane A shown stencil 16x16, 5x5 box")) << text;
    EXPECT_TRUE(contains(text, "pane B shown matmul 16x16, depth 8")) << text;
    // 16 x 16 and 32 x 32 work items: the shared axis has the longer pane's 1,024 steps.
    EXPECT_EQ(vt::run_under_xvfb(vt::cacheviz_bin(), "--size 16x16 --compare '--size 32x32' --zoom 0:1024" + shot, log), 0)
        << vt::read_file(log);
    EXPECT_EQ(no_display("--size 16x16 --compare '--size 32x32' --zoom 0:1025" + shot, log), 2);
    EXPECT_EQ(vt::read_file(log), "cacheviz: error: --zoom: the run has 1024 steps (0:1024)\n");
}

// The first pane takes `cachesim simulate`'s GPU model options, on the command line and in a
// --config file, as the --compare pane does: the pane's export command spells out its run, so it
// shows the values given (and the compare pane keeps them under its own --sms).
TEST(CachevizOptions, TheFirstPaneTakesTheGpuModelOptions) {
    REQUIRE_GUI();
    const fs::path dir = vt::test_dir("optgpu");
    const fs::path state = dir / "s.txt", log = dir / "log.txt", config = dir / "g.cfg";
    const std::string outputs = " --frames 2 --screenshot '" + (dir / "shot.png").string() + "' --state '" + state.string() + "'";
    ASSERT_EQ(vt::run_under_xvfb(vt::cacheviz_bin(),
                                 "--preset h200 --size 64x64 --block 128 --sms 4 --warp-scheduler gto --l2-partitions 1 "
                                 "--hit-sources --compare '--sms 2'" + outputs,
                                 log),
              0)
        << vt::read_file(log);
    const vt::State s(vt::read_file(state));
    const std::string a = " " + s.value("pane A command") + " ", b = " " + s.value("pane B command") + " ";
    for (const char* part : {" --model gpu ", " --size 64x64 ", " --block 128 ", " --sms 4 ", " --warp-scheduler gto ",
                             " --l2-partitions 1 "})
        EXPECT_TRUE(contains(a, part)) << part << " not in pane A's" << a;
    for (const char* part : {" --model gpu ", " --block 128 ", " --sms 2 ", " --warp-scheduler gto "})
        EXPECT_TRUE(contains(b, part)) << part << " not in pane B's" << b;

    // A config file that `cachesim simulate --config` runs.
    std::ofstream(config) << "preset = h200\nsms = 4\nblock = 128\nsize = 64x64\nhit-sources = true\n";
    ASSERT_EQ(vt::run_under_xvfb(vt::cacheviz_bin(), "--config '" + config.string() + "'" + outputs, log), 0)
        << vt::read_file(log);
    const std::string from_file = " " + vt::State(vt::read_file(state)).value("pane A command") + " ";
    for (const char* part : {" --model gpu ", " --size 64x64 ", " --block 128 ", " --sms 4 "})
        EXPECT_TRUE(contains(from_file, part)) << part << " not in pane A's" << from_file;
}

// The first pane's GPU comes from --model gpu (or a GPU preset) and the GPU model's options, or
// from --start-gpu with --start-block and --start-sms: given both ways, one would go unused, so
// the run is refused naming both. --hit-sources needs a GPU pane, as in `cachesim simulate`.
TEST(CachevizOptions, TheGpuGivenTwoWaysIsRefused) {
    if (vt::cacheviz_bin().empty()) GTEST_SKIP() << "cacheviz is not built";
    const fs::path dir = vt::test_dir("optgputwice");
    const std::pair<std::string, std::string> cases[] = {
        {"--start-gpu h200 --start-block 64 --block 128",
         "--block and --start-block both set the first pane's threads per block: give one (--block with --model gpu or a "
         "GPU preset, --start-block with --start-gpu)"},
        {"--model gpu --sms 4 --start-gpu h200 --start-sms 2",
         "--sms and --start-sms both set the first pane's number of SMs: give one (--sms with --model gpu or a GPU preset, "
         "--start-sms with --start-gpu)"},
        {"--start-gpu h200 --warp-scheduler gto",
         "--warp-scheduler and --start-gpu both describe the first pane's GPU: give it with --model gpu (or a GPU preset) "
         "and its options, or with --start-gpu, --start-block and --start-sms"},
        {"--model gpu --start-gpu h200", "--start-gpu h200 and --model gpu both put the first pane on the GPU model: give one"},
        {"--preset h200 --start-gpu h100", "--start-gpu h100 and --preset h200 both put the first pane on the GPU model: give one"},
        {"--start-gpu h200 --compare '--model gpu --sms 4'",
         "--compare \"--model gpu --sms 4\": --start-gpu h200 puts both panes on its GPU, and these options choose the GPU "
         "model too: give one"},
        {"--hit-sources",
         "--hit-sources counts the GPU model's L1 hits: it needs --model gpu (or a GPU preset) or --start-gpu"},
        {"--model gpu --hit-sources --compare '--model thread'",
         "--compare \"--model thread\": --hit-sources counts the GPU model's L1 hits: it needs --model gpu (or a GPU "
         "preset) or --start-gpu"},
    };
    for (const auto& [args, message] : cases) {
        EXPECT_EQ(no_display("--size 64x64 " + args + " --screenshot x.png", dir / "log.txt"), 2) << args;
        EXPECT_EQ(vt::read_file(dir / "log.txt"), "cacheviz: error: " + message + "\n") << args;
    }
}

// Colouring by SM or by who brought a line needs the GPU model, which records both; on the
// thread model it is refused as `cachesim diagram` refuses it, and taken with --start-gpu.
TEST(CachevizOptions, ColouringByGpuDataNeedsTheGpuModel) {
    if (vt::cacheviz_bin().empty()) GTEST_SKIP() << "cacheviz is not built";
    const fs::path dir = vt::test_dir("optcolourby");
    const fs::path log = dir / "log.txt", state = dir / "s.txt";
    EXPECT_EQ(no_display("--colour-by sm --screenshot x.png", log), 2);
    EXPECT_EQ(vt::read_file(log), "cacheviz: error: --colour-by sm: needs --model gpu or --start-gpu (the thread model has no SMs)\n");
    EXPECT_EQ(no_display("--color-by source --size 64x64 --screenshot x.png", log), 2);
    EXPECT_EQ(vt::read_file(log),
              "cacheviz: error: --colour-by source: needs --model gpu or --start-gpu (the thread model has no warps or blocks)\n");
    REQUIRE_GUI();
    const std::string run = "--size 64x64 --frames 2 --screenshot '" + (dir / "shot.png").string() + "' --state '" +
                            state.string() + "' --colour-by ";
    for (const char* gpu : {"--start-gpu h200 --start-sms 4 --start-block 64", "--model gpu --sms 4 --block 64"}) {
        ASSERT_EQ(vt::run_under_xvfb(vt::cacheviz_bin(), std::string(gpu) + " " + run + "sm", log), 0) << gpu << "\n" << vt::read_file(log);
        EXPECT_EQ(vt::State(vt::read_file(state)).value("colour_by"), "sm") << gpu;
    }
}

// --warp-times as `cachesim simulate` takes it, on the command line of a --model gpu (or GPU
// preset) pane: the pane replays the measured order and counts what simulate counts; the compare
// pane inherits it as any other simulation option. With --start-gpu the measured order is
// --start-warp-times, so --warp-times there is refused naming both.
TEST(CachevizOptions, TheFirstPaneTakesWarpTimes) {
    REQUIRE_GUI();
    const char* cachesim = std::getenv("CACHESIM_BIN");
    ASSERT_NE(cachesim, nullptr) << "CACHESIM_BIN is not set (ctest sets it)";
    const fs::path dir = vt::test_dir("optwarptimes");
    const fs::path warps = dir / "w.csv", state = dir / "s.txt", log = dir / "log.txt", simulated = dir / "sim.txt";
    // Two warps of one row each, both on SM 0, over the same interval.
    std::ofstream(warps) << "kernel,width,height,stencil_w,stencil_h,depth,schedule,block_size,launch,block,warp,sm,"
                            "slot,start_ns,end_ns\nmatmul,32,2,0,0,4,linear,32,0,0,0,0,0,0,90\n"
                            "matmul,32,2,0,0,4,linear,32,0,1,0,0,1,0,90\n";
    const std::string run = "--workload matmul --size 32x2 --depth 4 --preset h200 --block 32 --warp-times '" + warps.string() + "'";
    ASSERT_EQ(vt::run_under_xvfb(vt::cacheviz_bin(),
                                 run + " --compare '--l1-size 8K' --frames 2 --screenshot '" + (dir / "shot.png").string() +
                                     "' --state '" + state.string() + "'",
                                 log),
              0)
        << vt::read_file(log);
    const vt::State s(vt::read_file(state));
    // A step is a request: each warp loads A and B in each of 4 iterations and stores once.
    EXPECT_EQ(s.value("pane A stat model"), "= GPU h200 (18 requests, measured order)");
    EXPECT_EQ(s.value("pane B stat model"), "= GPU h200 (18 requests, measured order)");
    EXPECT_TRUE(contains(" " + s.value("pane B command") + " ", " --warp-times " + warps.string() + " "))
        << s.value("pane B command");
    // The copied command leaves out what --warp-times refuses, and runs.
    const std::string command = s.value("pane A command").substr(2);  // after "= "
    EXPECT_FALSE(contains(command, " --warp-scheduler ")) << command;
    const std::string copied = "'" + std::string(cachesim) + "' " + command.substr(command.find("diagram"));
    const std::string copied_out = (dir / "copied.png").string();
    EXPECT_EQ(std::system((copied.substr(0, copied.rfind(" --out ")) + " --out '" + copied_out + "' > '" +
                           log.string() + "' 2>&1").c_str()),
              0)
        << vt::read_file(log);
    // The L1's rate is simulate's for the same replay (its first "all" line is the L1's).
    ASSERT_EQ(std::system(("'" + std::string(cachesim) + "' simulate " + run + " > '" + simulated.string() + "'").c_str()), 0);
    std::istringstream lines(vt::read_file(simulated));
    std::string line, l1_rate;
    while (l1_rate.empty() && std::getline(lines, line))
        if (line.rfind("  all ", 0) == 0) l1_rate = line.substr(line.find("hit rate ") + 9);
    ASSERT_FALSE(l1_rate.empty()) << vt::read_file(simulated);
    EXPECT_EQ(s.value("pane A stat first level hit rate"), "= " + l1_rate);

    EXPECT_EQ(no_display("--workload matmul --size 32x2 --depth 4 --start-gpu h200 --start-block 32 --warp-times '" +
                             warps.string() + "'",
                         log),
              2);
    EXPECT_EQ(vt::read_file(log),
              "cacheviz: error: --warp-times and --start-gpu: the measured warp order of a --start-gpu pane is "
              "--start-warp-times (--warp-times goes with --model gpu or a GPU preset)\n");
}
