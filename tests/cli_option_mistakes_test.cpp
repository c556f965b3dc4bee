// Options that used to be taken for something else (an abbreviation for a longer option, a
// negative count wrapped to 2^32 - 1, compare's --gpu keys and workload options that no row
// uses) are refused with exit 2 naming them; and compare groups only launches that differ in
// their schedule alone.
#include <gtest/gtest.h>

#include <filesystem>
#include <fstream>
#include <string>
#include <vector>

#include "tests/cli_util.hpp"
#include "tests/scratch_dir.hpp"

namespace cachesim {
namespace {

namespace fs = std::filesystem;
using test::run_cachesim;

const std::string kHeader =
    "kernel,width,height,stencil_w,stencil_h,depth,schedule,block,elem_bytes,gpu,time_ms,"
    "l1tex__t_requests_pipe_lsu_mem_global_op_ld.sum,l1tex__t_sectors_pipe_lsu_mem_global_op_ld.sum,"
    "l1tex__t_sectors_pipe_lsu_mem_global_op_ld_lookup_hit.sum,l1tex__t_sector_pipe_lsu_mem_global_op_ld_hit_rate.pct,"
    "lts__t_sectors_srcunit_tex_op_read.sum,lts__t_sectors_srcunit_tex_op_read_lookup_hit.sum,"
    "lts__t_sector_op_read_hit_rate.pct,dram__bytes_read.sum";
// Three schedules of one 128x128 3x3 stencil launch at block 128 (counts as gpubench reports them).
const std::string kRows[] = {
    "stencil,128,128,3,3,0,linear,128,4,NVIDIA H200,0.01,4608,20736,14624,70.52,4065,2361,46.97,65536",
    "stencil,128,128,3,3,0,column:32,128,4,NVIDIA H200,0.01,4608,20736,16555,79.84,3000,1800,60.0,65536",
    "stencil,128,128,3,3,0,zigzag:32,128,4,NVIDIA H200,0.01,4608,20736,16555,79.84,3100,1850,59.7,65536"};

std::string measured_file(const std::string& name, const std::string& extra_column = "",
                          const std::string (&values)[3] = {"", "", ""}) {
    const fs::path path = test::temp_dir() / name;
    std::ofstream out(path);
    out << kHeader << (extra_column.empty() ? "" : "," + extra_column) << "\n";
    for (int i = 0; i < 3; ++i) out << kRows[i] << (extra_column.empty() ? "" : "," + values[i]) << "\n";
    return "'" + path.string() + "'";
}

void expect_refused(const std::string& args, const std::string& message) {
    const auto r = run_cachesim(args);
    EXPECT_EQ(r.exit_code, 2) << args << "\n" << r.out;
    EXPECT_NE(r.err.find(message), std::string::npos) << args << "\n" << r.err;
}

TEST(CliOptionMistakes, AnAbbreviationIsNotAnotherOption) {
    // --threads is no diagram option; boost would have taken it for --threads-per-sm.
    const std::string png = (test::temp_dir() / "never.png").string();
    expect_refused("diagram --model gpu --size 64x64 --block 64 --sms 4 --threads 1024 --out '" + png + "'",
                   "unrecognised option '--threads'");
    EXPECT_FALSE(fs::exists(png));
    expect_refused("simulate -q --l1-siz 1K", "'--l1-siz'");
    expect_refused("sweep -q --l1-siz 1K,2K", "'--l1-siz'");
    expect_refused("compare --measured " + measured_file("abbrev.csv") + " --no-prog", "'--no-prog'");
}

TEST(CliOptionMistakes, AShapeOfTheOtherWorkloadIsRefused) {
    expect_refused("simulate -q --workload stencil --depth 64", "--depth shapes the matmul workload; it does not apply to --workload stencil");
    expect_refused("simulate -q --size 32x32 --depth 64", "--depth shapes the matmul workload");  // the default workload
    expect_refused("simulate -q --workload matmul --stencil 3x3", "--stencil shapes the stencil workload; it does not apply to --workload matmul");
    expect_refused("sweep -q --workload stencil --depth 16,32", "--depth shapes the matmul workload");
    // An Nsight Compute CSV's launches are shaped by the options, checked before its rows are read.
    const fs::path ncu = test::temp_dir() / "shape_ncu.csv";
    std::ofstream(ncu) << "\"ID\",\"Kernel Name\",\"Metric Name\",\"Metric Value\"\n";
    expect_refused("compare --measured '" + ncu.string() + "' --workload matmul --stencil 5x5",
                   "--stencil shapes the stencil workload; it does not apply to --workload matmul");
    // A preset's own bundle gives both; only what the user wrote counts, even where the bundle
    // names the same option.
    EXPECT_EQ(run_cachesim("simulate -q --preset thesis-stencil --workload matmul").exit_code, 0);
    expect_refused("simulate -q --preset thesis-stencil --workload matmul --stencil 5x5", "--stencil shapes the stencil workload");
    // A sweep over both workloads gives each row its own shape: 2 boxes + 2 depths.
    const fs::path out = test::temp_dir() / "both_workloads.csv";
    const auto r = run_cachesim("sweep -q --workload stencil,matmul --stencil 3x3,5x5 --depth 8,16 --size 16x16 -o '" +
                                out.string() + "'");
    ASSERT_EQ(r.exit_code, 0) << r.err;
    std::ifstream in(out);
    std::string line;
    int rows = -1, with_depth = 0;  // the header is no row
    while (std::getline(in, line)) {
        ++rows;
        with_depth += line.find("--depth=") != std::string::npos;
    }
    EXPECT_EQ(rows, 4);
    EXPECT_EQ(with_depth, 2);
    // Its heat map needs two axes some configuration has both of: the default pair skips
    // --stencil x --depth; asked for, that pair is refused before anything runs.
    const fs::path png = test::temp_dir() / "both_workloads.png";
    const std::string both = "sweep -q --workload stencil,matmul --stencil 3x3,5x5 --depth 8,16 --size 16x16 -o '" +
                             out.string() + "' --plot '" + png.string() + "'";
    ASSERT_EQ(run_cachesim(both).exit_code, 0);
    fs::remove(png);
    expect_refused(both + " --plot-x depth --plot-y stencil", "no configuration of the sweep has both");
    EXPECT_FALSE(fs::exists(png));
}

TEST(CliOptionMistakes, AConfigFilesShapeOfTheOtherWorkloadGoesUnused) {
    // A config file is a setup to reuse: where the command line chooses the workload, the file's
    // shape of the other workload goes unused, as a preset's does.
    const fs::path depth = test::temp_dir() / "depth_64.cfg", box = test::temp_dir() / "box_3x3.cfg",
                   contradicts = test::temp_dir() / "stencil_depth.cfg";
    std::ofstream(depth) << "depth = 64\n";
    std::ofstream(box) << "stencil = 3x3\n";
    std::ofstream(contradicts) << "workload = stencil\ndepth = 64\n";
    const std::string with_depth = " --config '" + depth.string() + "'", with_box = " --config '" + box.string() + "'",
                      with_both = " --config '" + contradicts.string() + "'";
    const auto stencil = run_cachesim("simulate -q --workload stencil" + with_depth);
    ASSERT_EQ(stencil.exit_code, 0) << stencil.err;
    EXPECT_NE(stencil.out.find("stencil 16x16, 7x7 box"), std::string::npos) << stencil.out;
    const auto matmul = run_cachesim("simulate -q --workload matmul" + with_depth);
    ASSERT_EQ(matmul.exit_code, 0) << matmul.err;
    EXPECT_NE(matmul.out.find("matmul 16x16, depth 64"), std::string::npos) << matmul.out;
    EXPECT_EQ(run_cachesim("simulate -q --workload matmul" + with_box).exit_code, 0);
    // A preset that names the workload chooses it as --workload does.
    EXPECT_EQ(run_cachesim("simulate -q --preset thesis-stencil" + with_depth).exit_code, 0);
    EXPECT_EQ(run_cachesim("simulate -q --preset thesis-matmul" + with_box).exit_code, 0);
    // Where nothing chooses the workload, the default stencil has no depth: refused as on the command line.
    expect_refused("simulate -q" + with_depth, "--depth shapes the matmul workload; it does not apply to --workload stencil");
    // A file that names the stencil and gives a depth contradicts itself, unless the command line
    // runs the matmul.
    const std::string contradiction = "'depth' shapes the matmul workload, and the file's workload is stencil";
    expect_refused("simulate -q" + with_both, contradiction);
    expect_refused("simulate -q --workload stencil" + with_both, contradiction);
    expect_refused("simulate -q --preset thesis-matmul" + with_both, contradiction);  // the file's workload wins over the preset's
    EXPECT_EQ(run_cachesim("simulate -q --workload matmul" + with_both).exit_code, 0);
    expect_refused("sweep -q --workload stencil,matmul --size 16x16" + with_both, contradiction);

    // A sweep over both workloads with the file: 2 configurations, the matmul's with the file's
    // depth, the stencil's with none (its depth column 0), and neither key naming a depth.
    const fs::path out = test::temp_dir() / "config_depth.csv";
    const auto r = run_cachesim("sweep -q --workload stencil,matmul --size 16x16" + with_depth + " -o '" + out.string() + "'");
    ASSERT_EQ(r.exit_code, 0) << r.err;
    std::ifstream in(out);
    std::string header, line;
    ASSERT_TRUE(std::getline(in, header));
    std::size_t depth_column = 0;  // the header's columns before "depth"
    for (std::size_t at = 0; header.compare(at, 6, "depth,") != 0 && header.compare(at, std::string::npos, "depth") != 0;) {
        at = header.find(',', at);
        ASSERT_NE(at, std::string::npos) << header;
        ++at;
        ++depth_column;
    }
    std::vector<std::string> depths, workloads;
    while (std::getline(in, line)) {
        EXPECT_EQ(line.find("--depth"), std::string::npos) << line;
        std::size_t at = 0;
        for (std::size_t c = 0; c < depth_column; ++c) at = line.find(',', at) + 1;
        depths.push_back(line.substr(at, line.find(',', at) - at));
        workloads.push_back(line.find("--workload=stencil") != std::string::npos ? "stencil" : "matmul");
    }
    EXPECT_EQ(workloads, (std::vector<std::string>{"stencil", "matmul"}));
    EXPECT_EQ(depths, (std::vector<std::string>{"0", "64"}));
}

TEST(CliOptionMistakes, MissClassesArePlottedWhereTheRunClassifies) {
    const fs::path dir = test::temp_dir();
    const std::string png = (dir / "compulsory.png").string(), csv = (dir / "compulsory.csv").string();
    EXPECT_EQ(run_cachesim("sweep -q --l1-size 256,512 --size 16x16 -o '" + csv + "' --plot '" + png +
                           "' --plot-value l1_compulsory")
                  .exit_code,
              0);
    expect_refused("sweep -q --l1-size 256,512 --size 16x16 --no-analysis -o '" + csv + "' --fresh --plot '" + png +
                       "' --plot-value l1_compulsory",
                   "--plot-value: column 'l1_compulsory' is not numeric");
}

TEST(CliOptionMistakes, OptionsTheRunWouldNotUseAreRefused) {
    const fs::path ends = test::temp_dir() / "never_written_ends.csv";
    expect_refused("simulate --model gpu --explain --warp-ends '" + ends.string() + "'",
                   "--warp-ends does not apply with --explain");
    EXPECT_FALSE(fs::exists(ends));
    expect_refused("simulate --model gpu --explain --format json", "--format json does not apply");
    expect_refused("simulate --model gpu --explain --hit-sources", "--hit-sources does not apply with --explain");
    expect_refused("simulate -q --model gpu --size 64x64 --warp-progress-every 5", "--warp-progress-every sets the samples");
    expect_refused("simulate -q --threads 4", "--threads runs the GPU model's SMs");
    expect_refused("simulate -q --model gpu --size 64x64 --show-reuse", "the GPU model keeps none");
    expect_refused("simulate -q --no-analysis --show-reuse", "which --no-analysis turns off");
    expect_refused("simulate -q --show-reuse --format csv", "--show-reuse adds the histograms to the table");
    expect_refused("simulate -q --model gpu --size 64x64 --no-analysis", "the GPU model has none");
    // Values the option cannot mean.
    expect_refused("simulate -q --reuse-sample 1e-9", "below the finest rate the line hash selects, 2^-24");
    expect_refused("simulate -q --l2-size auto", "--l2-size: 'auto' is not a size");
    // What they pair with is fine.
    EXPECT_EQ(run_cachesim("simulate -q --show-reuse").exit_code, 0);
    EXPECT_EQ(run_cachesim("simulate -q --model gpu --size 64x64 --sms 4 --threads 2").exit_code, 0);
    EXPECT_EQ(run_cachesim("simulate -q --reuse-sample 0.001").exit_code, 0);
}

TEST(CliOptionMistakes, ASizeInBytesAndInLinesContradict) {
    expect_refused("simulate -q --l1-lines 24 --l1-size 1K", "--l1-size and --l1-lines both give the L1's size");
    expect_refused("sweep -q --l2-lines 24 --l2-size 0,1K", "--l2-size and --l2-lines both give the L2's size");
    // A preset's size in bytes gives way to lines given on the command line: 4 lines of its 16 B.
    const auto r = run_cachesim("simulate -q --preset thesis-stencil --l1-lines 4");
    ASSERT_EQ(r.exit_code, 0) << r.err;
    EXPECT_NE(r.out.find("L1: 64 B, 4 lines of 16 B"), std::string::npos) << r.out;
    // The command line wins over a config file the same way, either way round; a file that gives
    // both contradicts itself.
    const fs::path bytes = test::temp_dir() / "size_in_bytes.cfg", lines = test::temp_dir() / "size_in_lines.cfg",
                   both = test::temp_dir() / "size_both.cfg";
    std::ofstream(bytes) << "l1-size = 1K\n";
    std::ofstream(lines) << "l1-lines = 64\n";
    std::ofstream(both) << "l1-size = 1K\nl1-lines = 64\n";
    const auto by_lines = run_cachesim("simulate -q --config '" + bytes.string() + "' --l1-lines 8");
    ASSERT_EQ(by_lines.exit_code, 0) << by_lines.err;
    EXPECT_NE(by_lines.out.find("L1: 128 B, 8 lines of 16 B"), std::string::npos) << by_lines.out;
    const auto by_bytes = run_cachesim("simulate -q --config '" + lines.string() + "' --l1-size 256");
    ASSERT_EQ(by_bytes.exit_code, 0) << by_bytes.err;
    EXPECT_NE(by_bytes.out.find("L1: 256 B, 16 lines of 16 B"), std::string::npos) << by_bytes.out;
    expect_refused("simulate -q --config '" + both.string() + "'", "--l1-size and --l1-lines both give the L1's size");
}

TEST(CliOptionMistakes, DiagramOptionsOfTheOtherViewAndWindowsPastTheRun) {
    const std::string png = "'" + (test::temp_dir() / "never_drawn.png").string() + "'";
    const std::string diagram = "diagram -q --preset thesis-stencil --out " + png;
    expect_refused(diagram + " --view array --time 40 --from 100", "--from draws the time view");
    expect_refused(diagram + " --view array --time 40 --lines 0:8", "--lines draws the time view");
    expect_refused(diagram + " --view array --time 40 --aggregate priority", "--aggregate draws the time view");
    expect_refused(diagram + " --time 40", "--time is the array view's step");
    // Elements of one array, reversed or empty, even where both ends share a line's row.
    expect_refused(diagram + " --lines 'out[3]:out[1]'", "is empty: elements 3 to 1");
    expect_refused(diagram + " --lines 'out[1]:out[1]'", "is empty: elements 1 to 1");
    // A GPU run's length is known only once it has run: its 4,096 threads make 10 accesses each
    // (a 3x3 box and a store), so it has at most 40,960 rounds, far fewer than the window's end.
    expect_refused("diagram -q --model gpu --size 64x64 --stencil 3x3 --sms 4 --block 64 --from 0 --to 100000000 --out " + png,
                   "--to: step 100000000 is past the run's end");
    EXPECT_FALSE(fs::exists(test::temp_dir() / "never_drawn.png"));
}

TEST(CliOptionMistakes, NegativeCountsAreNamedNotWrapped) {
    expect_refused("sweep -q --jobs -1 --l1-size 1K,2K", "--jobs: '-1' is negative");
    expect_refused("sweep -q --threads -1 --l1-size 1K,2K", "--threads: '-1' is negative");
    expect_refused("compare --no-progress --measured " + measured_file("negative.csv") + " --jobs -1",
                   "--jobs: '-1' is negative");
}

TEST(CliOptionMistakes, CompareTakesOnlyWhatItUses) {
    const std::string csv = measured_file("uses.csv");
    expect_refused("compare --no-progress --measured " + csv + " --gpu schedule=column:4", "--gpu schedule: not a GPU model option");
    expect_refused("compare --no-progress --measured " + csv + " --gpu size=64x64", "--gpu size: not a GPU model option");
    expect_refused("compare --no-progress --measured " + csv + " --gpu l1-policy=mru", "--l1-policy");  // checked as simulate does
    expect_refused("compare --no-progress --measured " + csv + " --size 64x64", "--size describes the launches of an Nsight");
    expect_refused("compare --no-progress --measured " + csv + " --schedule morton", "--schedule describes the launches");
    expect_refused("compare --no-progress --measured " + csv + " stray_word", "unexpected argument 'stray_word'");
}

TEST(CliOptionMistakes, AConfigurationOrAFileGivenTwiceIsRefused) {
    expect_refused("sweep -q --l1-lines 16,16", "'16' comes twice in '16,16'");
    expect_refused("sweep -q --l1-lines 4..8,6", "'6' comes twice in '4..8,6'");
    const std::string csv = measured_file("twice.csv");
    const std::string again = "'" + (test::temp_dir() / "." / "twice.csv").string() + "'";
    expect_refused("compare --no-progress --measured " + csv + " --measured " + again, "the same file as --measured");
}

TEST(CliOptionMistakes, CompareWhereReadsFieldsAsTheFileHasThem) {
    // The stencil rows' depth column is 0: that selects them; the model's default depth does not.
    const std::string csv = measured_file("where.csv");
    const auto zero = run_cachesim("compare --no-progress --measured " + csv + " --where depth=0");
    EXPECT_EQ(zero.exit_code, 0) << zero.err;
    EXPECT_NE(zero.out.find("3 runs"), std::string::npos) << zero.out;
    expect_refused("compare --no-progress --measured " + csv + " --where depth=16", "no measured rows left");
}

TEST(CliOptionMistakes, CompareChecksOverridesAtTheRowsBlocks) {
    // Every row has blocks of 128 threads: an SM of 128 threads holds one (the preset's default
    // block of 256 would not fit, and no row asks for it).
    const auto r = run_cachesim("compare --no-progress --measured " + measured_file("small_sm.csv") +
                                " --gpu threads-per-sm=128");
    EXPECT_EQ(r.exit_code, 0) << r.err;
    EXPECT_NE(r.out.find("3 runs"), std::string::npos) << r.out;
}

TEST(CliOptionMistakes, CompareRanksOnlyLaunchesThatDifferInTheirSchedule) {
    const auto one_group = run_cachesim("compare --no-progress --measured " + measured_file("cold.csv"));
    ASSERT_EQ(one_group.exit_code, 0) << one_group.err;
    EXPECT_NE(one_group.out.find("mean over 1 groups of >= 3 schedules"), std::string::npos) << one_group.out;
    // The same three rows, one measured with a cold L2 and two with a warm one: no group of three.
    const auto split = run_cachesim("compare --no-progress --measured " +
                                    measured_file("mixed.csv", "l2_start", {"cold", "warm", "warm"}));
    ASSERT_EQ(split.exit_code, 0) << split.err;
    EXPECT_NE(split.out.find("mean over 0 groups of >= 3 schedules"), std::string::npos) << split.out;
}

// The exact one-line message, exit 2 and nothing on standard output.
void expect_message(const std::string& args, const std::string& err) {
    const auto r = run_cachesim(args);
    EXPECT_EQ(r.exit_code, 2) << args;
    EXPECT_EQ(r.err, err) << args;
    EXPECT_TRUE(r.out.empty()) << args;
}

TEST(CliOptionMistakes, OptionsThatDoNotApplyAreNamed) {
    // A GPU preset's caches are no option bundle: a level's size in bytes and in lines is one too many.
    expect_message("simulate --preset h200 --size 64x64 --stencil 3x3 --l1-lines 100 --l1-size 4K",
                   "cachesim simulate: error: --l1-size and --l1-lines both give the L1's size: give one\n");
    expect_message("simulate --preset h200 --size 64x64 --stencil 3x3 --l2-lines 100 --l2-size 4K",
                   "cachesim simulate: error: --l2-size and --l2-lines both give the L2's size: give one\n");
    // The thread model's L2 is off unless sized (--l2-size 0 by default); an L1 of 0 bytes is none.
    expect_message("simulate --l2-ways 4 --l2-policy fifo",
                   "cachesim simulate: error: --l2-ways describes the L2, and the run has none (--l2-size 0, the "
                   "default): it does not apply\n");
    expect_message("simulate --l1-size 0 --l1-ways 4 --l1-policy plru",
                   "cachesim simulate: error: --l1-ways describes the L1, and the run has none (--l1-size 0): it does "
                   "not apply\n");
    EXPECT_EQ(run_cachesim("simulate -q --l2-size 1M --l2-ways 4").exit_code, 0);
}

TEST(CliOptionMistakes, AMistypedOptionGetsTheClosestOne) {
    expect_message("simulate --l1-sise 1K",
                   "cachesim simulate: error: unrecognised option '--l1-sise' (did you mean --l1-size? see cachesim "
                   "simulate --help)\n");
    expect_message("simulate --L1-size 1K",
                   "cachesim simulate: error: unrecognised option '--L1-size' (did you mean --l1-size? see cachesim "
                   "simulate --help)\n");
    expect_message("compare --measured x.csv --sms 4",
                   "cachesim compare: error: unrecognised option '--sms' (compare takes GPU model parameters as --gpu "
                   "sms=VALUE; see cachesim compare --help)\n");
    expect_message("simulate --format JSON",
                   "cachesim simulate: error: --format: expected table, json or csv, not 'JSON' (did you mean json?)\n");
    expect_message("simulate --preset H200",
                   "cachesim simulate: error: unknown preset 'H200' (expected thesis-stencil, thesis-matmul, v100, t4, "
                   "rtx2080s, a100, h100, h200) (did you mean h200?)\n");
    expect_message("simulate --frobnicate", "cachesim simulate: error: unrecognised option '--frobnicate' (see cachesim "
                                            "simulate --help)\n");
}

}  // namespace
}  // namespace cachesim
