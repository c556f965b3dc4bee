#include "apps/cacheviz/diagram_command.hpp"

#include <string_view>
#include <utility>

#include "sim/gpu/gpu_parameters.hpp"
#include "traces/schedule.hpp"
#include "viz/view_choices.hpp"

namespace cachesim::gui {

namespace {

void add(std::vector<std::string>& args, const std::string& option, const std::string& value) {
    args.push_back("--" + option);
    args.push_back(value);
}

void add_level(std::vector<std::string>& args, const std::string& prefix, const CacheConfig& c) {
    add(args, prefix + "-size", std::to_string(c.size_bytes));
    if (!c.enabled()) return;
    add(args, prefix + "-line", std::to_string(c.line_bytes));
    add(args, prefix + "-sector", std::to_string(c.sector_bytes));
    add(args, prefix + "-ways", c.ways ? std::to_string(c.ways) : "full");
    add(args, prefix + "-policy", std::string(policy_name(c.policy)));
    add(args, prefix + "-write", c.write_policy == WritePolicy::write_back_allocate ? "back" : "through");
}

// Whether `cachesim diagram` takes GPU parameter `p` for the pane's run: it refuses the
// parameters of the model's own issue order with a measured one (--warp-times), --compilation
// with a recorded kernel other than a built-in workload, and what a cache level holds where the
// run has no such level.
bool gpu_option_applies(const GpuParameter& p, const JobInput& in) {
    if (p.scheduler_only && in.timeline) return false;
    const std::string_view option = p.option;
    if (option == "compilation" && in.trace && !in.trace->header.workload) return false;
    for (const auto& [level, cache] : {std::pair{"l1-", &in.gpu.l1}, std::pair{"l2-", &in.gpu.l2}}) {
        const bool missing = cache->size_bytes == 0 && !(cache == &in.gpu.l1 && in.gpu.l1_auto);
        if (missing && option.starts_with(level) &&
            (option.ends_with("-ways") || option.ends_with("-policy") || option.ends_with("-index")))
            return false;
    }
    return true;
}

std::string shell_quote(const std::string& word) {
    if (!word.empty() && word.find_first_not_of("abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789-_.,:/=+") ==
                             std::string::npos)
        return word;
    std::string q = "'";
    for (char c : word) q += c == '\'' ? std::string("'\\''") : std::string(1, c);
    return q + "'";
}

}  // namespace

std::vector<std::string> simulation_args(const JobInput& in) {
    std::vector<std::string> args;
    const WorkloadSpec& w = in.workload;
    if (in.trace) {
        add(args, "trace", in.trace->path);
    } else {
        add(args, "workload", std::string(workload_name(w.kind)));
        add(args, "size", std::to_string(w.width) + "x" + std::to_string(w.height));
        if (w.kind == WorkloadKind::stencil) add(args, "stencil", std::to_string(w.stencil_w) + "x" + std::to_string(w.stencil_h));
        else add(args, "depth", std::to_string(w.depth));
        add(args, "elem-bytes", std::to_string(w.elem_bytes));
        add(args, "schedule", schedule_name(w.schedule));
    }
    if (in.gpu_model) {
        add(args, "model", "gpu");
        for (const GpuParameter& p : gpu_parameters())
            if (gpu_option_applies(p, in)) add(args, std::string(p.option), p.get(in.gpu));
        if (in.timeline) {
            add(args, "warp-times", in.timeline->source);
            add(args, "warp-times-launch", std::to_string(in.timeline->launch));
        }
    } else {
        add(args, "model", "thread");
        add_level(args, "l1", in.hierarchy.l1);
        add_level(args, "l2", in.hierarchy.l2);
    }
    add(args, "seed", std::to_string(in.hierarchy.seed));
    return args;
}

std::string diagram_command(const JobInput& input, std::uint64_t from, std::uint64_t to, const std::string& out,
                            const DiagramViewOptions& view) {
    std::string text = "cachesim diagram";
    for (const std::string& a : simulation_args(input)) text += " " + shell_quote(a);
    // Appended piecewise: GCC 12 warns (-Wrestrict, falsely) on the chained operator+ form.
    text.append(" --from ").append(std::to_string(from)).append(" --to ").append(std::to_string(to));
    if (view.lines)
        text.append(" --lines ").append(std::to_string(view.lines->first)).append(":").append(std::to_string(view.lines->second));
    if (view.aggregate != viz::AggregateRule::density) text.append(" --aggregate ").append(viz::aggregate_name(view.aggregate));
    if (view.colour_by != viz::ColourBy::state && input.gpu_model)
        text.append(" --colour-by ").append(choice_name<viz::ColourBy>(viz::kColourByChoices, view.colour_by));
    text.append(" --out ").append(shell_quote(out));
    return text;
}

}  // namespace cachesim::gui
