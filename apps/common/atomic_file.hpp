#pragma once
// Outputs appear complete or not at all: written to a temporary file beside the target, then
// renamed into place. An interrupted or failed run never leaves a half-written file.
#include <string>
#include <string_view>

namespace cachesim::cli {

// Throws InputError naming the path when the file cannot be written.
void write_file_atomically(const std::string& path, std::string_view content);

}  // namespace cachesim::cli
