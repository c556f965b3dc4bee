#include "apps/cachesim/report.hpp"
#include "apps/cachesim/number_text.hpp"

#include <cstdio>
#include <iomanip>
#include <sstream>

#include "traces/csv_table.hpp"

namespace cachesim::cli {

namespace {

using Json = nlohmann::ordered_json;

std::string with_commas(std::uint64_t v) {
    const std::string digits = std::to_string(v);
    std::string grouped;
    for (std::size_t i = 0; i < digits.size(); ++i) {
        if (i > 0 && (digits.size() - i) % 3 == 0) grouped += ',';
        grouped += digits[i];
    }
    return grouped;
}

std::string percent(double fraction) {
    char buffer[32];
    std::snprintf(buffer, sizeof buffer, "%.2f%%", 100.0 * fraction);
    return buffer;
}

std::string bytes_text(std::uint64_t bytes) {
    const char* units[] = {"B", "KiB", "MiB", "GiB", "TiB"};
    double v = static_cast<double>(bytes);
    int u = 0;
    while (v >= 1024 && u < 4 && static_cast<std::uint64_t>(v) % 1024 == 0) {
        v /= 1024;
        ++u;
    }
    std::ostringstream s;
    s << v << " " << units[u];
    return s.str();
}

const CacheConfig& config_of(const RunReport& r, const LevelStats& stats) {
    return stats.name == r.hierarchy.l2.name ? r.hierarchy.l2 : r.hierarchy.l1;
}

std::string level_description(const CacheConfig& c) {
    const CacheGeometry g = *make_geometry(c).geometry;
    std::string ways = c.ways == 0 ? "fully associative (" + std::to_string(g.ways) + " ways)"
                                   : std::to_string(g.ways) + "-way, " + std::to_string(g.sets) + " sets";
    std::string text = bytes_text(c.size_bytes) + ", " + std::to_string(g.lines) + " lines of " +
                       std::to_string(c.line_bytes) + " B";
    if (g.sector_bytes != g.line_bytes) text += " (" + std::to_string(g.sector_bytes) + " B sectors)";
    text += ", " + ways + ", " + std::string(policy_name(c.policy)) + ", write-" +
            (c.write_policy == WritePolicy::write_back_allocate ? "back" : "through");
    return text;
}

std::string subject(const RunReport& r) {
    if (r.workload) return r.workload->describe();
    return "trace " + r.trace_path;
}

Json level_json(const RunReport& r, const LevelStats& s) {
    const CacheConfig& c = config_of(r, s);
    const CacheGeometry g = *make_geometry(c).geometry;
    Json j;
    j["name"] = s.name;
    j["config"] = {{"size_bytes", c.size_bytes}, {"line_bytes", c.line_bytes},
                   {"sector_bytes", g.sector_bytes}, {"ways", g.ways}, {"sets", g.sets},
                   {"policy", policy_name(c.policy)},
                   {"write_policy", c.write_policy == WritePolicy::write_back_allocate ? "write-back" : "write-through"}};
    j["accesses"] = s.accesses();
    j["hits"] = s.hits();
    j["misses"] = s.misses();
    j["hit_rate"] = s.hit_rate();
    j["reads"] = s.reads;
    j["read_hits"] = s.read_hits;
    j["read_misses"] = s.read_misses;
    j["writes"] = s.writes;
    j["write_hits"] = s.write_hits;
    j["write_misses"] = s.write_misses;
    j["writes_forwarded"] = s.writes_forwarded;
    j["evictions"] = s.evictions;
    j["writebacks"] = s.writebacks;
    j["bytes_from_below"] = s.bytes_from_below;
    j["bytes_to_below"] = s.bytes_to_below;
    if (s.classified)
        j["miss_classes"] = {{"compulsory", s.compulsory}, {"capacity", s.capacity}, {"conflict", s.conflict},
                             {"estimated", s.reuse_sample > 0}};
    Json arrays = Json::array();
    for (std::size_t i = 0; i < s.per_array.size(); ++i) {
        const ArrayCounters& a = s.per_array[i];
        arrays.push_back({{"name", i < r.result.arrays.size() ? r.result.arrays[i].name : "?"},
                          {"reads", a.reads}, {"read_misses", a.read_misses},
                          {"writes", a.writes}, {"write_misses", a.write_misses}});
    }
    j["per_array"] = arrays;
    if (s.classified) {
        Json buckets = Json::array();
        for (std::size_t b = 0; b < s.reuse.buckets.size(); ++b)
            buckets.push_back({{"min", ReuseHistogram::bucket_low(b)},
                               {"max", ReuseHistogram::bucket_high(b)},
                               {"count", s.reuse.buckets[b]}});
        // sample_rate: the SHARDS rate of an estimated histogram; 0: exact.
        j["reuse_distance"] = {{"cold", s.reuse.cold}, {"buckets", buckets}, {"sample_rate", s.reuse_sample}};
    }
    return j;
}

}  // namespace

bool is_count_metric(std::string_view name) {
    // ncu's ".sum" metrics add up events (requests, sectors, bytes); the others are rates.
    return name.ends_with(".sum");
}

std::string metric_text(std::string_view name, double value) {
    if (is_count_metric(name)) return std::to_string(static_cast<std::uint64_t>(value));
    std::ostringstream s;
    s << std::setprecision(10) << value;
    return s.str();
}

Json to_json(const RunReport& r) {
    Json j;
    j["tool"] = "cachesim";
    j["model"] = r.model;
    if (r.workload) {
        const WorkloadSpec& w = *r.workload;
        Json wj = {{"kind", workload_name(w.kind)}, {"width", w.width}, {"height", w.height}};
        if (w.kind == WorkloadKind::stencil) {
            wj["stencil_w"] = w.stencil_w;
            wj["stencil_h"] = w.stencil_h;
        } else {
            wj["depth"] = w.depth;
        }
        wj["elem_bytes"] = w.elem_bytes;
        wj["schedule"] = schedule_name(w.schedule);
        j["workload"] = wj;
    } else {
        j["trace"] = r.trace_path;
    }
    for (const auto& [key, value] : r.parameters) j["parameters"][key] = value;
    j["seed"] = r.hierarchy.seed;
    j["accesses"] = r.result.accesses;
    j["reads"] = r.result.reads;
    j["writes"] = r.result.writes;
    j["steps"] = r.result.steps;
    Json levels = Json::array();
    for (const LevelStats& s : r.result.levels) levels.push_back(level_json(r, s));
    j["levels"] = levels;
    j["memory"] = {{"bytes_read", r.result.memory_bytes_read}, {"bytes_written", r.result.memory_bytes_written}};
    if (!r.ncu.empty()) {
        Json ncu = Json::object();
        for (const auto& [name, value] : r.ncu) {
            if (is_count_metric(name)) ncu[name] = static_cast<std::uint64_t>(value);
            else ncu[name] = value;
        }
        j["ncu"] = ncu;
    }
    if (!r.cautions.empty()) j["cautions"] = r.cautions;
    j["seconds"] = r.result.seconds;
    j["accesses_per_second"] = r.result.accesses_per_second();
    return j;
}

namespace {

// Says that a level's analysis is an estimate from sampled lines, and at what rate.
std::string sample_note(const LevelStats& s) {
    if (s.reuse_sample <= 0) return "";
    std::ostringstream note;
    note << " (estimated: lines sampled at rate " << s.reuse_sample << ")";
    return note.str();
}

}  // namespace

void print_table(std::ostream& out, const RunReport& r, bool show_reuse) {
    const SimulationResult& res = r.result;
    out << "cachesim: " << subject(r) << "  (" << r.model << " model)\n";
    for (const auto& [key, value] : r.parameters) out << "  " << key << ": " << value << "\n";
    // "1,024 accesses", "1 access": a count with its noun, singular for one.
    const auto count = [](std::uint64_t n, const char* one, const char* many) { return with_commas(n) + " " + (n == 1 ? one : many); };
    out << "  " << count(res.accesses, "access", "accesses") << " (" << count(res.reads, "read", "reads") << ", "
        << count(res.writes, "write", "writes") << ") in "
        << (r.workload ? count(res.steps, "work item", "work items") : count(res.steps, "record", "records")) << "\n\n";
    for (const LevelStats& s : res.levels) {
        out << s.name << ": " << level_description(config_of(r, s)) << "\n";
        out << "  reads      " << std::setw(15) << with_commas(s.reads) << "   hits " << std::setw(15)
            << with_commas(s.read_hits) << "   misses " << std::setw(15) << with_commas(s.read_misses)
            << "   hit rate " << percent(s.reads ? double(s.read_hits) / s.reads : 0) << "\n";
        if (s.writes)
            out << "  writes     " << std::setw(15) << with_commas(s.writes) << "   hits " << std::setw(15)
                << with_commas(s.write_hits) << "   misses " << std::setw(15) << with_commas(s.write_misses)
                << "   hit rate " << percent(double(s.write_hits) / s.writes) << "\n";
        if (s.writes_forwarded)
            out << "  stores forwarded below without lookup: " << with_commas(s.writes_forwarded) << "\n";
        out << "  all        " << std::setw(15) << with_commas(s.accesses()) << "   hits " << std::setw(15)
            << with_commas(s.hits()) << "   misses " << std::setw(15) << with_commas(s.misses())
            << "   hit rate " << percent(s.hit_rate()) << "\n";
        if (r.l1_hit_sources && s.name == "L1" && r.l1_hit_sources->total()) {
            // Hits from another block last only while the SM's blocks keep in step (docs/gpu-model.md).
            const L1HitSourceCounts& h = *r.l1_hit_sources;
            const double all = static_cast<double>(h.total());
            out << "  read hits by who brought the sector: the same warp " << with_commas(h.own_warp) << " ("
                << percent(h.own_warp / all) << "), another warp of its block " << with_commas(h.own_block) << " ("
                << percent(h.own_block / all) << "), another block on the SM " << with_commas(h.other_block) << " ("
                << percent(h.other_block / all) << ")\n";
            const double points = h.other_block_points(s.reads);
            if (points >= kTimingDependentPoints)
                out << "  note: " << fixed_text(points, 2) << " of the L1's "
                    << fixed_text(100.0 * static_cast<double>(s.read_hits) / static_cast<double>(s.reads), 2)
                    << " points are hits from other blocks, which last only while the SM's blocks keep in step: the "
                       "timing the model is least sure of, where its largest errors are (docs/fidelity.md, \"Which "
                       "launches to trust\")\n";
        }
        if (s.classified)
            out << "  miss classes" << sample_note(s) << ": compulsory " << with_commas(s.compulsory) << ", capacity "
                << with_commas(s.capacity) << ", conflict " << with_commas(s.conflict) << "\n";
        out << "  evictions " << with_commas(s.evictions) << ", write-backs " << with_commas(s.writebacks)
            << ", bytes from below " << with_commas(s.bytes_from_below) << ", to below "
            << with_commas(s.bytes_to_below) << "\n";
        if (s.per_array.size() > 1) {
            out << "  per array:";
            for (std::size_t i = 0; i < s.per_array.size() && i < res.arrays.size(); ++i) {
                const ArrayCounters& a = s.per_array[i];
                out << "  " << res.arrays[i].name << " " << with_commas(a.reads) << " reads/"
                    << with_commas(a.read_misses) << " misses";
                if (a.writes) out << ", " << with_commas(a.writes) << " writes/" << with_commas(a.write_misses) << " misses";
                out << ";";
            }
            out << "\n";
        }
        if (show_reuse && s.classified) {
            out << "  reuse distance (distinct lines between uses)" << sample_note(s) << ": cold " << with_commas(s.reuse.cold) << "\n";
            for (std::size_t b = 0; b < s.reuse.buckets.size(); ++b)
                if (s.reuse.buckets[b])
                    out << "    " << std::setw(10) << ReuseHistogram::bucket_low(b) << " .. " << std::setw(10)
                        << ReuseHistogram::bucket_high(b) << "  " << with_commas(s.reuse.buckets[b]) << "\n";
        }
        out << "\n";
    }
    for (const std::string& caution : r.cautions) out << "caution: " << caution << "\n\n";
    if (!r.ncu.empty()) {
        out << "Nsight Compute equivalents:\n";
        for (const auto& [name, value] : r.ncu) {
            out << "  " << std::left << std::setw(62) << name << std::right << " ";
            if (is_count_metric(name)) out << static_cast<std::uint64_t>(value) << "\n";
            else out << value << "\n";
        }
        out << "\n";
    }
    out << "memory: " << with_commas(res.memory_bytes_read) << " bytes read, "
        << with_commas(res.memory_bytes_written) << " bytes written\n";
    char rate[64];
    std::snprintf(rate, sizeof rate, "%.3f s, %.1f million accesses/s", res.seconds, res.accesses_per_second() / 1e6);
    out << "simulated in " << rate << "\n";
}

std::vector<std::pair<std::string, std::string>> to_columns(const RunReport& r) {
    std::vector<std::pair<std::string, std::string>> c;
    auto add = [&](std::string key, auto value) {
        std::ostringstream s;
        s << std::setprecision(10) << value;
        c.emplace_back(std::move(key), s.str());
    };
    add("model", r.model);
    if (r.workload) {
        const WorkloadSpec& w = *r.workload;
        add("workload", workload_name(w.kind));
        add("width", w.width);
        add("height", w.height);
        add("stencil_w", w.kind == WorkloadKind::stencil ? w.stencil_w : 0);
        add("stencil_h", w.kind == WorkloadKind::stencil ? w.stencil_h : 0);
        add("depth", w.kind == WorkloadKind::matmul ? w.depth : 0);
        add("elem_bytes", w.elem_bytes);
        add("schedule", schedule_name(w.schedule));
    } else {
        add("trace", r.trace_path);
    }
    for (const auto& [key, value] : r.parameters) add(key, value);
    add("seed", r.hierarchy.seed);
    add("accesses", r.result.accesses);
    for (const CacheConfig* cfg : {&r.hierarchy.l1, &r.hierarchy.l2}) {
        const std::string p = cfg->name == "L1" ? "l1_" : "l2_";
        const LevelStats* s = nullptr;
        for (const LevelStats& l : r.result.levels)
            if (l.name == cfg->name) s = &l;
        add(p + "size", cfg->size_bytes);
        add(p + "line", cfg->line_bytes);
        // The ways the level has (a fully associative level's setting is 0), as the table and JSON give them.
        const auto geometry = make_geometry(*cfg).geometry;
        add(p + "ways", geometry ? geometry->ways : cfg->ways);
        add(p + "policy", policy_name(cfg->policy));
        add(p + "accesses", s ? s->accesses() : 0);
        add(p + "hits", s ? s->hits() : 0);
        add(p + "misses", s ? s->misses() : 0);
        add(p + "hit_rate", s ? s->hit_rate() : 0.0);
        add(p + "read_misses", s ? s->read_misses : 0);
        // Empty where the run does not classify its misses (--no-analysis, the GPU model), not 0.
        const bool classified = s && s->classified;
        add(p + "compulsory", classified ? std::to_string(s->compulsory) : std::string());
        add(p + "capacity", classified ? std::to_string(s->capacity) : std::string());
        add(p + "conflict", classified ? std::to_string(s->conflict) : std::string());
    }
    add("memory_bytes_read", r.result.memory_bytes_read);
    add("memory_bytes_written", r.result.memory_bytes_written);
    // The analysis's sampling rate (0: exact): the miss classes above are estimates when it is set.
    add("reuse_sample", r.result.levels.empty() ? 0.0 : r.result.levels.front().reuse_sample);
    for (const auto& [name, value] : r.ncu) c.emplace_back(name, metric_text(name, value));
    return c;
}

std::string csv_field(const std::string& text) { return csv_quote(text); }

void print_csv(std::ostream& out, const RunReport& r) {
    const auto columns = to_columns(r);
    for (std::size_t i = 0; i < columns.size(); ++i) out << (i ? "," : "") << csv_field(columns[i].first);
    out << "\n";
    for (std::size_t i = 0; i < columns.size(); ++i) out << (i ? "," : "") << csv_field(columns[i].second);
    out << "\n";
}

}  // namespace cachesim::cli
