#pragma once
// The readers take a path, so each fuzz input becomes an in-memory file (memfd) with a path.
#include <sys/mman.h>
#include <unistd.h>

#include <cstddef>
#include <cstdint>
#include <string>

namespace cachesim::fuzz {

class InputFile {
public:
    InputFile(const std::uint8_t* data, std::size_t size) {
        fd_ = ::memfd_create("cachesim-fuzz", MFD_CLOEXEC);
        if (fd_ < 0) __builtin_trap();
        std::size_t written = 0;
        while (written < size) {
            const ssize_t n = ::write(fd_, data + written, size - written);
            if (n <= 0) __builtin_trap();
            written += static_cast<std::size_t>(n);
        }
        path_ = "/proc/self/fd/" + std::to_string(fd_);
    }
    ~InputFile() { ::close(fd_); }
    InputFile(const InputFile&) = delete;
    InputFile& operator=(const InputFile&) = delete;
    const std::string& path() const { return path_; }

private:
    int fd_ = -1;
    std::string path_;
};

}  // namespace cachesim::fuzz
