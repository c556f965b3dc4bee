#include "apps/cachesim/sweep_record_check.hpp"

#include <cmath>
#include <cstdlib>
#include <map>
#include <set>

#include "apps/cachesim/report.hpp"
#include "sim/policy_kind.hpp"
#include "traces/input_error.hpp"

namespace cachesim::cli {

namespace {

bool whole_number(const std::string& text) {
    if (text.empty() || text.size() > 20) return false;
    for (char c : text)
        if (c < '0' || c > '9') return false;
    return text.size() < 20 || text <= "18446744073709551615";
}

bool parse_number(const std::string& text, double& value) {
    if (text.empty()) return false;
    char* end = nullptr;
    value = std::strtod(text.c_str(), &end);
    return end == text.c_str() + text.size();
}

bool ends_with(const std::string& s, const std::string& tail) {
    return s.size() >= tail.size() && s.compare(s.size() - tail.size(), tail.size(), tail) == 0;
}

// Columns that count something (to_columns: workload geometry, cache geometry and counters).
bool is_count_column(const std::string& name) {
    static const std::set<std::string> plain = {"accesses", "width", "height", "stencil_w", "stencil_h", "depth",
                                                "elem_bytes", "seed", "memory_bytes_read", "memory_bytes_written"};
    if (plain.count(name)) return true;
    if (name.rfind("l1_", 0) != 0 && name.rfind("l2_", 0) != 0) return false;
    static const std::set<std::string> level = {"size", "line", "ways", "accesses", "hits", "misses",
                                                "read_misses", "compulsory", "capacity", "conflict"};
    return level.count(name.substr(3)) > 0;
}

}  // namespace

bool is_miss_class_column(const std::string& name) {
    return name.ends_with("_compulsory") || name.ends_with("_capacity") || name.ends_with("_conflict");
}

void check_sweep_record(const std::string& key, const SweepColumns& columns, const std::string& where,
                        const std::vector<std::string>& expected) {
    auto bad = [&](const std::string& why) {
        throw InputError(where + ": " + why + " (configuration '" + key +
                         "'); fix or delete the record, or rerun with --fresh to start over");
    };
    if (key.empty()) bad("the configuration key is empty");
    std::map<std::string, std::string> by_name;
    for (const auto& column : columns) {
        // Named references, not a structured binding: the lambda below captures them.
        const std::string& name = column.first;
        const std::string& value = column.second;
        if (name.empty()) bad("a column has no name");
        if (!by_name.emplace(name, value).second) bad("column '" + name + "' appears twice");
        auto range = [&](const std::string& what) { bad("column '" + name + "' is '" + value + "', not " + what); };
        double number = 0;
        if (is_count_column(name)) {
            if (value.empty() && is_miss_class_column(name)) continue;  // a run that does not classify
            if (!whole_number(value)) range("a whole number >= 0");
        } else if (ends_with(name, "_hit_rate") && (name.rfind("l1_", 0) == 0 || name.rfind("l2_", 0) == 0)) {
            if (!parse_number(value, number) || !(number >= 0 && number <= 1)) range("a rate within 0..1");
        } else if (name == "l1_policy" || name == "l2_policy") {
            if (!parse_policy(value)) range("a replacement policy");
        } else if (name == "model") {
            if (value != "thread" && value != "gpu") range("thread or gpu");
        } else if (name == "workload") {
            if (value != "stencil" && value != "matmul") range("stencil or matmul");
        } else if (name.find("__") != std::string::npos) {  // an Nsight Compute metric
            if (is_count_metric(name)) {
                if (!whole_number(value)) range("a whole number >= 0");
            } else if (!parse_number(value, number) || number < 0 || (ends_with(name, ".pct") && number > 100)) {
                range(ends_with(name, ".pct") ? "a percentage within 0..100" : "a number >= 0");
            }
        }
    }
    for (const std::string& name : expected)
        if (!by_name.count(name)) bad("column '" + name + "' is missing");
    for (const std::string level : {"l1_", "l2_"}) {
        const auto a = by_name.find(level + "accesses"), h = by_name.find(level + "hits"),
                   m = by_name.find(level + "misses"), r = by_name.find(level + "hit_rate");
        if (a == by_name.end() || h == by_name.end() || m == by_name.end()) continue;
        const double accesses = std::strtod(a->second.c_str(), nullptr), hits = std::strtod(h->second.c_str(), nullptr),
                     misses = std::strtod(m->second.c_str(), nullptr);
        if (hits + misses != accesses) bad(level + "hits + " + level + "misses differ from " + level + "accesses");
        if (r == by_name.end()) continue;
        const double rate = std::strtod(r->second.c_str(), nullptr), expect = accesses > 0 ? hits / accesses : 0.0;
        if (std::fabs(rate - expect) > 1e-8) bad(level + "hit_rate is not " + level + "hits / " + level + "accesses");
    }
}

}  // namespace cachesim::cli
