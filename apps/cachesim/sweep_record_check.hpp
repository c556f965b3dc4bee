#pragma once
// Checks a sweep result read back from disk (a CSV row or a partial-log record) before a resumed
// sweep trusts it: every field against its valid range (counts are whole and non-negative, rates
// within 0..1, or 0..100 for ncu's percentages; names of policies, models, workloads known) and
// the fields against each other (hits + misses = accesses, the hit rate their ratio). A record
// edited by hand or damaged on disk is an error naming where it came from, never a row of the CSV.
#include <string>
#include <vector>

#include "apps/cachesim/sweep_run.hpp"

namespace cachesim::cli {

// `where`: "FILE line N" for messages. `expected`: the columns this configuration reports (empty
// when the record's configuration is not part of this sweep); any missing one is an error.
void check_sweep_record(const std::string& key, const SweepColumns& columns, const std::string& where,
                        const std::vector<std::string>& expected = {});

// A level's miss class column (l1_compulsory, ...): empty where the run does not classify misses.
bool is_miss_class_column(const std::string& name);

}  // namespace cachesim::cli
