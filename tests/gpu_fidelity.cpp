// Runs every configuration of gpubench's measured CSVs (tests/data/h200/fidelity_*.csv) through
// the GPU model with the H200 preset and prints simulated vs measured L1 and L2 hit rates as a
// Markdown table (the README's fidelity table comes from here), with the per-workload ranking
// agreement. L2: the all-source read hit rate (lts__t_sector_op_read_hit_rate.pct, one pass on
// the H200) and, beside it, the tex-lookup ratio (two passes on the H200, so it mixes runs). Usage: gpu_fidelity CSV... [--set key=value]... [--only SUBSTRING]
// Keys for --set (model experiments): carveout-reserved, scheduler, cta, refill, partitions, l1-policy,
// l2-policy, l1-kib, dram-fetch, coalesce-hit, coalesce-miss, coalesce-max, coalesce-among.
#include <algorithm>
#include <cmath>
#include <cstdio>
#include <fstream>
#include <map>
#include <sstream>
#include <string>
#include <vector>

#include "sim/gpu/gpu_model.hpp"
#include "sim/gpu/gpu_presets.hpp"
#include "traces/workload_spec.hpp"

namespace {

using namespace cachesim;

struct Row {
    WorkloadSpec spec;
    std::uint32_t block = 0;
    double l1 = 0, l2 = 0;  // measured hit rates, % (l2: lts__t_sector_op_read_hit_rate.pct)
    double l2_tex = 0;      // measured tex lookup hits / tex reads (two passes), %
    double l1_requests = 0, l1_sectors = 0, l2_sectors = 0, dram = 0;
    std::string label;
};

std::vector<std::string> split(const std::string& line) {
    std::vector<std::string> out;
    std::stringstream s(line);
    std::string field;
    while (std::getline(s, field, ',')) out.push_back(field);
    return out;
}

std::vector<Row> read(const std::string& path) {
    std::ifstream in(path);
    std::string line;
    std::getline(in, line);
    const std::vector<std::string> header = split(line);
    auto col = [&](const std::string& name) {
        const auto it = std::find(header.begin(), header.end(), name);
        if (it == header.end()) throw std::runtime_error(path + ": no column " + name);
        return static_cast<std::size_t>(it - header.begin());
    };
    std::vector<Row> rows;
    while (std::getline(in, line)) {
        if (line.empty()) continue;
        const auto f = split(line);
        Row r;
        r.spec.kind = parse_workload_kind(f[col("kernel")]);
        r.spec.width = std::stoul(f[col("width")]);
        r.spec.height = std::stoul(f[col("height")]);
        if (r.spec.kind == WorkloadKind::stencil) {
            r.spec.stencil_w = std::stoul(f[col("stencil_w")]);
            r.spec.stencil_h = std::stoul(f[col("stencil_h")]);
        } else {
            r.spec.depth = std::stoul(f[col("depth")]);
        }
        r.spec.schedule = parse_schedule(f[col("schedule")]);
        r.block = std::stoul(f[col("block")]);
        r.l1 = std::stod(f[col("l1tex__t_sector_pipe_lsu_mem_global_op_ld_hit_rate.pct")]);
        r.l1_sectors = std::stod(f[col("l1tex__t_sectors_pipe_lsu_mem_global_op_ld.sum")]);
        r.l1_requests = std::stod(f[col("l1tex__t_requests_pipe_lsu_mem_global_op_ld.sum")]);
        r.l2_sectors = std::stod(f[col("lts__t_sectors_srcunit_tex_op_read.sum")]);
        r.l2_tex = 100.0 * std::stod(f[col("lts__t_sectors_srcunit_tex_op_read_lookup_hit.sum")]) / r.l2_sectors;
        r.l2 = std::stod(f[col("lts__t_sector_op_read_hit_rate.pct")]);
        r.dram = std::stod(f[col("dram__bytes_read.sum")]);
        r.label = r.spec.describe() + ", block " + std::to_string(r.block);
        rows.push_back(r);
    }
    return rows;
}

void apply(GpuConfig& c, const std::string& key, const std::string& value) {
    if (key == "carveout-reserved") c.smem_reserved_per_block = std::stoul(value);
    else if (key == "scheduler") c.scheduler = *parse_warp_scheduler(value);
    else if (key == "cta") c.cta_order = *parse_cta_order(value);
    else if (key == "refill") c.cta_refill = *parse_cta_refill(value);
    else if (key == "partitions") c.l2_partitions = std::stoul(value);
    else if (key == "fill") c.partition_fill = *parse_partition_fill(value);
    else if (key == "l2-hash") c.l2_set_index = value == "on" ? SetIndex::hash : SetIndex::mod;
    else if (key == "partition-map") c.partition_map = *parse_partition_map(value);
    else if (key == "l1-policy") c.l1.policy = *parse_policy(value);
    else if (key == "l2-policy") c.l2.policy = *parse_policy(value);
    else if (key == "l1-kib") { c.l1_auto = false; c.l1.size_bytes = std::stoull(value) * 1024; }
    else if (key == "dram-fetch") c.dram_fetch_bytes = std::stoul(value);
    else if (key == "coalesce-hit") c.l2_coalesce_hit_rounds = std::stoul(value);
    else if (key == "coalesce-miss") c.l2_coalesce_miss_rounds = std::stoul(value);
    else if (key == "coalesce-max") c.l2_coalesce_requesters = std::stoul(value);
    else if (key == "coalesce-among") c.l2_coalesce_scope = *parse_coalesce_scope(value);
    else throw std::runtime_error("unknown key " + key);
}

// Kendall-style agreement: the fraction of pairs ordered the same way (ties count as agreeing
// when both are within 0.25 points).
double pair_agreement(const std::vector<double>& a, const std::vector<double>& b) {
    std::size_t same = 0, pairs = 0;
    for (std::size_t i = 0; i < a.size(); ++i)
        for (std::size_t j = i + 1; j < a.size(); ++j) {
            ++pairs;
            const double da = a[i] - a[j], db = b[i] - b[j];
            if ((std::abs(da) < 0.25 && std::abs(db) < 0.25) || da * db > 0) ++same;
        }
    return pairs ? static_cast<double>(same) / pairs : 1.0;
}

}  // namespace

int main(int argc, char** argv) {
    std::vector<std::string> files;
    GpuConfig config = find_gpu_preset("h200")->config;
    std::string only;
    for (int i = 1; i < argc; ++i) {
        const std::string a = argv[i];
        if (a == "--set" && i + 1 < argc) {
            const std::string kv = argv[++i];
            const auto eq = kv.find('=');
            apply(config, kv.substr(0, eq), kv.substr(eq + 1));
        } else if (a == "--only" && i + 1 < argc) {
            only = argv[++i];
        } else {
            files.push_back(a);
        }
    }
    std::printf("| workload | schedule | block | L1 sim | L1 H200 | diff | L2 sim | L2 H200 | diff | L2 tex sim | L2 tex H200 | L2 sectors sim/H200 | coalesced M sim | H200 |\n");
    std::printf("|---|---|---|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|\n");
    struct Group {
        std::vector<double> l1_sim, l1_hw, l2_sim, l2_hw;
    };
    std::map<std::string, Group> groups;  // per workload and block: the schedules
    double worst_l1 = 0, worst_l2 = 0, sum_l1 = 0, sum_l2 = 0;
    int n = 0, l1_ok = 0, l2_ok = 0, counts_exact = 0;
    for (const std::string& file : files) {
        for (const Row& r : read(file)) {
            if (!only.empty() && r.label.find(only) == std::string::npos) continue;
            GpuConfig c = config;
            c.block = r.block;
            const GpuResult g = simulate_gpu_model(r.spec, c);
            const double l1 = g.ncu.l1_hit_rate_pct(), l2 = g.l2_read_hit_rate_pct();
            std::string workload = std::string(workload_name(r.spec.kind)) + " " + std::to_string(r.spec.width) + "x" +
                                   std::to_string(r.spec.height) +
                                   (r.spec.kind == WorkloadKind::stencil
                                        ? " " + std::to_string(r.spec.stencil_w) + "x" + std::to_string(r.spec.stencil_h)
                                        : " d" + std::to_string(r.spec.depth));
            // H200: L1 misses that made no L2 lookup (joined another SM's read)
            const double gap = r.l1_sectors * (1.0 - r.l1 / 100.0) - r.l2_sectors;
            std::printf("| %s | %s | %u | %.2f | %.2f | %+.2f | %.2f | %.2f | %+.2f | %.2f | %.2f | %.2f | %.2f | %.2f |\n",
                        workload.c_str(), schedule_name(r.spec.schedule).c_str(), r.block, l1, r.l1, l1 - r.l1, l2,
                        r.l2, l2 - r.l2, g.ncu.l2_hit_rate_pct(), r.l2_tex, g.ncu.l2_sectors_tex_read / r.l2_sectors,
                        g.ncu.l2_sectors_coalesced / 1e6, gap / 1e6);
            std::fflush(stdout);
            Group& group = groups[workload + ", block " + std::to_string(r.block)];
            group.l1_sim.push_back(l1);
            group.l1_hw.push_back(r.l1);
            group.l2_sim.push_back(l2);
            group.l2_hw.push_back(r.l2);
            worst_l1 = std::max(worst_l1, std::abs(l1 - r.l1));
            worst_l2 = std::max(worst_l2, std::abs(l2 - r.l2));
            sum_l1 += std::abs(l1 - r.l1);
            sum_l2 += std::abs(l2 - r.l2);
            l1_ok += std::abs(l1 - r.l1) <= 3.0;
            counts_exact += static_cast<double>(g.ncu.l1_sectors_ld) == r.l1_sectors &&
                            static_cast<double>(g.ncu.l1_requests_ld) == r.l1_requests;
            l2_ok += std::abs(l2 - r.l2) <= 5.0;
            ++n;
        }
    }
    std::printf("\n%d configurations: request and sector counts exact %d; L1 within 3 points %d, mean |diff| %.2f, worst %.2f; "
                "L2 within 5 points %d, mean |diff| %.2f, worst %.2f\n",
                n, counts_exact, l1_ok, n ? sum_l1 / n : 0, worst_l1, l2_ok, n ? sum_l2 / n : 0, worst_l2);
    std::printf("\n| workload, block | schedules | L1 ranking: pairs in the same order | L2 ranking |\n|---|---:|---:|---:|\n");
    for (const auto& [name, group] : groups)
        if (group.l1_sim.size() > 1)
            std::printf("| %s | %zu | %.0f%% | %.0f%% |\n", name.c_str(), group.l1_sim.size(),
                        100.0 * pair_agreement(group.l1_sim, group.l1_hw), 100.0 * pair_agreement(group.l2_sim, group.l2_hw));
    return 0;
}
