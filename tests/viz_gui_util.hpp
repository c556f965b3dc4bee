#pragma once
// Running cacheviz under a virtual X server (xvfb-run; CI has no display) and reading what it
// wrote: shared by the GUI tests.
#include <sys/wait.h>
#include <unistd.h>

#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <sstream>
#include <string>

namespace cachesim::viz::testing {

inline std::string read_file(const std::filesystem::path& p) {
    std::ifstream in(p, std::ios::binary);
    std::ostringstream s;
    s << in.rdbuf();
    return s.str();
}

// Where a diagram was drawn (cacheviz --layout).
struct Placement {
    double x, y, w, h, t0, t1, r0, r1;
    // Screen pixel at the centre of (step, row).
    int px(double step) const { return static_cast<int>(x + (step + 0.5 - t0) * w / (t1 - t0)); }
    int py(double row) const { return static_cast<int>(y + (row + 0.5 - r0) * h / (r1 - r0)); }
};

// Runs `bin args` under xvfb-run with stdout and stderr to `log`; the exit code.
inline int run_under_xvfb(const std::string& bin, const std::string& args, const std::filesystem::path& log) {
    const std::string cmd = "xvfb-run -a -s '-screen 0 1920x1080x24' '" + bin + "' " + args + " >'" + log.string() + "' 2>&1";
    // xvfb-run itself sometimes fails around the program (a display-number race when tests run
    // in parallel: exit 1 "Xvfb failed to start", or exit 5 cleaning up its directory): retry.
    int code = -1;
    for (int attempt = 0; attempt < 3; ++attempt) {
        const int status = std::system(cmd.c_str());
        code = WIFEXITED(status) ? WEXITSTATUS(status) : 128 + WTERMSIG(status);
        const std::string out = read_file(log);
        const bool xvfb_failed = code == 5 || (code == 1 && out.find("Xvfb failed to start") != std::string::npos);
        if (!xvfb_failed) break;
    }
    return code;
}

}  // namespace cachesim::viz::testing
