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
    constexpr ProgressStyle(bool counts = true, bool terminal_only = false, double delay_seconds = 0)
        : counts(counts), terminal_only(terminal_only), delay_seconds(delay_seconds) {}
    bool counts;                 // "done/total" beside the bar
    bool terminal_only;          // nothing where stderr is not a terminal
    double delay_seconds;        // nothing, not even the final line, before the run takes this long
    // After the counts: what they count ("finished": the units done, beside a percentage that
    // also counts the work of units still running).
    const char* counted = "";
    bool final_time = true;      // the final line's elapsed time (off where a summary gives it)
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

// "0.03 s", "2.5 s", "12 s", "2 min 05 s", "1 h 02 min": as precise as a reader of a progress
// line or a summary wants.
std::string format_duration(double seconds);

// The whole percentage a bar shows for `fraction` of the work with `done` of `total` units
// finished: rounded down, so 100% only once every unit has finished.
int shown_percent(double fraction, std::uint64_t done, std::uint64_t total);

// While one exists (one at a time), SIGINT, SIGTERM and SIGHUP first print on stderr how far the
// run got, "sweep: interrupted after 3 of 8 configurations; rerun ...", counting finished ones
// up to the signal. Then the signal takes its course (output_cleanup's handler removes the
// temporaries and the lock, and ends the process). A signal the process ignores stays ignored.
class InterruptNotice {
public:
    // `before` + finished count + " of " + total + `after`, e.g. "sweep: interrupted after ",
    // " configurations; rerun the same command to resume".
    InterruptNotice(std::string before, std::uint64_t finished, std::uint64_t total, std::string after);
    ~InterruptNotice();
    InterruptNotice(const InterruptNotice&) = delete;
    InterruptNotice& operator=(const InterruptNotice&) = delete;
    void finished_one();  // async-signal-safe to read: the handler prints it
};

// How far a run of many configurations of different sizes has come: each weighs its work (its
// accesses or warp requests, known up front), and one in flight counts the fraction of its own
// run it has reported. Counting configurations instead misleads: the first to finish is the
// smallest. Thread-safe.
class WorkProgress {
public:
    explicit WorkProgress(std::vector<double> work);
    // Configuration i has done `fraction` (0..1) of its work; never goes back.
    void report(std::size_t i, double fraction);
    // Configuration i has finished: only this counts it in finished(), not a report of all its
    // work, which comes before its result is kept.
    void finish(std::size_t i);
    double fraction() const;     // of all the work
    std::size_t finished() const;

private:
    void advance(std::size_t i, double fraction);  // with the mutex held

    mutable std::mutex mutex_;
    std::vector<double> work_, fraction_;
    std::vector<bool> finished_flags_;
    double total_ = 0, done_ = 0;
    std::size_t finished_ = 0;
};

// Seconds left after `elapsed` seconds with `fraction` of the work done, at the rate so far;
// negative when nothing is done yet.
double eta_seconds(double elapsed, double fraction);

}  // namespace cachesim::cli
