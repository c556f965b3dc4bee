// The h100 and h200 presets are one Hopper configuration: every parameter equal but the ones
// measured per chip (L2 size, near L2 hit latency), and every h100 value's provenance says where
// it comes from, none fitted on the H100. The rtx2080s preset has the TU104's documented geometry.
#include <gtest/gtest.h>

#include <set>
#include <string>

#include "sim/gpu/gpu_parameters.hpp"
#include "sim/gpu/gpu_presets.hpp"

namespace cachesim {
namespace {

const GpuConfig& preset(std::string_view name) {
    const GpuPreset* p = find_gpu_preset(name);
    EXPECT_NE(p, nullptr) << name;
    return p->config;
}

TEST(GpuPresetsHopper, H100DiffersFromH200OnlyInItsMeasuredValues) {
    const GpuConfig& h100 = preset("h100");
    const GpuConfig& h200 = preset("h200");
    const std::set<std::string_view> per_chip = {"l2-size", "lat-l1-miss"};
    for (const GpuParameter& p : gpu_parameters()) {
        if (per_chip.count(p.option)) continue;
        EXPECT_EQ(p.get(h100), p.get(h200)) << "--" << p.option;
    }
    // tests/data/h100/l2probe.txt: "L2 52428800 bytes", "L2 near hit median 289"
    EXPECT_EQ(h100.l2.size_bytes, 52428800u);
    EXPECT_EQ(h100.lat_l1_miss, 289u);
    EXPECT_EQ(h200.l2.size_bytes, 62914560u);
    // l2probe finds the same SM ids in each partition on both chips
    EXPECT_EQ(h100.floorplan.sm_partition, h200.floorplan.sm_partition);
    EXPECT_EQ(h100.floorplan.dispatch_cycle, h200.floorplan.dispatch_cycle);
    EXPECT_EQ(h100.l2_partitions, 2u);
}

TEST(GpuPresetsHopper, EveryH100ValueHasItsProvenanceAndNoneIsFittedOnTheH100) {
    for (const GpuParameter& p : gpu_parameters()) {
        const ParameterSource s = parameter_source(p, "h100");
        EXPECT_FALSE(s.detail.empty()) << "--" << p.option;
        // the H200's mechanisms are on: no row may say they do not apply
        EXPECT_EQ(s.detail.find("does not apply"), std::string_view::npos) << "--" << p.option << ": " << s.detail;
        if (s.kind == Provenance::fitted) {
            EXPECT_NE(s.detail.find("fitted on H200 measurements"), std::string_view::npos) << "--" << p.option;
            EXPECT_NE(s.detail.find("not re-fitted on the H100"), std::string_view::npos) << "--" << p.option;
        }
    }
}

TEST(GpuPresetsHopper, Rtx2080SuperIsAFullTu104) {
    GpuConfig c = preset("rtx2080s");
    EXPECT_EQ(c.sms, 48u);
    EXPECT_EQ(c.l2.size_bytes, 4u << 20);
    EXPECT_EQ(c.l2_partitions, 1u);
    EXPECT_EQ(c.l1.line_bytes, 128u);
    EXPECT_EQ(c.l1.sector_bytes, 32u);
    EXPECT_EQ(c.l1.policy, PolicyKind::random4);
    // 96 KiB unified; a kernel without shared memory gets the 32 KiB carve-out, leaving 64 KiB of L1
    c.block = 256;
    EXPECT_EQ(gpu_occupancy(c).l1_bytes, 64u * 1024);
    for (const std::string_view option : {"sms", "l2-size", "unified-l1", "carveouts", "l1-policy"})
        EXPECT_EQ(parameter_source(*find_gpu_parameter(option), "rtx2080s").kind, Provenance::documented) << option;
}

}  // namespace
}  // namespace cachesim
