#pragma once
// A progress bar with ETA on stderr. On a terminal it redraws one line; otherwise (CI logs) it
// prints a line at every 10% so logs stay short. Thread-safe: update() may come from any thread.
#include <chrono>
#include <cstdint>
#include <mutex>
#include <string>

namespace cachesim::cli {

class ProgressBar {
public:
    ProgressBar(std::string label, std::uint64_t total, bool enabled = true);
    ~ProgressBar();
    void update(std::uint64_t done);  // absolute count of finished units
    void finish();                    // final line with the elapsed time

private:
    void draw(std::uint64_t done, bool final);

    std::string label_;
    std::uint64_t total_;
    bool enabled_, tty_, finished_ = false;
    std::chrono::steady_clock::time_point start_, last_draw_;
    int last_decile_ = -1;
    std::mutex mutex_;
};

// "1h02m", "3m05s", "12s"
std::string format_duration(double seconds);

}  // namespace cachesim::cli
