#pragma once
// Turns sweep arguments into configurations: every simulate option may take a list
// ("linear,column:8") or a numeric range ("32K..256K*2", "1..9+2", "1..4"); the sweep is their
// cross product, each configuration a plain simulate argument list. Generic over option names:
// the simulate option description says which options take a value.
#include <boost/program_options.hpp>
#include <string>
#include <vector>

namespace cachesim::cli {

// One option as given to the sweep, with its values after expansion (one value = fixed).
struct SweepAxis {
    std::string name;                 // without the leading "--"
    std::vector<std::string> values;  // empty for a switch (no value)
};

struct SweepConfiguration {
    std::vector<std::string> args;  // "--name=value" (or "--name" for a switch), in axis order
    std::vector<std::string> axis_values;  // this configuration's value of every axis ("": not its own)
    std::string key;                // configuration_key(args): identifies it for resuming
    // Settings of its --config file that describe a cache level it has none of: it reads the file
    // without them, as it would not be given the same options on the command line.
    std::vector<std::string> unused_file_settings;
};

inline constexpr std::size_t kMaxSweepConfigurations = 1'000'000;

// "a,b,c" -> {a, b, c} ("a\,b" is the single value "a,b"); "A..B*F" geometric, "A..B+S" or
// "A..B" (step 1) arithmetic, with K/M/G suffixes; throws InputError naming `option` for
// malformed or huge ranges, and for a value that comes twice, in any spelling the run reads as
// the same ("2K" and "2048", "016" and "16", "column:04" and "column:4"; `described`, the
// option's description, says which options take whole numbers).
std::vector<std::string> expand_values(const std::string& text, const std::string& option,
                                       const boost::program_options::option_description* described = nullptr);

// Reads "--name value" / "--name=value" tokens, checking each name against `simulate_options`
// (a name none has: boost's unknown_option, worded as every command words it).
std::vector<SweepAxis> parse_sweep_axes(const std::vector<std::string>& tokens,
                                        const boost::program_options::options_description& simulate_options);

// The cross product, first axis slowest, last fastest.
std::vector<SweepConfiguration> expand_configurations(const std::vector<SweepAxis>& axes);

// A configuration's arguments joined with spaces in the order of their option names, so that the
// order in which a sweep's options are written does not change it.
std::string configuration_key(std::vector<std::string> args);

// "configuration 2 (--l1-size=16G --l1-ways=full): ": how a message names the i-th (0-based)
// configuration, with its values as the user wrote them.
std::string configuration_label(std::size_t i, const SweepConfiguration& config);

// `key` (a configuration_key, possibly with an input fingerprint after it) with each option's value
// spelled as the run reads it (sizes in bytes, schedules by name, ...), so that equal values written
// differently, now or in an earlier output, give one key. File names stay as written.
std::string canonical_configuration_key(const std::string& key,
                                        const boost::program_options::options_description& simulate_options);

// A sweep crossing both built-in workloads gives each configuration only its own workload's shape
// options (--depth to the matmul's, --stencil to the stencil's, as simulate refuses the other's),
// and one whose rows differ in a cache level's size gives that level's options only to the rows
// that have it (--l2-ways not to --l2-size 0's); configurations that then coincide are kept once,
// the first. The same holds for a --config file's settings (a row reads the file without those that
// do not apply to it). An option or setting no configuration can use is left in all, for simulate's message.
void keep_options_that_apply(std::vector<SweepConfiguration>& configs, const std::vector<SweepAxis>& axes,
                               const boost::program_options::options_description& simulate_options);

}  // namespace cachesim::cli
