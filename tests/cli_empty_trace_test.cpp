// A trace with no accesses (an empty file, an empty pipe) or an Accel-Sim trace without some of
// its launch's blocks (cut after its header, or at a block's end) is refused with exit 2 naming
// it, never reported as a run of nothing or of part of the launch.
#include <gtest/gtest.h>

#include <filesystem>
#include <fstream>
#include <string>

#include "tests/cli_util.hpp"
#include "tests/scratch_dir.hpp"

namespace cachesim {
namespace {

namespace fs = std::filesystem;
using test::run_cachesim;

void expect_no_accesses(const std::string& args, const std::string& named) {
    const auto r = run_cachesim(args);
    EXPECT_EQ(r.exit_code, 2) << args << "\n" << r.out;
    EXPECT_NE(r.err.find(named + ": the trace holds no accesses"), std::string::npos) << args << "\n" << r.err;
    EXPECT_TRUE(r.out.empty()) << r.out;
}

TEST(CliEmptyTrace, EmptyFilesAndPipesAreRefused) {
    const fs::path dir = test::fresh_dir(test::temp_dir() / "empty_trace");
    const std::string din = (dir / "empty.din").string(), u64 = (dir / "empty.u64").string();
    std::ofstream(din).flush();
    std::ofstream(u64).flush();
    expect_no_accesses("simulate -q --trace '" + din + "'", din);
    expect_no_accesses("simulate -q --trace '" + u64 + "' --trace-format u64", u64);
    expect_no_accesses("simulate -q --trace - --trace-format u64 </dev/null", "standard input");
    expect_no_accesses("sweep -q --trace '" + din + "' --l1-size 1K,2K", din);
    expect_no_accesses("trace -q --trace '" + din + "' -o '" + (dir / "t.cst").string() + "'", din);
    EXPECT_FALSE(fs::exists(dir / "t.cst"));
    // A din trace of comments and blank lines alone holds no access either.
    std::ofstream(din) << "\n\n";
    expect_no_accesses("simulate -q --trace '" + din + "'", din);
}

TEST(CliEmptyTrace, AnAccelSimTraceWithoutBlocksIsRefusedByBothModels) {
    const fs::path dir = test::fresh_dir(test::temp_dir() / "empty_traceg");
    const std::string traceg = (dir / "kernel-1.traceg").string();
    std::ofstream(traceg) << "-kernel name = k\n-kernel id = 1\n-grid dim = (1,1,1)\n-block dim = (32,1,1)\n"
                             "-shmem base_addr = 0x7f0000000000\n-local mem base_addr = 0x7f1000000000\n"
                             "-accelsim tracer version = 3\n";
    for (const std::string model : {"gpu", "thread"}) {
        const auto r = run_cachesim("simulate -q --model " + model + " --trace '" + traceg + "'");
        EXPECT_EQ(r.exit_code, 2) << model;
        EXPECT_NE(r.err.find(traceg + ": holds 0 of the 1 blocks of its launch"), std::string::npos) << r.err;
    }
}

TEST(CliEmptyTrace, AnAccelSimTraceCutAtABlocksEndIsRefused) {
    const fs::path dir = test::fresh_dir(test::temp_dir() / "cut_traceg");
    const std::string traceg = (dir / "kernel-1.traceg").string();
    // A grid of two blocks, of which the file holds the first only.
    std::ofstream(traceg) << "-kernel name = k\n-kernel id = 1\n-grid dim = (2,1,1)\n-block dim = (32,1,1)\n"
                             "-shmem base_addr = 0x7f0000000000\n-local mem base_addr = 0x7f1000000000\n"
                             "-accelsim tracer version = 3\n\n#BEGIN_TB\n\nthread block = 0,0,0\n\nwarp = 0\ninsts = 2\n"
                             "0010 ffffffff 1 R2 LDG.E 1 R4 4 1 0x10000 4 \n0020 ffffffff 0 EXIT 0 0 \n\n#END_TB\n";
    const auto r = run_cachesim("simulate -q --model gpu --trace '" + traceg + "'");
    EXPECT_EQ(r.exit_code, 2);
    EXPECT_NE(r.err.find("holds 1 of the 2 blocks"), std::string::npos) << r.err;
    // With the second block it replays.
    std::ofstream(traceg, std::ios::app) << "\n#BEGIN_TB\n\nthread block = 1,0,0\n\nwarp = 0\ninsts = 2\n"
                                            "0010 ffffffff 1 R2 LDG.E 1 R4 4 1 0x20000 4 \n0020 ffffffff 0 EXIT 0 0 \n\n#END_TB\n";
    const auto whole = run_cachesim("simulate -q --model gpu --trace '" + traceg + "'");
    EXPECT_EQ(whole.exit_code, 0) << whole.err;
}

TEST(CliEmptyTrace, OneAccessIsEnough) {
    const fs::path dir = test::fresh_dir(test::temp_dir() / "one_access");
    const std::string din = (dir / "one.din").string();
    std::ofstream(din) << "0 1000\n";
    const auto r = run_cachesim("simulate -q --trace '" + din + "'");
    EXPECT_EQ(r.exit_code, 0) << r.err;
    EXPECT_NE(r.out.find("1 access (1 read, 0 writes) in 1 record\n"), std::string::npos) << r.out;
}

}  // namespace
}  // namespace cachesim
