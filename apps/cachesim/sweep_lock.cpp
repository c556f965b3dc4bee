#include "apps/cachesim/sweep_lock.hpp"

#include <cerrno>
#include <cstring>
#include <fcntl.h>
#include <string>
#include <sys/file.h>
#include <sys/stat.h>
#include <unistd.h>

#include "traces/atomic_output.hpp"
#include "traces/input_error.hpp"
#include "traces/output_cleanup.hpp"

namespace cachesim::cli {

// Beside the file the output replaces, so that a symlink to it (or any other spelling of it) meets
// the same lock.
SweepLock::SweepLock(const std::string& output) : path_(replaced_file_path(output) + ".lock") {
    // A holder unlinks the file before releasing it, so a lock won on a file that is no longer
    // at the path is stale: try again on the new one.
    for (int attempt = 0; attempt < 100; ++attempt) {
        // From creating the file to registering it (or closing it, when it is another sweep's), a
        // signal waits: it would otherwise leave the file behind.
        output_cleanup::DeferSignals defer;
        fd_ = ::open(path_.c_str(), O_RDWR | O_CREAT | O_CLOEXEC, 0644);
        if (fd_ < 0) throw InputError(output + ": cannot create the lock file " + path_ + " (" + std::strerror(errno) + ")");
        if (::flock(fd_, LOCK_EX | LOCK_NB) != 0) {
            const int error = errno;
            char buffer[32] = {};
            const ssize_t n = ::pread(fd_, buffer, sizeof buffer - 1, 0);
            ::close(fd_);
            fd_ = -1;
            if (error != EWOULDBLOCK)
                throw InputError(output + ": cannot lock " + path_ + " (" + std::strerror(error) + ")");
            std::string holder = n > 0 ? std::string(buffer, static_cast<std::size_t>(n)) : "";
            while (!holder.empty() && (holder.back() == '\n' || holder.back() == ' ')) holder.pop_back();
            throw InputError(output + ": another sweep" + (holder.empty() ? "" : " (pid " + holder + ")") +
                             " is writing this output (lock " + path_ +
                             "); wait for it to finish, or choose another -o");
        }
        struct stat held {}, now {};
        if (::fstat(fd_, &held) == 0 && ::stat(path_.c_str(), &now) == 0 && held.st_ino == now.st_ino &&
            held.st_dev == now.st_dev) {
            const std::string pid = std::to_string(::getpid()) + "\n";
            if (::ftruncate(fd_, 0) != 0 || ::pwrite(fd_, pid.data(), pid.size(), 0) != static_cast<ssize_t>(pid.size())) {
                // The pid is only for messages; the lock itself holds.
            }
            cleanup_slot_ = output_cleanup::register_path(path_);
            return;
        }
        ::close(fd_);
        fd_ = -1;
    }
    throw InputError(output + ": cannot lock " + path_ + " (it keeps being replaced)");
}

SweepLock::~SweepLock() {
    if (fd_ < 0) return;
    {
        // Once unlinked, the path may name the next sweep's lock: the handler must not see it
        // registered then, nor miss it before.
        output_cleanup::DeferSignals defer;
        ::unlink(path_.c_str());
        output_cleanup::unregister(cleanup_slot_);
    }
    ::close(fd_);
}

}  // namespace cachesim::cli
