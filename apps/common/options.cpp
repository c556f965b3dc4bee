#include "apps/common/options.hpp"

#include <algorithm>
#include <filesystem>
#include <fstream>
#include <iostream>
#include <optional>
#include <sstream>
#include <string>
#include <thread>
#include <utility>

#include "apps/common/cli_errors.hpp"
#include "apps/common/config_origins.hpp"
#include "apps/common/presets.hpp"
#include "sim/gpu/gpu_parameters.hpp"
#include "sim/gpu/gpu_presets.hpp"
#include "sim/gpu/loop_issue_cost.hpp"
#include "traces/choice_hint.hpp"
#include "traces/input_error.hpp"
#include "traces/text_bom.hpp"
#include "traces/trace_format_reader.hpp"
#include "traces/trace_input.hpp"
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
         "text) | u64 (little-endian 64-bit addresses, 8-byte loads) | traceg (Accel-Sim kernel-N.traceg, "
         "the default for that name)")
        ("model", po::value<std::string>()->default_value("thread"),
         choice_help(choice_texts<ModelKind>(kModelChoices)).c_str());
    return d;
}

namespace {

void add_level_options(po::options_description& d, const std::string& level,
                       const std::string& size, const std::string& line,
                       const std::string& policy, const std::string& write) {
    const std::string L = level == "l1" ? "L1" : "L2";
    d.add_options()
        ((level + "-size").c_str(), po::value<std::string>()->default_value(size),
         (L + " size in bytes, K/M/G suffixes allowed; 0 disables the level" +
          (level == "l1" ? "; auto (GPU model): the unified L1/shared memory less the carve-out" : "")).c_str())
        ((level + "-lines").c_str(), po::value<std::uint64_t>(),
         (L + " size as a number of lines (overrides --" + level + "-size)").c_str())
        ((level + "-line").c_str(), po::value<std::uint32_t>()->default_value(std::stoul(line)),
         (L + " line size in bytes (power of two)").c_str())
        ((level + "-sector").c_str(), po::value<std::uint32_t>()->default_value(0),
         (L + " sector size in bytes; 0 = the line size").c_str())
        ((level + "-ways").c_str(), po::value<std::string>()->default_value("full"),
         (L + " associativity: N ways, or full").c_str())
        ((level + "-policy").c_str(), po::value<std::string>()->default_value(policy),
         (L + " replacement: " + choice_help(choice_texts<PolicyKind>(kPolicyChoices))).c_str())
        ((level + "-write").c_str(), po::value<std::string>()->default_value(write),
         (L + " stores: through (write-through, no-write-allocate) | back (write-back, "
              "write-allocate)").c_str());
}

// `is_auto`: where "--l1-size auto" is allowed (GPU model); set when it was given.
CacheConfig read_level(const po::variables_map& vm, const std::string& level, bool* is_auto = nullptr) {
    CacheConfig c;
    c.name = level == "l1" ? "L1" : "L2";
    c.line_bytes = vm[level + "-line"].as<std::uint32_t>();
    c.sector_bytes = vm[level + "-sector"].as<std::uint32_t>();
    const std::string size = vm[level + "-size"].as<std::string>();
    if (size == "auto" && level == "l2")
        throw InputError("--l2-size: 'auto' is not a size (auto is the GPU model's L1, --l1-size auto: what the "
                         "shared-memory carve-out leaves)");
    if (size == "auto") {
        if (!is_auto)
            throw InputError("--" + level + "-size auto (the L1 left by the shared-memory carve-out) "
                             "needs --model gpu");
        *is_auto = !vm.count(level + "-lines");
    } else {
        c.size_bytes = parse_size(size, "--" + level + "-size");
    }
    if (vm.count(level + "-lines")) {
        if (!vm[level + "-size"].defaulted())
            throw InputError("--" + level + "-size and --" + level + "-lines both give the " + c.name +
                             "'s size: give one");
        const std::uint64_t lines = vm[level + "-lines"].as<std::uint64_t>();
        if (lines > (1ull << 40)) throw InputError("--" + level + "-lines is too large");
        c.size_bytes = lines * c.line_bytes;
    }
    c.ways = parse_ways(vm[level + "-ways"].as<std::string>(), "--" + level + "-ways");
    const std::string policy = vm[level + "-policy"].as<std::string>();
    const auto kind = parse_policy(policy);
    if (!kind)
        throw InputError("--" + level + "-policy: unknown policy '" + policy +
                         "' (expected lru, fifo, random, random4, plru or opt)" +
                         case_hint(policy, [](std::string_view p) { return parse_policy(p).has_value(); }));
    c.policy = *kind;
    const std::string write = vm[level + "-write"].as<std::string>();
    if (write == "through") c.write_policy = WritePolicy::write_through_no_allocate;
    else if (write == "back") c.write_policy = WritePolicy::write_back_allocate;
    else throw InputError("--" + level + "-write: expected through or back, not '" + write + "'" + case_hint(write, {"through", "back"}));
    return c;
}

}  // namespace

std::uint32_t parse_ways(const std::string& text, const std::string& what) {
    if (text == "full") return 0;
    if (const std::string hint = case_hint(text, {"full"}); !hint.empty())
        throw InputError(what + ": expected a number of ways or full, not '" + text + "'" + hint);
    const std::uint64_t ways = parse_size(text, what);
    if (ways == 0) throw InputError(what + ": ways must be positive (or 'full')");
    if (ways > (1ull << 31)) throw InputError(what + ": too many ways");
    return static_cast<std::uint32_t>(ways);
}

double parse_sample_rate(const std::string& text) {
    std::size_t used = 0;
    double rate = 0;
    try {
        rate = std::stod(text, &used);
    } catch (const std::exception&) {
        used = 0;
    }
    if (used == 0 || used != text.size() || !(rate > 0 && rate <= 1))
        throw InputError("--reuse-sample: expected a rate in (0, 1], such as 0.01, not '" + text + "'");
    // Lines are selected by the top 24 bits of their hash (sim/level_sim.hpp): no finer rate exists.
    constexpr double kFinestRate = 1.0 / double(1u << 24);
    if (rate < kFinestRate)
        throw InputError("--reuse-sample: " + text + " is below the finest rate the line hash selects, 2^-24 "
                         "(about 6e-8)");
    return rate;
}

po::options_description cache_options() {
    po::options_description d("Caches (L1 -> L2 -> memory)");
    add_level_options(d, "l1", "384", "16", "lru", "through");
    add_level_options(d, "l2", "0", "64", "lru", "back");
    d.add_options()
        ("no-analysis", po::bool_switch(), "skip miss classification and reuse histograms (faster)")
        ("reuse-sample", po::value<std::string>(),
         "analysis on a sample of lines (SHARDS) at this rate in (0, 1], e.g. 0.01: estimated reuse "
         "histograms and miss classes (default: every line, exact)")
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

po::options_description gpu_options() {
    const GpuConfig defaults = find_gpu_preset(kDefaultGpuPreset)->config;
    po::options_description o("GPU model (--model gpu; --preset v100|t4|a100|h100|h200 sets the hardware; "
                              "defaults: the h200 preset's; --explain says where each value comes from)");
    for (const GpuParameter& p : gpu_parameters()) {
        if (p.cache_option) continue;  // declared by cache_options(), shared with the thread model
        o.add_options()(std::string(p.option).c_str(), po::value<std::string>()->default_value(p.get(defaults)),
                        p.help_text().c_str());
    }
    return o;
}

unsigned workers_or_all_cores(unsigned given) {
    return given ? given : std::max(1u, std::thread::hardware_concurrency());
}

bool given(const po::variables_map& vm, const std::string& key) { return vm.count(key) && !vm[key].defaulted(); }

std::vector<NamedPath> input_files(const po::variables_map& vm) {
    std::vector<NamedPath> inputs;
    for (const char* key : {"trace", "config", "warp-times"})
        if (vm.count(key)) inputs.push_back({vm[key].as<std::string>(), std::string("--") + key});
    if (vm.count("measured"))
        for (const std::string& path : vm["measured"].as<std::vector<std::string>>()) inputs.push_back({path, "--measured"});
    return inputs;
}

// Unsigned options parse "-1" as 2^64 - 1 (boost's lexical_cast wraps); anything else a parser
// left unused (a positional word: `simulate trace.din`) would be ignored. Both are errors.
void check_parsed(const po::parsed_options& parsed, const std::string& where) {
    for (const po::option& o : parsed.options) {
        if (o.position_key >= 0 || o.string_key.empty()) {
            const std::string word = o.original_tokens.empty() ? std::string() : o.original_tokens.front();
            throw InputError(where + "unexpected argument '" + word +
                             "' (every value follows its option, e.g. --trace FILE)");
        }
        const po::option_description* d = parsed.description->find_nothrow(o.string_key, false);
        if (!d) continue;
        const auto* semantic = d->semantic().get();
        const bool is_unsigned = dynamic_cast<const po::typed_value<std::uint64_t>*>(semantic) ||
                                 dynamic_cast<const po::typed_value<std::uint32_t>*>(semantic);
        for (const std::string& value : o.value) {
            const std::size_t first = value.find_first_not_of(" \t");
            if (is_unsigned && first != std::string::npos && value[first] == '-')
                throw InputError(where + "--" + o.string_key + ": '" + value +
                                 "' is negative; it must be a whole number, 0 or more");
        }
    }
}

namespace {

constexpr std::size_t kMaxConfigBytes = std::size_t{1} << 20;

// The --config file's text: a regular file (or a pipe) of at most kMaxConfigBytes.
std::string read_config_file(const std::string& path) {
    std::error_code ec;
    if (!std::filesystem::exists(path, ec)) throw InputError("--config: cannot open '" + path + "': no such file");
    if (std::filesystem::is_directory(path, ec))
        throw InputError("--config: '" + path + "' is a directory, not a config file");
    std::ifstream in(path, std::ios::binary);
    if (!in) throw InputError("--config: cannot open '" + path + "'");
    std::string text(kMaxConfigBytes + 1, '\0');
    in.read(text.data(), static_cast<std::streamsize>(text.size()));
    if (in.bad()) throw InputError("--config: read error in '" + path + "'");
    text.resize(static_cast<std::size_t>(in.gcount()));
    if (text.size() > kMaxConfigBytes)
        throw InputError("--config: '" + path + "' is larger than " + std::to_string(kMaxConfigBytes >> 20) +
                         " MiB; a config file holds 'name = value' lines");
    if (text.find('\0') != std::string::npos)
        throw InputError("--config: '" + path + "' holds NUL bytes; a config file holds 'name = value' lines");
    return std::string(without_byte_order_mark(text));
}

// A --config file is a setup to reuse: where the command line chooses the workload (--workload,
// or its --preset's bundle where the file names none), the file's shape options of the other
// workload go unused, as a preset's do, rather than refused. A file that names one workload and
// shapes the other contradicts itself: refused, unless the command line runs the other.
void settle_shapes_of_another_workload(po::parsed_options& from_file, const po::variables_map& command_line,
                                       const std::string& where) {
    std::optional<std::string> file_workload;  // a workload the file names, where it names a valid one
    for (const po::option& o : from_file.options)
        if (o.string_key == "workload" && !o.value.empty()) file_workload = o.value.front();
    if (file_workload && *file_workload != workload_name(WorkloadKind::stencil) &&
        *file_workload != workload_name(WorkloadKind::matmul))
        file_workload.reset();
    std::optional<std::string> chosen;
    if (given(command_line, "workload")) {
        chosen = command_line["workload"].as<std::string>();
    } else if (!file_workload && command_line.count("preset")) {
        if (const Preset* bundle = find_preset(command_line["preset"].as<std::string>()))
            for (const auto& [key, value] : bundle->options)
                if (key == "workload") chosen = value;
    }
    std::erase_if(from_file.options, [&](const po::option& o) {
        const std::optional<WorkloadKind> shaped = workload_shaped_by(o.string_key);
        if (!shaped) return false;
        const std::string_view shapes = workload_name(*shaped);
        if (file_workload && *file_workload != shapes && chosen != shapes)
            throw InputError(where + "'" + o.string_key + "' shapes the " + std::string(shapes) +
                             " workload, and the file's workload is " + *file_workload);
        return chosen && *chosen != shapes;
    });
}

// The file's options; a name none of `options` has is refused with its line and the name meant,
// spelled as the file writes it ("line 1: unrecognised option 'l1-sise' (did you mean l1-size = ...?)").
po::parsed_options parse_config_text(std::istream& text, const std::string& contents, const po::options_description& options,
                                     const std::string& where) {
    try {
        return po::parse_config_file(text, options, false);
    } catch (const po::unknown_option& e) {
        const std::string name = e.get_option_name();
        const int line = config_line_of(contents, name);
        const std::optional<std::string> meant = closest_option(name, options);
        throw InputError(where + (line > 0 ? "line " + std::to_string(line) + ": " : std::string()) + error_text(e) +
                         (meant ? " (did you mean " + *meant + " = ...?)" : std::string()));
    }
}

// "--config FILE: ", the start of every message about the file.
std::string config_file_context(const po::variables_map& command_line) {
    return "--config " + command_line["config"].as<std::string>() + ": ";
}

// The options the --config file named on `command_line` gives it, less those the command line
// replaces or leaves unused; boost's errors (po::error) are left to the caller to prefix.
// `origins`, where given, gets where the file sets each option the command line does not give.
po::parsed_options options_from_config_file(const po::variables_map& command_line, const po::options_description& options,
                                            std::vector<ConfigOrigin>* origins = nullptr,
                                            const std::vector<std::string>& unused_settings = {}) {
    const std::string path = command_line["config"].as<std::string>();
    const std::string contents = read_config_file(path);
    std::istringstream text(contents);
    const std::string where = config_file_context(command_line);
    po::parsed_options from_file = parse_config_text(text, contents, options, where);
    std::erase_if(from_file.options, [&](const po::option& o) {
        return std::find(unused_settings.begin(), unused_settings.end(), o.string_key) != unused_settings.end();
    });
    // The command line wins: a level's size given there in lines (or bytes) drops the file's size
    // in bytes (or lines), as a preset's size gives way.
    std::erase_if(from_file.options, [&](const po::option& o) {
        for (const char* level : {"l1", "l2"}) {
            const std::string size = std::string(level) + "-size", lines = std::string(level) + "-lines";
            if ((o.string_key == size && given(command_line, lines)) || (o.string_key == lines && given(command_line, size)))
                return true;
        }
        return false;
    });
    settle_shapes_of_another_workload(from_file, command_line, where);
    for (const po::option& o : from_file.options)
        if (o.string_key == "config")
            throw InputError(where + "'config = ...' cannot appear in a config file (configs do not nest)");
    check_parsed(from_file, where);
    if (origins)
        for (const po::option& o : from_file.options) {
            if (given(command_line, o.string_key)) continue;  // po::store keeps the command line's value
            std::string value;
            for (const std::string& part : o.value) value += (value.empty() ? "" : ",") + part;
            origins->push_back({o.string_key, std::move(value), path, config_line_of(contents, o.string_key)});
        }
    return from_file;
}

}  // namespace

std::vector<std::pair<std::string, std::string>> config_file_settings_taken(const std::vector<std::string>& args,
                                                                             const po::options_description& options) {
    po::variables_map command_line;
    po::store(po::command_line_parser(args).style(kCommandLineStyle).options(options).run(), command_line);
    if (!command_line.count("config")) return {};
    std::vector<ConfigOrigin> origins;
    try {
        options_from_config_file(command_line, options, &origins);
    } catch (const po::error& e) {
        throw InputError(config_file_context(command_line) + error_text(e));
    }
    std::vector<std::pair<std::string, std::string>> settings;
    for (ConfigOrigin& o : origins) settings.emplace_back(std::move(o.name), std::move(o.value));
    std::sort(settings.begin(), settings.end());
    return settings;
}

std::optional<po::variables_map> parse_command_line(int argc, char** argv,
                                                    const po::options_description& options,
                                                    const std::string& usage,
                                                    const std::vector<std::string>& unused_file_settings) {
    po::variables_map vm;
    note_known_options(options);  // for an unrecognised option's "did you mean"
    const po::parsed_options parsed = po::command_line_parser(argc, argv).style(kCommandLineStyle).options(options).run();
    check_parsed(parsed, "");
    po::store(parsed, vm);
    if (vm.count("help")) {
        std::cout << usage << "\n" << options << "\n";
        return std::nullopt;
    }
    std::vector<ConfigOrigin> origins;
    if (vm.count("config")) {
        try {
            po::store(options_from_config_file(vm, options, &origins, unused_file_settings), vm);
        } catch (const po::error& e) {
            throw InputError(config_file_context(vm) + error_text(e));
        }
    }
    remember_config_origins(std::move(origins));
    if (vm.count("preset")) {
        const std::string name = vm["preset"].as<std::string>();
        const Preset* bundle = find_preset(name);
        if (!bundle && !find_gpu_preset(name))
            throw InputError("unknown preset '" + name + "' (expected " + preset_names() + ")" + case_hint(name, [](std::string_view n) {
                                 return find_preset(std::string(n)) || find_gpu_preset(n);
                             }));
        if (bundle) {
            std::vector<std::string> args;
            for (const auto& [key, value] : bundle->options) {
                // A level's size given as a count of lines replaces the preset's size in bytes.
                if (key.ends_with("-size") && vm.count(key.substr(0, key.size() - 5) + "-lines")) continue;
                if (options.find_nothrow(key, false)) args.push_back("--" + key + "=" + value);  // an option here
            }
            po::store(po::command_line_parser(args).style(kCommandLineStyle).options(options).run(), vm);
        }
    }
    po::notify(vm);
    return vm;
}

namespace {

// An option's value as text. The cache options the thread model reads as numbers (--l1-line,
// --l1-sector, ...) are declared as numbers; the GPU model's table parses every value from text.
std::string option_text(const po::variable_value& value) {
    if (const auto* text = boost::any_cast<std::string>(&value.value())) return *text;
    if (const auto* number = boost::any_cast<std::uint32_t>(&value.value())) return std::to_string(*number);
    if (const auto* number = boost::any_cast<std::uint64_t>(&value.value())) return std::to_string(*number);
    throw std::logic_error("option_text: an option type the GPU parameters do not read");
}

// The recorded launch's shared memory per block and registers per thread (an Accel-Sim trace's
// -shmem and -nregs): they decide how many of its blocks an SM holds and what is left to L1, as
// the kernel was compiled. An option giving another value would describe another kernel.
void take_trace_resources(const po::variables_map& vm, SimulationOptions& o, const cst::LaunchResources& r,
                          GpuConfig& g) {
    struct Resource {
        const char* option;
        std::uint32_t GpuConfig::*field;
        std::uint32_t value;
        const char* what;
    };
    for (const Resource& x : {Resource{"smem-per-block", &GpuConfig::smem_per_block, r.smem_per_block_bytes,
                                       " bytes of shared memory a block"},
                              Resource{"regs-per-thread", &GpuConfig::regs_per_thread, r.regs_per_thread,
                                       " registers a thread"}}) {
        if (given(vm, x.option) && g.*x.field != x.value)
            throw InputError("--" + std::string(x.option) + " " + std::to_string(g.*x.field) + ": the trace " +
                             o.trace_shown() + " records " + std::to_string(x.value) + x.what);
        g.*x.field = x.value;
        o.gpu_from_trace.emplace_back(x.option);
    }
}

// The GPU configuration: the preset's, then every parameter given as an option (in the table's
// order, so --sms comes before the floorplan choices that depend on it).
// trace_block: the threads per block of the recorded launch being replayed (0: a workload), and
// trace_resources what its blocks hold on an SM, where the trace records it.
GpuConfig read_gpu(const po::variables_map& vm, SimulationOptions& o, std::uint32_t trace_block,
                   const std::optional<cst::LaunchResources>& trace_resources) {
    const GpuPreset* base = find_gpu_preset(o.preset);
    o.gpu_base = base ? o.preset : std::string(kDefaultGpuPreset);
    GpuConfig g = find_gpu_preset(o.gpu_base)->config;
    g.name = base ? o.preset : "custom";
    for (const GpuParameter& p : gpu_parameters()) {
        const std::string key(p.option);
        if (!given(vm, key)) continue;
        p.set(g, option_text(vm[key]), p.option);
        o.gpu_given.push_back(key);
    }
    for (const auto& [level, cache] : {std::pair{"l1", &g.l1}, std::pair{"l2", &g.l2}}) {
        const std::string lines_key = std::string(level) + "-lines";
        if (!given(vm, lines_key)) continue;
        const std::uint64_t lines = vm[lines_key].as<std::uint64_t>();
        if (lines > (1ull << 40)) throw InputError("--" + lines_key + " is too large");
        cache->size_bytes = lines * cache->line_bytes;
        if (cache == &g.l1) g.l1_auto = false;
        o.gpu_given.push_back(std::string(level) + "-size");
    }
    // The GPU presets' caches have 32 B sectors; a line set shorter (by hand, or by a thread-model
    // preset such as thesis-matmul's 16 B) needs sectors to match, and the message says which.
    for (const auto& [level, cache] : {std::pair{"l1", &g.l1}, std::pair{"l2", &g.l2}}) {
        const std::string line_key = std::string(level) + "-line", sector_key = std::string(level) + "-sector";
        if (cache->sector_bytes <= cache->line_bytes || !given(vm, line_key) || given(vm, sector_key)) continue;
        std::string why = "--" + line_key + " " + std::to_string(cache->line_bytes) + " is shorter than the GPU model's " +
                          std::to_string(cache->sector_bytes) + " B sectors";
        if (const Preset* bundle = find_preset(o.preset))
            for (const auto& [key, value] : bundle->options)
                if (key == line_key) why += " (--preset " + o.preset + " sets it, for the thread model's one cache)";
        throw InputError("--model gpu: " + why + "; give --" + sector_key + " " + std::to_string(cache->line_bytes) +
                         " (or less) with it, or leave the lines to a GPU preset (--preset h200, ...)");
    }
    if (vm["l1-write"].as<std::string>() != "through")
        throw InputError("--model gpu: the L1 is write-through without allocation (--l1-write through)");
    if (vm["l2-write"].as<std::string>() != "back")
        throw InputError("--model gpu: the L2 is write-back with allocation (--l2-write back)");
    if (trace_block) {  // the recorded launch's blocks
        if (given(vm, "block") && g.block != trace_block)
            throw InputError("--block " + std::to_string(g.block) + ": the trace " + o.trace_shown() +
                             " records blocks of " + std::to_string(trace_block) + " threads");
        g.block = trace_block;
        o.gpu_from_trace.push_back("block");
    }
    if (trace_resources) take_trace_resources(vm, o, *trace_resources, g);
    g.seed = vm["seed"].as<std::uint64_t>();
    validate(g);  // SimulationError: exit code 2
    return g;
}

}  // namespace

namespace {

// What messages call the trace: the name the user gave it, or "standard input".
std::string trace_named(const SimulationOptions& o) {
    const std::string& shown = o.trace_shown();
    return shown == "-" || shown == "/dev/stdin" ? "standard input" : shown;
}

// Whether option `key` was given by the user (command line or --config), not defaulted and not
// filled in by the --preset's own bundle. (A user's value equal to the bundle's counts as the
// bundle's: the run is the same either way.)
bool given_by_user(const po::variables_map& vm, const std::string& key) {
    if (!given(vm, key)) return false;
    if (const Preset* bundle = vm.count("preset") ? find_preset(vm["preset"].as<std::string>()) : nullptr)
        for (const auto& [bundle_key, value] : bundle->options)
            if (bundle_key == key) return option_text(vm[key]) != value;
    return true;
}

// Options that shape one built-in workload only.
struct WorkloadShapeOption {
    const char* option;
    WorkloadKind kind;
};
constexpr WorkloadShapeOption kWorkloadShapeOptions[] = {
    {"stencil", WorkloadKind::stencil},
    {"depth", WorkloadKind::matmul},
};

// "L1" for "l1": what messages call a level.
std::string level_name(const std::string& level) { return level == "l1" ? "L1" : "L2"; }

// A level's size in bytes and in lines at once. The thread model's reading refuses it too; with a
// GPU preset, whose caches are no option bundle, the lines would otherwise win unseen.
void reject_a_size_given_twice(const po::variables_map& vm) {
    for (const std::string level : {"l1", "l2"})
        if (given(vm, level + "-size") && given(vm, level + "-lines"))
            throw InputError("--" + level + "-size and --" + level + "-lines both give the " + level_name(level) +
                             "'s size: give one");
}

// The model the options choose, as read_simulation_options decides it: a GPU preset or --model gpu.
ModelKind model_chosen(const po::variables_map& vm) {
    if (vm.count("preset") && find_gpu_preset(vm["preset"].as<std::string>())) return ModelKind::gpu;
    return parse_model(vm["model"].as<std::string>()).value_or(ModelKind::thread);
}

// The option that leaves `level` out of the run ("--l2-size 0, the default", "--l1-lines 0"), or
// nothing where the run has it. The GPU model's levels are its preset's unless a size is given.
std::optional<std::string> level_turned_off_by(const po::variables_map& vm, ModelKind model, const std::string& level) {
    const std::string lines = level + "-lines", size = level + "-size";
    if (vm.count(lines)) {
        if (vm[lines].as<std::uint64_t>() != 0) return std::nullopt;
        return "--" + lines + " 0";
    }
    if (model == ModelKind::gpu && !given(vm, size)) return std::nullopt;
    const std::string text = vm[size].as<std::string>();
    try {
        if (text == "auto" || parse_size(text, "--" + size) != 0) return std::nullopt;
    } catch (const InputError&) {
        return std::nullopt;  // not a size: reading the level says so
    }
    const std::string whose = vm[size].defaulted() ? ", the default" : given_by_user(vm, size) ? "" : ", the preset's";
    return "--" + size + " " + text + whose;
}

// A missing level's options given, each with the option that leaves the level out. Without its
// L1 or L2 the GPU model still coalesces requests by the L1's lines and sectors and splits stores
// by the L2's (and fixes the write policies), so there only the options of what a level holds
// count.
std::vector<std::pair<std::string, std::string>> missing_level_options(const po::variables_map& vm) {
    const ModelKind model = model_chosen(vm);
    const std::vector<std::string> gpu_parts = {"ways", "policy", "index"};
    const std::vector<std::string> thread_parts = {"line", "sector", "ways", "policy", "write"};
    std::vector<std::pair<std::string, std::string>> found;
    for (const std::string level : {"l1", "l2"}) {
        const std::optional<std::string> off = level_turned_off_by(vm, model, level);
        if (!off) continue;
        for (const std::string& part : model == ModelKind::gpu ? gpu_parts : thread_parts)
            if (given_by_user(vm, level + "-" + part)) found.emplace_back(level + "-" + part, *off);
    }
    return found;
}

void reject_options_of_a_missing_level(const po::variables_map& vm) {
    for (const auto& [option, off] : missing_level_options(vm))
        throw InputError("--" + option + " describes the " + level_name(option.substr(0, 2)) + ", and the run has none (" +
                         off + "): it does not apply");
}

// --compilation picks the measured loops of gpubench's kernels (issue burst, loop cost and limit
// for auto), which the model reads only through a built-in workload, a trace's included: a trace
// whose header names none (an Accel-Sim trace's conversion, a recorded kernel) does not take it.
void reject_compilation_of_another_kernel(const po::variables_map& vm, const SimulationOptions& o,
                                          const cst::TraceHeader& header) {
    if (given_by_user(vm, "compilation") && !header.workload)
        throw InputError("--compilation picks the measured loops of gpubench's built-in kernels; it does not apply "
                         "to --trace " + o.trace_shown() + ", a recorded kernel that is none of them");
}

// A measured order (--warp-times) places the blocks and issues the warps as measured: the
// parameters of the model's own order (GpuParameter::scheduler_only) are not read.
void reject_scheduling_with_a_measured_order(const po::variables_map& vm, const SimulationOptions& o) {
    if (o.model != ModelKind::gpu || !vm.count("warp-times")) return;
    for (const GpuParameter& p : gpu_parameters())
        if (p.scheduler_only && given_by_user(vm, std::string(p.option)))
            throw InputError("--" + std::string(p.option) + " shapes the model's own issue order (its rounds or "
                             "cycles); it does not apply with --warp-times, which replays a measured order");
}

// An option given that the run would not use (a workload's shape with --trace or with the other
// workload, a GPU parameter with the thread model, a cache level's with no such level) is a
// mistake to report, not to ignore.
void reject_options_that_do_not_apply(const po::variables_map& vm, const SimulationOptions& o) {
    reject_options_of_another_workload(vm);
    reject_a_size_given_twice(vm);
    if (vm.count("trace"))
        for (const char* key : {"workload", "size", "stencil", "depth", "elem-bytes", "schedule"})
            if (given_by_user(vm, key))
                throw InputError(std::string("--") + key +
                                 " describes a built-in workload; it does not apply when replaying --trace");
    if (!vm.count("trace") && given_by_user(vm, "trace-format"))
        throw InputError("--trace-format names the format of a --trace file, and none is given");
    if (o.model != ModelKind::gpu)
        for (const GpuParameter& p : gpu_parameters())
            if (!p.cache_option && given_by_user(vm, std::string(p.option)))
                throw InputError("--" + std::string(p.option) +
                                 " is a GPU model parameter; it does not apply to the thread model (add --model gpu)");
    if (o.model == ModelKind::gpu && given_by_user(vm, "reuse-sample"))
        throw InputError("--reuse-sample samples the thread model's analysis; it does not apply to the GPU model");
    reject_options_of_a_missing_level(vm);
    reject_scheduling_with_a_measured_order(vm, o);
}

}  // namespace

std::optional<WorkloadKind> workload_shaped_by(std::string_view option) {
    for (const WorkloadShapeOption& shape : kWorkloadShapeOptions)
        if (option == shape.option) return shape.kind;
    return std::nullopt;
}

std::vector<std::string> options_of_another_workload(const po::variables_map& vm) {
    std::vector<std::string> keys;
    if (vm.count("trace") || !vm.count("workload")) return keys;  // --trace refuses every shape option
    const WorkloadKind kind = parse_workload_kind(vm["workload"].as<std::string>());
    for (const WorkloadShapeOption& shape : kWorkloadShapeOptions)
        if (shape.kind != kind && given_by_user(vm, shape.option)) keys.emplace_back(shape.option);
    return keys;
}

std::vector<std::string> options_of_a_missing_level(const po::variables_map& vm) {
    std::vector<std::string> keys;
    for (auto& [option, off] : missing_level_options(vm)) keys.push_back(std::move(option));
    return keys;
}

void reject_options_of_another_workload(const po::variables_map& vm) {
    for (const std::string& key : options_of_another_workload(vm))
        throw InputError("--" + key + " shapes the " + std::string(workload_name(*workload_shaped_by(key))) +
                         " workload; it does not apply to --workload " + vm["workload"].as<std::string>());
}

SimulationOptions read_simulation_options(const po::variables_map& vm) {
    SimulationOptions o;
    if (vm.count("preset")) o.preset = vm["preset"].as<std::string>();
    const std::string model = vm["model"].as<std::string>();
    const std::optional<ModelKind> kind = parse_model(model);
    if (!kind)
        throw InputError("--model: unknown model '" + model + "' (expected thread or gpu)" +
                         case_hint(model, [](std::string_view m) { return parse_model(m).has_value(); }));
    o.model = *kind;
    if (find_gpu_preset(o.preset)) {  // a GPU preset is the GPU model's hardware
        if (given(vm, "model") && o.model != ModelKind::gpu)
            throw InputError("--preset " + o.preset + " describes a GPU: it needs --model gpu");
        o.model = ModelKind::gpu;
    }
    if (o.model == ModelKind::gpu && o.preset.empty()) o.preset = kDefaultGpuPreset;
    reject_options_that_do_not_apply(vm, o);
    std::uint32_t trace_block = 0;
    std::optional<RecordedLoop> trace_loop;
    std::optional<cst::LaunchResources> trace_resources;
    if (vm.count("trace")) {
        o.trace_path = vm["trace"].as<std::string>();
        o.trace_input = resolve_trace_input(vm["trace-format"].as<std::string>(), o.trace_path);
        if (o.trace_input.format == "traceg") {  // an Accel-Sim kernel trace, replayed from its cst conversion
            o.traceg = std::make_shared<const accelsim::ConvertedTrace>(o.trace_path);
            o.trace_path = o.traceg->path();
            o.trace_input = resolve_trace_input("cst", o.trace_path);
        }
        const std::string& format = o.trace_input.format;
        o.trace_cst = format == "cst";
        if (!o.trace_cst) o.trace_format = parse_trace_format(format);
        if (o.model == ModelKind::gpu) {  // the GPU model replays a recorded launch: a cst version 2 trace
            if (!o.trace_cst)
                throw InputError("--model gpu replays cst traces of a launch (version 2), not " + format + " traces");
            const cst::TraceFileSource trace(o.trace_path);
            if (!trace.header().launch)
                throw InputError(trace_named(o) + ": a version 1 trace holds no launch; the GPU model replays "
                                 "version 2 traces (cachesim trace writes them by default)");
            if (trace.header().accesses == 0)
                throw InputError(trace_named(o) + ": the trace holds no accesses (its launch's threads read and wrote nothing)");
            reject_compilation_of_another_kernel(vm, o, trace.header());
            trace_block = trace.header().launch->threads_per_block();
            trace_loop = trace.header().loop;
            trace_resources = trace.header().resources;
        }
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
    o.hierarchy.seed = vm["seed"].as<std::uint64_t>();
    o.hierarchy.analysis = !vm["no-analysis"].as<bool>();
    if (vm.count("reuse-sample")) {
        if (!o.hierarchy.analysis) throw InputError("--reuse-sample samples the analysis, which --no-analysis turns off");
        o.hierarchy.reuse_sample = parse_sample_rate(vm["reuse-sample"].as<std::string>());
    }
    if (o.model == ModelKind::gpu) {
        o.gpu = read_gpu(vm, o, trace_block, trace_resources);
        // A trace that carries its kernel's loop (cst version 3) is replayed with it where the
        // options leave the loop to auto, as gpubench's kernels are with the H200's table.
        if (trace_loop) {
            o.trace_loop = trace_loop;
            const GpuConfig before = o.gpu;
            apply_launch_loop(o.gpu, trace_loop->counters(), trace_loop->loads_per_iteration);
            for (const GpuParameter& p : gpu_parameters())
                if (p.get(o.gpu) != p.get(before)) o.gpu_from_trace.emplace_back(p.option);
        }
        o.hierarchy.l1 = effective_l1(o.gpu);
        o.hierarchy.l2 = o.gpu.l2;
        return o;
    }
    o.hierarchy.l1 = read_level(vm, "l1");
    o.hierarchy.l2 = read_level(vm, "l2");
    validate(o.hierarchy);
    return o;
}

po::options_description simulation_option_groups() {
    po::options_description d;
    d.add(common_options()).add(workload_options()).add(cache_options()).add(gpu_options());
    return d;
}

SimulationOptions read_simulation_args(std::vector<std::string> args, const po::options_description& options,
                                       const std::string& context,
                                       const std::vector<std::string>& unused_file_settings) {
    std::vector<char*> argv;
    for (std::string& a : args) argv.push_back(a.data());
    try {
        const auto vm = parse_command_line(static_cast<int>(argv.size()), argv.data(), options, "", unused_file_settings);
        if (!vm) throw InputError("--help does not apply here");  // parse_command_line printed the help
        return read_simulation_options(*vm);
    } catch (const po::error& e) {
        throw InputError(context + error_text(e));
    } catch (const InputError& e) {
        throw InputError(context + e.what());
    } catch (const SimulationError& e) {
        throw InputError(context + e.what());
    }
}

po::options_description timing_options() {
    po::options_description d("Measured timing (--model gpu)");
    d.add_options()
        ("warp-times", po::value<std::string>(),
         "replay the launch in the order a GPU ran it: FILE from gpubench --warp-times (every warp's "
         "SM, start and end; each warp's requests spread evenly over its interval) or, for the "
         "matmul, from progressprobe (each warp's time every K steps of its loop; its requests spread "
         "evenly between them); all SMs' requests go in time order (no rounds; the options of the model's own issue order, "
         "--cta-order, --warp-scheduler, --timing and the rest of the Scheduling and Cycle timing groups, do not apply; the "
         "--l2-coalesce windows count nanoseconds)")
        ("warp-times-launch", po::value<std::uint32_t>(),
         "which recorded launch of the configuration to replay (default: the file's first)");
    return d;
}

std::optional<WarpTimeline> timeline_option(const po::variables_map& vm, const char* file_key, const char* launch_key,
                                            const WorkloadSpec& workload, std::uint32_t block) {
    if (!vm.count(file_key)) {
        if (vm.count(launch_key)) throw InputError(std::string("--") + launch_key + " needs --" + file_key);
        return std::nullopt;
    }
    std::optional<std::uint32_t> launch;
    if (vm.count(launch_key)) launch = vm[launch_key].as<std::uint32_t>();
    return read_warp_times(vm[file_key].as<std::string>(), workload, block, launch);
}

void read_timeline(const po::variables_map& vm, SimulationOptions& sim, WarpTimeline& timeline) {
    if (vm.count("warp-times") && sim.model != ModelKind::gpu)
        throw InputError("--warp-times replays measured warps: it needs --model gpu");
    if (vm.count("warp-times") && !sim.workload)
        throw InputError("--warp-times replays the launches of the built-in workloads, not a trace");
    // With --warp-times the model is the GPU's, which always has a workload.
    std::optional<WarpTimeline> read = timeline_option(vm, "warp-times", "warp-times-launch",
                                                       sim.workload.value_or(WorkloadSpec{}), sim.gpu.block);
    if (!read) return;
    timeline = std::move(*read);
    sim.gpu.timeline = &timeline;
}

namespace {

// A trace that ends before its first access is refused rather than reported as a run of nothing:
// it is an empty file, or a pipe whose producer failed (`zcat missing.gz | cachesim ...`). The
// reader's warnings are shown on standard error at the end of the input, each once (a multi-pass
// policy reads the trace again).
class NonEmptyTrace final : public AccessSource {
public:
    NonEmptyTrace(std::unique_ptr<AccessSource> trace, std::string name) : trace_(std::move(trace)), name_(std::move(name)) {}
    std::vector<ArrayInfo> arrays() const override { return trace_->arrays(); }
    bool next(AccessBatch& batch, std::size_t max_accesses) override {
        const bool more = trace_->next(batch, max_accesses);
        if (!more && !seen_access_)
            throw InputError(name_ + ": the trace holds no accesses (an empty file, or a pipe whose producer failed?)");
        seen_access_ = seen_access_ || !batch.accesses.empty();
        if (!more) show_new_warnings();
        return more;
    }
    void rewind() override { trace_->rewind(); }
    bool rewindable() const override { return trace_->rewindable(); }
    std::uint64_t size_hint() const override { return trace_->size_hint(); }
    std::vector<std::string> warnings() const override { return trace_->warnings(); }

private:
    void show_new_warnings() {
        const std::vector<std::string> all = trace_->warnings();
        for (std::size_t i = shown_warnings_; i < all.size(); ++i) std::cerr << all[i] << "\n";
        shown_warnings_ = all.size();
    }

    std::unique_ptr<AccessSource> trace_;
    std::string name_;
    bool seen_access_ = false;
    std::size_t shown_warnings_ = 0;
};

}  // namespace

std::unique_ptr<AccessSource> make_source(const SimulationOptions& options) {
    if (options.workload) return std::make_unique<WorkloadSource>(*options.workload);
    return std::make_unique<NonEmptyTrace>(open_trace_source(options.trace_input), trace_named(options));
}

}  // namespace cachesim::cli
