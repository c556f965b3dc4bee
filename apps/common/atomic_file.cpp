#include "apps/common/atomic_file.hpp"

#include "traces/atomic_output.hpp"

namespace cachesim::cli {

void write_file_atomically(const std::string& path, std::string_view content) {
    write_output_file(path, content);
}

}  // namespace cachesim::cli
