// The cleanup handler and the registry of paths never interleave: a signal that comes while a
// file is being created together with its registration (a DeferSignals scope, in this thread or
// another) waits for the scope to end, then removes the file and ends the process by that signal.
// Each case runs in a child process, which the signal ends.
#include <gtest/gtest.h>

#include <atomic>
#include <csignal>
#include <fcntl.h>
#include <filesystem>
#include <pthread.h>
#include <sys/wait.h>
#include <thread>
#include <unistd.h>

#include "tests/cli_util.hpp"
#include "tests/scratch_dir.hpp"
#include "traces/output_cleanup.hpp"

namespace cachesim {
namespace {

namespace fs = std::filesystem;

// The exit code of a child that the signal did not end.
constexpr int kOutlivedTheSignal = 3;

void touch(const fs::path& path) {
    const int fd = ::open(path.c_str(), O_WRONLY | O_CREAT | O_CLOEXEC, 0644);
    if (fd >= 0) ::close(fd);
}

// Runs `body` in a child; returns its wait status.
template <class Body>
int in_child(Body body) {
    const pid_t pid = ::fork();
    if (pid == 0) {
        body();
        ::_exit(kOutlivedTheSignal);
    }
    int status = 0;
    ::waitpid(pid, &status, 0);
    return status;
}

std::string describe(int status) {
    if (WIFSIGNALED(status)) return "ended by signal " + std::to_string(WTERMSIG(status));
    return "exited with " + std::to_string(WEXITSTATUS(status));
}

TEST(OutputCleanupDefer, ASignalOutsideAnyScopeRemovesTheRegisteredFileAtOnce) {
    const fs::path dir = test::fresh_dir(test::temp_dir() / "defer-none");
    const fs::path file = dir / "registered";
    const int status = in_child([&] {
        output_cleanup::register_path(file.string());
        touch(file);
        ::raise(SIGTERM);
    });
    EXPECT_TRUE(WIFSIGNALED(status) && WTERMSIG(status) == SIGTERM) << describe(status);
    EXPECT_FALSE(fs::exists(file));
}

TEST(OutputCleanupDefer, ASignalInsideTheScopeWaitsForItsEnd) {
    const fs::path dir = test::fresh_dir(test::temp_dir() / "defer-same-thread");
    const fs::path file = dir / "created-then-registered", after_signal = dir / "after-signal";
    const int status = in_child([&] {
        {
            output_cleanup::DeferSignals defer;
            touch(file);  // created before it is registered: the window a signal used to fall into
            ::raise(SIGINT);
            touch(after_signal);  // the process lives on to the end of the scope
            output_cleanup::register_path(file.string());
        }  // the signal ends the process here
    });
    EXPECT_TRUE(WIFSIGNALED(status) && WTERMSIG(status) == SIGINT) << describe(status);
    EXPECT_TRUE(fs::exists(after_signal));
    EXPECT_FALSE(fs::exists(file));
}

TEST(OutputCleanupDefer, ASignalToAnotherThreadWaitsForTheScopeToEnd) {
    const fs::path dir = test::fresh_dir(test::temp_dir() / "defer-other-thread");
    const fs::path file = dir / "created-in-a-thread", after_signal = dir / "after-signal";
    const int status = in_child([&] {
        std::atomic<bool> inside{false}, signalled{false};
        std::thread creator([&] {
            output_cleanup::DeferSignals defer;
            touch(file);
            inside = true;
            while (!signalled) std::this_thread::yield();
            output_cleanup::register_path(file.string());
        });
        while (!inside) std::this_thread::yield();
        // The handler runs in this thread while the other is inside its scope: it must defer.
        ::pthread_kill(::pthread_self(), SIGHUP);
        touch(after_signal);
        signalled = true;
        creator.join();  // the creator's scope ends the process before it returns
    });
    EXPECT_TRUE(WIFSIGNALED(status) && WTERMSIG(status) == SIGHUP) << describe(status);
    EXPECT_TRUE(fs::exists(after_signal));
    EXPECT_FALSE(fs::exists(file));
}

TEST(OutputCleanupDefer, AnUnregisteredFileIsLeftAlone) {
    // A lock file removed by its owner and unregistered in one scope: after it, the path may name
    // another process's file, which the handler must not remove.
    const fs::path dir = test::fresh_dir(test::temp_dir() / "defer-unregistered");
    const fs::path file = dir / "someone-elses";
    const int status = in_child([&] {
        const int slot = output_cleanup::register_path(file.string());
        {
            output_cleanup::DeferSignals defer;
            output_cleanup::unregister(slot);
        }
        touch(file);  // as another process recreating the path
        ::raise(SIGTERM);
    });
    EXPECT_TRUE(WIFSIGNALED(status) && WTERMSIG(status) == SIGTERM) << describe(status);
    EXPECT_TRUE(fs::exists(file));
}

}  // namespace
}  // namespace cachesim
