#include "traces/atomic_output.hpp"

#include <atomic>
#include <cerrno>
#include <cstdlib>
#include <cstring>
#include <fcntl.h>
#include <filesystem>
#include <sys/stat.h>
#include <unistd.h>

#include "traces/input_error.hpp"
#include "traces/output_cleanup.hpp"

namespace cachesim {

namespace output_faults {
namespace {
std::atomic<std::uint64_t> counter{0};
std::atomic<std::uint64_t> fail_at{0};
}  // namespace

void fail_operation(std::uint64_t n) { fail_at.store(n == 0 ? 0 : counter.load() + n); }
std::uint64_t operations() { return counter.load(); }
bool injected() {
    const std::uint64_t n = counter.fetch_add(1, std::memory_order_relaxed) + 1;
    if (fail_at.load(std::memory_order_relaxed) != n) return false;
    fail_at.store(0);
    return true;
}
}  // namespace output_faults

namespace {

std::string error_text(int error) { return std::strerror(error); }

std::string directory_of(const std::string& path) {
    const std::size_t slash = path.rfind('/');
    if (slash == std::string::npos) return ".";
    return slash == 0 ? "/" : path.substr(0, slash);
}

// "/dev/fd/N" or "/proc/self/fd/N": N, else -1. Matched before following links, because
// those links name the open file (a pipe, a terminal, or a regular file at some offset).
int open_descriptor_named(const std::string& path) {
    for (const char* prefix : {"/dev/fd/", "/proc/self/fd/"}) {
        const std::size_t n = std::strlen(prefix);
        if (path.size() <= n || path.compare(0, n, prefix) != 0 || path.size() > n + 9) continue;
        int fd = 0;
        for (std::size_t i = n; i < path.size(); ++i) {
            if (path[i] < '0' || path[i] > '9') return -1;
            fd = fd * 10 + (path[i] - '0');
        }
        return fd;
    }
    return -1;
}

enum class TargetKind { regular, absent, special, descriptor };

struct Target {
    TargetKind kind = TargetKind::absent;
    std::string path;  // symlinks resolved
    int descriptor = -1;
    struct stat status {};
};

// Follows symlinks to the final target (relative links against their own directory).
Target resolve(const std::string& path) {
    std::string current = path;
    for (int hop = 0; hop < 40; ++hop) {
        Target t;
        t.path = current;
        if (current == "/dev/stdout" || (hop == 0 && current == "-")) t.descriptor = 1;  // "-": as inputs take it
        else if (current == "/dev/stderr") t.descriptor = 2;
        else t.descriptor = open_descriptor_named(current);
        if (t.descriptor >= 0) {
            t.kind = TargetKind::descriptor;
            return t;
        }
        if (::lstat(current.c_str(), &t.status) != 0) {
            if (errno != ENOENT) throw InputError(path + ": cannot write (" + error_text(errno) + ")");
            t.kind = TargetKind::absent;
            return t;
        }
        if (S_ISLNK(t.status.st_mode)) {
            std::string link(static_cast<std::size_t>(t.status.st_size > 0 ? t.status.st_size : 255) + 1, '\0');
            const ssize_t n = ::readlink(current.c_str(), link.data(), link.size());
            if (n < 0) throw InputError(path + ": cannot follow the symlink (" + error_text(errno) + ")");
            link.resize(static_cast<std::size_t>(n));
            // An absolute link, or one in the working directory, names its target as written.
            const bool as_written = link.empty() || link[0] == '/' || current.find('/') == std::string::npos;
            current = as_written ? link : directory_of(current) + "/" + link;
            continue;
        }
        if (S_ISDIR(t.status.st_mode)) throw InputError(path + ": is a directory");
        t.kind = S_ISREG(t.status.st_mode) ? TargetKind::regular : TargetKind::special;
        return t;
    }
    throw InputError(path + ": too many levels of symbolic links");
}

// A replaced file must be one the process may write: renaming over it needs only the
// directory's permission, and would replace a file that a shell redirection refuses.
// `name` is how messages call the output, `given` its path as given (a symlink's target is named).
void refuse_unwritable(const Target& target, const std::string& name, const std::string& given) {
    if (target.kind != TargetKind::regular || ::access(target.path.c_str(), W_OK) == 0) return;
    const int error = errno;
    const std::string file = target.path == given ? "the file" : "its target " + target.path;
    throw InputError(name + ": cannot write (" + error_text(error) + ")" +
                     (error == EACCES ? ": " + file + " exists and this user may not write it" : std::string()));
}

// An unnamed temporary file for staging, gone when closed.
int staging_file() {
    const char* tmpdir = std::getenv("TMPDIR");
    std::string dir = tmpdir && *tmpdir ? tmpdir : "/tmp";
#ifdef O_TMPFILE
    const int fd = ::open(dir.c_str(), O_TMPFILE | O_RDWR | O_CLOEXEC, 0600);
    if (fd >= 0) return fd;
#endif
    std::string name = dir + "/cachesim-stage-XXXXXX";
    const int named = ::mkstemp(name.data());
    if (named >= 0) ::unlink(name.c_str());
    return named;
}

}  // namespace

void write_all(int fd, const void* data, std::size_t bytes, const std::string& name) {
    const char* p = static_cast<const char*>(data);
    if (output_faults::injected()) {
        // As a disk that fills up midway: half the bytes land, then the write fails.
        [[maybe_unused]] const ssize_t landed = ::write(fd, p, bytes / 2);
        throw InputError(name + ": write failed (" + error_text(ENOSPC) + ")");
    }
    while (bytes > 0) {
        const ssize_t n = ::write(fd, p, bytes);
        if (n < 0) {
            if (errno == EINTR) continue;
            throw InputError(name + ": write failed (" + error_text(errno) + ")");
        }
        p += n;
        bytes -= static_cast<std::size_t>(n);
    }
}

AtomicOutput::AtomicOutput(std::string path, bool needs_seek) : path_(std::move(path)) {
    if (path_.empty()) throw InputError("output: empty file name");
    const Target target = resolve(path_);
    target_ = target.path;
    if (target.kind == TargetKind::regular || target.kind == TargetKind::absent) {
        refuse_unwritable(target, path_, path_);
        output_cleanup::remove_stale_temporaries(target_);
        temp_ = output_cleanup::temporary_for(target_);
        // Register before creating, so no moment exists where a signal would leave it behind.
        cleanup_slot_ = output_cleanup::register_path(temp_);
        fd_ = ::open(temp_.c_str(), O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC, 0666);
        if (fd_ < 0 && errno == EEXIST) {  // ours from an earlier process with this pid
            ::unlink(temp_.c_str());
            fd_ = ::open(temp_.c_str(), O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC, 0666);
        }
        if (fd_ < 0) {
            const int error = errno;
            output_cleanup::unregister(cleanup_slot_);
            cleanup_slot_ = -1;
            temp_.clear();
            throw InputError(path_ + ": cannot write (" + error_text(error) + ")");
        }
        if (target.kind == TargetKind::regular) {
            // Keep what the user set on the file; an owner change needs privileges, so it is tried
            // only where it would change something and its failure leaves our ownership.
            ::fchmod(fd_, target.status.st_mode & 07777);
            struct stat mine {};
            if (::fstat(fd_, &mine) == 0 && (mine.st_uid != target.status.st_uid || mine.st_gid != target.status.st_gid) &&
                ::fchown(fd_, target.status.st_uid, target.status.st_gid) == 0)
                ::fchmod(fd_, target.status.st_mode & 07777);  // chown clears set-id bits
        }
        return;
    }
    int through = -1;
    if (target.kind == TargetKind::descriptor) {
        through = ::fcntl(target.descriptor, F_DUPFD_CLOEXEC, 3);
    } else {
        // A FIFO blocks here until a reader opens it, as a shell redirection would.
        through = ::open(target_.c_str(), O_WRONLY | O_CLOEXEC);
    }
    if (through < 0) throw InputError(path_ + ": cannot write (" + error_text(errno) + ")");
    if (!needs_seek) {
        fd_ = through;
        return;
    }
    through_fd_ = through;
    fd_ = staging_file();
    if (fd_ < 0) {
        const int error = errno;
        ::close(through_fd_);
        through_fd_ = -1;
        throw InputError(path_ + ": cannot create a staging file in $TMPDIR (" + error_text(error) + ")");
    }
}

AtomicOutput::~AtomicOutput() { close_and_remove_temp(); }

void AtomicOutput::close_and_remove_temp() noexcept {
    if (fd_ >= 0) ::close(fd_);
    if (through_fd_ >= 0) ::close(through_fd_);
    fd_ = through_fd_ = -1;
    if (!temp_.empty()) ::unlink(temp_.c_str());
    temp_.clear();
    output_cleanup::unregister(cleanup_slot_);
    cleanup_slot_ = -1;
}

void AtomicOutput::fail(const std::string& what, int error) {
    close_and_remove_temp();
    throw InputError(path_ + ": " + what + " (" + error_text(error) + ")");
}

void AtomicOutput::write(const void* data, std::size_t bytes) {
    if (fd_ < 0) throw InputError(path_ + ": write after the output was closed");
    try {
        write_all(fd_, data, bytes, path_);
    } catch (const InputError&) {
        close_and_remove_temp();
        throw;
    }
}

void AtomicOutput::write_at(std::uint64_t offset, const void* data, std::size_t bytes) {
    if (fd_ < 0) throw InputError(path_ + ": write after the output was closed");
    if (::lseek(fd_, static_cast<off_t>(offset), SEEK_SET) < 0) fail("cannot seek", errno);
    write(data, bytes);
    if (::lseek(fd_, 0, SEEK_END) < 0) fail("cannot seek", errno);
}

void AtomicOutput::commit() {
    if (committed_ || fd_ < 0) throw InputError(path_ + ": output committed twice or after a failure");
    if (through_fd_ >= 0) {
        // Staged for a seeking writer: copy to the target in order.
        if (::lseek(fd_, 0, SEEK_SET) < 0) fail("cannot read back the staging file", errno);
        char buffer[1 << 16];
        for (;;) {
            const ssize_t n = ::read(fd_, buffer, sizeof buffer);
            if (n < 0 && errno == EINTR) continue;
            if (n < 0) fail("cannot read back the staging file", errno);
            if (n == 0) break;
            try {
                write_all(through_fd_, buffer, static_cast<std::size_t>(n), path_);
            } catch (const InputError&) {
                close_and_remove_temp();
                throw;
            }
        }
    }
    if (!replaces_file()) {
        // Written through: the target is not ours to fsync (a pipe or device refuses it anyway).
        const int fd = fd_, through = through_fd_;
        fd_ = through_fd_ = -1;
        committed_ = true;
        const bool closed = ::close(fd) == 0 && (through < 0 || ::close(through) == 0);
        if (!closed && errno != EINTR) throw InputError(path_ + ": write failed (" + error_text(errno) + ")");
        return;
    }
    if (output_faults::injected()) fail("cannot flush to disk", EIO);
    if (::fsync(fd_) != 0) fail("cannot flush to disk", errno);
    const int fd = fd_;
    fd_ = -1;
    if (::close(fd) != 0) fail("write failed", errno);
    if (output_faults::injected()) fail("cannot move into place", ENOSPC);
    if (::rename(temp_.c_str(), target_.c_str()) != 0) fail("cannot move into place", errno);
    output_cleanup::unregister(cleanup_slot_);
    cleanup_slot_ = -1;
    temp_.clear();
    committed_ = true;
    // The rename itself is durable only once the directory is.
    const int dir = ::open(directory_of(target_).c_str(), O_RDONLY | O_DIRECTORY | O_CLOEXEC);
    if (dir >= 0) {
        ::fsync(dir);
        ::close(dir);
    }
}

void write_output_file(const std::string& path, std::string_view content) {
    AtomicOutput out(path);
    out.write(content);
    out.commit();
}

std::string replaced_file_path(const std::string& path) {
    const Target target = resolve(path);
    return target.kind == TargetKind::regular || target.kind == TargetKind::absent ? target.path : path;
}

bool is_replaced_file(const std::string& path) {
    const TargetKind kind = resolve(path).kind;
    return kind == TargetKind::regular || kind == TargetKind::absent;
}

void check_output_not_an_input(const std::string& path, const std::string& option,
                               const std::vector<NamedPath>& inputs) {
    struct stat out {};
    if (path.empty() || path == "-" || ::stat(path.c_str(), &out) != 0 || !S_ISREG(out.st_mode)) return;
    for (const NamedPath& input : inputs) {
        struct stat in {};
        if (input.path.empty() || input.path == "-" || ::stat(input.path.c_str(), &in) != 0) continue;
        if (in.st_dev == out.st_dev && in.st_ino == out.st_ino)
            throw InputError(option + " " + path + ": that is the file " + input.option + " reads (" + input.path +
                             "); writing there would destroy it: give another output path");
    }
}

void check_outputs_differ(const std::string& a, const std::string& option_a, const std::string& b,
                          const std::string& option_b) {
    if (a.empty() || b.empty()) return;
    std::error_code ea, eb;
    // Absolute first: a relative name of nothing yet would come back as it was given.
    const std::filesystem::path pa = std::filesystem::weakly_canonical(std::filesystem::absolute(a, ea), ea),
                                pb = std::filesystem::weakly_canonical(std::filesystem::absolute(b, eb), eb);
    struct stat st {};
    // A device or FIFO takes both writes in turn; only a file would lose the first.
    if (ea || eb || pa != pb || (::stat(pa.c_str(), &st) == 0 && !S_ISREG(st.st_mode))) return;
    throw InputError(option_a + " " + a + " and " + option_b + " " + b + " are the same file: one would replace the other");
}

void check_outputs(const std::vector<NamedPath>& outputs, const std::vector<NamedPath>& inputs) {
    for (std::size_t i = 0; i < outputs.size(); ++i) {
        check_output_not_an_input(outputs[i].path, outputs[i].option, inputs);
        check_output_writable(outputs[i].path, outputs[i].option);
        for (std::size_t j = 0; j < i; ++j)
            check_outputs_differ(outputs[j].path, outputs[j].option, outputs[i].path, outputs[i].option);
    }
}

void check_output_writable(const std::string& path, const std::string& option) {
    const std::string name = option.empty() ? path : option + " " + path;
    if (path.empty()) throw InputError((option.empty() ? std::string("output") : option) + ": empty file name");
    Target target;
    try {
        target = resolve(path);
    } catch (const InputError& e) {
        throw InputError(option.empty() ? e.what() : option + ": " + e.what());
    }
    if (target.kind == TargetKind::descriptor) {
        if (::fcntl(target.descriptor, F_GETFD) < 0) throw InputError(name + ": descriptor is not open");
        return;
    }
    if (target.kind == TargetKind::special) {
        if (::access(target.path.c_str(), W_OK) != 0)
            throw InputError(name + ": cannot write (" + error_text(errno) + ")");
        return;
    }
    refuse_unwritable(target, name, path);
    // Creating (and removing) a file proves the directory takes new files, which access() cannot
    // tell for root or on a read-only mount.
    const std::string dir = directory_of(target.path);
    struct stat s {};
    if (::stat(dir.c_str(), &s) != 0)
        throw InputError(name + ": cannot write: directory " + dir + " (" + error_text(errno) + ")");
    if (!S_ISDIR(s.st_mode)) throw InputError(name + ": cannot write: " + dir + " is not a directory");
    const std::string probe = output_cleanup::temporary_for(target.path);
    const int slot = output_cleanup::register_path(probe);
    const int fd = ::open(probe.c_str(), O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC, 0600);
    const int error = errno;
    if (fd >= 0) {
        ::close(fd);
        ::unlink(probe.c_str());
    }
    output_cleanup::unregister(slot);
    if (fd < 0 && error != EEXIST) throw InputError(name + ": cannot write (" + error_text(error) + ")");
}

}  // namespace cachesim
