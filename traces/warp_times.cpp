#include "traces/warp_times.hpp"

#include <zlib.h>

#include <algorithm>
#include <charconv>
#include <cstdio>
#include <map>
#include <memory>
#include <set>

#include "traces/csv_table.hpp"
#include "traces/input_error.hpp"
#include "traces/text_bom.hpp"

namespace cachesim {

namespace {

constexpr const char* kColumns[] = {"kernel", "width",  "height", "stencil_w", "stencil_h", "depth", "schedule",
                                    "block_size", "launch", "block", "warp", "sm", "start_ns", "end_ns"};
enum Column { kKernel, kWidth, kHeight, kStencilW, kStencilH, kDepth, kSchedule, kBlockSize, kLaunch, kBlock,
              kWarp, kSm, kStart, kEnd, kColumnCount };

std::uint64_t whole(const std::string& text, const std::string& where) {
    std::uint64_t v = 0;
    const auto [end, ec] = std::from_chars(text.data(), text.data() + text.size(), v);
    if (text.empty() || ec != std::errc() || end != text.data() + text.size())
        throw InputError(where + ": '" + text + "' is not a whole number");
    return v;
}

bool same_schedule(const Schedule& a, const Schedule& b) {
    return a.kind == b.kind && a.width == b.width && a.tile_height == b.tile_height;
}

// A timeline being read: room for every warp that `block`-thread blocks of the workload run
// (gpubench's warps), and which of them the file has given so far.
struct TimelineFill {
    WarpTimeline t;
    std::uint64_t blocks = 0, expected = 0, found = 0;
    std::vector<bool> seen;

    TimelineFill(const std::string& source, const WorkloadSpec& workload, std::uint32_t block) {
        if (block == 0) throw InputError(source + ": block size 0");
        t.source = source;
        t.block = block;
        t.warps_per_block = (block + 31) / 32;
        blocks = (workload.items() + block - 1) / block;
        expected = warps_in_range(workload.items(), block, 32);
        if (expected > (1ull << 32)) throw InputError(source + ": launch too large for a warp timeline");
        t.warps.assign(expected, WarpInterval{});
        seen.assign(expected, false);
    }
    // Throws unless every warp of `launch` was given.
    void require_every_warp(const std::string& source, std::uint32_t launch) const {
        if (found == expected) return;
        std::uint64_t first = 0;
        while (seen[first]) ++first;
        throw InputError(source + ": launch " + std::to_string(launch) + " has " + std::to_string(found) + " of the " +
                         std::to_string(expected) + " warps; the first missing is block " +
                         std::to_string(first / t.warps_per_block) + " warp " +
                         std::to_string(first % t.warps_per_block));
    }
};

// Calls record(where, fields) for every line of the CSV text that is not blank (a trailing '\r'
// dropped), `where` naming the file and the line.
template <class Record>
void for_each_record(std::string_view text, const std::string& source, Record&& record) {
    std::size_t line_no = 0, pos = 0;
    while (pos < text.size()) {
        std::size_t eol = text.find('\n', pos);
        if (eol == std::string_view::npos) eol = text.size();
        std::string_view line = text.substr(pos, eol - pos);
        pos = eol + 1;
        ++line_no;
        if (!line.empty() && line.back() == '\r') line.remove_suffix(1);
        if (line.find_first_not_of(" \t") == std::string_view::npos) continue;
        const std::string where = source + ":" + std::to_string(line_no);
        record(where, split_csv_record(line, where));
    }
}

}  // namespace

std::uint64_t warps_in_range(std::uint64_t items, std::uint32_t block, std::uint32_t warp_size) {
    const std::uint64_t full_blocks = items / block;
    const std::uint64_t rest = items - full_blocks * block;
    return full_blocks * ((block + warp_size - 1) / warp_size) + (rest + warp_size - 1) / warp_size;
}

WarpTimeline parse_warp_times(std::string_view text, const std::string& source, const WorkloadSpec& workload,
                              std::uint32_t block, std::optional<std::uint32_t> launch) {
    TimelineFill fill(source, workload, block);
    WarpTimeline& t = fill.t;
    const std::uint64_t blocks = fill.blocks, expected = fill.expected;
    std::vector<bool>& seen = fill.seen;
    std::uint64_t& found = fill.found;

    std::vector<int> col(kColumnCount, -1);
    bool have_header = false;
    std::set<std::string> other_configs;
    std::map<std::string, Schedule> schedules;  // parsed once per distinct text
    for_each_record(text, source, [&](const std::string& where, const std::vector<std::string>& f) {
        if (!have_header) {
            for (int c = 0; c < kColumnCount; ++c)
                for (std::size_t i = 0; i < f.size(); ++i)
                    if (f[i] == kColumns[c]) col[c] = static_cast<int>(i);
            for (int c = 0; c < kColumnCount; ++c)
                if (col[c] < 0)
                    throw InputError(where + ": no column '" + kColumns[c] +
                                     "' (expected gpubench --warp-times output)");
            have_header = true;
            return;
        }
        auto field = [&](Column c) -> const std::string& {
            const std::size_t i = static_cast<std::size_t>(col[c]);
            if (i >= f.size()) throw InputError(where + ": " + std::to_string(f.size()) + " fields, no " + kColumns[c]);
            return f[i];
        };
        auto number = [&](Column c) { return whole(field(c), where + " (" + kColumns[c] + ")"); };
        // Does the row belong to the simulated configuration?
        auto it = schedules.find(field(kSchedule));
        if (it == schedules.end()) {
            Schedule s;
            try {
                s = parse_schedule(field(kSchedule));
            } catch (const InputError& e) {
                throw InputError(where + " (schedule): " + e.what());
            }
            it = schedules.emplace(field(kSchedule), s).first;
        }
        const bool is_stencil = field(kKernel) == "stencil";
        if (!is_stencil && field(kKernel) != "matmul")
            throw InputError(where + " (kernel): '" + field(kKernel) + "' is neither stencil nor matmul");
        const bool match =
            is_stencil == (workload.kind == WorkloadKind::stencil) && number(kWidth) == workload.width &&
            number(kHeight) == workload.height &&
            (is_stencil ? number(kStencilW) == workload.stencil_w && number(kStencilH) == workload.stencil_h
                        : number(kDepth) == workload.depth) &&
            same_schedule(it->second, workload.schedule) && number(kBlockSize) == block;
        const std::uint64_t row_launch = number(kLaunch);
        if (!match || (launch && row_launch != *launch)) {
            if (other_configs.size() < 20)
                other_configs.insert(field(kKernel) + " " + field(kWidth) + "x" + field(kHeight) + " " +
                                     field(kSchedule) + " block " + field(kBlockSize) + " launch " + field(kLaunch));
            return;
        }
        if (!launch) launch = static_cast<std::uint32_t>(row_launch);
        const std::uint64_t b = number(kBlock), w = number(kWarp);
        if (w >= t.warps_per_block || b >= blocks)
            throw InputError(where + ": block " + std::to_string(b) + " warp " + std::to_string(w) +
                             " is outside the launch (" + std::to_string(blocks) + " blocks of " +
                             std::to_string(t.warps_per_block) + " warps)");
        const std::uint64_t index = b * t.warps_per_block + w;
        if (index >= expected)
            throw InputError(where + ": block " + std::to_string(b) + " warp " + std::to_string(w) +
                             " has no thread in range");
        if (seen[index])
            throw InputError(where + ": block " + std::to_string(b) + " warp " + std::to_string(w) + " of launch " +
                             std::to_string(*launch) + " is given twice");
        WarpInterval& iv = t.warps[index];
        const std::uint64_t sm = number(kSm);
        if (sm > 0xffffffffull) throw InputError(where + ": SM " + std::to_string(sm) + " is out of range");
        iv.sm = static_cast<std::uint32_t>(sm);
        iv.start_ns = number(kStart);
        iv.end_ns = number(kEnd);
        if (iv.end_ns < iv.start_ns)
            throw InputError(where + ": the warp ends (" + std::to_string(iv.end_ns) + " ns) before it starts (" +
                             std::to_string(iv.start_ns) + " ns)");
        seen[index] = true;
        ++found;
    });
    if (!have_header) throw InputError(source + ": empty (expected gpubench --warp-times output)");
    if (found == 0) {
        std::string have;
        for (const std::string& c : other_configs) have += "\n  " + c;
        throw InputError(source + ": no warps of " + workload.describe() + ", block " + std::to_string(block) +
                         (launch ? ", launch " + std::to_string(*launch) : std::string()) +
                         (have.empty() ? std::string(" (no rows)") : "; it has:" + have));
    }
    fill.require_every_warp(source, *launch);
    t.launch = *launch;
    return t;
}

WarpTimeline parse_warp_progress(std::string_view text, const std::string& source, const WorkloadSpec& workload,
                                 std::uint32_t block, std::optional<std::uint32_t> launch) {
    TimelineFill fill(source, workload, block);
    if (workload.kind != WorkloadKind::matmul)
        throw InputError(source + ": progress samples (progressprobe) describe the matmul, not " + workload.describe());
    WarpTimeline& t = fill.t;
    enum { kL, kB, kW, kS, kNamed };
    const char* const names[kNamed] = {"launch", "block", "warp", "sm"};
    int col[kNamed] = {-1, -1, -1, -1};
    std::vector<std::size_t> sample_cols;    // the t<step> columns, in the file's order
    std::vector<std::string> sample_names;  // and their names, for messages
    bool have_header = false;
    for_each_record(text, source, [&](const std::string& where, const std::vector<std::string>& f) {
        if (!have_header) {
            for (std::size_t i = 0; i < f.size(); ++i) {
                for (int c = 0; c < kNamed; ++c)
                    if (f[i] == names[c]) col[c] = static_cast<int>(i);
                if (f[i].size() > 1 && f[i][0] == 't' && f[i].find_first_not_of("0123456789", 1) == std::string::npos) {
                    const std::uint64_t step = whole(f[i].substr(1), where + " (column " + f[i] + ")");
                    if (!t.sample_steps.empty() ? step <= t.sample_steps.back() : step != 0)
                        throw InputError(where + ": sample columns must rise from t0 (" + f[i] + ")");
                    if (step > 0xffffffffull) throw InputError(where + ": sample step " + f[i] + " is out of range");
                    t.sample_steps.push_back(static_cast<std::uint32_t>(step));
                    sample_cols.push_back(i);
                    sample_names.push_back(f[i]);
                }
            }
            for (int c = 0; c < kNamed; ++c)
                if (col[c] < 0) throw InputError(where + ": no column '" + names[c] + "' (expected progressprobe output)");
            if (t.sample_steps.size() < 2)
                throw InputError(where + ": fewer than two sample columns (t0, t32, ...; expected progressprobe output)");
            if (t.sample_steps.back() != workload.depth)
                throw InputError(where + ": the samples end at step " + std::to_string(t.sample_steps.back()) +
                                 ", the simulated matmul's loop at its depth " + std::to_string(workload.depth) +
                                 " (a file of another configuration?)");
            t.samples.assign(fill.expected * t.sample_steps.size(), 0);
            have_header = true;
            return;
        }
        auto field = [&](std::size_t i, const std::string& name) -> std::uint64_t {
            if (i >= f.size()) throw InputError(where + ": " + std::to_string(f.size()) + " fields, no " + name);
            return whole(f[i], where + " (" + name + ")");
        };
        const std::uint64_t row_launch = field(static_cast<std::size_t>(col[kL]), "launch");
        if (!launch) launch = static_cast<std::uint32_t>(row_launch);
        if (row_launch != *launch) return;
        const std::uint64_t b = field(static_cast<std::size_t>(col[kB]), "block");
        const std::uint64_t w = field(static_cast<std::size_t>(col[kW]), "warp");
        const std::uint64_t index = b * t.warps_per_block + w;
        if (w >= t.warps_per_block || b >= fill.blocks || index >= fill.expected)
            throw InputError(where + ": block " + std::to_string(b) + " warp " + std::to_string(w) +
                             " is outside the simulated launch (" + workload.describe() + ", block " +
                             std::to_string(block) + ": a file of another configuration?)");
        if (fill.seen[index])
            throw InputError(where + ": block " + std::to_string(b) + " warp " + std::to_string(w) + " of launch " +
                             std::to_string(*launch) + " is given twice");
        const std::uint64_t sm = field(static_cast<std::size_t>(col[kS]), "sm");
        if (sm > 0xffffffffull) throw InputError(where + ": SM " + std::to_string(sm) + " is out of range");
        std::uint64_t* const mine = t.samples.data() + index * t.sample_steps.size();
        for (std::size_t j = 0; j < sample_cols.size(); ++j) {
            mine[j] = field(sample_cols[j], sample_names[j]);
            if (j > 0 && mine[j] < mine[j - 1])
                throw InputError(where + ": the warp's time goes back at step " + std::to_string(t.sample_steps[j]));
        }
        WarpInterval& iv = t.warps[index];
        iv.sm = static_cast<std::uint32_t>(sm);
        iv.start_ns = mine[0];
        iv.end_ns = mine[sample_cols.size() - 1];
        fill.seen[index] = true;
        ++fill.found;
    });
    if (!have_header) throw InputError(source + ": empty (expected progressprobe output)");
    fill.require_every_warp(source, launch.value_or(0));
    t.launch = *launch;
    return t;
}

namespace {

// The file's text; gzip files (gpubench's output compressed, as in tests/data/h200) are inflated.
std::string read_maybe_gzip(const std::string& path) {
    std::string text = read_text_file(path);
    if (text.size() < 2 || static_cast<unsigned char>(text[0]) != 0x1f || static_cast<unsigned char>(text[1]) != 0x8b)
        return text;
    const std::unique_ptr<gzFile_s, int (*)(gzFile)> in(gzopen(path.c_str(), "rb"), gzclose);
    if (!in) throw InputError("cannot open '" + path + "'");
    std::string out;
    char buffer[1 << 16];
    for (;;) {
        const int n = gzread(in.get(), buffer, sizeof buffer);
        if (n < 0) {
            int code = 0;
            const char* message = gzerror(in.get(), &code);
            throw InputError(path + ": not a readable gzip file (" + (message ? message : "zlib error") + ")");
        }
        if (n == 0) break;
        out.append(buffer, static_cast<std::size_t>(n));
    }
    int code = Z_OK;
    gzerror(in.get(), &code);
    if (code != Z_OK || !gzeof(in.get())) throw InputError(path + ": gzip data ends early (a cut file?)");
    return out;
}

}  // namespace

WarpTimeline read_warp_times(const std::string& path, const WorkloadSpec& workload, std::uint32_t block,
                             std::optional<std::uint32_t> launch) {
    const std::string raw = read_maybe_gzip(path);
    const std::string_view text = without_byte_order_mark(raw);
    const std::string_view header = text.substr(0, text.find('\n'));
    const bool progress = header.find("start_ns") == std::string_view::npos &&
                          (header.find(",t0,") != std::string_view::npos || header.ends_with(",t0"));
    return progress ? parse_warp_progress(text, path, workload, block, launch)
                    : parse_warp_times(text, path, workload, block, launch);
}

double WarpTimeline::request_time(std::uint64_t warp, std::uint32_t k, std::uint32_t per_warp) const {
    const double at = (k + 0.5) / static_cast<double>(per_warp);  // of the warp's loop
    if (sample_steps.empty()) {
        const WarpInterval& iv = warps[warp];
        return static_cast<double>(iv.start_ns) + static_cast<double>(iv.end_ns - iv.start_ns) * at;
    }
    const double step = at * sample_steps.back();
    // the last sample at or before the step (steps ascend from 0)
    const auto after = std::upper_bound(sample_steps.begin(), sample_steps.end(), step);
    const std::size_t i = static_cast<std::size_t>(after - sample_steps.begin()) - 1;
    const std::uint64_t* const t = samples.data() + warp * sample_steps.size();
    if (i + 1 >= sample_steps.size()) return static_cast<double>(t[i]);
    const double within = (step - sample_steps[i]) / (sample_steps[i + 1] - sample_steps[i]);
    return static_cast<double>(t[i]) + static_cast<double>(t[i + 1] - t[i]) * within;
}

}  // namespace cachesim
