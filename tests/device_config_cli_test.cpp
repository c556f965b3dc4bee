// A device described by gpubench --describe, through cachesim simulate and compare --config. The
// H200, described from what it reports (gpubench --describe on the chip), is the h100 preset with the H200's sizes, which is what the
// h200 preset is apart from the near L2 hit latency cycle timing uses (h100: 289 cycles, measured
// on an H100; h200: 291): the two must simulate every launch alike, counter for counter.
#include <gtest/gtest.h>

#include <algorithm>
#include <fstream>
#include <nlohmann/json.hpp>
#include <string>

#include "sim/gpu/device_description.hpp"
#include "tests/cli_util.hpp"
#include "tests/csv_table.hpp"

namespace cachesim {
namespace {

// What gpubench --describe wrote on an H200 (tests/data/h200/described.cfg).
std::string described_h200() { return test::h200_data("described.cfg"); }

// The facts device_description_test.cpp writes down for an H200 are the chip's: described, they
// give the file gpubench wrote there.
TEST(DeviceConfigCli, TheH200DescribedOnTheChipMatchesItsFacts) {
    const DeviceFacts f{.name = "NVIDIA H200", .major = 9, .minor = 0, .sms = 132, .l2_bytes = 62914560,
                        .threads_per_sm = 2048, .blocks_per_sm = 32, .regs_per_sm = 65536, .smem_per_sm = 233472,
                        .smem_reserved_per_block = 1024};
    EXPECT_EQ(describe_device(f).config, test::read_file(described_h200()));
}

nlohmann::json simulate_json(const std::string& model, const std::string& launch) {
    const auto r = test::run_cachesim("simulate " + model + " " + launch + " --format json");
    EXPECT_EQ(r.exit_code, 0) << r.err;
    return nlohmann::json::parse(r.out, nullptr, false);
}

TEST(DeviceConfigCli, DescribedH200SimulatesAsItsPreset) {
    const std::string config = described_h200();
    for (const std::string launch : {"--workload stencil --size 512x512 --stencil 3x3 --schedule column:32 --block 128",
                                     "--workload matmul --size 256x256 --depth 256 --schedule linear --block 256"}) {
        const nlohmann::json preset = simulate_json("--preset h200", launch);
        const nlohmann::json described = simulate_json("--config '" + config + "'", launch);
        ASSERT_FALSE(preset.is_discarded() || described.is_discarded()) << launch;
        EXPECT_EQ(described["ncu"], preset["ncu"]) << launch;
        EXPECT_EQ(described["levels"], preset["levels"]) << launch;
        for (const auto& [key, value] : preset["parameters"].items()) {
            if (key == "gpu" || key == "lat_l1_miss") continue;
            EXPECT_EQ(described["parameters"][key], value) << key << " (" << launch << ")";
        }
        EXPECT_EQ(described["parameters"]["lat_l1_miss"], "289");
    }
}

TEST(DeviceConfigCli, CompareTakesTheDescription) {
    const std::string config = described_h200();
    const std::string file = test::h200_data("heldout_stencil.csv");
    const auto dir = test::temp_dir();
    // the 1536² 3x5 box stencil in the naive order, blocks of 96 and 384: two cheap launches
    const std::string rows = " --measured '" + file + "' --where width=1536 --where stencil=3x5 --where schedule=linear "
                             "--where variant=index64 --plot none --no-progress";
    const auto preset = test::run_cachesim("compare --preset h200" + rows + " --out '" + (dir / "preset.csv").string() + "'");
    const auto described = test::run_cachesim("compare --config '" + config + "'" + rows + " --out '" +
                                              (dir / "described.csv").string() + "'");
    ASSERT_EQ(preset.exit_code, 0) << preset.err;
    ASSERT_EQ(described.exit_code, 0) << described.err;
    // The same report but its first line, which names the model each was simulated with.
    const auto after_model_line = [](const std::string& out) { return out.substr(std::min(out.find('\n'), out.size())); };
    EXPECT_EQ(after_model_line(described.out), after_model_line(preset.out));
    EXPECT_EQ(described.out.rfind("GPU model: h100 config=described.cfg (describing NVIDIA H200); rows measured on "
                                  "NVIDIA H200 (2 rows)\n", 0),
              0u)
        << described.out;
    EXPECT_NE(described.err.find("the GPU described in"), std::string::npos) << described.err;
    EXPECT_EQ(described.err.find("note: rows measured on"), std::string::npos) << described.err;  // the H200's own rows
    const test::CsvTable a = test::CsvTable::from_file((dir / "preset.csv").string());
    const test::CsvTable b = test::CsvTable::from_file((dir / "described.csv").string());
    ASSERT_EQ(a.rows(), 2u);
    ASSERT_EQ(b.rows(), 2u);
    EXPECT_EQ(b.at(0, "preset"), "h100 config=described.cfg");
    for (std::size_t row = 0; row < 2; ++row)
        for (const char* column : {"simulated:l1tex__t_sector_pipe_lsu_mem_global_op_ld_hit_rate.pct",
                                   "simulated:l2_hit_rate.pct", "simulated:dram__bytes_read.sum"})
            EXPECT_EQ(b.at(row, column), a.at(row, column)) << column;
}

TEST(DeviceConfigCli, CompareRefusesWhatADescriptionCannotHold) {
    const std::string file = test::h200_data("heldout_stencil.csv");
    const auto write = [](const std::string& name, const std::string& text) {
        const auto path = test::temp_dir() / name;
        std::ofstream(path) << text;
        return path.string();
    };
    const std::string rows = " --measured '" + file + "' --where width=1536 --where stencil=3x5 --where schedule=linear "
                             "--where variant=index64 --where block=96 --plot none --no-progress";
    const struct {
        std::string text, message;
    } bad[] = {{"preset = h100\nworkload = matmul\n", "'workload' is not a GPU model parameter"},
               {"preset = h100\nblock = 128\n", "each measured row gives its block size"},
               {"preset = h100\nl2-start = warm\n", "each measured row gives where its L2 started"},
               {"sms = 100\n", "no 'preset = NAME' line"},
               {"preset = h999\n", "unknown GPU preset 'h999'"},
               {"preset = h100\nsms 100\n", ":2: expected 'name = value'"},
               {"preset = h100\nsms = many\n", "--sms"}};
    int n = 0;
    for (const auto& b : bad) {
        const std::string path = write("bad" + std::to_string(n++) + ".cfg", b.text);
        const auto r = test::run_cachesim("compare --config '" + path + "'" + rows);
        EXPECT_EQ(r.exit_code, 2) << b.text;
        EXPECT_NE(r.err.find(b.message), std::string::npos) << b.text << "\n" << r.err;
        EXPECT_TRUE(r.out.empty()) << b.text;
    }
    const auto both = test::run_cachesim("compare --config '" + write("ok.cfg", "preset = h100\n") + "' --preset h200" + rows);
    EXPECT_EQ(both.exit_code, 2);
    EXPECT_NE(both.err.find("give one"), std::string::npos) << both.err;
    // Rows of another GPU than the one described are simulated, with a note naming both.
    const auto other = test::run_cachesim("compare --config '" +
                                          write("other.cfg", "# device: NVIDIA GeForce RTX 4090\npreset = a100\n") + "'" + rows);
    EXPECT_EQ(other.exit_code, 0) << other.err;
    EXPECT_NE(other.err.find("note: rows measured on 'NVIDIA H200' are simulated with the GPU described in"),
              std::string::npos) << other.err;
    EXPECT_NE(other.err.find("(NVIDIA GeForce RTX 4090)"), std::string::npos) << other.err;
    const auto missing = test::run_cachesim("compare --config '" + (test::temp_dir() / "none.cfg").string() + "'" + rows);
    EXPECT_EQ(missing.exit_code, 2);
    EXPECT_NE(missing.err.find("--config"), std::string::npos) << missing.err;
}

}  // namespace
}  // namespace cachesim
