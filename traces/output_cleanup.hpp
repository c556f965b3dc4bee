#pragma once
// Temporary files that must not outlive the process: paths registered here are unlinked by a
// handler of SIGINT, SIGTERM, SIGHUP and SIGPIPE (async-signal-safe: unlink, then rmdir for a
// registered directory once the files registered in it are gone), which then
// re-raises the signal with its default action, so the exit status still says what killed us.
// Handlers are installed on the first registration, and only for signals still at their
// default disposition (a caller that ignores or handles one keeps its choice).
#include <string>

namespace cachesim::output_cleanup {

// Returns a slot for unregister(), or -1 when the path cannot be registered (too long, or every
// slot taken): it is then only removed by the normal error paths and by remove_stale_temporaries.
int register_path(const std::string& path);
void unregister(int slot) noexcept;

// The temporary for `target` made by this process: TARGET.tmp.<pid>.
std::string temporary_for(const std::string& target);

// Removes TARGET.tmp.<pid> files beside `target` whose process no longer exists (a kill -9, a
// power cut); those of live processes (a concurrent writer) are left alone.
void remove_stale_temporaries(const std::string& target) noexcept;

}  // namespace cachesim::output_cleanup
