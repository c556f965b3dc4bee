#pragma once
// A progress bar with ETA on stderr. On a terminal it redraws one line; otherwise (CI logs) it
// prints a line at every 10% so logs stay short, or nothing (ProgressStyle). Thread-safe: update()
// may come from any thread.
#include <chrono>
#include <cstdint>
#include <functional>
#include <mutex>
#include <string>
#include <vector>

namespace cachesim::cli {

// How a bar shows. A single run's bar (simulate, diagram) shows only a fraction, only on a
// terminal and only once the run has taken a while, so that quick runs, pipes and logs stay as
// they were.
struct ProgressStyle {
    bool counts = true;          // "done/total" beside the bar
    bool terminal_only = false;  // nothing where stderr is not a terminal
    double delay_seconds = 0;    // nothing, not even the final line, before the run takes this long
};

class ProgressBar {
public:
    ProgressBar(std::string label, std::uint64_t total, bool enabled = true, ProgressStyle style = {});
    ~ProgressBar();
    void update(std::uint64_t done);  // absolute count of finished units
    // `done` units finished and `fraction` of the work done (units of different sizes, see
    // WorkProgress): the bar, percentage and ETA follow the fraction.
    void update(std::uint64_t done, double fraction);
    void finish();                    // final line with the elapsed time

private:
    void draw(std::uint64_t done, double fraction, bool final);

    bool shown_yet() const;  // past the style's delay (or already drawn)

    std::string label_;
    std::uint64_t total_;
    ProgressStyle style_;
    bool enabled_, tty_, finished_ = false, drawn_ = false;
    std::chrono::steady_clock::time_point start_, last_draw_;
    int last_decile_ = -1;
    std::mutex mutex_;
};

// One run's progress (simulate, diagram): its share done and ETA, on a terminal only and once the
// run has taken two seconds.
class RunProgress {
public:
    explicit RunProgress(bool enabled) : bar_("simulating", 1000, enabled, {false, true, 2.0}) {}
    // For RunControl::progress; the bar must outlive the run.
    std::function<void(double)> callback() {
        return [this](double fraction) { bar_.update(static_cast<std::uint64_t>(fraction * 1000), fraction); };
    }
    void finish() { bar_.finish(); }

private:
    ProgressBar bar_;
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
