// `cachesim trace` of a built-in workload (cst version 2), replayed with `simulate --model gpu
// --trace`, gives every counter of the built-in run: the recorded-trace request source is the
// built-in one's equal. Several workloads, schedules, blocks and GPU settings.
#include <gtest/gtest.h>

#include <nlohmann/json.hpp>

#include "tests/cli_util.hpp"

namespace cachesim::test {
namespace {

nlohmann::json run_json(const std::string& args) {
    const CommandResult r = run_cachesim(args + " --format json");
    EXPECT_EQ(r.exit_code, 0) << args << "\n" << r.err;
    return r.exit_code == 0 ? nlohmann::json::parse(r.out) : nlohmann::json{};
}

// Everything but the time and what names the input (workload or trace path).
nlohmann::json counters(nlohmann::json j) {
    for (const char* key : {"seconds", "accesses_per_second", "workload", "trace"}) j.erase(key);
    if (j.contains("result")) j["result"].erase("seconds");
    return j;
}

struct Case {
    std::string workload;  // workload options
    std::string gpu;       // GPU options
};

TEST(GpuTraceReplayCli, RecordedBuiltinWorkloadsGiveTheBuiltinCounters) {
    const std::vector<std::string> workloads = {
        "--workload stencil --size 192x80 --stencil 3x3",
        "--workload stencil --size 130x70 --stencil 5x3",
        "--workload matmul --size 96x64 --depth 40",
    };
    const std::vector<std::string> schedules = {"linear", "column:32", "zigzag:16", "tiled:16x8", "morton"};
    const std::vector<std::string> blocks = {"128", "256", "96"};
    const std::vector<std::string> gpus = {"--preset h200", "--preset v100 --warp-scheduler gto", "--preset a100"};
    int runs = 0;
    for (const std::string& w : workloads)
        for (std::size_t s = 0; s < schedules.size(); ++s) {
            const std::string block = blocks[(s + runs) % blocks.size()];
            const std::string gpu = gpus[s % gpus.size()];
            const std::string spec = w + " --schedule " + schedules[s];
            const std::string trace = (temp_dir() / ("replay" + std::to_string(runs++) + ".cst")).string();
            const CommandResult t = run_cachesim("trace " + spec + " --block " + block + " -q -o '" + trace + "'");
            ASSERT_EQ(t.exit_code, 0) << t.err;
            const nlohmann::json builtin = run_json("simulate " + gpu + " " + spec + " --block " + block);
            const nlohmann::json replay = run_json("simulate " + gpu + " --trace '" + trace + "'");
            EXPECT_EQ(counters(builtin), counters(replay)) << spec << " " << gpu << " block " << block;
            EXPECT_EQ(replay.value("trace", ""), trace);
        }
}

TEST(GpuTraceReplayCli, BadCombinationsExit2) {
    const std::string trace = (temp_dir() / "bad_combination.cst").string();
    ASSERT_EQ(run_cachesim("trace --workload stencil --size 64x64 --stencil 3x3 --block 128 -q -o '" + trace + "'").exit_code, 0);
    // another block size than the recorded launch's
    CommandResult r = run_cachesim("simulate --model gpu --trace '" + trace + "' --block 256");
    EXPECT_EQ(r.exit_code, 2);
    EXPECT_NE(r.err.find("records blocks of 128 threads"), std::string::npos) << r.err;
    // a version 1 trace holds no launch
    const std::string v1 = (temp_dir() / "bad_v1.cst").string();
    ASSERT_EQ(run_cachesim("trace --workload stencil --size 64x64 --trace-version 1 -q -o '" + v1 + "'").exit_code, 0);
    r = run_cachesim("simulate --model gpu --trace '" + v1 + "'");
    EXPECT_EQ(r.exit_code, 2);
    EXPECT_NE(r.err.find("holds no launch"), std::string::npos) << r.err;
    // and the thread model replays either version to the same counters
    const nlohmann::json a = run_json("simulate --trace '" + v1 + "'");
    const std::string v2 = (temp_dir() / "v2_default.cst").string();
    ASSERT_EQ(run_cachesim("trace --workload stencil --size 64x64 -q -o '" + v2 + "'").exit_code, 0);
    const nlohmann::json b = run_json("simulate --trace '" + v2 + "'");
    EXPECT_EQ(counters(a), counters(b));
}

}  // namespace
}  // namespace cachesim::test
