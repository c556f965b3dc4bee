#pragma once
// Runs the cachesim binary (CACHESIM_BIN) in the background, to interrupt it: spawn, poll a file
// until a condition holds, signal, reap.
#include <signal.h>
#include <sys/wait.h>
#include <unistd.h>

#include <chrono>
#include <cstdlib>
#include <functional>
#include <string>
#include <thread>

namespace cachesim::test {

class BackgroundRun {
public:
    // `args` as for run_cachesim: shell words after the binary; stdout and stderr go to `log`.
    BackgroundRun(const std::string& args, const std::string& log) {
        const char* bin = std::getenv("CACHESIM_BIN");
        const std::string command = "exec '" + std::string(bin ? bin : "cachesim") + "' " + args + " >'" + log + "' 2>&1";
        pid_ = ::fork();
        if (pid_ == 0) {
            ::execl("/bin/sh", "sh", "-c", command.c_str(), static_cast<char*>(nullptr));
            ::_exit(127);
        }
    }
    ~BackgroundRun() {
        if (pid_ > 0 && !reaped_) {
            ::kill(pid_, SIGKILL);
            wait();
        }
    }
    BackgroundRun(const BackgroundRun&) = delete;
    BackgroundRun& operator=(const BackgroundRun&) = delete;

    pid_t pid() const { return pid_; }

    // Polls `done` every millisecond until it holds (true) or the process has exited (false).
    bool wait_until(const std::function<bool()>& done, std::chrono::seconds limit = std::chrono::seconds(60)) {
        const auto end = std::chrono::steady_clock::now() + limit;
        while (std::chrono::steady_clock::now() < end) {
            if (done()) return true;
            int status = 0;
            if (::waitpid(pid_, &status, WNOHANG) == pid_) {
                reaped_ = true;
                status_ = status;
                return false;
            }
            std::this_thread::sleep_for(std::chrono::milliseconds(1));
        }
        return false;
    }

    void signal(int number) { ::kill(pid_, number); }

    // The exit status as the shell reports it: the code, or 128 + the signal.
    int wait() {
        if (!reaped_) {
            ::waitpid(pid_, &status_, 0);
            reaped_ = true;
        }
        return WIFEXITED(status_) ? WEXITSTATUS(status_) : 128 + WTERMSIG(status_);
    }

private:
    pid_t pid_ = -1;
    bool reaped_ = false;
    int status_ = 0;
};

}  // namespace cachesim::test
