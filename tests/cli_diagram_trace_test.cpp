// `cachesim diagram --trace` draws a kernel recorded by examples/record_kernel_host (the naive
// transpose of an 8 x 2 float matrix in blocks of 4 x 2) with the thread model and the GPU model,
// time and array views; the copied picture's cells are checked in viz_trace_diagram_test. Traces
// without an array layout to draw (din, u64, a version 1 cst converted from din) stay a clear error,
// exit 2.
#include <gtest/gtest.h>

#include <filesystem>
#include <fstream>
#include <string>

#include "tests/cli_util.hpp"
#include "viz/canvas.hpp"

namespace cachesim {
namespace {

namespace fs = std::filesystem;
using test::run_cachesim;

fs::path recorded_transpose() {
    const fs::path path = test::temp_dir() / "transpose.cst";
    if (fs::exists(path)) return path;
    const std::string command = std::string("'") + RECORD_KERNEL_HOST_BIN + "' transpose 8x2 4x2 '" + path.string() + "' >/dev/null";
    EXPECT_EQ(std::system(command.c_str()), 0) << command;
    return path;
}

std::string quoted(const fs::path& p) { return "'" + p.string() + "'"; }

// The PNG is written whole, at the asked size.
void expect_png(const fs::path& png, int width, int height) {
    std::ifstream in(png, std::ios::binary);
    const std::string bytes((std::istreambuf_iterator<char>(in)), std::istreambuf_iterator<char>());
    const viz::Canvas c = viz::decode_png(bytes);
    EXPECT_EQ(c.width(), width) << png;
    EXPECT_EQ(c.height(), height) << png;
}

TEST(CliDiagramTrace, ThreadModelTimeAndArrayViews) {
    const fs::path trace = recorded_transpose(), png = test::temp_dir() / "thread.png";
    auto r = run_cachesim("diagram --trace " + quoted(trace) + " --out " + quoted(png));
    ASSERT_EQ(r.exit_code, 0) << r.err;
    expect_png(png, 1400, 800);
    r = run_cachesim("diagram --trace " + quoted(trace) + " --view array --time 4 --out " + quoted(png));
    ASSERT_EQ(r.exit_code, 0) << r.err;
    expect_png(png, 1200, 700);
    // 16 threads: steps 0..15.
    r = run_cachesim("diagram --trace " + quoted(trace) + " --view array --time 16 --out " + quoted(png));
    EXPECT_EQ(r.exit_code, 2);
    EXPECT_NE(r.err.find("past the last step 15"), std::string::npos) << r.err;
    r = run_cachesim("diagram --trace " + quoted(trace) + " --lines 0:4 --out " + quoted(png));
    EXPECT_EQ(r.exit_code, 0) << r.err;
}

TEST(CliDiagramTrace, GpuModelReplaysTheRecordedBlocks) {
    const fs::path trace = recorded_transpose(), png = test::temp_dir() / "gpu.png";
    auto r = run_cachesim("diagram --model gpu --trace " + quoted(trace) + " --out " + quoted(png));
    ASSERT_EQ(r.exit_code, 0) << r.err;
    expect_png(png, 2000, 800);  // with the memory chart
    r = run_cachesim("diagram --model gpu --trace " + quoted(trace) + " --colour-by sm --out " + quoted(png));
    EXPECT_EQ(r.exit_code, 0) << r.err;
    r = run_cachesim("diagram --model gpu --trace " + quoted(trace) + " --view array --out " + quoted(png));
    EXPECT_EQ(r.exit_code, 0) << r.err;
}

TEST(CliDiagramTrace, TracesWithoutAnArrayLayoutAreRefused) {
    const fs::path png = test::temp_dir() / "never.png";
    const fs::path din = test::temp_dir() / "a.din", u64 = test::temp_dir() / "a.u64", v1 = test::temp_dir() / "v1.cst";
    std::ofstream(din) << "0 1000\n1 2000\n";
    {
        std::ofstream out(u64, std::ios::binary);
        const std::uint64_t address = 4096;
        out.write(reinterpret_cast<const char*>(&address), sizeof address);
    }
    ASSERT_EQ(run_cachesim("trace -q --trace " + quoted(din) + " -o " + quoted(v1)).exit_code, 0);
    const std::pair<std::string, std::string> cases[] = {
        {"--trace " + quoted(din), "a.din: a din trace: it has no array layout to draw"},
        {"--trace " + quoted(u64) + " --trace-format u64", "a.u64: a u64 trace: it has no array layout to draw"},
        {"--trace " + quoted(v1), "v1.cst: a version 1 cst trace converted from a plain (din/u64) trace: it has no "
                                  "array layout to draw"},
        {"--model gpu --trace " + quoted(din), "--model gpu replays cst traces of a launch"},
    };
    for (const auto& [args, message] : cases) {
        const auto r = run_cachesim("diagram " + args + " --out " + quoted(png));
        EXPECT_EQ(r.exit_code, 2) << args;
        EXPECT_NE(r.err.find(message), std::string::npos) << args << "\n" << r.err;
        EXPECT_FALSE(fs::exists(png)) << args;
    }
}

}  // namespace
}  // namespace cachesim
