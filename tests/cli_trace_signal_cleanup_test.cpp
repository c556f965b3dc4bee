// An interrupted `cachesim trace` never leaves a half-written trace: SIGINT and SIGTERM remove the
// temporary file and end the process by that signal; after kill -9 the target keeps its old
// content and the next write to it removes the dead process's temporary (not a live one's).
#include <gtest/gtest.h>

#include <unistd.h>

#include <cstdio>
#include <cstdlib>

#include <filesystem>
#include <fstream>
#include <system_error>

#include "tests/cli_process.hpp"
#include "tests/cli_util.hpp"
#include "tests/scratch_dir.hpp"

namespace cachesim {
namespace {

namespace fs = std::filesystem;

// Seconds of work: plenty of time to interrupt it mid-write.
const std::string kLongTrace = "trace -q --backend generator --size 2048x2048 --stencil 9x9 -o ";

// Starts the long trace into dir/out.cst (holding "old") and waits until its temporary has data.
std::unique_ptr<test::BackgroundRun> start_trace(const fs::path& dir, fs::path& temp) {
    std::ofstream(dir / "out.cst") << "old";
    auto run = std::make_unique<test::BackgroundRun>(kLongTrace + "'" + (dir / "out.cst").string() + "'",
                                                     (dir.parent_path() / (dir.filename().string() + ".log")).string());
    temp = dir / ("out.cst.tmp." + std::to_string(run->pid()));
    // The writability check creates and removes a file of the same name before the trace starts,
    // so the name may vanish between two looks: ask for the size alone, without throwing.
    const bool writing = run->wait_until([&] {
        std::error_code error;
        const auto size = fs::file_size(temp, error);
        return !error && size > 4096;
    });
    EXPECT_TRUE(writing) << "the trace ended before it could be interrupted";
    return run;
}

TEST(CliTraceSignalCleanup, SigintAndSigtermRemoveTheTemporary) {
    for (int signal_number : {SIGINT, SIGTERM}) {
        const fs::path dir = test::fresh_dir(test::temp_dir() / ("signal" + std::to_string(signal_number)));
        fs::path temp;
        auto run = start_trace(dir, temp);
        run->signal(signal_number);
        EXPECT_EQ(run->wait(), 128 + signal_number);  // still ended by the signal
        EXPECT_FALSE(fs::exists(temp));
        EXPECT_EQ(test::read_file(dir / "out.cst"), "old");
        EXPECT_EQ(test::files_in(dir), 1u);
    }
}

// An Accel-Sim trace of `blocks` blocks of 8 warps, each 40 loads to addresses of its own.
void write_traceg(const fs::path& path, int blocks) {
    std::ofstream out(path);
    out << "-kernel name = big\n-kernel id = 1\n-grid dim = (" << blocks << ",1,1)\n-block dim = (256,1,1)\n"
        << "-shmem base_addr = 0x7f0000000000\n-local mem base_addr = 0x7f1000000000\n-accelsim tracer version = 3\n\n";
    char line[96];
    for (int b = 0; b < blocks; ++b) {
        out << "#BEGIN_TB\n\nthread block = " << b << ",0,0\n\n";
        for (int w = 0; w < 8; ++w) {
            out << "warp = " << w << "\ninsts = 41\n";
            for (int i = 0; i < 40; ++i) {
                std::snprintf(line, sizeof line, "%04x ffffffff 1 R2 LDG.E 1 R4 4 1 0x%x 4 \n", 0x10 + i * 16,
                              0x10000000 + (b * 8 + w) * 128 + i * 0x100000);
                out << line;
            }
            std::snprintf(line, sizeof line, "%04x ffffffff 0 EXIT 0 0 \n", 0x10 + 40 * 16);
            out << line;
        }
        out << "\n#END_TB\n\n";
    }
}

TEST(CliTraceSignalCleanup, AnInterruptedAccelSimReplayRemovesItsConversion) {
    const fs::path dir = test::fresh_dir(test::temp_dir() / "traceg_signal");
    const fs::path temp_root = test::fresh_dir(dir / "tmp");
    write_traceg(dir / "kernel-1.traceg", 2000);
    // The conversion goes to a directory of its own under TMPDIR, which the child inherits.
    const char* saved = std::getenv("TMPDIR");
    const std::string restore = saved ? saved : "";
    ::setenv("TMPDIR", temp_root.c_str(), 1);
    for (int signal_number : {SIGINT, SIGTERM}) {
        test::BackgroundRun run("simulate -q --model gpu --trace '" + (dir / "kernel-1.traceg").string() + "'",
                                (dir / "run.log").string());
        const bool converting = run.wait_until([&] {
            std::error_code ec;  // the directory may come and go while it is read
            for (auto it = fs::recursive_directory_iterator(temp_root, ec); !ec && it != fs::recursive_directory_iterator();
                 it.increment(ec))
                if (it->is_regular_file(ec) && fs::file_size(it->path(), ec) > 0 && !ec) return true;
            return false;
        });
        EXPECT_TRUE(converting) << "the replay ended before it could be interrupted";
        run.signal(signal_number);
        EXPECT_EQ(run.wait(), 128 + signal_number);
        EXPECT_EQ(test::files_in(temp_root), 0u) << "signal " << signal_number;
    }
    if (saved) ::setenv("TMPDIR", restore.c_str(), 1);
    else ::unsetenv("TMPDIR");
}

TEST(CliTraceSignalCleanup, TheNextWriteRemovesTemporariesOfDeadProcessesOnly) {
    const fs::path dir = test::fresh_dir(test::temp_dir() / "kill9");
    fs::path temp;
    auto run = start_trace(dir, temp);
    run->signal(SIGKILL);
    EXPECT_EQ(run->wait(), 128 + SIGKILL);
    EXPECT_EQ(test::read_file(dir / "out.cst"), "old");  // never half-written
    EXPECT_TRUE(fs::exists(temp));                          // nothing can clean up after kill -9
    // A temporary of a live process (this test) is another writer's work in progress.
    const fs::path live = dir / ("out.cst.tmp." + std::to_string(::getpid()));
    std::ofstream(live) << "in progress";
    const auto r = test::run_cachesim("trace -q --size 8x8 -o '" + (dir / "out.cst").string() + "'");
    ASSERT_EQ(r.exit_code, 0) << r.err;
    EXPECT_FALSE(fs::exists(temp));
    EXPECT_TRUE(fs::exists(live));
    EXPECT_NE(test::read_file(dir / "out.cst"), "old");
}

}  // namespace
}  // namespace cachesim
