#include "apps/common/atomic_file.hpp"

#include <cerrno>
#include <cstdio>
#include <cstring>
#include <filesystem>
#include <fstream>
#include <unistd.h>

#include "traces/input_error.hpp"

namespace cachesim::cli {

void write_file_atomically(const std::string& path, std::string_view content) {
    const std::string temp = path + ".tmp." + std::to_string(::getpid());
    {
        std::ofstream out(temp, std::ios::binary | std::ios::trunc);
        if (!out) throw InputError(path + ": cannot write (" + std::strerror(errno) + ")");
        out.write(content.data(), static_cast<std::streamsize>(content.size()));
        out.flush();
        if (!out) {
            std::error_code ignored;
            std::filesystem::remove(temp, ignored);
            throw InputError(path + ": write failed (" + std::strerror(errno) + ")");
        }
    }
    std::error_code ec;
    std::filesystem::rename(temp, path, ec);
    if (ec) {
        std::error_code ignored;
        std::filesystem::remove(temp, ignored);
        throw InputError(path + ": cannot move into place (" + ec.message() + ")");
    }
}

}  // namespace cachesim::cli
