#include "traces/output_cleanup.hpp"

#include <atomic>
#include <cerrno>
#include <csignal>
#include <cstring>
#include <dirent.h>
#include <pthread.h>
#include <signal.h>
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

// The registry and the handler exclude each other through one word: the number of threads inside
// a DeferSignals scope, and kEnding once a handler (or the scope that takes over a deferred
// signal) has begun removing the registered paths. Entering needs kEnding clear, ending needs
// the count at zero; both are a compare-and-swap, so neither can slip in while the other runs.
constexpr unsigned kEnding = 1u << 31;
std::atomic<unsigned> gate{0};
std::atomic<int> deferred_signal{0};  // a signal that arrived inside a scope, for the last one to end
static_assert(std::atomic<unsigned>::is_always_lock_free && std::atomic<int>::is_always_lock_free,
              "the signal handler needs lock-free atomics");

constexpr int kSignals[] = {SIGINT, SIGTERM, SIGHUP, SIGPIPE};

void remove_registered() noexcept {
    // Files first, then the directories they were in (rmdir removes only an emptied one).
    for (Slot& slot : slots)
        if (slot.state.load(std::memory_order_acquire) == 2) ::unlink(slot.path);
    for (Slot& slot : slots)
        if (slot.state.load(std::memory_order_acquire) == 2) ::rmdir(slot.path);
}

void restore_default_action(int signal_number) noexcept {
    struct sigaction action {};
    action.sa_handler = SIG_DFL;
    sigemptyset(&action.sa_mask);
    ::sigaction(signal_number, &action, nullptr);
}

bool begin_ending() noexcept {
    unsigned expected = 0;
    return gate.compare_exchange_strong(expected, kEnding);
}

extern "C" void remove_registered_and_reraise(int signal_number) {
    const int saved = errno;
    if (!begin_ending()) {
        if (gate.load() & kEnding) {  // another thread is already ending the process
            errno = saved;
            return;
        }
        // A thread is between creating a file and registering it (or the reverse): the last scope
        // to end acts on the signal. The scope may have ended just now, before the signal was
        // recorded, and seen none; then the count is zero again and this handler takes over.
        int none = 0;
        deferred_signal.compare_exchange_strong(none, signal_number);
        if (!begin_ending()) {
            errno = saved;
            return;
        }
    }
    remove_registered();
    errno = saved;
    // Back to the default action; the signal stays blocked until the handler returns, then is
    // delivered again and ends the process as it would have without us.
    restore_default_action(signal_number);
    ::raise(signal_number);
}

void install_handlers() noexcept {
    for (int signal_number : kSignals) {
        struct sigaction current {};
        if (::sigaction(signal_number, nullptr, &current) != 0 || current.sa_handler != SIG_DFL ||
            (current.sa_flags & SA_SIGINFO))
            continue;
        struct sigaction action {};
        action.sa_handler = remove_registered_and_reraise;
        sigemptyset(&action.sa_mask);
        // A deferred signal returns from the handler: system calls it interrupted carry on.
        action.sa_flags = SA_RESTART;
        ::sigaction(signal_number, &action, nullptr);
    }
}

void install_handlers_once() noexcept {
    [[maybe_unused]] static const bool installed = (install_handlers(), true);
}

bool is_digits(const char* s) {
    if (!*s) return false;
    for (; *s; ++s)
        if (*s < '0' || *s > '9') return false;
    return true;
}

}  // namespace

DeferSignals::DeferSignals() noexcept {
    // Installed first: a signal at its default action would end the process inside the scope.
    install_handlers_once();
    unsigned seen = gate.load();
    for (;;) {
        // The process is ending: the handler removes the registered paths and re-raises.
        if (seen & kEnding)
            for (;;) ::pause();
        if (gate.compare_exchange_weak(seen, seen + 1)) return;
    }
}

DeferSignals::~DeferSignals() {
    if (gate.fetch_sub(1) != 1) return;  // the last scope to end acts on a deferred signal
    const int signal_number = deferred_signal.load();
    if (signal_number == 0 || !begin_ending()) return;
    remove_registered();
    restore_default_action(signal_number);
    sigset_t set;
    sigemptyset(&set);
    sigaddset(&set, signal_number);
    ::pthread_sigmask(SIG_UNBLOCK, &set, nullptr);
    ::raise(signal_number);
    ::_exit(128 + signal_number);  // not reached: the default action of every signal handled ends the process
}

int register_path(const std::string& path) {
    install_handlers_once();
    if (path.size() >= kMaxPath) return -1;
    DeferSignals defer;
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
    if (slot < 0 || slot >= kSlots) return;
    DeferSignals defer;
    slots[slot].state.store(0, std::memory_order_release);
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
