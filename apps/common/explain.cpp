#include "apps/common/explain.hpp"

#include <algorithm>
#include <iomanip>

#include "apps/common/config_origins.hpp"
#include "sim/gpu/gpu_parameters.hpp"
#include "sim/gpu/gpu_presets.hpp"

namespace cachesim::cli {

namespace {

bool listed(const std::vector<std::string>& options, std::string_view option) {
    return std::find(options.begin(), options.end(), option) != options.end();
}

}  // namespace

void print_explanation(std::ostream& out, const SimulationOptions& sim) {
    const GpuConfig& preset = find_gpu_preset(sim.gpu_base)->config;
    out << "GPU model parameters: preset " << sim.gpu_base
        << (sim.gpu_given.empty() ? "" : ", with the values given as options") << "\n";
    // The value column holds the names of choices whole (a list of numbers may run past it).
    std::size_t width = 0, value_width = 12;
    for (const GpuParameter& p : gpu_parameters()) {
        width = std::max(width, p.option.size() + 2);
        for (const ChoiceText& choice : p.choices) value_width = std::max(value_width, choice.name.size());
    }
    std::string_view group;
    for (const GpuParameter& p : gpu_parameters()) {
        if (p.group != group) {
            group = p.group;
            out << "\n" << group << "\n";
        }
        const std::string value = p.get(sim.gpu), preset_value = p.get(preset);
        out << "  " << std::left << std::setw(static_cast<int>(width)) << "--" + std::string(p.option) << " "
            << std::setw(static_cast<int>(value_width)) << value << " ";
        const ParameterSource source = parameter_source(p, sim.gpu_base);
        const std::string preset_note =
            " (" + sim.gpu_base + ": " + (value == preset_value ? "the same" : preset_value) + ", " +
            std::string(provenance_name(source.kind)) + ")";
        if (listed(sim.gpu_given, p.option)) {
            const std::string file = config_origin_of(p.option);
            out << provenance_name(Provenance::user) << (file.empty() ? "" : " in " + file) << preset_note << "\n";
        } else if (listed(sim.gpu_from_trace, p.option)) {
            out << "from the trace " << sim.trace_shown() << preset_note << "\n";
        } else if (value != preset_value) {
            // Changed by another option: a measured floorplan holds for its own SM count only.
            out << (listed(sim.gpu_given, "sms") ? "follows --sms" : "follows the options given") << " (" << sim.gpu_base << ": "
                << preset_value << ", " << provenance_name(source.kind) << ")\n";
        } else {
            out << provenance_name(source.kind) << ": " << source.detail << "\n";
        }
    }
}

}  // namespace cachesim::cli
