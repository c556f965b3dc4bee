#include "apps/cachesim/sweep_inputs.hpp"

#include <sys/stat.h>

#include <cinttypes>
#include <cstdint>
#include <cstdio>
#include <optional>
#include <string>
#include <string_view>

#include "apps/common/options.hpp"

namespace cachesim::cli {

namespace {

constexpr std::string_view kFileOptions[] = {"--trace=", "--config=", "--warp-times="};
// A config file's settings that name files the run reads whole: stamped as on the command line.
constexpr std::string_view kFileSettings[] = {"trace", "warp-times"};

// FNV-1a: a stable hash, the same in every process and MPI rank.
void mix(std::uint64_t& hash, std::string_view bytes) {
    for (unsigned char c : bytes) hash = (hash ^ c) * 0x100000001b3ull;
    hash = (hash ^ 0xff) * 0x100000001b3ull;  // a separator, so "ab","c" and "a","bc" differ
}

// The file at `path`, where one is: not standard input, nor a file that does not exist (the run
// itself reports that).
std::optional<struct stat> file_status(const std::string& path) {
    struct stat st {};
    if (path == "-" || ::stat(path.c_str(), &st) != 0) return std::nullopt;
    return st;
}

// A file whose whole content matters (a trace, warp times): its size and modification time, the
// cheap check.
void mix_stamp(std::uint64_t& hash, const struct stat& st) {
    mix(hash, std::to_string(st.st_size));
    mix(hash, std::to_string(st.st_mtim.tv_sec) + "." + std::to_string(st.st_mtim.tv_nsec));
}

// A config file by what it means for this configuration: the settings it takes from the file,
// in name order, so that comments, layout and entries the configuration does not use leave its
// row current.
void mix_config_settings(std::uint64_t& hash, const SweepConfiguration& config,
                         const boost::program_options::options_description& simulate_options) {
    for (const auto& [name, value] : config_file_settings_taken(config.args, simulate_options)) {
        mix(hash, name);
        mix(hash, value);
        for (std::string_view file_setting : kFileSettings)
            if (name == file_setting)
                if (const auto st = file_status(value)) mix_stamp(hash, *st);
    }
}

}  // namespace

std::string input_fingerprint(const SweepConfiguration& config,
                              const boost::program_options::options_description& simulate_options) {
    std::uint64_t hash = 0xcbf29ce484222325ull;
    bool any = false;
    // In the table's order, not the arguments': the options' order does not change the key.
    for (std::string_view option : kFileOptions)
        for (const std::string& arg : config.args) {
            if (!arg.starts_with(option)) continue;
            const std::string path = arg.substr(option.size());
            const std::optional<struct stat> st = file_status(path);
            if (!st) continue;
            mix(hash, arg);
            // A config file that is not a regular file (a pipe) cannot be read again for its settings.
            if (option == "--config=" && S_ISREG(st->st_mode)) mix_config_settings(hash, config, simulate_options);
            else mix_stamp(hash, *st);
            any = true;
        }
    if (!any) return "";
    char text[32];
    std::snprintf(text, sizeof text, " inputs=%016" PRIx64, hash);
    return text;
}

bool reads_standard_input(const SweepConfiguration& config) {
    for (const std::string& arg : config.args)
        if (arg == "--trace=-") return true;
    return false;
}

}  // namespace cachesim::cli
