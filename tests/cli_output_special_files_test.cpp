// Outputs to special paths do what a user expects: /dev/null stays the device, /dev/stdout and a
// FIFO receive the output, a symlink keeps pointing at its (replaced) target, and a replaced
// file keeps its mode. Checked through every subcommand that writes a file.
#include <gtest/gtest.h>

#include <sys/stat.h>
#include <sys/types.h>

#include <filesystem>
#include <future>
#include <string>

#include "tests/cli_util.hpp"
#include "tests/scratch_dir.hpp"

namespace cachesim {
namespace {

namespace fs = std::filesystem;
using test::run_cachesim;

// Every subcommand's output option, writing to `target` (a path, quoted here).
std::vector<std::string> writers(const std::string& target) {
    const std::string t = "'" + target + "'";
    return {"simulate --format csv -o " + t,
            "trace -q --size 8x8 -o " + t,
            "diagram --size 8x8 -o " + t,
            "sweep -q --size 8x8 --l1-size 256,512 -o " + t,
            "sweep -q --size 8x8 --l1-size 256,512 --plot " + t};
}

TEST(CliOutputSpecialFiles, DevNullStaysTheDevice) {
    struct stat before {};
    ASSERT_EQ(::stat("/dev/null", &before), 0);
    ASSERT_TRUE(S_ISCHR(before.st_mode));
    for (const std::string& command : writers("/dev/null")) {
        const auto r = run_cachesim(command);
        EXPECT_EQ(r.exit_code, 0) << command << "\n" << r.err;
        struct stat after {};
        ASSERT_EQ(::stat("/dev/null", &after), 0);
        EXPECT_TRUE(S_ISCHR(after.st_mode)) << command << " replaced /dev/null";
        EXPECT_EQ(after.st_rdev, before.st_rdev) << command;
    }
    EXPECT_FALSE(fs::exists("/dev/null.partial"));
    EXPECT_FALSE(fs::exists("/dev/null.lock"));
}

TEST(CliOutputSpecialFiles, DevStdoutReceivesTheOutput) {
    const auto r = run_cachesim("simulate --format csv -o /dev/stdout");
    ASSERT_EQ(r.exit_code, 0) << r.err;
    EXPECT_EQ(r.out.rfind("model,workload,", 0), 0u) << r.out;
    const auto sweep = run_cachesim("sweep -q --size 8x8 --l1-size 256,512 -o /dev/stdout");
    ASSERT_EQ(sweep.exit_code, 0) << sweep.err;
    EXPECT_EQ(sweep.out.rfind("sweep_config,", 0), 0u) << sweep.out;
    // A trace on stdout is the trace alone (its summary goes to stderr), readable as a file.
    const auto trace = run_cachesim("trace -q --size 8x8 -o /dev/stdout");
    ASSERT_EQ(trace.exit_code, 0) << trace.err;
    const fs::path saved = test::temp_dir() / "stdout.cst";
    std::ofstream(saved, std::ios::binary) << trace.out;
    EXPECT_NE(trace.err.find("wrote /dev/stdout: 64 threads"), std::string::npos) << trace.err;
    const auto info = run_cachesim("info '" + saved.string() + "'");
    EXPECT_EQ(info.exit_code, 0) << info.err;
}

TEST(CliOutputSpecialFiles, ADashIsStandardOutput) {
    const auto report = run_cachesim("simulate -q --format csv -o -");
    ASSERT_EQ(report.exit_code, 0) << report.err;
    EXPECT_EQ(report.out.rfind("model,workload,", 0), 0u) << report.out;
    EXPECT_FALSE(fs::exists("-"));
    const auto trace = run_cachesim("trace -q --size 8x8 -o -");
    ASSERT_EQ(trace.exit_code, 0) << trace.err;
    EXPECT_EQ(trace.out.rfind("CSTRACE", 0), 0u);  // the trace alone: its summary on stderr
    EXPECT_NE(trace.err.find("wrote -: 64 threads"), std::string::npos) << trace.err;
    // A diagram on stdout is the PNG alone: it ends with the 12-byte IEND chunk (length 0, type,
    // CRC ae 42 60 82), with nothing after it.
    for (const char* out : {"-", "/dev/stdout"}) {
        const auto png = run_cachesim(std::string("diagram -q --preset thesis-stencil --out ") + out);
        ASSERT_EQ(png.exit_code, 0) << png.err;
        ASSERT_GT(png.out.size(), 12u);
        EXPECT_EQ(png.out.substr(png.out.size() - 8), std::string("IEND\xae\x42\x60\x82")) << out;
        EXPECT_NE(png.err.find(std::string("wrote ") + out), std::string::npos) << png.err;
    }
}

TEST(CliOutputSpecialFiles, AFifoIsWrittenThroughToItsReader) {
    const fs::path dir = test::fresh_dir(test::temp_dir() / "fifo");
    const fs::path fifo = dir / "pipe";
    for (const std::string& command : writers(fifo.string())) {
        fs::remove(fifo);
        ASSERT_EQ(::mkfifo(fifo.c_str(), 0644), 0);
        // The reader runs beside the writer: opening a FIFO for writing waits for one.
        auto reader = std::async(std::launch::async, [&] { return test::read_file(fifo); });
        const auto r = run_cachesim(command);
        EXPECT_EQ(r.exit_code, 0) << command << "\n" << r.err;
        const std::string received = reader.get();
        EXPECT_FALSE(received.empty()) << command;
        EXPECT_TRUE(fs::is_fifo(fifo)) << command << " replaced the FIFO";
    }
}

TEST(CliOutputSpecialFiles, ASymlinkKeepsPointingAtItsReplacedTarget) {
    const fs::path dir = test::fresh_dir(test::temp_dir() / "symlink");
    fs::create_directories(dir / "real");
    for (const std::string& command : writers((dir / "link").string())) {
        fs::remove(dir / "link");
        fs::remove(dir / "real" / "target");
        fs::remove(dir / "link.partial");
        // A sweep refuses to replace a file that is not a sweep result: its link starts dangling.
        const bool sweep_csv = command.rfind("sweep", 0) == 0 && command.find(" -o ") != std::string::npos;
        if (!sweep_csv) std::ofstream(dir / "real" / "target") << "old";
        fs::create_symlink("real/target", dir / "link");  // relative, as users make them
        const auto r = run_cachesim(command);
        ASSERT_EQ(r.exit_code, 0) << command << "\n" << r.err;
        EXPECT_TRUE(fs::is_symlink(dir / "link")) << command;
        EXPECT_EQ(fs::read_symlink(dir / "link"), fs::path("real/target")) << command;
        const std::string content = test::read_file(dir / "real" / "target");
        EXPECT_NE(content, "old") << command;
        EXPECT_FALSE(content.empty()) << command;
    }
}

TEST(CliOutputSpecialFiles, AReplacedFileKeepsItsMode) {
    const fs::path dir = test::fresh_dir(test::temp_dir() / "mode");
    for (const std::string& command : writers((dir / "out").string())) {
        fs::remove(dir / "out");
        ASSERT_EQ(run_cachesim(command).exit_code, 0) << command;
        ASSERT_EQ(::chmod((dir / "out").c_str(), 0600), 0);
        const auto again = run_cachesim(command);
        ASSERT_EQ(again.exit_code, 0) << command << "\n" << again.err;
        struct stat s {};
        ASSERT_EQ(::stat((dir / "out").c_str(), &s), 0);
        EXPECT_EQ(s.st_mode & 07777, 0600u) << command;
    }
}

}  // namespace
}  // namespace cachesim
