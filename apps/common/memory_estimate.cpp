#include "apps/common/memory_estimate.hpp"

#include <algorithm>
#include <bit>
#include <cstdio>
#include <unistd.h>

#include "sim/geometry.hpp"
#include "sim/cache.hpp"
#include "sim/saturating.hpp"
#include "sim/gpu/gpu_footprint.hpp"
#include "traces/access.hpp"
#include "traces/input_error.hpp"

namespace cachesim::cli {

namespace {

constexpr std::uint64_t kMiB = 1ull << 20;
// The program itself (about 8 MiB resident), its 1 MiB input block and access batches.
constexpr std::uint64_t kFixedBytes = 24 * kMiB;
// Per cache line: its tag, its sector bits and at most 8 bytes of replacement state (OPT's next
// use; LRU, FIFO, PLRU and random keep less); per set: LRU's most recent way. A cache with sets
// of many ways adds its line index (index_bytes, sim/cache.hpp).
constexpr std::uint64_t kBytesPerCacheLine = 24, kBytesPerSet = 4;
// OPT, per lookup: the recorded stream (a doubling vector, up to 16 bytes) turned into the
// next-use table in place, and the map from line to next use (up to 32 bytes a distinct line).
constexpr std::uint64_t kOptBytesPerLookup = 48;
// The reuse tracker keeps 16 consecutive sectors in one 72-byte slot of a table at most half
// full whose size is a power of two (so under 4 slots a chunk), plus its time bitset; while the
// table doubles, the old one is still there (x1.5).
constexpr std::uint64_t kTrackerBytesPerChunk = 72 * 4;
// Diagram: per row its flags and per level its counters; per recorded cell 4 bits, the zoom
// pyramid up to 3x more.
constexpr std::uint64_t kDiagramBytesPerRow = 16, kDiagramBytesPerCell = 2;

std::uint64_t cache_bytes(const CacheConfig& c) {
    if (!c.enabled()) return 0;
    const GeometryResult g = make_geometry(c);
    if (!g.geometry) return 0;  // validate() reports it
    const std::uint64_t index = index_bytes(*g.geometry);
    return saturating_add(saturating_add(saturating_mul(g.geometry->lines, kBytesPerCacheLine),
                                         saturating_mul(g.geometry->sets, kBytesPerSet)),
                          index);
}

std::uint32_t sector_bytes(const CacheConfig& c) { return c.sector_bytes ? c.sector_bytes : c.line_bytes; }

// The reuse tracker of one level that sees `sectors` distinct sectors in `runs` contiguous runs.
std::uint64_t tracker_bytes(std::uint64_t sectors, std::uint64_t runs) {
    const std::uint64_t chunks = saturating_add(sectors / 16, 2 * runs + 1);
    const std::uint64_t table = saturating_mul(chunks, kTrackerBytesPerChunk);
    return saturating_add(saturating_add(table, table / 2), saturating_add(sectors / 2, 64 << 10));
}

// The most sectors one access of `bytes` bytes can touch at `sector` bytes a sector (it may start
// anywhere within one).
std::uint64_t sectors_spanned(std::uint64_t bytes, std::uint32_t sector) {
    return bytes <= 1 ? 1 : (bytes - 2) / sector + 2;
}

// The most lookups any level makes for one access of `bytes` bytes: the L1 looks up the sectors
// the access spans; the L2 behind it the sectors of each L1 fill and write-back, and of a store
// forwarded below.
std::uint64_t lookups_per_access(const HierarchyConfig& h, std::uint64_t bytes) {
    const std::uint32_t s1 = sector_bytes(h.l1), s2 = sector_bytes(h.l2);
    std::uint64_t most = 0;
    if (h.l1.enabled()) most = sectors_spanned(bytes, s1);
    if (h.l2.enabled()) {
        const std::uint64_t l2 = h.l1.enabled() ? 2 * most * sectors_spanned(s1, s2) + sectors_spanned(bytes, s2)
                                                : sectors_spanned(bytes, s2);
        most = std::max(most, l2);
    }
    return most;
}

// The thread model's accesses are made a work item at a time: an item larger than the batch the
// fixed part counts is held whole (a matmul's 2 x depth + 1 accesses, a stencil's box + 1).
std::uint64_t work_item_bytes(const WorkloadSpec& w) {
    const std::uint64_t accesses = w.accesses_per_item();
    return accesses > kThreadModelBatchAccesses ? saturating_mul(accesses, sizeof(Access)) : 0;
}

}  // namespace

std::string human_bytes(std::uint64_t bytes) {
    const char* units[] = {"B", "KiB", "MiB", "GiB", "TiB", "PiB", "EiB"};
    double value = static_cast<double>(bytes);
    int unit = 0;
    while (value >= 1024 && unit < 6) {
        value /= 1024;
        ++unit;
    }
    char text[32];
    std::snprintf(text, sizeof text, unit == 0 || value >= 100 ? "%.0f %s" : "%.1f %s", value, units[unit]);
    return text;
}

std::string MemoryEstimate::describe() const {
    std::string parts = "program " + human_bytes(fixed);
    if (caches) parts += ", caches " + human_bytes(caches);
    if (gpu_run) parts += ", warps and buffers " + human_bytes(gpu_run);
    if (work_item) parts += ", a work item's accesses " + human_bytes(work_item);
    if (gpu_traffic)
        parts += ", L2 traffic " + std::string(gpu_traffic_is_share ? "up to " : "at most ") + human_bytes(gpu_traffic) +
                 " (it follows the L1's misses)";
    if (opt)
        parts += ", OPT tables " + std::string(opt_is_share ? "up to " : "") + human_bytes(opt) +
                 (opt_is_share ? " (they follow the trace's lookups)" : "");
    if (analysis)
        parts += ", analysis " + std::string(analysis_is_share ? "up to " : "") + human_bytes(analysis) +
                 (analysis_is_share ? " (it follows the trace's distinct lines)" : "");
    if (diagram) parts += ", diagram " + human_bytes(diagram);
    return "about " + human_bytes(total()) + " (" + parts + ")";
}

std::uint64_t MemoryEstimate::analysis_limit() const {
    if (!analysis) return 0;
    // The tracker's table doubles at once: stopping at half the share keeps the peak below it.
    const std::uint64_t others = fixed + caches + gpu_run + work_item + gpu_traffic + opt + diagram;
    return max_memory > others ? std::max<std::uint64_t>((max_memory - others) / 2, 1) : 1;
}

po::options_description memory_options() {
    po::options_description d("Memory");
    d.add_options()
        ("max-memory", po::value<std::string>()->default_value("auto"),
         "refuse a run whose memory estimate exceeds SIZE (K/M/G suffixes); auto: half the physical "
         "memory. The caches' and OPT's memory follow the configuration; with analysis, memory follows "
         "the distinct lines (a trace's run stops when they outgrow what is left); --no-analysis "
         "keeps it constant");
    return d;
}

std::uint64_t max_memory_option(const po::variables_map& vm) {
    const std::string text = vm.count("max-memory") ? vm["max-memory"].as<std::string>() : "auto";
    if (text == "auto") {
        const long pages = ::sysconf(_SC_PHYS_PAGES), page = ::sysconf(_SC_PAGESIZE);
        if (pages <= 0 || page <= 0) return 4ull << 30;
        return static_cast<std::uint64_t>(pages) * static_cast<std::uint64_t>(page) / 2;
    }
    const std::uint64_t bytes = parse_size(text, "--max-memory");
    if (bytes < kFixedBytes)
        throw InputError("--max-memory: " + text + " is less than the program itself needs (" +
                         human_bytes(kFixedBytes) + ")");
    return bytes;
}

MemoryEstimate estimate_memory(const SimulationOptions& sim, std::uint64_t max_memory, std::uint64_t diagram_cells,
                               std::uint64_t diagram_tag_grids) {
    MemoryEstimate e;
    e.max_memory = max_memory;
    e.fixed = kFixedBytes;
    const HierarchyConfig& h = sim.hierarchy;
    const bool gpu = sim.model == ModelKind::gpu;
    // The GPU model's parts from its own accounting (gpu_footprint.hpp), the thread model's caches
    // from their geometry.
    GpuFootprint footprint;
    // (a diagram's run has an observer, which runs it on one thread)
    if (gpu) footprint = gpu_footprint(sim.gpu, sim.workload ? &*sim.workload : nullptr, diagram_cells > 0);
    const std::uint64_t l1_bytes = gpu ? footprint.l1s : cache_bytes(h.l1);
    const std::uint64_t l2_bytes = gpu ? footprint.l2 : cache_bytes(h.l2);
    e.caches = saturating_add(saturating_add(l1_bytes, l2_bytes), footprint.l2_coalescer);
    e.gpu_run = footprint.run_state;
    e.work_item = gpu ? footprint.step_tables : (sim.workload ? work_item_bytes(*sim.workload) : 0);
    auto refuse = [&](const std::string& part, const std::string& options) {
        throw InputError("the run would need " + e.describe() + ", more than --max-memory " +
                         human_bytes(max_memory) + "; " + part + (options.empty() ? "" : " (set by " + options + ")") +
                         "; raise --max-memory if the machine has the memory");
    };
    if (e.total() > max_memory) {
        // The largest part the options set is the one to name, unless all of them are small beside
        // the program itself.
        const std::uint64_t largest = std::max({l1_bytes, l2_bytes, footprint.l2_coalescer, e.gpu_run, e.work_item});
        if (largest < kMiB && e.fixed > largest) refuse("the program itself takes " + human_bytes(e.fixed), "");
        if (largest == e.work_item) {
            const WorkloadSpec& w = *sim.workload;
            refuse("one work item's " + std::to_string(w.accesses_per_item()) + " accesses are worked out together",
                   w.kind == WorkloadKind::matmul ? "--depth" : "--stencil");
        }
        if (largest == e.gpu_run)
            refuse(std::to_string(sim.gpu.sms) + " SMs keep " + human_bytes(e.gpu_run / std::max(sim.gpu.sms, 1u)) +
                       " each for their warps and buffers",
                   "--sms, --block and --threads-per-sm");
        if (largest == footprint.l2_coalescer)
            refuse("the L2 request coalescer keeps a window of requests for every round it waits",
                   // (as gpu_footprint reads them: a measured timeline keeps the windows in rounds)
                   sim.gpu.timing == IssueTiming::cycles && !sim.gpu.timeline ? "--lrc-hit-cycles and --lrc-miss-cycles"
                                                                              : "--l2-coalesce-hit and --l2-coalesce-miss");
        const bool l1_larger = l1_bytes >= l2_bytes;
        const CacheConfig& c = l1_larger ? h.l1 : h.l2;
        const GeometryResult g = make_geometry(c);
        const std::string level = l1_larger ? "l1" : "l2";
        refuse("the " + c.name + (gpu && l1_larger ? "s of " + std::to_string(sim.gpu.sms) + " SMs hold " : " holds ") +
                   std::to_string(g.geometry ? g.geometry->lines : 0) + " lines",
               "--" + level + "-size and --" + level + "-line");
    }
    const std::vector<ArrayInfo> arrays = sim.workload ? sim.workload->arrays() : std::vector<ArrayInfo>{};
    // A diagram: per row (a line of the arrays) and per recorded cell.
    const auto count_diagram = [&] {
        if (!diagram_cells) return;
        std::uint64_t rows = 0;
        for (const ArrayInfo& a : arrays) rows = saturating_add(rows, a.bytes() / std::max<std::uint32_t>(h.l1.line_bytes, 1) + 2);
        e.diagram = saturating_add(saturating_mul(rows, kDiagramBytesPerRow),
                                   saturating_mul(diagram_cells, kDiagramBytesPerCell + diagram_tag_grids));
        if (e.total() > max_memory)
            refuse("the diagram has " + std::to_string(rows) + " rows (cache lines of the arrays)", "--size and --l1-line");
    };
    if (gpu) {  // the GPU model keeps no analysis or OPT tables
        count_diagram();
        // Its buffered L2 traffic: the bound where it fits, else what the limit leaves, to which
        // the run is then held.
        const std::uint64_t left = max_memory - e.total();
        e.gpu_traffic = std::min(footprint.l2_traffic, left);
        e.gpu_traffic_is_share = footprint.l2_traffic > left;
        return e;
    }
    e.opt_lookup_limit = h.opt_max_lookups;
    const int opt_levels = (h.l1.enabled() && h.l1.policy == PolicyKind::opt) + (h.l2.enabled() && h.l2.policy == PolicyKind::opt);
    if (opt_levels) {
        if (sim.workload) {
            // Every access is one element: its lookups are bounded by the sectors it spans.
            e.opt_lookup_limit = saturating_mul(sim.workload->total_accesses(),
                                                lookups_per_access(h, sim.workload->elem_bytes));
        } else {
            // A trace's accesses may be of any size, so its lookups are not known up front: OPT
            // gets half of what is left, and the run stops (exit 2) when its lookups outgrow it.
            const std::uint64_t left = max_memory > e.total() ? max_memory - e.total() : 0;
            e.opt_lookup_limit = std::max<std::uint64_t>(left / 2 / (kOptBytesPerLookup * opt_levels), 1);
            e.opt_is_share = true;
        }
        e.opt = saturating_mul(e.opt_lookup_limit, kOptBytesPerLookup * opt_levels);
    }
    if (e.total() > max_memory) refuse("OPT keeps " + human_bytes(kOptBytesPerLookup) + " per lookup", "--l1-policy/--l2-policy opt");
    count_diagram();
    if (!h.analysis) return e;
    const std::uint64_t left = max_memory - e.total();
    if (sim.workload) {
        for (const CacheConfig* c : {&h.l1, &h.l2}) {
            if (!c->enabled()) continue;
            std::uint64_t sectors = 0;
            for (const ArrayInfo& a : arrays) sectors = saturating_add(sectors, a.bytes() / sector_bytes(*c) + 2);
            e.analysis = saturating_add(e.analysis, tracker_bytes(sectors, arrays.size()));
        }
        if (e.analysis > left)
            refuse("the analysis tracks every distinct line of the workload's arrays", "--size; --no-analysis turns it off");
    } else if (h.l1.enabled() || h.l2.enabled()) {
        e.analysis = left;
        e.analysis_is_share = true;
    }
    return e;
}

}  // namespace cachesim::cli
