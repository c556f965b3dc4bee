// compare --config with --gpu: a --gpu override of a parameter the description sets replaces the
// file's value (--gpu applies after the file), with a note naming the line it replaces, rather
// than being refused as an option given twice.
#include <gtest/gtest.h>

#include <filesystem>
#include <fstream>
#include <string>

#include "tests/cli_util.hpp"
#include "tests/measured_stencil_rows.hpp"
#include "tests/csv_table.hpp"

namespace cachesim {
namespace {

namespace fs = std::filesystem;

const std::string kMeasured = test::kCounterHeader + test::stencil_row("NVIDIA L4");

struct Joined {
    test::CommandResult run;
    fs::path csv;
};

Joined compare(const std::string& config_name, const std::string& config, const std::string& options) {
    const fs::path dir = test::temp_dir() / "config-gpu-replaces";
    fs::create_directories(dir);
    std::ofstream(dir / "mine.csv") << kMeasured;
    std::ofstream(dir / config_name) << config;
    const fs::path csv = dir / (config_name + ".joined.csv");
    return {test::run_cachesim("compare --no-progress --config '" + (dir / config_name).string() + "' --measured '" +
                               (dir / "mine.csv").string() + "' --out '" + csv.string() + "' " + options),
            csv};
}

TEST(CompareConfigGpuReplaces, GpuReplacesTheDescriptionsValue) {
    const Joined replaced = compare("described.cfg", "# device: NVIDIA L4\npreset = a100\nsms = 58\n", "--gpu sms=2");
    ASSERT_EQ(replaced.run.exit_code, 0) << replaced.run.err;
    EXPECT_NE(replaced.run.err.find("note: --gpu sms=2 replaces sms=58 of --config "), std::string::npos)
        << replaced.run.err;
    EXPECT_NE(replaced.run.err.find("described.cfg:3"), std::string::npos) << replaced.run.err;
    // The same GPU written with the replaced value in the file simulates alike.
    const Joined written = compare("written.cfg", "# device: NVIDIA L4\npreset = a100\nsms = 2\n", "");
    ASSERT_EQ(written.run.exit_code, 0) << written.run.err;
    const test::CsvTable a = test::CsvTable::from_file(replaced.csv.string());
    const test::CsvTable b = test::CsvTable::from_file(written.csv.string());
    EXPECT_EQ(a.at(0, "preset"), "a100 config=described.cfg sms=2");
    for (const char* column : {"simulated:l1tex__t_sectors_pipe_lsu_mem_global_op_ld_lookup_hit.sum",
                               "simulated:l2_hit_rate.pct", "simulated:dram__bytes_read.sum"})
        EXPECT_EQ(a.at(0, column), b.at(0, column)) << column;
}

TEST(CompareConfigGpuReplaces, GpuGivenTwiceIsStillRefused) {
    const Joined twice = compare("twice.cfg", "preset = a100\nsms = 58\n", "--gpu sms=2 --gpu sms=4");
    EXPECT_EQ(twice.run.exit_code, 2);
    EXPECT_NE(twice.run.err.find("--gpu: option '--sms' cannot be specified more than once"), std::string::npos)
        << twice.run.err;
}

}  // namespace
}  // namespace cachesim
