#include "apps/cacheviz/config.hpp"

#include <map>
#include <memory>
#include <sstream>
#include <utility>

#include "apps/common/drawable_trace.hpp"
#include "apps/common/options.hpp"
#include "traces/input_error.hpp"

namespace cachesim::gui {

cli::po::options_description simulation_options() {
    // cacheviz counts the L1's hit sources on every GPU run (the stats panel shows them); the
    // option is taken so that simulate's command lines and config files open here too.
    cli::po::options_description hit_sources("GPU model counters");
    hit_sources.add_options()("hit-sources", cli::po::bool_switch(),
                              "GPU model: split the L1's read hits by who brought the sector (as `cachesim simulate "
                              "--hit-sources`); cacheviz shows them for every GPU run, so this only checks that the "
                              "pane runs the GPU model");
    cli::po::options_description d;
    d.add(cli::common_options()).add(cli::workload_options()).add(cli::cache_options()).add(cli::gpu_options())
        .add(cli::timing_options()).add(hit_sources);
    return d;
}

std::vector<std::string> split_words(const std::string& text) {
    std::istringstream in(text);
    std::vector<std::string> words;
    for (std::string w; in >> w;) words.push_back(w);
    return words;
}

PaneConfig config_from_args(const std::vector<std::string>& args, std::vector<NamedPath>* inputs, bool* hit_sources) {
    const auto desc = simulation_options();
    std::vector<std::string> storage = {"cacheviz"};
    storage.insert(storage.end(), args.begin(), args.end());
    std::vector<char*> argv;
    for (std::string& s : storage) argv.push_back(s.data());
    const auto vm = cli::parse_command_line(static_cast<int>(argv.size()), argv.data(), desc, "");
    if (!vm) throw InputError("--help is not a configuration");
    if (inputs) *inputs = cli::input_files(*vm);
    if (hit_sources) *hit_sources = (*vm)["hit-sources"].as<bool>();
    return pane_config(cli::read_simulation_options(*vm), *vm);
}

PaneConfig pane_config(const cli::SimulationOptions& o, const cli::po::variables_map& vm) {
    PaneConfig c;
    if (o.workload) {
        c.workload = *o.workload;
    } else {
        const std::string given = vm["trace"].as<std::string>();
        c.trace = std::make_shared<const RecordedTrace>(RecordedTrace{given, cli::drawable_trace_header(o, given)});
    }
    c.hierarchy = o.hierarchy;
    c.model = o.model;
    if (o.model == cli::ModelKind::gpu) c.gpu = o.gpu;
    // --warp-times as `cachesim simulate` takes it: the pane replays the measured order (its
    // checkbox switches back to the rounds).
    cli::SimulationOptions checked = o;
    WarpTimeline timeline;
    cli::read_timeline(vm, checked, timeline);
    if (checked.gpu.timeline) {
        c.timeline = std::make_shared<const WarpTimeline>(std::move(timeline));
        c.use_timeline = true;
    }
    return c;
}

std::vector<std::string> merge_args(const std::vector<std::string>& base, const std::vector<std::string>& overrides) {
    const auto desc = simulation_options();
    auto parse = [&](const std::vector<std::string>& args) {
        return cli::po::command_line_parser(args).style(cli::kCommandLineStyle).options(desc).run();
    };
    std::vector<std::pair<std::string, std::vector<std::string>>> merged;
    std::map<std::string, std::size_t> index;
    // Overrides that switch the workload leave behind the base's shape of the other one (the
    // stencil's box when comparing with the matmul), which that workload would refuse.
    std::optional<WorkloadKind> switched_to;
    for (const auto& opt : parse(overrides).options)
        if (opt.string_key == "workload" && !opt.value.empty()) switched_to = parse_workload_kind(opt.value.back());
    for (const auto* list : {&base, &overrides})
        for (const auto& opt : parse(*list).options) {
            const auto shaped = cli::workload_shaped_by(opt.string_key);
            if (list == &base && switched_to && shaped && *shaped != *switched_to) continue;
            auto it = index.find(opt.string_key);
            if (it == index.end()) {
                index[opt.string_key] = merged.size();
                merged.push_back({opt.string_key, opt.value});
            } else {
                merged[it->second].second = opt.value;
            }
        }
    std::vector<std::string> out;
    for (const auto& [key, values] : merged) {
        out.push_back("--" + key);
        for (const std::string& v : values) out.push_back(v);
    }
    return out;
}

}  // namespace cachesim::gui
