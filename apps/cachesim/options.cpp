#include "apps/cachesim/options.hpp"

#include <algorithm>
#include <fstream>
#include <iostream>
#include <optional>
#include <sstream>
#include <string>

#include "apps/cachesim/presets.hpp"
#include "sim/gpu/gpu_presets.hpp"
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
         "thread: work items one after another (the thesis's model) | gpu: warps of thread "
         "blocks on SMs with per-SM L1s and a shared L2 (see GPU model; without --preset it "
         "takes --preset h200)");
    return d;
}

// A number as the help and the report show it: 0.05, not 0.050000000000000003.
std::string short_number(double v) {
    std::ostringstream out;
    out << v;
    return out.str();
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
         (L + " replacement: lru | fifo | random | random4 | plru | opt").c_str())
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
    if (size == "auto") {
        if (!is_auto)
            throw InputError("--" + level + "-size auto (the L1 left by the shared-memory carve-out) "
                             "needs --model gpu");
        *is_auto = !vm.count(level + "-lines");
    } else {
        c.size_bytes = parse_size(size, "--" + level + "-size");
    }
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

po::options_description gpu_options() {
    const GpuConfig d = find_gpu_preset(kDefaultGpuPreset)->config;
    std::string carveouts;
    for (std::uint32_t kib : d.carveouts_kib) carveouts += (carveouts.empty() ? "" : ",") + std::to_string(kib);
    po::options_description o("GPU model (--model gpu; --preset v100|t4|a100|h100|h200 sets the hardware)");
    o.add_options()
        ("block", po::value<std::uint32_t>()->default_value(d.block), "threads per block (1..1024)")
        ("sms", po::value<std::uint32_t>()->default_value(d.sms), "streaming multiprocessors")
        ("threads-per-sm", po::value<std::uint32_t>()->default_value(d.max_threads_per_sm),
         "resident threads per SM at most")
        ("blocks-per-sm", po::value<std::uint32_t>()->default_value(d.max_blocks_per_sm),
         "resident blocks per SM at most")
        ("regs-per-thread", po::value<std::uint32_t>()->default_value(0),
         "registers per thread of the kernel; 0: registers do not limit residency")
        ("regs-per-sm", po::value<std::uint32_t>()->default_value(d.regs_per_sm), "registers per SM")
        ("smem-per-block", po::value<std::string>()->default_value("0"),
         "shared memory the kernel allocates per block (bytes, K suffix)")
        ("smem-reserved", po::value<std::string>()->default_value(std::to_string(d.smem_reserved_per_block)),
         "shared memory CUDA reserves per block (1K on cc >= 8.0, 0 before)")
        ("unified-l1", po::value<std::string>()->default_value(std::to_string(d.unified_l1_bytes / 1024) + "K"),
         "L1 + shared memory per SM; --l1-size auto gives the L1 what the carve-out leaves")
        ("carveouts", po::value<std::string>()->default_value(carveouts),
         "shared-memory carve-outs the driver chooses from, KiB, comma separated; it takes the "
         "smallest that holds the resident blocks' shared memory")
        ("cta-order", po::value<std::string>()->default_value("round-robin"),
         "first wave of blocks: round-robin (block b to SM b mod N) | fill (SM by SM) | floorplan "
         "(the preset's measured dispatch cycle: h200)")
        ("cta-refill", po::value<std::string>()->default_value("shuffled"),
         "later waves, SMs freeing a block slot in the same round get the next blocks in: shuffled "
         "(a seeded random order per round, as timing decides on the chip) | sm-order (SM index "
         "order: every wave repeats the first wave's placement)")
        ("warp-scheduler", po::value<std::string>()->default_value("lrr"),
         "lrr (loose round robin) | gto (greedy then oldest: the same warp until an L1 miss)")
        ("warp-rate-spread", po::value<double>()->default_value(d.warp_rate_spread, short_number(d.warp_rate_spread)),
         "lrr: warps progress at their own rates, min(1, exp(S(z-3))) requests per turn with z a "
         "standard normal per warp (seeded); 0: every warp takes every turn (h200: 0.05, fitted "
         "to its naive matmul; gto ignores it)")
        ("issue-burst", po::value<std::string>()->default_value(d.issue_burst == kIssueBurstAuto ? "auto" : std::to_string(d.issue_burst)),
         "lrr: requests a warp issues in a row at its turn, N or auto (the loads of one iteration "
         "of gpubench's compiled loop: stencil SWxSH, matmul 32); 1: one request per turn")
        ("block-start-skip", po::value<std::uint32_t>()->default_value(d.block_start_skip),
         "lrr: a block's warps are passed over on their first 0..N turns (drawn per block, "
         "seeded), so that blocks started together do not run in exact step (h200: 1)")
        ("l2-partitions", po::value<std::uint32_t>()->default_value(d.l2_partitions),
         "1 | 2: two halves, each SM attached to one; a near miss that hits the far half copies "
         "what it asked for (with home fill, the --dram-fetch granule) over")
        ("l2-partition-map", po::value<std::string>()->default_value("halves"),
         "SM to partition: halves (SMs 0..N/2-1 to the first) | interleaved (SM mod 2) | floorplan "
         "(the preset's measured table: h200)")
        ("l2-fill", po::value<std::string>()->default_value(std::string(partition_fill_name(d.partition_fill))),
         "two partitions, where DRAM reads land: near (the requesting SM's half; a near miss asks "
         "the far half) | home (each line's home half by address hash, plus a copy in the near half)")
        ("l2-index", po::value<std::string>()->default_value("hash"),
         "L2 set index: hash (of the line address, as GPUs spread addresses over slices) | mod "
         "(line mod sets)")
        ("dram-fetch", po::value<std::uint32_t>()->default_value(d.dram_fetch_bytes),
         "bytes an L2 miss fetches from DRAM (aligned; 32, 64 or 128)")
        ("l2-coalesce-hit", po::value<std::uint32_t>()->default_value(d.l2_coalesce_hit_rounds),
         "L2 request coalescing: for this many rounds after an L1's request to the L2 that hits, "
         "identical requests (same line, same sectors) of other SMs join it instead of looking up; "
         "0 with --l2-coalesce-miss 0: off (every preset but h200: 50 / 200, among pairs)")
        ("l2-coalesce-miss", po::value<std::uint32_t>()->default_value(d.l2_coalesce_miss_rounds),
         "the same window after a request that misses in the near L2 half (it waits longer)")
        ("l2-coalesce-max", po::value<std::uint32_t>()->default_value(d.l2_coalesce_requesters),
         "SMs one coalesced L2 lookup serves at most (2..255)")
        ("l2-coalesce-among", po::value<std::string>()->default_value(std::string(coalesce_scope_name(d.l2_coalesce_scope))),
         "which SMs' requests can be coalesced: tpc (the two SMs of a TPC, 2k and 2k+1) | pairs (SMs "
         "running blocks 2i and 2i+1, dispatched together) | neighbours (blocks b and b+1) | all")
        ("warp-size", po::value<std::uint32_t>()->default_value(d.warp_size), "threads per warp");
    return o;
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
    std::string preset_name;
    if (vm.count("preset")) preset_name = vm["preset"].as<std::string>();
    else if (vm.count("model") && vm["model"].as<std::string>() == "gpu") preset_name = kDefaultGpuPreset;
    if (!preset_name.empty()) {
        const std::string name = preset_name;
        const Preset* preset = find_preset(name);
        if (!preset) throw InputError("unknown preset '" + name + "' (expected " + preset_names() + ")");
        // A preset's measured floorplan (dispatch order, SM -> L2 partition) belongs to its own
        // SM count: with another --sms the round-robin order and the halves map stand in.
        bool other_sms = false;
        for (const auto& [key, value] : preset->options)
            if (key == "sms" && vm.count("sms") && !vm["sms"].defaulted())
                other_sms = std::to_string(vm["sms"].as<std::uint32_t>()) != value;
        std::vector<std::string> args;
        for (const auto& [key, value] : preset->options) {
            if (!options.find_nothrow(key, false)) continue;  // not an option of this subcommand
            if (other_sms && value == "floorplan") continue;
            args.push_back("--" + key + "=" + value);
        }
        po::store(po::command_line_parser(args).options(options).run(), vm);
    }
    po::notify(vm);
    return vm;
}

namespace {

// A GPU option's value, or the default GPU preset's when the subcommand does not have the option.
template <class T>
T gpu_value(const po::variables_map& vm, const char* key, T fallback) {
    return vm.count(key) ? vm[key].as<T>() : fallback;
}

// A GPU option naming one of a few choices: `parse` turns its text into the value, or nothing for
// text that is none of `expected` (named in the error).
template <class T, class Parse>
void gpu_choice(const po::variables_map& vm, const char* key, Parse parse, const char* expected, T& out) {
    if (!vm.count(key)) return;
    const std::string text = vm[key].as<std::string>();
    const std::optional<T> value = parse(text);
    if (!value) throw InputError(std::string("--") + key + ": expected " + expected + ", not '" + text + "'");
    out = *value;
}

std::vector<std::uint32_t> parse_carveouts(const std::string& text) {
    std::vector<std::uint32_t> kib;
    std::size_t start = 0;
    while (start <= text.size()) {
        const std::size_t comma = std::min(text.find(',', start), text.size());
        const std::string part = text.substr(start, comma - start);
        const std::uint64_t v = parse_size(part, "--carveouts");  // whole KiB; 0 allowed
        if (v > (1u << 20)) throw InputError("--carveouts: " + part + " KiB is too large");
        kib.push_back(static_cast<std::uint32_t>(v));
        start = comma + 1;
    }
    return kib;
}

std::uint32_t size32(const std::string& text, const std::string& what) {
    if (text == "0") return 0;
    const std::uint64_t v = parse_size(text, what);
    if (v > (1ull << 31)) throw InputError(what + ": " + text + " is too large");
    return static_cast<std::uint32_t>(v);
}

GpuConfig read_gpu(const po::variables_map& vm, const std::string& preset) {
    const GpuPreset* base = find_gpu_preset(preset);
    GpuConfig g = (base ? base : find_gpu_preset(kDefaultGpuPreset))->config;
    g.name = base ? preset : "custom";
    g.block = gpu_value(vm, "block", g.block);
    g = with_sms(g, gpu_value(vm, "sms", g.sms));
    g.max_threads_per_sm = gpu_value(vm, "threads-per-sm", g.max_threads_per_sm);
    g.max_blocks_per_sm = gpu_value(vm, "blocks-per-sm", g.max_blocks_per_sm);
    g.regs_per_thread = gpu_value(vm, "regs-per-thread", g.regs_per_thread);
    g.regs_per_sm = gpu_value(vm, "regs-per-sm", g.regs_per_sm);
    g.warp_size = gpu_value(vm, "warp-size", g.warp_size);
    if (vm.count("smem-per-block")) g.smem_per_block = size32(vm["smem-per-block"].as<std::string>(), "--smem-per-block");
    if (vm.count("smem-reserved")) g.smem_reserved_per_block = size32(vm["smem-reserved"].as<std::string>(), "--smem-reserved");
    if (vm.count("unified-l1")) g.unified_l1_bytes = parse_size(vm["unified-l1"].as<std::string>(), "--unified-l1");
    if (vm.count("carveouts")) g.carveouts_kib = parse_carveouts(vm["carveouts"].as<std::string>());
    gpu_choice(vm, "cta-order", parse_cta_order, "round-robin, fill or floorplan", g.cta_order);
    gpu_choice(vm, "cta-refill", parse_cta_refill, "shuffled or sm-order", g.cta_refill);
    gpu_choice(vm, "warp-scheduler", parse_warp_scheduler, "lrr or gto", g.scheduler);
    g.warp_rate_spread = gpu_value(vm, "warp-rate-spread", g.warp_rate_spread);
    if (vm.count("issue-burst")) {
        const std::string text = vm["issue-burst"].as<std::string>();
        if (text == "auto") {
            g.issue_burst = kIssueBurstAuto;
        } else {
            const bool digits = !text.empty() && text.size() <= 9 &&
                                text.find_first_not_of("0123456789") == std::string::npos;
            const std::uint64_t v = digits ? std::stoull(text) : 0;
            if (v == 0 || v > kMaxIssueBurst)
                throw InputError("--issue-burst: expected auto or a count from 1 to " + std::to_string(kMaxIssueBurst) +
                                 ", not '" + text + "'");
            g.issue_burst = static_cast<std::uint32_t>(v);
        }
    }
    g.block_start_skip = gpu_value(vm, "block-start-skip", g.block_start_skip);
    g.l2_partitions = gpu_value(vm, "l2-partitions", g.l2_partitions);
    gpu_choice(vm, "l2-partition-map", parse_partition_map, "halves, interleaved or floorplan", g.partition_map);
    gpu_choice(vm, "l2-fill", parse_partition_fill, "near or home", g.partition_fill);
    if (vm.count("l2-index")) {
        const std::string text = vm["l2-index"].as<std::string>();
        if (text != "hash" && text != "mod") throw InputError("--l2-index: expected hash or mod, not '" + text + "'");
        g.l2_hashed_sets = text == "hash";
    }
    g.dram_fetch_bytes = gpu_value(vm, "dram-fetch", g.dram_fetch_bytes);
    g.l2_coalesce_hit_rounds = gpu_value(vm, "l2-coalesce-hit", g.l2_coalesce_hit_rounds);
    g.l2_coalesce_miss_rounds = gpu_value(vm, "l2-coalesce-miss", g.l2_coalesce_miss_rounds);
    g.l2_coalesce_requesters = gpu_value(vm, "l2-coalesce-max", g.l2_coalesce_requesters);
    gpu_choice(vm, "l2-coalesce-among", parse_coalesce_scope, "tpc, pairs, neighbours or all", g.l2_coalesce_scope);
    bool l1_auto = false;
    g.l1 = read_level(vm, "l1", &l1_auto);
    g.l1_auto = l1_auto;
    g.l2 = read_level(vm, "l2");
    if (g.l1.write_policy != WritePolicy::write_through_no_allocate)
        throw InputError("--model gpu: the L1 is write-through without allocation (--l1-write through)");
    if (g.l2.write_policy != WritePolicy::write_back_allocate)
        throw InputError("--model gpu: the L2 is write-back with allocation (--l2-write back)");
    g.seed = vm["seed"].as<std::uint64_t>();
    validate(g);  // SimulationError: exit code 2
    return g;
}

}  // namespace

SimulationOptions read_simulation_options(const po::variables_map& vm) {
    SimulationOptions o;
    if (vm.count("preset")) o.preset = vm["preset"].as<std::string>();
    o.model = vm["model"].as<std::string>();
    if (o.model != "thread" && o.model != "gpu")
        throw InputError("--model: unknown model '" + o.model + "' (expected thread or gpu)");
    if (o.model == "gpu" && vm.count("trace"))
        throw InputError("--model gpu replays the built-in workloads (its warps need work items), not traces");
    if (o.model == "gpu" && o.preset.empty()) o.preset = kDefaultGpuPreset;
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
    o.hierarchy.seed = vm["seed"].as<std::uint64_t>();
    o.hierarchy.analysis = !vm["no-analysis"].as<bool>();
    if (o.model == "gpu") {
        o.gpu = read_gpu(vm, o.preset);
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
                                       const std::string& context) {
    std::vector<char*> argv;
    for (std::string& a : args) argv.push_back(a.data());
    try {
        const auto vm = parse_command_line(static_cast<int>(argv.size()), argv.data(), options, "");
        return read_simulation_options(*vm);
    } catch (const po::error& e) {
        throw InputError(context + e.what());
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
         "SM, start and end); each warp's requests are spread evenly over its interval, all SMs' "
         "requests go in time order (no rounds; --cta-order, --cta-refill and --warp-scheduler do not "
         "apply; the --l2-coalesce windows count nanoseconds)")
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
    if (vm.count("warp-times") && sim.model != "gpu")
        throw InputError("--warp-times replays measured warps: it needs --model gpu");
    // With --warp-times the model is the GPU's, which always has a workload.
    std::optional<WarpTimeline> read = timeline_option(vm, "warp-times", "warp-times-launch",
                                                       sim.workload.value_or(WorkloadSpec{}), sim.gpu.block);
    if (!read) return;
    timeline = std::move(*read);
    sim.gpu.timeline = &timeline;
}

std::unique_ptr<AccessSource> make_source(const SimulationOptions& options) {
    if (options.workload) return std::make_unique<WorkloadSource>(*options.workload);
    if (options.trace_cst) return std::make_unique<cst::TraceFileSource>(options.trace_path);
    if (options.trace_format == TraceFormat::u64) return std::make_unique<U64TraceSource>(options.trace_path);
    return std::make_unique<DinTraceSource>(options.trace_path);
}

}  // namespace cachesim::cli
