#include "apps/cachesim/sweep_expand.hpp"

#include <sys/stat.h>

#include <algorithm>
#include <charconv>
#include <cstdlib>
#include <optional>
#include <string_view>
#include <unordered_map>
#include <unordered_set>

#include "apps/common/options.hpp"
#include "sim/gpu/gpu_parameters.hpp"
#include "sim/gpu/gpu_presets.hpp"
#include "traces/input_error.hpp"
#include "traces/workload_spec.hpp"

namespace cachesim::cli {

namespace {

constexpr std::size_t kMaxRangeValues = 100'000;

// Splits at `separator`; a backslash before it keeps it literal ("0\,8" for a value that is itself a
// comma list, such as --carveouts).
std::vector<std::string> split(const std::string& text, char separator) {
    std::vector<std::string> parts(1);
    for (std::size_t i = 0; i < text.size(); ++i) {
        if (text[i] == '\\' && i + 1 < text.size() && text[i + 1] == separator) parts.back() += text[++i];
        else if (text[i] == separator) parts.emplace_back();
        else parts.back() += text[i];
    }
    return parts;
}

// "32K..256K*2" is a range; "../traces/a.cst" is not (the start must be a number).
bool is_range(const std::string& item) {
    const std::size_t dots = item.find("..");
    if (dots == std::string::npos || dots == 0) return false;
    std::size_t digits = 0;
    while (digits < dots && item[digits] >= '0' && item[digits] <= '9') ++digits;
    if (digits == 0) return false;
    return digits == dots || (digits + 1 == dots && std::string("KkMmGg").find(item[digits]) != std::string::npos);
}

void expand_range(const std::string& item, const std::string& option, std::vector<std::string>& out) {
    const std::string what = "--" + option + " range '" + item + "'";
    const std::size_t dots = item.find("..");
    const std::string low_text = item.substr(0, dots);
    std::string high_text = item.substr(dots + 2);
    char step_kind = '+';
    std::uint64_t step = 1;
    const std::size_t op = high_text.find_first_of("*+");
    if (op != std::string::npos) {
        step_kind = high_text[op];
        step = parse_size(high_text.substr(op + 1), what + " step");
        high_text.resize(op);
    }
    const std::uint64_t low = parse_size(low_text, what + " start");
    const std::uint64_t high = parse_size(high_text, what + " end");
    if (low > high) throw InputError(what + ": the start is larger than the end");
    if (step_kind == '*' && step < 2) throw InputError(what + ": a factor must be at least 2");
    if (step_kind == '*' && low == 0) throw InputError(what + ": a geometric range cannot start at 0");
    if (step == 0) throw InputError(what + ": the step must be positive");
    std::size_t count = 0;
    for (std::uint64_t v = low; v <= high;) {
        if (++count > kMaxRangeValues)
            throw InputError(what + ": more than " + std::to_string(kMaxRangeValues) +
                             " values, the most one range expands to; take a larger step or a narrower range");
        out.push_back(std::to_string(v));
        const std::uint64_t next = step_kind == '*' ? v * step : v + step;
        if ((step_kind == '*' && next / step != v) || next < v) break;  // would overflow: past the end
        v = next;
    }
}

// A number as the run reads it: a whole number with an optional K/M/G suffix exactly ("2K" and
// "2048", "016" and "16"), else a decimal number at full precision ("0.50" and ".5"); nothing for
// other text.
std::optional<std::string> number_as_read(const std::string& text) {
    try {
        if (!text.empty() && text.size() <= 20 && text.find_first_not_of("0123456789KkMmGg") == std::string::npos)
            return std::to_string(parse_size(text, "value"));
    } catch (const InputError&) {
    }
    char* end = nullptr;
    const double real = std::strtod(text.c_str(), &end);
    if (text.empty() || end != text.c_str() + text.size()) return std::nullopt;
    char shortest[32];
    const auto written = std::to_chars(shortest, shortest + sizeof shortest, real);
    return std::string(shortest, written.ptr);
}

// A GPU model parameter's value as the run reads it, or nothing where the parameter refuses it
// (its own message says why, once the configurations are read).
std::optional<std::string> gpu_parameter_as_read(const GpuParameter& parameter, const std::string& value) {
    GpuConfig config = find_gpu_preset(kDefaultGpuPreset)->config;
    try {
        parameter.set(config, value, parameter.option);
    } catch (const std::exception&) {
        return std::nullopt;
    }
    if (parameter.type == ParameterType::choice) return parameter.get(config);  // aliases: "rr" is round-robin
    // Numbers, and lists of them (--carveouts 0,8): each number as read, other words as written.
    std::string read;
    for (const std::string& part : split(value, ',')) {
        if (!read.empty()) read += ',';
        read += number_as_read(part).value_or(part);
    }
    return read;
}

// `value` of option `option` as the run reads it, so that two spellings of one value compare
// equal; text it cannot read stays as written (reading the configuration reports it).
std::string value_as_read(const std::string& option, const std::string& value,
                          const boost::program_options::option_description* described) {
    try {
        if (option == "schedule") return schedule_name(parse_schedule(value));
        if (option == "size" || option == "stencil") {
            std::uint32_t w = 0, h = 0;
            parse_dimensions(value, option, w, h);
            return std::to_string(w) + "x" + std::to_string(h);
        }
    } catch (const InputError&) {
        return value;
    }
    // A file by what it is: a.cst, ./a.cst and a link to it are one trace (a file that does not
    // exist, or standard input, as written: reading the configuration reports it).
    if (option == "trace" || option == "config" || option == "warp-times") {
        struct stat st {};
        if (value != "-" && ::stat(value.c_str(), &st) == 0)
            return "file " + std::to_string(st.st_dev) + ":" + std::to_string(st.st_ino);
        return value;
    }
    if (const GpuParameter* parameter = find_gpu_parameter(option))
        return gpu_parameter_as_read(*parameter, value).value_or(value);
    const auto* semantic = described ? described->semantic().get() : nullptr;
    const bool whole = dynamic_cast<const po::typed_value<std::uint64_t>*>(semantic) ||
                       dynamic_cast<const po::typed_value<std::uint32_t>*>(semantic) ||
                       dynamic_cast<const po::typed_value<unsigned>*>(semantic) ||
                       dynamic_cast<const po::typed_value<int>*>(semantic);
    if (whole && !value.empty() && value.size() <= 19 && value.find_first_not_of("0123456789") == std::string::npos)
        return std::to_string(std::stoull(value));
    return value;
}

}  // namespace

std::vector<std::string> expand_values(const std::string& text, const std::string& option,
                                       const boost::program_options::option_description* described) {
    std::vector<std::string> values;
    for (const std::string& item : split(text, ',')) {
        if (item.empty()) throw InputError("--" + option + ": empty value in list '" + text + "'");
        if (is_range(item)) expand_range(item, option, values);
        else values.push_back(item);
    }
    // The same configuration twice would run twice and fill two rows of the CSV, however its value
    // is spelled.
    std::unordered_map<std::string, const std::string*> seen;  // value as read -> as written
    for (const std::string& value : values) {
        const auto [earlier, first] = seen.emplace(value_as_read(option, value, described), &value);
        if (first) continue;
        if (*earlier->second == value)
            throw InputError("--" + option + ": '" + value + "' comes twice in '" + text + "'");
        throw InputError("--" + option + ": '" + *earlier->second + "' and '" + value + "' are the same value in '" +
                         text + "'");
    }
    return values;
}

std::vector<SweepAxis> parse_sweep_axes(const std::vector<std::string>& tokens,
                                        const boost::program_options::options_description& simulate_options) {
    std::vector<SweepAxis> axes;
    for (std::size_t i = 0; i < tokens.size(); ++i) {
        const std::string& token = tokens[i];
        if (token.rfind("--", 0) != 0 || token.size() == 2)
            throw InputError("unexpected argument '" + token + "' (options are written --name value)");
        const std::size_t equals = token.find('=');
        SweepAxis axis;
        axis.name = token.substr(2, equals == std::string::npos ? std::string::npos : equals - 2);
        const auto* option = simulate_options.find_nothrow(axis.name, false);
        if (!option) throw boost::program_options::unknown_option("--" + axis.name);  // worded as every command's
        for (const SweepAxis& earlier : axes)
            if (earlier.name == axis.name)
                throw InputError("--" + axis.name + " given twice; give one list instead");
        const bool takes_value = option->semantic()->max_tokens() > 0;
        if (!takes_value) {
            if (equals != std::string::npos) throw InputError("--" + axis.name + " takes no value");
        } else {
            std::string text;
            if (equals != std::string::npos) text = token.substr(equals + 1);
            else if (i + 1 < tokens.size()) text = tokens[++i];
            else throw InputError("--" + axis.name + " needs a value");
            axis.values = expand_values(text, axis.name, option);
        }
        axes.push_back(std::move(axis));
    }
    return axes;
}

std::string configuration_key(std::vector<std::string> args) {
    // Sorted, so that a sweep resumed with its options in another order finds its rows.
    std::stable_sort(args.begin(), args.end(), [](const std::string& a, const std::string& b) {
        return a.substr(0, a.find('=')) < b.substr(0, b.find('='));
    });
    std::string key;
    for (const std::string& arg : args) {
        if (!key.empty()) key += ' ';
        key += arg;
    }
    return key;
}

namespace {

// The key's arguments: a value may hold spaces, so a piece joins the argument before it unless it
// starts a new option (or the input fingerprint).
std::vector<std::string> key_arguments(const std::string& key) {
    std::vector<std::string> arguments;
    for (const std::string& piece : split(key, ' ')) {
        const bool starts_argument = piece.rfind("--", 0) == 0 || piece.rfind("inputs=", 0) == 0;
        if (starts_argument || arguments.empty()) arguments.push_back(piece);
        else arguments.back() += " " + piece;
    }
    return arguments;
}

std::string canonical_argument(const std::string& argument,
                               const boost::program_options::options_description& simulate_options) {
    const std::size_t equals = argument.find('=');
    if (argument.rfind("--", 0) != 0 || equals == std::string::npos) return argument;
    const std::string option = argument.substr(2, equals - 2);
    // A file's identity (device and inode) is no name to store: the path stays as written.
    if (option == "trace" || option == "config" || option == "warp-times") return argument;
    const auto* described = simulate_options.find_nothrow(option, false);
    return "--" + option + "=" + value_as_read(option, argument.substr(equals + 1), described);
}

}  // namespace

std::string configuration_label(std::size_t i, const SweepConfiguration& config) {
    return "configuration " + std::to_string(i + 1) + " (" + configuration_key(config.args) + "): ";
}

std::string canonical_configuration_key(const std::string& key,
                                        const boost::program_options::options_description& simulate_options) {
    std::string canonical;
    for (const std::string& argument : key_arguments(key)) {
        if (!canonical.empty()) canonical += ' ';
        canonical += canonical_argument(argument, simulate_options);
    }
    return canonical;
}

namespace {

// "--seed (2000 values) x --l1-line (2000 values)": the options whose values multiply.
std::string varied_axes(const std::vector<SweepAxis>& axes) {
    std::string text;
    for (const SweepAxis& a : axes) {
        if (a.values.size() < 2) continue;
        if (!text.empty()) text += " x ";
        text += "--" + a.name + " (" + std::to_string(a.values.size()) + " values)";
    }
    return text;
}

}  // namespace

std::vector<SweepConfiguration> expand_configurations(const std::vector<SweepAxis>& axes) {
    std::size_t total = 1;
    for (const SweepAxis& a : axes) {
        const std::size_t n = a.values.empty() ? 1 : a.values.size();
        if (total > kMaxSweepConfigurations / n)
            throw InputError("the sweep has more than " + std::to_string(kMaxSweepConfigurations) +
                             " configurations, the most one sweep runs: " + varied_axes(axes) +
                             "; give fewer values, or split it into sweeps into one -o FILE (each keeps the "
                             "others' rows)");
        total *= n;
    }
    std::vector<SweepConfiguration> configurations;
    configurations.reserve(total);
    std::vector<std::size_t> index(axes.size(), 0);
    for (std::size_t c = 0; c < total; ++c) {
        SweepConfiguration config;
        for (std::size_t a = 0; a < axes.size(); ++a) {
            if (axes[a].values.empty()) {
                config.args.push_back("--" + axes[a].name);
                config.axis_values.emplace_back();
            } else {
                config.args.push_back("--" + axes[a].name + "=" + axes[a].values[index[a]]);
                config.axis_values.push_back(axes[a].values[index[a]]);
            }
        }
        config.key = configuration_key(config.args);
        configurations.push_back(std::move(config));
        for (std::size_t a = axes.size(); a-- > 0;) {  // odometer: last axis fastest
            const std::size_t n = axes[a].values.empty() ? 1 : axes[a].values.size();
            if (++index[a] < n) break;
            index[a] = 0;
        }
    }
    return configurations;
}

namespace {

// The options of `config` that do not apply to it (the other workload's shapes, a missing level's
// ways or policy), wherever they are given: on the command line or in its --config file.
std::vector<std::string> options_that_do_not_apply(const SweepConfiguration& config,
                                                   const boost::program_options::options_description& simulate_options) {
    std::vector<std::string> args{"sweep"};
    args.insert(args.end(), config.args.begin(), config.args.end());
    std::vector<char*> argv;
    for (std::string& arg : args) argv.push_back(arg.data());
    const auto vm = parse_command_line(static_cast<int>(argv.size()), argv.data(), simulate_options, "");
    if (!vm) return {};
    std::vector<std::string> others = options_of_another_workload(*vm);
    for (std::string& key : options_of_a_missing_level(*vm)) others.push_back(std::move(key));
    return others;
}

// The names of the settings `config` takes from its --config file (none without one).
std::vector<std::string> file_setting_names(const SweepConfiguration& config,
                                            const boost::program_options::options_description& simulate_options) {
    std::vector<std::string> names;
    for (auto& [name, value] : config_file_settings_taken(config.args, simulate_options)) names.push_back(std::move(name));
    return names;
}

bool contains(const std::vector<std::string>& names, const std::string& name) {
    return std::find(names.begin(), names.end(), name) != names.end();
}

}  // namespace

void keep_options_that_apply(std::vector<SweepConfiguration>& configs, const std::vector<SweepAxis>& axes,
                             const boost::program_options::options_description& simulate_options) {
    if (configs.size() < 2) return;  // one configuration: simulate's own checks name what does not apply
    std::vector<bool> used(axes.size(), false);  // by at least one configuration
    std::unordered_set<std::string> file_settings_used;  // by at least one configuration
    std::unordered_set<std::string> kept;
    std::vector<SweepConfiguration> own;
    own.reserve(configs.size());
    for (const SweepConfiguration& config : configs) {
        std::vector<std::string> others, from_file;
        try {
            others = options_that_do_not_apply(config, simulate_options);
            from_file = file_setting_names(config, simulate_options);
        } catch (const std::exception&) {
            // A configuration that does not parse is reported, with its number, when it is read.
        }
        SweepConfiguration mine = config;
        for (std::size_t a = 0; a < axes.size(); ++a) {
            if (!contains(others, axes[a].name)) {
                used[a] = true;
                continue;
            }
            const std::string prefix = "--" + axes[a].name + "=";
            std::erase_if(mine.args, [&](const std::string& arg) { return arg.starts_with(prefix); });
            mine.axis_values[a].clear();
        }
        for (const std::string& name : from_file) {
            if (contains(others, name)) mine.unused_file_settings.push_back(name);
            else file_settings_used.insert(name);
        }
        mine.key = configuration_key(mine.args);
        if (kept.insert(mine.key).second) own.push_back(std::move(mine));
    }
    // An option no configuration can use is left in place, for simulate's own message to name it.
    if (std::find(used.begin(), used.end(), false) != used.end()) return;
    for (SweepConfiguration& config : own)
        std::erase_if(config.unused_file_settings,
                      [&](const std::string& name) { return !file_settings_used.count(name); });
    configs = std::move(own);
}

}  // namespace cachesim::cli
