#pragma once
// Temporary files that must not outlive the process: paths registered here are unlinked by a
// handler of SIGINT, SIGTERM, SIGHUP and SIGPIPE (async-signal-safe: unlink, then rmdir for a
// registered directory once the files registered in it are gone), which then
// re-raises the signal with its default action, so the exit status still says what killed us.
// Handlers are installed on the first registration (or DeferSignals scope), and only for signals
// still at their default disposition (a caller that ignores or handles one keeps its choice).
//
// The handler never runs while the registry changes: a signal that arrives during a change (or
// inside a DeferSignals scope, in any thread) is acted on as soon as the last such scope ends.
#include <string>

namespace cachesim::output_cleanup {

// Returns a slot for unregister(), or -1 when the path cannot be registered (too long, or every
// slot taken): it is then only removed by the normal error paths and by remove_stale_temporaries.
int register_path(const std::string& path);
void unregister(int slot) noexcept;

// While one exists, a cleanup signal waits (without losing it) until the last one ends, then
// removes the registered paths and ends the process. For a file that is created, or removed,
// together with its registration: a signal between the two would leave it behind, or remove a
// path that already names another process's file. Keep the scope to a few system calls.
class DeferSignals {
public:
    DeferSignals() noexcept;
    ~DeferSignals();
    DeferSignals(const DeferSignals&) = delete;
    DeferSignals& operator=(const DeferSignals&) = delete;
};

// The temporary for `target` made by this process: TARGET.tmp.<pid>.
std::string temporary_for(const std::string& target);

// Removes TARGET.tmp.<pid> files beside `target` whose process no longer exists (a kill -9, a
// power cut); those of live processes (a concurrent writer) are left alone.
void remove_stale_temporaries(const std::string& target) noexcept;

}  // namespace cachesim::output_cleanup
