#include "apps/cachesim/options.hpp"

#include <fstream>
#include <iostream>

#include "apps/cachesim/presets.hpp"
#include "traces/input_error.hpp"
#include "traces/trace_format_reader.hpp"
#include "traces/workload_source.hpp"

namespace cachesim::cli {

po::options_description workload_options() {
    po::options_description d("Workload");
    d.add_options()
        ("workload", po::value<std::string>()->default_value("stencil"), "stencil | matmul")
        ("size", po::value<std::string>()->default_value("16x16"), "work items IwxIh (output size)")
        ("stencil", po::value<std::string>()->default_value("7x7"), "stencil box SWxSH")
        ("depth", po::value<std::uint32_t>()->default_value(16), "matmul inner dimension D")
        ("elem-bytes", po::value<std::uint32_t>()->default_value(4), "bytes per array element")
        ("schedule", po::value<std::string>()->default_value("linear"),
         "linear | column:W | zigzag:W | tiled:TWxTH | morton")
        ("trace", po::value<std::string>(), "replay this trace file instead of a workload")
        ("trace-format", po::value<std::string>()->default_value("auto"),
         "auto (cst if the file has its magic, else din) | cst (cachesim trace file) | din (Dinero IV "
         "text) | u64 (little-endian 64-bit addresses, 8-byte loads)")
        ("model", po::value<std::string>()->default_value("thread"),
         "thread: work items one after another (the thesis's model)");
    return d;
}

namespace {

void add_level_options(po::options_description& d, const std::string& level,
                       const std::string& size, const std::string& line,
                       const std::string& policy, const std::string& write) {
    const std::string L = level == "l1" ? "L1" : "L2";
    d.add_options()
        ((level + "-size").c_str(), po::value<std::string>()->default_value(size),
         (L + " size in bytes, K/M/G suffixes allowed; 0 disables the level").c_str())
        ((level + "-lines").c_str(), po::value<std::uint64_t>(),
         (L + " size as a number of lines (overrides --" + level + "-size)").c_str())
        ((level + "-line").c_str(), po::value<std::uint32_t>()->default_value(std::stoul(line)),
         (L + " line size in bytes (power of two)").c_str())
        ((level + "-sector").c_str(), po::value<std::uint32_t>()->default_value(0),
         (L + " sector size in bytes; 0 = the line size").c_str())
        ((level + "-ways").c_str(), po::value<std::string>()->default_value("full"),
         (L + " associativity: N ways, or full").c_str())
        ((level + "-policy").c_str(), po::value<std::string>()->default_value(policy),
         (L + " replacement: lru | fifo | random | random4 | plru | opt").c_str())
        ((level + "-write").c_str(), po::value<std::string>()->default_value(write),
         (L + " stores: through (write-through, no-write-allocate) | back (write-back, "
              "write-allocate)").c_str());
}

CacheConfig read_level(const po::variables_map& vm, const std::string& level) {
    CacheConfig c;
    c.name = level == "l1" ? "L1" : "L2";
    c.line_bytes = vm[level + "-line"].as<std::uint32_t>();
    c.sector_bytes = vm[level + "-sector"].as<std::uint32_t>();
    c.size_bytes = parse_size(vm[level + "-size"].as<std::string>(), "--" + level + "-size");
    if (vm.count(level + "-lines")) {
        const std::uint64_t lines = vm[level + "-lines"].as<std::uint64_t>();
        if (lines > (1ull << 40)) throw InputError("--" + level + "-lines is too large");
        c.size_bytes = lines * c.line_bytes;
    }
    c.ways = parse_ways(vm[level + "-ways"].as<std::string>(), "--" + level + "-ways");
    const std::string policy = vm[level + "-policy"].as<std::string>();
    const auto kind = parse_policy(policy);
    if (!kind)
        throw InputError("--" + level + "-policy: unknown policy '" + policy +
                         "' (expected lru, fifo, random, random4, plru or opt)");
    c.policy = *kind;
    const std::string write = vm[level + "-write"].as<std::string>();
    if (write == "through") c.write_policy = WritePolicy::write_through_no_allocate;
    else if (write == "back") c.write_policy = WritePolicy::write_back_allocate;
    else throw InputError("--" + level + "-write: expected through or back, not '" + write + "'");
    return c;
}

}  // namespace

std::uint32_t parse_ways(const std::string& text, const std::string& what) {
    if (text == "full") return 0;
    const std::uint64_t ways = parse_size(text, what);
    if (ways == 0) throw InputError(what + ": ways must be positive (or 'full')");
    if (ways > (1ull << 31)) throw InputError(what + ": too many ways");
    return static_cast<std::uint32_t>(ways);
}

po::options_description cache_options() {
    po::options_description d("Caches (L1 -> L2 -> memory)");
    add_level_options(d, "l1", "384", "16", "lru", "through");
    add_level_options(d, "l2", "0", "64", "lru", "back");
    d.add_options()
        ("no-analysis", po::bool_switch(), "skip miss classification and reuse histograms (faster)")
        ("seed", po::value<std::uint64_t>()->default_value(1), "seed for random policies");
    return d;
}

po::options_description common_options() {
    po::options_description d("General");
    d.add_options()
        ("help,h", "show this help")
        ("preset", po::value<std::string>(), ("fill in unset options from a preset: " + preset_names()).c_str())
        ("config", po::value<std::string>(), "read options from FILE (name = value lines, as on the command line without --)");
    return d;
}

std::optional<po::variables_map> parse_command_line(int argc, char** argv,
                                                    const po::options_description& options,
                                                    const std::string& usage) {
    po::variables_map vm;
    po::store(po::command_line_parser(argc, argv).options(options).run(), vm);
    if (vm.count("help")) {
        std::cout << usage << "\n" << options << "\n";
        return std::nullopt;
    }
    if (vm.count("config")) {
        const std::string path = vm["config"].as<std::string>();
        std::ifstream in(path);
        if (!in) throw InputError("--config: cannot open '" + path + "'");
        po::store(po::parse_config_file(in, options, false), vm);
    }
    if (vm.count("preset")) {
        const std::string name = vm["preset"].as<std::string>();
        const Preset* preset = find_preset(name);
        if (!preset) throw InputError("unknown preset '" + name + "' (expected " + preset_names() + ")");
        std::vector<std::string> args;
        for (const auto& [key, value] : preset->options) {
            if (!options.find_nothrow(key, false)) continue;  // not an option of this subcommand
            args.push_back("--" + key + "=" + value);
        }
        po::store(po::command_line_parser(args).options(options).run(), vm);
    }
    po::notify(vm);
    return vm;
}

SimulationOptions read_simulation_options(const po::variables_map& vm) {
    SimulationOptions o;
    if (vm.count("preset")) o.preset = vm["preset"].as<std::string>();
    o.model = vm["model"].as<std::string>();
    if (o.model != "thread") throw InputError("--model: unknown model '" + o.model + "' (expected thread)");
    if (vm.count("trace")) {
        o.trace_path = vm["trace"].as<std::string>();
        const std::string format = resolve_trace_format(vm["trace-format"].as<std::string>(), o.trace_path);
        o.trace_cst = format == "cst";
        if (!o.trace_cst) o.trace_format = parse_trace_format(format);
    } else {
        WorkloadSpec w;
        w.kind = parse_workload_kind(vm["workload"].as<std::string>());
        parse_dimensions(vm["size"].as<std::string>(), "--size", w.width, w.height);
        parse_dimensions(vm["stencil"].as<std::string>(), "--stencil", w.stencil_w, w.stencil_h);
        w.depth = vm["depth"].as<std::uint32_t>();
        w.elem_bytes = vm["elem-bytes"].as<std::uint32_t>();
        w.schedule = parse_schedule(vm["schedule"].as<std::string>());
        validate(w);
        o.workload = w;
    }
    o.hierarchy.l1 = read_level(vm, "l1");
    o.hierarchy.l2 = read_level(vm, "l2");
    o.hierarchy.seed = vm["seed"].as<std::uint64_t>();
    o.hierarchy.analysis = !vm["no-analysis"].as<bool>();
    validate(o.hierarchy);
    return o;
}

std::unique_ptr<AccessSource> make_source(const SimulationOptions& options) {
    if (options.workload) return std::make_unique<WorkloadSource>(*options.workload);
    if (options.trace_cst) return std::make_unique<cst::TraceFileSource>(options.trace_path);
    if (options.trace_format == TraceFormat::u64) return std::make_unique<U64TraceSource>(options.trace_path);
    return std::make_unique<DinTraceSource>(options.trace_path);
}

}  // namespace cachesim::cli
