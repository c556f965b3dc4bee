#pragma once
// Output files that appear complete or not at all, the one way every cachesim output is written.
//   - A regular file (or a path where nothing is yet) is written to FILE.tmp.<pid> beside it,
//     fsync'ed, renamed into place and the directory fsync'ed; the old file's mode (and, where
//     permitted, owner) is kept. A failed or interrupted run leaves the old file as it was.
//     An existing file the process may not write (access(2), so root may) is refused, as a shell
//     redirection would refuse it, rather than replaced.
//   - A symlink is followed: its final target is replaced that way and the link is kept.
//   - Anything else is written through, since replacing it would break what the user pointed
//     the output at: a device (/dev/null), a FIFO, and "-" or /dev/stdout, /dev/fd/N, /proc/self/fd/N
//     (the already open descriptor, at its offset, as a shell redirection would).
// Temporaries are removed on failure, on SIGINT/SIGTERM/SIGHUP/SIGPIPE (output_cleanup.hpp), and
// those of processes that no longer exist (kill -9) when the next write to that output starts.
#include <cstddef>
#include <cstdint>
#include <string>
#include <string_view>
#include <vector>

namespace cachesim {

class AtomicOutput {
public:
    // Throws InputError naming `path` when it cannot be written. `needs_seek`: the writer uses
    // write_at (rewrites earlier bytes); a target written through is then staged in an unnamed
    // temporary file and copied to it by commit().
    explicit AtomicOutput(std::string path, bool needs_seek = false);
    ~AtomicOutput();  // without commit(): the temporary is removed, the target left as it was
    AtomicOutput(const AtomicOutput&) = delete;
    AtomicOutput& operator=(const AtomicOutput&) = delete;

    void write(const void* data, std::size_t bytes);
    void write(std::string_view text) { write(text.data(), text.size()); }
    // Overwrites bytes already written (needs_seek only).
    void write_at(std::uint64_t offset, const void* data, std::size_t bytes);
    // Makes the output visible: fsync + rename (+ directory fsync), or the staged copy.
    void commit();

    const std::string& path() const { return path_; }
    // Whether the target is replaced (a regular file) rather than written through.
    bool replaces_file() const { return !temp_.empty(); }

private:
    void close_and_remove_temp() noexcept;
    [[noreturn]] void fail(const std::string& what, int error);

    std::string path_;    // as given: every message names it
    std::string target_;  // symlinks resolved
    std::string temp_;    // FILE.tmp.<pid>; empty when written through
    int fd_ = -1;         // where write() goes
    int through_fd_ = -1; // the written-through target, when staging for a seeking writer
    int cleanup_slot_ = -1;
    bool committed_ = false;
};

// Writes `content` to `path` as above; throws InputError naming the path.
void write_output_file(const std::string& path, std::string_view content);

// Throws InputError naming `path` (and `option`, when given) unless an output could be written
// there: its directory exists and takes new files, or it is a special file open for writing.
// Creates nothing that stays.
void check_output_writable(const std::string& path, const std::string& option = "");

// A file the run reads or writes, with the option that names it ("--trace"), for the checks below.
struct NamedPath {
    std::string path;
    std::string option;
};

// Throws InputError naming both options when the output at `path` (given as `option`) is the same
// file as one of `inputs`: replacing it would destroy what the run reads. Paths that do not
// exist yet, and "-", match nothing.
void check_output_not_an_input(const std::string& path, const std::string& option,
                               const std::vector<NamedPath>& inputs);

// Throws InputError when two outputs of one run (`a` given as `option_a`, `b` as `option_b`) name
// the same file, existing or not: the second would replace the first.
void check_outputs_differ(const std::string& a, const std::string& option_a, const std::string& b,
                          const std::string& option_b);

// A run's outputs, checked before it runs: each writable (check_output_writable) and none a file of
// `inputs` (check_output_not_an_input), no two the same file (check_outputs_differ).
void check_outputs(const std::vector<NamedPath>& outputs, const std::vector<NamedPath>& inputs);

// The file an output at `path` replaces: symlinks followed to their final target, as the
// writer follows them. Files kept beside an output (a sweep's lock and partial logs) are named
// after it, so that every name of the output (a symlink, ./, ../) reaches the same ones. Paths
// of files written through come back as given.
std::string replaced_file_path(const std::string& path);

// Whether an output at `path` is a file that AtomicOutput replaces (a regular file, through
// symlinks, or nothing yet) rather than one it writes through (a device, a FIFO, a descriptor).
bool is_replaced_file(const std::string& path);

// Writes all bytes to `fd` (retrying short writes and EINTR); throws InputError naming `name`.
// The sweep's append-only log uses it too, so that both share the fault injection point below.
void write_all(int fd, const void* data, std::size_t bytes, const std::string& name);

// Test hook: the n-th output operation from now (a write, fsync or rename of the functions
// above; 1 = the next) fails as on a full disk, a write after storing half of its bytes.
// 0 disarms. operations() counts every operation so far, so a test can count a run's.
namespace output_faults {
void fail_operation(std::uint64_t n);
std::uint64_t operations();
// Called before each operation; true when this one is to fail.
bool injected();
}  // namespace output_faults

}  // namespace cachesim
