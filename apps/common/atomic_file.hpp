#pragma once
// Outputs appear complete or not at all (traces/atomic_output.hpp says how): a regular file is
// replaced through a temporary beside it, keeping its mode; a symlink's target is replaced and the
// link kept; devices, FIFOs and /dev/stdout are written through. A failed or interrupted run never
// leaves a half-written file.
#include <string>
#include <string_view>

namespace cachesim::cli {

// Throws InputError naming the path when the file cannot be written.
void write_file_atomically(const std::string& path, std::string_view content);

// Whether `path` is the standard output ("-", /dev/stdout, or the file stdout is redirected to):
// a "wrote FILE" line then goes to stderr, so as not to follow the output itself.
bool writes_to_stdout(const std::string& path);

// Throws InputError when the PNG that `option` writes is named as another image format
// (plot.jpg, view.svg...): a viewer would misread it, and the user asked for that format.
void check_png_name(const std::string& path, const std::string& option);

}  // namespace cachesim::cli
