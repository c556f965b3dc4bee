// Memory stays bounded on bad or huge input, and no run's peak resident memory exceeds twice
// the estimate that `simulate --dry-run` announces for it (measured with wait4 on the child).
#include <gtest/gtest.h>
#include <spawn.h>
#include <sys/resource.h>
#include <sys/wait.h>
#include <fcntl.h>
#include <unistd.h>

#include <cstdint>
#include <cstdlib>
#include <fstream>
#include <random>
#include <sstream>
#include <string>
#include <vector>

#include "tests/cli_util.hpp"

extern char** environ;

namespace {

// Peak resident memory is the program's own only without AddressSanitizer, whose shadow memory and
// quarantine it counts too: under ASan (scripts/test_sanitizers.sh) the exit codes and messages are
// still checked, the peaks are not.
#if defined(__SANITIZE_ADDRESS__)
constexpr bool kPeakIsTheProgramsOwn = false;
#elif defined(__has_feature)
#if __has_feature(address_sanitizer)
constexpr bool kPeakIsTheProgramsOwn = false;
#else
constexpr bool kPeakIsTheProgramsOwn = true;
#endif
#else
constexpr bool kPeakIsTheProgramsOwn = true;
#endif

using cachesim::test::read_file;
using cachesim::test::temp_dir;

struct MeasuredRun {
    int exit_code = -1;
    std::string out, err;
    std::uint64_t peak_bytes = 0;  // the child's peak resident memory
};

MeasuredRun run_measured(const std::vector<std::string>& args) {
    MeasuredRun run;
    const char* bin = std::getenv("CACHESIM_BIN");
    if (!bin) {
        ADD_FAILURE() << "CACHESIM_BIN is not set";
        return run;
    }
    static int counter = 0;
    const std::string out = (temp_dir() / ("mem_out" + std::to_string(counter) + ".txt")).string();
    const std::string err = (temp_dir() / ("mem_err" + std::to_string(counter++) + ".txt")).string();
    std::vector<std::string> words = {bin};
    words.insert(words.end(), args.begin(), args.end());
    std::vector<char*> argv;
    for (std::string& w : words) argv.push_back(w.data());
    argv.push_back(nullptr);
    posix_spawn_file_actions_t actions;
    posix_spawn_file_actions_init(&actions);
    posix_spawn_file_actions_addopen(&actions, 1, out.c_str(), O_WRONLY | O_CREAT | O_TRUNC, 0644);
    posix_spawn_file_actions_addopen(&actions, 2, err.c_str(), O_WRONLY | O_CREAT | O_TRUNC, 0644);
    pid_t pid = 0;
    const int spawned = posix_spawn(&pid, bin, &actions, nullptr, argv.data(), environ);
    posix_spawn_file_actions_destroy(&actions);
    if (spawned != 0) {
        ADD_FAILURE() << "cannot start " << bin;
        return run;
    }
    int status = 0;
    rusage usage{};
    ::wait4(pid, &status, 0, &usage);
    run.exit_code = WIFEXITED(status) ? WEXITSTATUS(status) : 128 + WTERMSIG(status);
    run.peak_bytes = static_cast<std::uint64_t>(usage.ru_maxrss) * 1024;  // Linux: KiB
    run.out = read_file(out);
    run.err = read_file(err);
    return run;
}

// The bytes that `simulate ... --dry-run` announces.
std::uint64_t announced(std::vector<std::string> args) {
    args.push_back("--dry-run");
    const MeasuredRun run = run_measured(args);
    EXPECT_EQ(run.exit_code, 0) << run.err;
    std::istringstream text(run.out);
    std::string memory, estimate;
    std::uint64_t bytes = 0;
    text >> memory >> estimate >> bytes;
    EXPECT_EQ(memory + " " + estimate, "memory estimate:") << run.out;
    EXPECT_GT(bytes, 0u);
    return bytes;
}

constexpr std::uint64_t kMiB = 1ull << 20;

std::string u64_trace(const std::string& name, std::uint64_t count, std::uint64_t stride) {
    const std::string path = (temp_dir() / name).string();
    std::ofstream out(path, std::ios::binary);
    for (std::uint64_t i = 0; i < count; ++i) {
        const std::uint64_t a = i * stride;
        out.write(reinterpret_cast<const char*>(&a), 8);  // little-endian hosts (as the tests' traces)
    }
    return path;
}

// Runs `args` for real and checks its peak against twice the dry run's estimate.
MeasuredRun expect_within_estimate(const std::vector<std::string>& args) {
    const std::uint64_t estimate = announced(args);
    const MeasuredRun run = run_measured(args);
    if (kPeakIsTheProgramsOwn) {
        EXPECT_LE(run.peak_bytes, 2 * estimate) << "peak " << run.peak_bytes << " B, estimate " << estimate << " B\n"
                                            << run.err;
    }
    return run;
}

TEST(CliMemoryBound, ConfigFromDevZeroIsRefusedSmall) {
    const MeasuredRun run = run_measured({"simulate", "--config", "/dev/zero"});
    EXPECT_EQ(run.exit_code, 2);
    EXPECT_NE(run.err.find("larger than 1 MiB"), std::string::npos) << run.err;
    if (kPeakIsTheProgramsOwn) { EXPECT_LT(run.peak_bytes, 64 * kMiB); }
}

TEST(CliMemoryBound, DinWithNoNewlineIsRefusedSmall) {
    // /dev/zero: endless bytes with no newline; and a 1 GiB sparse file of zeros.
    const MeasuredRun from_device = run_measured({"simulate", "--trace", "/dev/zero", "--trace-format", "din"});
    EXPECT_EQ(from_device.exit_code, 2);
    EXPECT_NE(from_device.err.find("line is longer than"), std::string::npos) << from_device.err;
    if (kPeakIsTheProgramsOwn) { EXPECT_LT(from_device.peak_bytes, 64 * kMiB); }
    const std::string sparse = (temp_dir() / "sparse.din").string();
    { std::ofstream(sparse, std::ios::binary); }
    ASSERT_EQ(::truncate(sparse.c_str(), 1ll << 30), 0);
    const MeasuredRun from_file = run_measured({"simulate", "--trace", sparse});
    EXPECT_EQ(from_file.exit_code, 2);
    EXPECT_NE(from_file.err.find(sparse + ":1: line is longer than"), std::string::npos) << from_file.err;
    if (kPeakIsTheProgramsOwn) { EXPECT_LT(from_file.peak_bytes, 64 * kMiB); }
}

TEST(CliMemoryBound, HugeFullyAssociativeCacheIsRefusedBeforeAllocating) {
    const MeasuredRun run = run_measured({"simulate", "--l1-size", "16G", "--l1-ways", "full", "--max-memory", "4G"});
    EXPECT_EQ(run.exit_code, 2);
    EXPECT_NE(run.err.find("--max-memory"), std::string::npos) << run.err;
    EXPECT_NE(run.err.find("--l1-size"), std::string::npos) << run.err;
    if (kPeakIsTheProgramsOwn) { EXPECT_LT(run.peak_bytes, 64 * kMiB); }
}

// The GPU model's memory follows its SMs (each an L1, warp slots and the lock step's per-SM
// buffers) and the L2 traffic it buffers, which follows the L1's misses: the estimate counts both.
// 1000 SMs take about 0.5 GiB; column:1 sends each lane's read to a line of its own.
TEST(CliMemoryBound, GpuRunsStayWithinTheirEstimate) {
    const std::vector<std::vector<std::string>> runs = {
        {"simulate", "--preset", "h200", "--size", "256x256", "--stencil", "3x3"},
        {"simulate", "--preset", "h200", "--sms", "1000", "--size", "256x256", "--stencil", "3x3"},
        {"simulate", "--preset", "h200", "--size", "1024x1024", "--stencil", "3x3", "--schedule", "column:1"},
    };
    for (const std::vector<std::string>& args : runs) EXPECT_EQ(expect_within_estimate(args).exit_code, 0);
}

// 100,000 SMs would need tens of GiB for their warps and buffers alone: refused before any is made.
TEST(CliMemoryBound, GpuWithTooManySmsIsRefusedBeforeAllocating) {
    const MeasuredRun run = run_measured({"simulate", "--preset", "h200", "--sms", "100000", "--max-memory", "8G"});
    EXPECT_EQ(run.exit_code, 2);
    EXPECT_NE(run.err.find("100000 SMs keep"), std::string::npos) << run.err;
    EXPECT_NE(run.err.find("--sms"), std::string::npos) << run.err;
    if (kPeakIsTheProgramsOwn) { EXPECT_LT(run.peak_bytes, 64 * kMiB); }
}

// Where the traffic's bound exceeds what the limit leaves, the run gets that share and stops (exit
// 2, naming it) when its buffered traffic outgrows it, within the limit. The fixed parts of this
// launch take about 134 MiB, and it buffers more than the 66 MiB that 200 MiB leaves.
TEST(CliMemoryBound, GpuTrafficPastItsShareStopsTheRun) {
    const std::vector<std::string> args = {"simulate",  "--preset",   "h200",         "--size",   "2048x2048",
                                           "--stencil", "3x3",        "--schedule",   "column:1", "--max-memory",
                                           "200M"};
    const MeasuredRun run = run_measured(args);
    EXPECT_EQ(run.exit_code, 2);
    EXPECT_NE(run.err.find("L2 traffic"), std::string::npos) << run.err;
    EXPECT_NE(run.err.find("past its share of the memory limit"), std::string::npos) << run.err;
    if (kPeakIsTheProgramsOwn) { EXPECT_LE(run.peak_bytes, 200 * kMiB); }
    // With the limit it needs, the same launch runs.
    std::vector<std::string> enough = args;
    enough.back() = "2G";
    EXPECT_EQ(expect_within_estimate(enough).exit_code, 0);
}

// A sweep estimates every configuration before the first runs; configurations that run at once
// share the limit (16 KiB of 16 B lines x 2 jobs fits in 1G; 16G of lines does not).
TEST(CliMemoryBound, SweepRefusesAHugeConfigurationBeforeRunningAny) {
    const std::string out = (temp_dir() / "sweep_huge.csv").string();
    const MeasuredRun run = run_measured({"sweep", "--l1-size", "16K,16G", "--l1-ways", "full", "--jobs", "2",
                                          "--max-memory", "1G", "-q", "-o", out});
    EXPECT_EQ(run.exit_code, 2);
    EXPECT_NE(run.err.find("configuration 2 (--l1-size=16G"), std::string::npos) << run.err;
    EXPECT_NE(run.err.find("--jobs"), std::string::npos) << run.err;
    if (kPeakIsTheProgramsOwn) { EXPECT_LT(run.peak_bytes, 64 * kMiB); }
    EXPECT_FALSE(std::filesystem::exists(out));  // nothing ran, nothing written
}

TEST(CliMemoryBound, HugeDiagramIsRefusedBeforeAllocating) {
    const MeasuredRun run = run_measured({"diagram", "--size", "100000x100000", "--out",
                                  (temp_dir() / "huge.png").string(), "--max-memory", "4G"});
    EXPECT_EQ(run.exit_code, 2);
    EXPECT_NE(run.err.find("--max-memory"), std::string::npos) << run.err;
    if (kPeakIsTheProgramsOwn) { EXPECT_LT(run.peak_bytes, 64 * kMiB); }
}

TEST(CliMemoryBound, GpuDiagramCountsItsCellsAndTheirTags) {
    // 2^26 cells at 2 bytes each (4 bits, the zoom pyramid up to 3x more) are 128 MiB; a byte each
    // for the hit sources of --colour-by source makes 192 MiB. Beside the program (24 MiB), the
    // h200 preset's L1s and L2 (51.9 MiB, who filled each L1 sector included) and its warps and
    // lock-step buffers on one thread (35.3 MiB), 260M holds the first and not the second.
    const std::vector<std::string> args = {"diagram", "--model", "gpu", "--size", "64x64", "--max-cells", "67108864",
                                           "--max-memory", "260M", "--out", (temp_dir() / "tags.png").string()};
    const MeasuredRun plain = run_measured(args);
    EXPECT_EQ(plain.exit_code, 0) << plain.err;
    std::vector<std::string> with_sources = args;
    with_sources.insert(with_sources.end(), {"--colour-by", "source"});
    const MeasuredRun sources = run_measured(with_sources);
    EXPECT_EQ(sources.exit_code, 2);
    EXPECT_NE(sources.err.find("diagram 192 MiB"), std::string::npos) << sources.err;
}

TEST(CliMemoryBound, WorkloadRunsStayWithinTheirEstimate) {
    const std::vector<std::string> caches = {"--l1-size", "32K", "--l1-ways", "8", "--l2-size", "1M", "--l2-ways", "16"};
    for (const bool analysis : {true, false}) {
        std::vector<std::string> args = {"simulate", "--size", "1024x1024", "--stencil", "3x3"};
        args.insert(args.end(), caches.begin(), caches.end());
        if (!analysis) args.push_back("--no-analysis");
        EXPECT_EQ(expect_within_estimate(args).exit_code, 0);
    }
    // OPT keeps its next-use table: the estimate covers it.
    EXPECT_EQ(expect_within_estimate({"simulate", "--size", "512x512", "--stencil", "3x3", "--l1-size", "8K",
                                      "--l1-policy", "opt"})
                  .exit_code,
              0);
}

// A work item's accesses are made together: a matmul of depth 1,000,000 makes 2,000,001 per item,
// 32 MB of 16-byte accesses on the thread model and a step table of 24-byte steps per copy of the
// GPU model's warp slots, beyond the fixed part's batches; the estimate counts them.
TEST(CliMemoryBound, AHugeWorkItemStaysWithinItsEstimate) {
    EXPECT_EQ(expect_within_estimate({"simulate", "--workload", "matmul", "--size", "1x1", "--depth", "1000000",
                                      "--no-analysis"})
                  .exit_code,
              0);
    EXPECT_EQ(expect_within_estimate({"simulate", "--model", "gpu", "--workload", "matmul", "--size", "32x1", "--depth",
                                      "1000000", "--sms", "1"})
                  .exit_code,
              0);
    const MeasuredRun refused = run_measured({"simulate", "--workload", "matmul", "--size", "1x1", "--depth", "20000000",
                                              "--no-analysis", "--max-memory", "100M"});
    EXPECT_EQ(refused.exit_code, 2);
    EXPECT_NE(refused.err.find("one work item's 40000001 accesses are worked out together (set by --depth)"),
              std::string::npos)
        << refused.err;
    if (kPeakIsTheProgramsOwn) { EXPECT_LT(refused.peak_bytes, 64 * kMiB); }
}

// The refusal names the part that is largest, not always a cache level.
TEST(CliMemoryBound, TheRefusalNamesTheLargestPart) {
    const MeasuredRun coalescer = run_measured({"simulate", "--model", "gpu", "--l2-coalesce-miss", "1048576",
                                                "--max-memory", "4G"});
    EXPECT_EQ(coalescer.exit_code, 2);
    EXPECT_NE(coalescer.err.find("(set by --l2-coalesce-hit and --l2-coalesce-miss)"), std::string::npos) << coalescer.err;
    const MeasuredRun program = run_measured({"simulate", "--max-memory", "24M"});
    EXPECT_EQ(program.exit_code, 2);
    EXPECT_NE(program.err.find("the program itself takes 24.0 MiB"), std::string::npos) << program.err;
    EXPECT_EQ(program.err.find("--l1-size"), std::string::npos) << program.err;
    // Where a part the options set is not small, it is named, though the program takes more:
    // 4 MiB of 16 B lines is 262,144 lines at 24 bytes each, 6 MiB.
    const MeasuredRun cache = run_measured({"simulate", "--max-memory", "25M", "--l1-size", "4M"});
    EXPECT_EQ(cache.exit_code, 2);
    EXPECT_NE(cache.err.find("the L1 holds 262144 lines (set by --l1-size and --l1-line)"), std::string::npos) << cache.err;
}

TEST(CliMemoryBound, NoAnalysisTraceRunsInConstantMemory) {
    // 4 M accesses to distinct lines: without analysis only the caches and buffers stay.
    const std::string trace = u64_trace("distinct.u64", 4'000'000, 64);
    const MeasuredRun run = expect_within_estimate({"simulate", "--trace", trace, "--trace-format", "u64", "--no-analysis",
                                            "--l1-size", "32K", "--l1-ways", "8", "--max-memory", "64M"});
    EXPECT_EQ(run.exit_code, 0) << run.err;
}

TEST(CliMemoryBound, TraceAnalysisStopsAtItsShareOfTheLimit) {
    // 2 M accesses, each to its own 4 KiB page: 2 M distinct lines, sparse, for the reuse tracker
    // several hundred MiB, well past a 64 MiB limit.
    const std::string trace = u64_trace("sparse.u64", 2'000'000, 4096);
    const MeasuredRun run = expect_within_estimate({"simulate", "--trace", trace, "--trace-format", "u64", "--l1-size", "32K",
                                            "--l1-ways", "8", "--max-memory", "64M"});
    EXPECT_EQ(run.exit_code, 2);
    EXPECT_NE(run.err.find("--no-analysis"), std::string::npos) << run.err;
    EXPECT_NE(run.err.find("--max-memory"), std::string::npos) << run.err;
}

TEST(CliMemoryBound, HelpSaysWhatMemoryFollows) {
    const MeasuredRun run = run_measured({"simulate", "--help"});
    EXPECT_EQ(run.exit_code, 0);
    std::string words;  // the help wraps its lines: compare words
    std::istringstream text(run.out);
    for (std::string word; text >> word;) words += word + " ";
    EXPECT_NE(words.find("--max-memory"), std::string::npos);
    EXPECT_NE(words.find("with analysis, memory follows the distinct lines"), std::string::npos) << words;
    EXPECT_NE(words.find("--no-analysis keeps it constant"), std::string::npos) << words;
}

}  // namespace
