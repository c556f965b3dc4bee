// mpirun -n 2 cachesim sweep gives the same CSV as a local run (skipped without mpirun).
#include <gtest/gtest.h>

#include <cstdlib>
#include <filesystem>

#include "tests/cli_util.hpp"

namespace cachesim {
namespace {

TEST(CliSweepMpi, TwoRanksGiveTheLocalResult) {
    if (std::system("command -v mpirun >/dev/null 2>&1") != 0) GTEST_SKIP() << "mpirun is not installed";
    const char* bin = std::getenv("CACHESIM_BIN");
    ASSERT_NE(bin, nullptr);
    const std::string sweep =
        " sweep -q --size 48x32 --stencil 3x3 --schedule linear,column:4,column:8 --l1-size 256..2K*2 --l1-ways 2";
    const std::string local = (test::temp_dir() / "local.csv").string();
    const std::string mpi = (test::temp_dir() / "mpi.csv").string();
    const auto r = test::run_cachesim(sweep.substr(1) + " -o " + local);
    ASSERT_EQ(r.exit_code, 0) << r.err;
    // Sanitizer builds: OpenMPI's plugins leak at exit in modules LeakSanitizer cannot attribute.
    const std::string command = "ASAN_OPTIONS=\"${ASAN_OPTIONS:-}:detect_leaks=0\" "
                                "OMPI_ALLOW_RUN_AS_ROOT=1 OMPI_ALLOW_RUN_AS_ROOT_CONFIRM=1 OMPI_MCA_rmaps_base_oversubscribe=1 "
                                "mpirun -n 2 --oversubscribe --allow-run-as-root '" + std::string(bin) + "'" + sweep +
                                " -o " + mpi + " > " + (test::temp_dir() / "mpi.log").string() + " 2>&1";
    const int status = std::system(command.c_str());
    ASSERT_EQ(status, 0) << test::read_file(test::temp_dir() / "mpi.log");
    EXPECT_EQ(test::read_file(mpi), test::read_file(local));
    EXPECT_FALSE(std::filesystem::exists(mpi + ".partial.1"));
}

}  // namespace
}  // namespace cachesim
