#include "apps/cachesim/sweep_inputs.hpp"

#include <sys/stat.h>

#include <cinttypes>
#include <cstdint>
#include <cstdio>
#include <string_view>

namespace cachesim::cli {

namespace {

constexpr std::string_view kFileOptions[] = {"--trace=", "--config=", "--warp-times="};

// FNV-1a: a stable hash, the same in every process and MPI rank.
void mix(std::uint64_t& hash, std::string_view bytes) {
    for (unsigned char c : bytes) hash = (hash ^ c) * 0x100000001b3ull;
    hash = (hash ^ 0xff) * 0x100000001b3ull;  // a separator, so "ab","c" and "a","bc" differ
}

}  // namespace

std::string input_fingerprint(const SweepConfiguration& config) {
    std::uint64_t hash = 0xcbf29ce484222325ull;
    bool any = false;
    // In the table's order, not the arguments': the options' order does not change the key.
    for (std::string_view option : kFileOptions)
        for (const std::string& arg : config.args) {
            if (!arg.starts_with(option)) continue;
            const std::string path = arg.substr(option.size());
            struct stat st {};
            if (path == "-" || ::stat(path.c_str(), &st) != 0) continue;
            mix(hash, arg);
            mix(hash, std::to_string(st.st_size));
            mix(hash, std::to_string(st.st_mtim.tv_sec) + "." + std::to_string(st.st_mtim.tv_nsec));
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
