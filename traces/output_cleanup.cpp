#include "traces/output_cleanup.hpp"

#include <atomic>
#include <cerrno>
#include <csignal>
#include <cstring>
#include <dirent.h>
#include <mutex>
#include <unistd.h>

namespace cachesim::output_cleanup {

namespace {

// Fixed storage, so the handler reads paths without locks or allocation. A slot is published
// (state 2) only once its path is complete.
constexpr int kSlots = 64;
constexpr std::size_t kMaxPath = 4096;
struct Slot {
    std::atomic<int> state{0};  // 0 free, 1 being filled, 2 registered
    char path[kMaxPath];
};
Slot slots[kSlots];

constexpr int kSignals[] = {SIGINT, SIGTERM, SIGHUP, SIGPIPE};

extern "C" void remove_registered_and_reraise(int signal_number) {
    const int saved = errno;
    // Files first, then the directories they were in (rmdir removes only an emptied one).
    for (Slot& slot : slots)
        if (slot.state.load(std::memory_order_acquire) == 2) ::unlink(slot.path);
    for (Slot& slot : slots)
        if (slot.state.load(std::memory_order_acquire) == 2) ::rmdir(slot.path);
    errno = saved;
    // SA_RESETHAND restored the default action; the signal is blocked until the handler returns,
    // then delivered again and ends the process as it would have without us.
    ::raise(signal_number);
}

void install_handlers() {
    for (int signal_number : kSignals) {
        struct sigaction current {};
        if (::sigaction(signal_number, nullptr, &current) != 0 || current.sa_handler != SIG_DFL ||
            (current.sa_flags & SA_SIGINFO))
            continue;
        struct sigaction action {};
        action.sa_handler = remove_registered_and_reraise;
        sigemptyset(&action.sa_mask);
        action.sa_flags = SA_RESETHAND;
        ::sigaction(signal_number, &action, nullptr);
    }
}

bool is_digits(const char* s) {
    if (!*s) return false;
    for (; *s; ++s)
        if (*s < '0' || *s > '9') return false;
    return true;
}

}  // namespace

int register_path(const std::string& path) {
    static std::once_flag installed;
    std::call_once(installed, install_handlers);
    if (path.size() >= kMaxPath) return -1;
    for (int i = 0; i < kSlots; ++i) {
        int expected = 0;
        if (!slots[i].state.compare_exchange_strong(expected, 1)) continue;
        std::memcpy(slots[i].path, path.c_str(), path.size() + 1);
        slots[i].state.store(2, std::memory_order_release);
        return i;
    }
    return -1;
}

void unregister(int slot) noexcept {
    if (slot >= 0 && slot < kSlots) slots[slot].state.store(0, std::memory_order_release);
}

std::string temporary_for(const std::string& target) {
    return target + ".tmp." + std::to_string(::getpid());
}

void remove_stale_temporaries(const std::string& target) noexcept {
    try {
        const std::size_t slash = target.rfind('/');
        const std::string dir = slash == std::string::npos ? "." : slash == 0 ? "/" : target.substr(0, slash);
        const std::string prefix = (slash == std::string::npos ? target : target.substr(slash + 1)) + ".tmp.";
        DIR* d = ::opendir(dir.c_str());
        if (!d) return;
        const long self = static_cast<long>(::getpid());
        while (const dirent* entry = ::readdir(d)) {
            const char* name = entry->d_name;
            if (std::strncmp(name, prefix.c_str(), prefix.size()) != 0 || !is_digits(name + prefix.size())) continue;
            errno = 0;
            const long pid = std::strtol(name + prefix.size(), nullptr, 10);
            if (pid <= 0 || pid == self || errno == ERANGE) continue;
            // ESRCH: no such process. EPERM means it exists (someone else's): leave it.
            if (::kill(static_cast<pid_t>(pid), 0) == 0 || errno != ESRCH) continue;
            ::unlinkat(::dirfd(d), name, 0);
        }
        ::closedir(d);
    } catch (...) {
        // Cleanup is best effort: an allocation failure here must not fail the write.
    }
}

}  // namespace cachesim::output_cleanup
