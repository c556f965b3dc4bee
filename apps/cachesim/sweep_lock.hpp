#pragma once
// One sweep at a time per output: an exclusive flock on OUTPUT.lock, held for the whole run, beside
// the file the output replaces (a symlink's target), whatever name each sweep gives it.
// A second sweep into the same output is refused at once (exit 2) with the holder's pid, instead
// of both redoing the same work and overwriting each other's CSV. The lock is the kernel's: a
// killed holder (even kill -9) releases it; the file holds the pid only for the message.
#include <string>

namespace cachesim::cli {

class SweepLock {
public:
    // Throws InputError naming the output (and the other sweep's pid) when it is taken.
    explicit SweepLock(const std::string& output);
    ~SweepLock();  // unlinks the lock file while still holding it, then releases it
    SweepLock(const SweepLock&) = delete;
    SweepLock& operator=(const SweepLock&) = delete;

private:
    std::string path_;
    int fd_ = -1;
    int cleanup_slot_ = -1;
};

}  // namespace cachesim::cli
