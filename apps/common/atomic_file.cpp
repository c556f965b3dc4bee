#include "apps/common/atomic_file.hpp"

#include <sys/stat.h>

#include "traces/atomic_output.hpp"

namespace cachesim::cli {

void write_file_atomically(const std::string& path, std::string_view content) {
    write_output_file(path, content);
}

bool writes_to_stdout(const std::string& path) {
    if (path == "-") return true;
    struct stat out {}, target {};
    return ::fstat(1, &out) == 0 && ::stat(path.c_str(), &target) == 0 && out.st_dev == target.st_dev &&
           out.st_ino == target.st_ino;
}

}  // namespace cachesim::cli
