#pragma once
// A workload with its sizes and schedule, as the user describes it; parsing of the textual forms.
#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "traces/access_source.hpp"
#include "traces/schedule.hpp"
#include "traces/workload.hpp"

namespace cachesim {

struct WorkloadSpec {
    WorkloadKind kind = WorkloadKind::stencil;
    std::uint32_t width = 16, height = 16;   // I_w x I_h work items
    std::uint32_t stencil_w = 7, stencil_h = 7;
    std::uint32_t depth = 16;                // matmul D
    std::uint32_t elem_bytes = 4;
    Schedule schedule{};

    StencilWorkload stencil() const { return {width, height, stencil_w, stencil_h, elem_bytes}; }
    MatmulWorkload matmul() const { return {width, height, depth, elem_bytes}; }
    std::uint64_t items() const { return static_cast<std::uint64_t>(width) * height; }
    std::uint32_t accesses_per_item() const;
    std::uint64_t total_accesses() const { return items() * accesses_per_item(); }
    std::vector<ArrayInfo> arrays() const;
    std::string describe() const;  // e.g. "stencil 16x16, 7x7 box, linear"
};

// Checks sizes against each other and against overflow; throws InputError.
void validate(const WorkloadSpec& spec);

// The workload a launch runs: the built-in one given, else the one its recorded trace was written
// from, else none (a trace that names no workload). "auto" values and known-miss regions follow it.
inline const WorkloadSpec* launch_workload(const WorkloadSpec* given, const std::optional<WorkloadSpec>& recorded) {
    return given ? given : recorded ? &*recorded : nullptr;
}

Schedule parse_schedule(std::string_view text);  // linear, column:W, zigzag:W, tiled:WxH, morton
std::string schedule_name(const Schedule& s);
WorkloadKind parse_workload_kind(std::string_view text);
std::string_view workload_name(WorkloadKind kind);
// "WxH" with positive whole numbers; `what` names the option in messages.
void parse_dimensions(std::string_view text, std::string_view what, std::uint32_t& w,
                      std::uint32_t& h);
// Positive whole number with optional K/M/G suffix (binary): "32K" -> 32768.
std::uint64_t parse_size(std::string_view text, std::string_view what);

}  // namespace cachesim
