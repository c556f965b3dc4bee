// The GPU parameter table (sim/gpu/gpu_parameters.hpp): every model field of GpuConfig has a row,
// every preset's value has a source, and each row reads back what it prints.
#include <gtest/gtest.h>

#include <algorithm>
#include <set>
#include <string>

#include "sim/gpu/gpu_parameters.hpp"
#include "sim/gpu/gpu_presets.hpp"

namespace cachesim {
namespace {

// GpuConfig's members that describe the modeled GPU or launch, written down from gpu_config.hpp
// (not from the table). Left out on purpose: name (the preset's name), floorplan (measured data
// that cta-order / l2-partition-map floorplan select), seed (--seed, shared with the thread
// model), the testing aids reference_addresses and issue_log, timeline (--warp-times), and the
// caches' names and write policies, which the GPU model fixes.
const std::set<std::string> kModelFields = {
    "sms", "warp_size", "block", "max_threads_per_sm", "max_blocks_per_sm", "regs_per_sm",
    "regs_per_thread", "smem_per_block", "smem_reserved_per_block", "l2_start", "l1_auto", "unified_l1_bytes",
    "carveouts_kib", "carveout_rule", "l1.size_bytes", "l1.line_bytes", "l1.sector_bytes", "l1.ways", "l1_set_index", "l1.policy",
    "l2.size_bytes", "l2.line_bytes", "l2.sector_bytes", "l2.ways", "l2.policy", "l2_partitions",
    "partition_map", "partition_fill", "l2_set_index", "dram_fetch_bytes", "l2_coalesce_hit_rounds",
    "l2_coalesce_miss_rounds", "l2_coalesce_requesters", "l2_coalesce_scope", "cta_order", "cta_refill",
    "scheduler", "warp_rate_spread", "warp_rate_redraw", "warp_rate_scope", "issue_burst", "block_start_skip", "warp_age_weight", "warp_age_group",
    "warp_age_rank", "warp_age_warm_step", "warp_age_warm_group", "warp_age_warm_weight", "warp_age_dram_blocks",
    "miss_wait_turns",
    "lockstep_warps",
    "compilation", "loop_limit", "loop_issue_cost", "timing", "schedulers_per_sm", "lat_l1_hit", "lat_l1_miss",
    "lat_dram", "lat_l2_far", "load_gates", "issue_cycles",
    "l1_miss_bandwidth", "l2_coalesce_hit_cycles", "l2_coalesce_miss_cycles",
};

std::set<std::string> bound_fields() {
    std::set<std::string> fields;
    for (const GpuParameter& p : gpu_parameters()) {
        // "l1.size_bytes, l1_auto": one option binds both
        std::string list(p.field);
        for (std::size_t start = 0; start < list.size();) {
            const std::size_t comma = std::min(list.find(',', start), list.size());
            std::string name = list.substr(start, comma - start);
            name.erase(0, name.find_first_not_of(' '));
            fields.insert(name);
            start = comma + 1;
        }
    }
    return fields;
}

TEST(GpuParameterTable, EveryModelFieldHasARow) {
    const std::set<std::string> fields = bound_fields();
    for (const std::string& field : kModelFields) EXPECT_TRUE(fields.count(field)) << field << " has no row";
    for (const std::string& field : fields) EXPECT_TRUE(kModelFields.count(field)) << field << " is not a model field";
}

TEST(GpuParameterTable, OptionsAndReportKeysAreUniqueAndDescribed) {
    std::set<std::string_view> options, keys;
    for (const GpuParameter& p : gpu_parameters()) {
        EXPECT_TRUE(options.insert(p.option).second) << p.option;
        if (!p.report_key.empty()) {
            EXPECT_TRUE(keys.insert(p.report_key).second) << p.report_key;
        }
        EXPECT_FALSE(p.help.empty()) << p.option;
        EXPECT_FALSE(p.group.empty()) << p.option;
        EXPECT_TRUE(p.get && p.set) << p.option;
        if (p.type == ParameterType::choice) EXPECT_GE(p.choices.size(), 2u) << p.option;
        else EXPECT_FALSE(p.range.empty()) << p.option;
        EXPECT_EQ(find_gpu_parameter(p.option), &p);
    }
}

TEST(GpuParameterTable, EveryPresetValueHasAProvenance) {
    for (const GpuPreset& preset : gpu_presets())
        for (const GpuParameter& p : gpu_parameters()) {
            const ParameterSource source = parameter_source(p, preset.name);
            EXPECT_FALSE(source.detail.empty()) << preset.name << " --" << p.option;
            EXPECT_NE(source.kind, Provenance::user) << preset.name << " --" << p.option;
        }
}

TEST(GpuParameterTable, TheH200sFittedValuesSayWhatTheyWereFittedOn) {
    const ParameterSource spread = parameter_source(*find_gpu_parameter("warp-rate-spread"), "h200");
    EXPECT_EQ(spread.kind, Provenance::fitted);
    EXPECT_NE(spread.detail.find("27 training matmul launches"), std::string_view::npos);
    EXPECT_NE(spread.detail.find("768^3 compilation probes"), std::string_view::npos);
    const ParameterSource skip = parameter_source(*find_gpu_parameter("block-start-skip"), "h200");
    EXPECT_EQ(skip.kind, Provenance::fitted);
    EXPECT_NE(skip.detail.find("27 training matmul launches"), std::string_view::npos);
    EXPECT_NE(skip.detail.find("training stencils"), std::string_view::npos);
    const ParameterSource partitions = parameter_source(*find_gpu_parameter("l2-partitions"), "h200");
    EXPECT_EQ(partitions.kind, Provenance::measured);
    EXPECT_NE(partitions.detail.find("tests/data/h200/l2probe_sm.csv"), std::string_view::npos);
}

// Each preset's value, printed and read back, gives the same configuration (the row's get and set
// agree), and a row's set changes its own field.
TEST(GpuParameterTable, ValuesReadBackAsPrinted) {
    for (const GpuPreset& preset : gpu_presets())
        for (const GpuParameter& p : gpu_parameters()) {
            GpuConfig c = preset.config;
            const std::string text = p.get(c);
            p.set(c, text, p.option);
            for (const GpuParameter& q : gpu_parameters())
                EXPECT_EQ(q.get(c), q.get(preset.config)) << preset.name << ": --" << p.option << "=" << text
                                                          << " changed --" << q.option;
        }
    GpuConfig c = find_gpu_preset("h200")->config;
    find_gpu_parameter("block-start-skip")->set(c, "3", "block-start-skip");
    EXPECT_EQ(c.block_start_skip, 3u);
    find_gpu_parameter("issue-burst")->set(c, "7", "issue-burst");
    EXPECT_EQ(c.issue_burst, 7u);
    find_gpu_parameter("l2-coalesce-among")->set(c, "neighbours", "l2-coalesce-among");
    EXPECT_EQ(c.l2_coalesce_scope, CoalesceScope::neighbours);
    find_gpu_parameter("l1-size")->set(c, "64K", "l1-size");
    EXPECT_FALSE(c.l1_auto);
    EXPECT_EQ(c.l1.size_bytes, 65536u);
    find_gpu_parameter("carveouts")->set(c, "0,8,100", "carveouts");
    EXPECT_EQ(c.carveouts_kib, (std::vector<std::uint32_t>{0, 8, 100}));
}

TEST(GpuParameterTable, BadValuesNameTheOption) {
    GpuConfig c;
    try {
        find_gpu_parameter("cta-refill")->set(c, "random", "cta-refill");
        FAIL() << "no error";
    } catch (const std::exception& e) {
        EXPECT_EQ(std::string(e.what()), "--cta-refill: expected shuffled or sm-order, not 'random'");
    }
    EXPECT_ANY_THROW(find_gpu_parameter("block")->set(c, "-5", "block"));
    EXPECT_ANY_THROW(find_gpu_parameter("warp-rate-spread")->set(c, "fast", "warp-rate-spread"));
}

}  // namespace
}  // namespace cachesim
