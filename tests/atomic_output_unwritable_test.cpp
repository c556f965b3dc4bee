// The atomic writer refuses to replace an existing file the process may not write, as a shell
// redirection refuses it: renaming over a file needs only the directory's permission, so without
// the check a read-only file in a directory open to all would be replaced. The file is left as it
// was and no temporary remains. Root may write any file, and does, as a redirection would.
//
// The files are made in a directory anyone may write (mode 1777), so that only the file's own
// permission stands in the way. As root, the writer runs in a child that has become user nobody.
#include <gtest/gtest.h>

#include <filesystem>
#include <fstream>
#include <grp.h>
#include <string>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>
#include <vector>

#include "tests/cli_util.hpp"
#include "tests/scratch_dir.hpp"
#include "traces/atomic_output.hpp"
#include "traces/input_error.hpp"

namespace cachesim {
namespace {

namespace fs = std::filesystem;

constexpr uid_t kNobody = 65534;
const std::string kKept = "kept\n";

// A directory anyone may write in, holding `name` with kKept, mode 0444, owned by this process's user.
fs::path read_only_file(const std::string& dir_name, const std::string& name) {
    const fs::path dir = test::fresh_dir(test::temp_dir() / dir_name);
    fs::permissions(test::temp_dir(), fs::perms::others_exec, fs::perm_options::add);
    fs::permissions(dir, fs::perms::all | fs::perms::sticky_bit);
    const fs::path file = dir / name;
    std::ofstream(file) << kKept;
    fs::permissions(file, fs::perms::owner_read | fs::perms::group_read | fs::perms::others_read);
    return file;
}

// Runs `attempt` (which returns "" when all went as expected, else what did not) as a user that
// may not write the file: this user when it is not root, else nobody in a child process.
template <class Attempt>
std::string as_a_user_who_may_not_write(Attempt attempt) {
    if (::geteuid() != 0) return attempt();
    int pipe_fds[2];
    if (::pipe(pipe_fds) != 0) return "cannot make a pipe";
    const pid_t pid = ::fork();
    if (pid == 0) {
        ::close(pipe_fds[0]);
        std::string failure;
        if (::setgroups(0, nullptr) != 0 || ::setresgid(kNobody, kNobody, kNobody) != 0 ||
            ::setresuid(kNobody, kNobody, kNobody) != 0)
            failure = "cannot become user nobody";
        else
            failure = attempt();
        [[maybe_unused]] const ssize_t n = ::write(pipe_fds[1], failure.data(), failure.size());
        ::_exit(0);
    }
    ::close(pipe_fds[1]);
    std::string failure;
    char buffer[512];
    for (ssize_t n; (n = ::read(pipe_fds[0], buffer, sizeof buffer)) > 0;) failure.append(buffer, static_cast<std::size_t>(n));
    ::close(pipe_fds[0]);
    int status = 0;
    ::waitpid(pid, &status, 0);
    if (!WIFEXITED(status)) return "the child did not finish: " + failure;
    return failure;
}

// "" when `write` throws an InputError holding every one of `expected`, else what happened.
template <class Write>
std::string refused_with(Write write, const std::vector<std::string>& expected) {
    try {
        write();
    } catch (const InputError& e) {
        const std::string message = e.what();
        for (const std::string& part : expected)
            if (message.find(part) == std::string::npos) return "the message lacks '" + part + "': " + message;
        return "";
    }
    return "not refused";
}

TEST(AtomicOutputUnwritable, AFileThisUserMayNotWriteIsRefusedAndLeftAsItWas) {
    const fs::path file = read_only_file("refused", "report.txt");
    const std::string path = file.string();
    const std::string failure = as_a_user_who_may_not_write([&]() -> std::string {
        const std::vector<std::string> expected = {path + ": cannot write (Permission denied)",
                                                   "this user may not write it"};
        if (std::string f = refused_with([&] { AtomicOutput out(path); }, expected); !f.empty()) return "AtomicOutput: " + f;
        if (std::string f = refused_with([&] { write_output_file(path, "replaced\n"); }, expected); !f.empty())
            return "write_output_file: " + f;
        if (std::string f = refused_with([&] { check_output_writable(path, "--out"); }, {"--out " + path + ": cannot write"});
            !f.empty())
            return "check_output_writable: " + f;
        return "";
    });
    EXPECT_EQ(failure, "");
    EXPECT_EQ(test::read_file(file), kKept);
    EXPECT_EQ(test::files_in(file.parent_path()), 1u) << "a temporary was left";
}

TEST(AtomicOutputUnwritable, ThroughASymlinkTheMessageNamesTheTarget) {
    const fs::path file = read_only_file("refused-link", "report.txt");
    const fs::path link = file.parent_path() / "link.txt";
    fs::create_symlink("report.txt", link);
    const std::string failure = as_a_user_who_may_not_write([&] {
        return refused_with([&] { write_output_file(link.string(), "replaced\n"); },
                            {link.string() + ": cannot write (Permission denied): its target " + file.string()});
    });
    EXPECT_EQ(failure, "");
    EXPECT_EQ(test::read_file(file), kKept);
    EXPECT_TRUE(fs::is_symlink(link));
    EXPECT_EQ(test::files_in(file.parent_path()), 2u) << "a temporary was left";
}

TEST(AtomicOutputUnwritable, RootReplacesAReadOnlyFileAndKeepsItsMode) {
    if (::geteuid() != 0) GTEST_SKIP() << "only root may write a file of mode 0444";
    const fs::path file = read_only_file("root", "report.txt");
    write_output_file(file.string(), "replaced\n");
    EXPECT_EQ(test::read_file(file), "replaced\n");
    EXPECT_EQ(fs::status(file).permissions(), fs::perms::owner_read | fs::perms::group_read | fs::perms::others_read);
}

TEST(AtomicOutputUnwritable, AFileThatDoesNotExistYetIsWritten) {
    // The same user in the same directory: what is refused above is the file, not the place.
    const fs::path file = read_only_file("fresh", "other.txt").parent_path() / "new.txt";
    const std::string failure = as_a_user_who_may_not_write([&]() -> std::string {
        try {
            write_output_file(file.string(), "new\n");
        } catch (const InputError& e) {
            return e.what();
        }
        return "";
    });
    EXPECT_EQ(failure, "");
    EXPECT_EQ(test::read_file(file), "new\n");
}

}  // namespace
}  // namespace cachesim
