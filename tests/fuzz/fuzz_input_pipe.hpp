#pragma once
// A fuzz input behind a pipe, so the readers take their streaming (non-seekable) path: the pipe is
// widened to hold the whole input, filled and closed for writing, and named by a path.
#include <fcntl.h>
#include <unistd.h>

#include <algorithm>
#include <cstddef>
#include <cstdint>
#include <string>

namespace cachesim::fuzz {

class InputPipe {
public:
    InputPipe(const std::uint8_t* data, std::size_t size) {
        int ends[2];
        if (::pipe2(ends, O_CLOEXEC) != 0) __builtin_trap();
        read_fd_ = ends[0];
        // Up to the system's pipe-max-size (1 MiB unless changed): more than the fuzzers' -max_len.
        const int capacity = ::fcntl(ends[1], F_SETPIPE_SZ, 1 << 20);
        const std::size_t fits = std::min(size, capacity > 0 ? static_cast<std::size_t>(capacity) : std::size_t{65536});
        std::size_t written = 0;
        while (written < fits) {
            const ssize_t n = ::write(ends[1], data + written, fits - written);
            if (n <= 0) __builtin_trap();
            written += static_cast<std::size_t>(n);
        }
        ::close(ends[1]);
        path_ = "/proc/self/fd/" + std::to_string(read_fd_);
    }
    ~InputPipe() { ::close(read_fd_); }
    InputPipe(const InputPipe&) = delete;
    InputPipe& operator=(const InputPipe&) = delete;
    const std::string& path() const { return path_; }

private:
    int read_fd_ = -1;
    std::string path_;
};

}  // namespace cachesim::fuzz
