#include "traces/workload_spec.hpp"

#include <charconv>
#include <limits>

#include "traces/choice_hint.hpp"
#include "traces/input_error.hpp"

namespace cachesim {

namespace {

std::uint64_t parse_whole(std::string_view text, std::string_view what) {
    std::uint64_t value = 0;
    const char* end = text.data() + text.size();
    auto [ptr, ec] = std::from_chars(text.data(), end, value);
    if (text.empty() || ec == std::errc::result_out_of_range)
        throw InputError(std::string(what) + ": '" + std::string(text) +
                         "' is not a whole number in range");
    if (ec != std::errc() || ptr != end)
        throw InputError(std::string(what) + ": '" + std::string(text) + "' is not a whole number");
    return value;
}

std::uint32_t parse_positive32(std::string_view text, std::string_view what) {
    const std::uint64_t v = parse_whole(text, what);
    if (v == 0) throw InputError(std::string(what) + " must be positive, not 0");
    if (v > std::numeric_limits<std::uint32_t>::max())
        throw InputError(std::string(what) + ": " + std::string(text) + " is too large");
    return static_cast<std::uint32_t>(v);
}

}  // namespace

std::uint32_t WorkloadSpec::accesses_per_item() const {
    return kind == WorkloadKind::stencil ? stencil().accesses_per_item()
                                         : matmul().accesses_per_item();
}

std::vector<ArrayInfo> WorkloadSpec::arrays() const {
    if (kind == WorkloadKind::stencil) {
        const StencilWorkload s = stencil();
        return {{"in", s.in_base(), elem_bytes, width, height},
                {"out", s.out_base(), elem_bytes, width, height}};
    }
    const MatmulWorkload m = matmul();
    return {{"A", m.a_base(), elem_bytes, depth, height},
            {"B", m.b_base(), elem_bytes, width, depth},
            {"C", m.c_base(), elem_bytes, width, height}};
}

std::string WorkloadSpec::describe() const {
    std::string text = std::string(workload_name(kind)) + " " + std::to_string(width) + "x" +
                       std::to_string(height);
    if (kind == WorkloadKind::stencil)
        text += ", " + std::to_string(stencil_w) + "x" + std::to_string(stencil_h) + " box";
    else
        text += ", depth " + std::to_string(depth);
    return text + ", " + schedule_name(schedule);
}

void validate(const WorkloadSpec& spec) {
    if (spec.width == 0 || spec.height == 0) throw InputError("--size must be positive in both dimensions");
    if (spec.elem_bytes == 0 || spec.elem_bytes > 4096)
        throw InputError("--elem-bytes must be between 1 and 4096");
    if (spec.kind == WorkloadKind::stencil && (spec.stencil_w == 0 || spec.stencil_h == 0))
        throw InputError("--stencil must be positive in both dimensions");
    if (spec.kind == WorkloadKind::matmul && spec.depth == 0) throw InputError("--depth must be positive");
    // Addresses must fit comfortably in 64 bits and launch indices in 63.
    const unsigned __int128 items = static_cast<unsigned __int128>(spec.width) * spec.height;
    unsigned __int128 footprint = items * spec.elem_bytes * 3;
    if (spec.kind == WorkloadKind::matmul)
        footprint += static_cast<unsigned __int128>(spec.depth) * (spec.width + spec.height) * spec.elem_bytes;
    if (footprint >> 56)
        throw InputError("the arrays of a " + spec.describe() + " workload overflow the address space");
    if (spec.kind == WorkloadKind::stencil &&
        static_cast<std::uint64_t>(spec.stencil_w) * spec.stencil_h >= (1ull << 31))
        throw InputError("--stencil is too large");
    if (spec.kind == WorkloadKind::matmul && spec.depth >= (1u << 30)) throw InputError("--depth is too large");
    const Schedule& s = spec.schedule;
    if ((s.kind == ScheduleKind::column || s.kind == ScheduleKind::zigzag || s.kind == ScheduleKind::tiled) &&
        s.width == 0)
        throw InputError("schedule " + schedule_name(s) + ": width must be positive");
    if (s.kind == ScheduleKind::tiled && s.tile_height == 0)
        throw InputError("schedule " + schedule_name(s) + ": tile height must be positive");
}

Schedule parse_schedule(std::string_view text) {
    Schedule s;
    const auto colon = text.find(':');
    const std::string_view name = text.substr(0, colon);
    const std::string_view arg = colon == std::string_view::npos ? std::string_view{} : text.substr(colon + 1);
    auto need_arg = [&](std::string_view form) {
        if (colon == std::string_view::npos || arg.empty())
            throw InputError("schedule '" + std::string(text) + "' needs a width: " + std::string(form));
    };
    if (name == "linear" || name == "morton") {
        if (colon != std::string_view::npos)
            throw InputError("schedule '" + std::string(name) + "' takes no argument");
        s.kind = name == "linear" ? ScheduleKind::linear : ScheduleKind::morton;
    } else if (name == "column" || name == "zigzag") {
        need_arg(std::string(name) + ":W, e.g. " + std::string(name) + ":32");
        s.kind = name == "column" ? ScheduleKind::column : ScheduleKind::zigzag;
        s.width = parse_positive32(arg, "schedule " + std::string(name) + " width");
    } else if (name == "tiled") {
        need_arg("tiled:TWxTH, e.g. tiled:32x8");
        s.kind = ScheduleKind::tiled;
        parse_dimensions(arg, "schedule tiled tile size", s.width, s.tile_height);
    } else {
        throw InputError("unknown schedule '" + std::string(text) +
                         "' (expected linear, column:W, zigzag:W, tiled:TWxTH or morton)" +
                         case_hint(text, [](std::string_view lower) { return parses(parse_schedule, lower); }));
    }
    return s;
}

std::string schedule_name(const Schedule& s) {
    switch (s.kind) {
        case ScheduleKind::column: return "column:" + std::to_string(s.width);
        case ScheduleKind::zigzag: return "zigzag:" + std::to_string(s.width);
        case ScheduleKind::tiled:
            return "tiled:" + std::to_string(s.width) + "x" + std::to_string(s.tile_height);
        case ScheduleKind::morton: return "morton";
        case ScheduleKind::linear:
        default: return "linear";
    }
}

WorkloadKind parse_workload_kind(std::string_view text) {
    if (text == "stencil") return WorkloadKind::stencil;
    if (text == "matmul") return WorkloadKind::matmul;
    throw InputError("unknown workload '" + std::string(text) + "' (expected stencil or matmul)" +
                     case_hint(text, {"stencil", "matmul"}));
}

std::string_view workload_name(WorkloadKind kind) {
    return kind == WorkloadKind::stencil ? "stencil" : "matmul";
}

void parse_dimensions(std::string_view text, std::string_view what, std::uint32_t& w,
                      std::uint32_t& h) {
    const auto x = text.find('x');
    if (x == std::string_view::npos || text.find('x', x + 1) != std::string_view::npos)
        throw InputError(std::string(what) + ": '" + std::string(text) + "' is not of the form WxH");
    w = parse_positive32(text.substr(0, x), what);
    h = parse_positive32(text.substr(x + 1), what);
}

std::uint64_t parse_size(std::string_view text, std::string_view what) {
    if (text.empty()) throw InputError(std::string(what) + ": empty size");
    std::uint64_t multiplier = 1;
    char last = text.back();
    if (last == 'K' || last == 'k') multiplier = 1ull << 10;
    else if (last == 'M' || last == 'm') multiplier = 1ull << 20;
    else if (last == 'G' || last == 'g') multiplier = 1ull << 30;
    const std::string_view whole = text;
    if (multiplier != 1) text.remove_suffix(1);
    // Name the whole value, not what is left once its suffix is gone ("1K,2K", not "1K,2").
    if (text.empty() || text.find_first_not_of("0123456789") != std::string_view::npos)
        throw InputError(std::string(what) + ": '" + std::string(whole) +
                         "' is not a size (a whole number with an optional K, M or G suffix" +
                         (whole.find_first_of(",.") != std::string_view::npos
                              ? "; lists and ranges are for cachesim sweep)"
                              : ")"));
    const std::uint64_t value = parse_whole(text, what);
    if (value > std::numeric_limits<std::uint64_t>::max() / multiplier)
        throw InputError(std::string(what) + ": size overflows");
    return value * multiplier;
}

}  // namespace cachesim
