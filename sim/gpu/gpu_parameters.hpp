#pragma once
// Every parameter of the GPU model in one table: its option name, type, valid values, help, the
// GpuConfig field it binds and, for every preset, where that preset's value comes from. The
// command line (options, --help, --explain, compare's --gpu overrides), the JSON report's
// "parameters" and cacheviz's controls are all derived from it, so a new knob is one row here
// (plus its use in the model).
#include <cstdint>
#include <string>
#include <string_view>
#include <vector>

#include "sim/enum_choices.hpp"
#include "sim/gpu/gpu_config.hpp"
#include "traces/workload_spec.hpp"

namespace cachesim {

enum class Provenance : std::uint8_t {
    measured,    // on the chip, with the data file
    documented,  // a vendor document or a paper says so
    fitted,      // chosen to match measurements (which ones: the detail)
    assumed,     // neither measured nor documented; the detail says why it is reasonable
    user,        // given on the command line (or in GUI controls), not by the preset
};

inline constexpr EnumChoice<Provenance> kProvenanceChoices[] = {
    {Provenance::measured, "measured", "on the chip"},
    {Provenance::documented, "documented", "in a vendor document or a paper"},
    {Provenance::fitted, "fitted", "chosen to match measurements"},
    {Provenance::assumed, "assumed", "neither measured nor documented"},
    {Provenance::user, "set by the user", "not the preset's value"},
};
std::string_view provenance_name(Provenance provenance);

struct ParameterSource {
    Provenance kind = Provenance::assumed;
    std::string_view detail;  // data file, document, what it was fitted on, or why it is assumed
};

// Where one preset's value comes from. Preset "" stands for every preset without its own entry.
struct PresetSource {
    std::string_view preset;
    ParameterSource source;
};

enum class ParameterType : std::uint8_t {
    count,   // a whole number
    bytes,   // a whole number of bytes, K/M/G suffixes allowed
    real,    // a decimal number
    choice,  // one of `choices`
    text,    // anything else ("auto" or a count, a list): the help says what
};

struct GpuParameter {
    std::string_view option = {};      // command-line option without "--"; compare's --gpu KEY
    std::string_view report_key = {};  // key in the JSON report's "parameters"; empty: reported elsewhere
    std::string_view field = {};       // the GpuConfig member it binds (dotted for the caches' fields)
    std::string_view group = {};       // heading for --explain and the GUI
    ParameterType type = ParameterType::count;
    std::string_view range = {};       // the valid values, in words
    double min = 0, max = 0;      // numeric bounds for sliders (count, bytes, real)
    std::vector<ChoiceText> choices = {};  // type choice
    std::string_view help = {};
    // The value as the option spells it (what --explain prints and --KEY=VALUE reads back).
    std::string (*get)(const GpuConfig&) = nullptr;
    // Reads the option's text into the configuration; throws InputError naming --option.
    void (*set)(GpuConfig&, std::string_view text, std::string_view option) = nullptr;
    // The value as the model applies it to `workload` (e.g. 0 where the scheduler ignores it);
    // nullptr: get().
    std::string (*applied)(const GpuConfig&, const WorkloadSpec*) = nullptr;  // null: a recorded kernel
    std::vector<PresetSource> sources = {};
    // Also an option of the thread model (the caches' --l1-*, --l2-*): declared with the cache
    // options, whose defaults are the thread model's.
    bool cache_option = false;
    // Read only where the model makes its own issue order (the rounds or cycle timing: block
    // placement, warp scheduling, loop costs, latencies); a measured order (--warp-times,
    // GpuConfig::timeline) replaces all of it, so there it does not apply.
    bool scheduler_only = false;
    // Decides how many bytes the L1 holds (its size, the unified array, the carve-outs): what
    // compare names when a row's L1 is smaller than the one the rates were fitted at.
    bool sizes_l1 = false;

    std::string help_text() const;  // help, then the choices or the valid range
};

const std::vector<GpuParameter>& gpu_parameters();
const GpuParameter* find_gpu_parameter(std::string_view option);
// Where `preset`'s value of `parameter` comes from (kind assumed, empty detail if nowhere).
ParameterSource parameter_source(const GpuParameter& parameter, std::string_view preset);
// The value as the model applies it (GpuParameter::applied, else get).
std::string applied_value(const GpuParameter& parameter, const GpuConfig& config, const WorkloadSpec* workload);

}  // namespace cachesim
