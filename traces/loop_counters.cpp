#include "traces/loop_counters.hpp"

#include "traces/input_error.hpp"

namespace cachesim {

LoopCounters loop_counters(double requests, double instructions, const std::vector<PipeCycles>& pipes) {
    if (!(requests > 0))
        throw InputError(std::string(ncu::kL1Requests) + " is 0: no global load requests to weigh the loop's counters by");
    const auto whole = [](double v) { return std::to_string(static_cast<unsigned long long>(v)); };
    if (instructions < requests)
        throw InputError(std::string(ncu::kInstExecuted) + " " + whole(instructions) + " is less than " +
                         std::string(ncu::kL1Requests) + " " + whole(requests) +
                         " (every load request is an instruction): counters of different launches?");
    LoopCounters loop{instructions / requests, "issue"};
    for (const PipeCycles& p : pipes) {
        const double cost = p.cycles / requests / (p.pipe == "fma" ? 2 : 1);
        if (cost > loop.cycles_per_request) loop = {cost, p.pipe};
    }
    return loop;
}

std::string pipe_of_metric(std::string_view column) {
    const std::string_view prefix = ncu::kPipeCyclesPrefix, suffix = ncu::kPipeCyclesSuffix;
    if (column.size() <= prefix.size() + suffix.size() || column.substr(0, prefix.size()) != prefix ||
        column.substr(column.size() - suffix.size()) != suffix)
        return {};
    return std::string(column.substr(prefix.size(), column.size() - prefix.size() - suffix.size()));
}

}  // namespace cachesim
