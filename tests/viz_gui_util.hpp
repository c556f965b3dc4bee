#pragma once
// Running cacheviz under a virtual X server (xvfb-run; CI has no display) and reading what it
// wrote: shared by the GUI tests.
#include <sys/wait.h>
#include <unistd.h>

#include <algorithm>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <sstream>
#include <string>
#include <vector>

namespace cachesim::viz::testing {

// The cacheviz binary the test target was built against (CACHEVIZ_BIN), or "" without cacheviz.
inline std::string cacheviz_bin() {
#ifdef CACHEVIZ_BIN
    return CACHEVIZ_BIN;
#else
    return "";
#endif
}

// Skips the test without cacheviz; fails it without xvfb-run.
#define REQUIRE_GUI()                                                                                                   \
    if (cachesim::viz::testing::cacheviz_bin().empty()) GTEST_SKIP() << "cacheviz is not built (SFML, ImGui or OpenGL missing)"; \
    ASSERT_EQ(std::system("command -v xvfb-run >/dev/null"), 0) << "xvfb-run is missing (scripts/setup.sh installs xvfb)"

// A directory of this test process's own for one run's files.
inline std::filesystem::path test_dir(const std::string& name) {
    const std::filesystem::path dir =
        std::filesystem::temp_directory_path() / ("cacheviz-" + name + "-" + std::to_string(::getpid()));
    std::filesystem::create_directories(dir);
    return dir;
}

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

// What cacheviz --state wrote: "key value" lines.
struct State {
    std::vector<std::string> lines;
    explicit State(const std::string& text) {
        std::istringstream in(text);
        for (std::string l; std::getline(in, l);) lines.push_back(l);
    }
    // The rest of the first line that starts with `key` and a space.
    std::string value(const std::string& key) const {
        for (const std::string& l : lines)
            if (l.rfind(key + " ", 0) == 0) return l.substr(key.size() + 1);
        return "<missing " + key + ">";
    }
    std::vector<double> numbers(const std::string& key) const {
        std::istringstream in(value(key));
        std::vector<double> v;
        for (double x; in >> x;) v.push_back(x);
        return v;
    }
    bool has(const std::string& line) const { return std::find(lines.begin(), lines.end(), line) != lines.end(); }
    bool any_starting(const std::string& prefix) const {
        return std::any_of(lines.begin(), lines.end(), [&](const std::string& l) { return l.rfind(prefix, 0) == 0; });
    }
};

// The placement of the diagram named `key` ("diagram", "diagram_b") in a --layout file.
inline Placement read_placement(const std::filesystem::path& layout, const std::string& key = "diagram") {
    std::istringstream in(read_file(layout));
    Placement p{};
    for (std::string line; std::getline(in, line);) {
        std::istringstream words(line);
        std::string tag;
        words >> tag;
        if (tag == key) words >> p.x >> p.y >> p.w >> p.h >> p.t0 >> p.t1 >> p.r0 >> p.r1;
    }
    return p;
}

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
