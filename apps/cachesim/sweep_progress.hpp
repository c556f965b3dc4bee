#pragma once
// A progress bar with ETA on stderr. On a terminal it redraws one line; otherwise (CI logs) it
// prints a line at every 10% so logs stay short. Thread-safe: update() may come from any thread.
#include <chrono>
#include <cstdint>
#include <mutex>
#include <string>
#include <vector>

namespace cachesim::cli {

class ProgressBar {
public:
    ProgressBar(std::string label, std::uint64_t total, bool enabled = true);
    ~ProgressBar();
    void update(std::uint64_t done);  // absolute count of finished units
    // `done` units finished and `fraction` of the work done (units of different sizes, see
    // WorkProgress): the bar, percentage and ETA follow the fraction.
    void update(std::uint64_t done, double fraction);
    void finish();                    // final line with the elapsed time

private:
    void draw(std::uint64_t done, double fraction, bool final);

    std::string label_;
    std::uint64_t total_;
    bool enabled_, tty_, finished_ = false;
    std::chrono::steady_clock::time_point start_, last_draw_;
    int last_decile_ = -1;
    std::mutex mutex_;
};

// "1h02m", "3m05s", "12s"
std::string format_duration(double seconds);

// How far a run of many configurations of different sizes has come: each weighs its work (its
// accesses or warp requests, known up front), and one in flight counts the fraction of its own
// run it has reported. Counting configurations instead misleads: the first to finish is the
// smallest. Thread-safe.
class WorkProgress {
public:
    explicit WorkProgress(std::vector<double> work);
    // Configuration i has done `fraction` (0..1) of its work; never goes back.
    void report(std::size_t i, double fraction);
    void finish(std::size_t i) { report(i, 1.0); }
    double fraction() const;     // of all the work
    std::size_t finished() const;

private:
    mutable std::mutex mutex_;
    std::vector<double> work_, fraction_;
    double total_ = 0, done_ = 0;
    std::size_t finished_ = 0;
};

// Seconds left after `elapsed` seconds with `fraction` of the work done, at the rate so far;
// negative when nothing is done yet.
double eta_seconds(double elapsed, double fraction);

}  // namespace cachesim::cli
