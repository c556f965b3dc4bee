#include "apps/cachesim/gpu_description.hpp"

#include <algorithm>
#include <filesystem>
#include <map>
#include <sstream>
#include <string_view>

#include "sim/gpu/gpu_parameters.hpp"
#include "sim/gpu/gpu_presets.hpp"
#include "sim/text.hpp"
#include "traces/csv_table.hpp"
#include "traces/choice_hint.hpp"
#include "traces/input_error.hpp"
#include "traces/text_bom.hpp"

namespace cachesim::cli {

std::string gpu_preset_names() {
    std::string names;
    for (const GpuPreset& p : gpu_presets()) names += (names.empty() ? "" : ", ") + p.name;
    return names;
}

namespace {

// What a measured row gives itself rather than the description: the launch's block size and where
// its L2 started (gpubench's block and l2_start columns); empty for the GPU's own parameters.
std::string_view given_by_each_row(std::string_view option) {
    if (option == "block") return "each measured row gives its block size";
    if (option == "l2-start") return "each measured row gives where its L2 started (gpubench's l2_start column)";
    return {};
}

}  // namespace

std::string gpu_parameter_keys() {
    std::string keys;
    for (const GpuParameter& p : gpu_parameters())
        if (given_by_each_row(p.option).empty()) keys += (keys.empty() ? "" : ", ") + std::string(p.option);
    return keys;
}

GpuDescription read_gpu_description(const std::string& path) {
    std::error_code ec;
    if (std::filesystem::is_directory(path, ec))
        throw InputError("--config " + path + ": a directory, not a description file (gpubench --describe FILE writes one)");
    std::string text;
    try {
        text = read_text_file(path);
    } catch (const InputError& e) {
        throw InputError(std::string("--config: ") + e.what());
    }
    GpuDescription d;
    // A name given twice would leave the value simulated to the order of the lines: refused.
    std::map<std::string, std::size_t> line_of_name;
    std::istringstream lines{std::string(without_byte_order_mark(text))};
    std::size_t number = 0;
    for (std::string line; std::getline(lines, line);) {
        ++number;
        const std::string where = "--config " + path + ":" + std::to_string(number) + ": ";
        if (const std::string_view device = "# device:"; line.rfind(device, 0) == 0)
            d.device = std::string(trim_blanks(std::string_view(line).substr(device.size())));
        const std::string_view content = trim_blanks(std::string_view(line).substr(0, line.find('#')));
        if (content.empty()) continue;
        const std::size_t eq = content.find('=');
        if (eq == std::string_view::npos)
            throw InputError(where + "expected 'name = value', not '" + std::string(content) + "'");
        const std::string key(trim_blanks(content.substr(0, eq)));
        const std::string value(trim_blanks(content.substr(eq + 1)));
        if (key.empty() || value.empty()) throw InputError(where + "expected 'name = value', not '" + std::string(content) + "'");
        if (const auto [first, added] = line_of_name.emplace(key, number); !added)
            throw InputError(where + "'" + key + "' is given twice, on line " + std::to_string(first->second) +
                             " and here: keep one");
        if (key == "preset") {
            if (!find_gpu_preset(value))
                throw InputError(where + "unknown GPU preset '" + value + "' (" + gpu_preset_names() + ")" +
                                 case_hint(value, [](std::string_view n) { return find_gpu_preset(n) != nullptr; }));
            d.preset = value;
            continue;
        }
        const bool parameter = std::any_of(gpu_parameters().begin(), gpu_parameters().end(),
                                           [&](const GpuParameter& p) { return p.option == key; });
        const std::string_view row_given = given_by_each_row(key);
        if (!parameter || !row_given.empty())
            throw InputError(where + "'" + key + "' is not a GPU model parameter compare takes (" +
                             (!row_given.empty() ? std::string(row_given)
                                                 : "a config for compare describes the GPU: preset and " + gpu_parameter_keys()) +
                             ")");
        d.overrides.push_back(key + "=" + value);
        d.lines.push_back(number);
    }
    if (d.preset.empty()) throw InputError("--config " + path + ": no 'preset = NAME' line (the model the description starts from)");
    return d;
}

}  // namespace cachesim::cli
