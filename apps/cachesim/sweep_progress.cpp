#include "apps/cachesim/sweep_progress.hpp"

#include <algorithm>
#include <atomic>
#include <cerrno>
#include <cmath>
#include <csignal>
#include <cstdio>
#include <signal.h>
#include <unistd.h>

#include "traces/output_cleanup.hpp"

namespace cachesim::cli {

std::string format_duration(double seconds) {
    if (!(seconds > 0)) seconds = 0;
    char buffer[48];
    if (seconds < 0.995) std::snprintf(buffer, sizeof buffer, "%.2f s", seconds);
    else if (seconds < 9.95) std::snprintf(buffer, sizeof buffer, "%.1f s", seconds);
    else if (seconds < 59.5) std::snprintf(buffer, sizeof buffer, "%.0f s", seconds);
    else {
        const auto s = static_cast<long long>(seconds + 0.5);
        if (s < 3600) std::snprintf(buffer, sizeof buffer, "%lld min %02lld s", s / 60, s % 60);
        else std::snprintf(buffer, sizeof buffer, "%lld h %02lld min", s / 3600, (s / 60) % 60);
    }
    return buffer;
}

int shown_percent(double fraction, std::uint64_t done, std::uint64_t total) {
    // The small margin keeps a fraction such as 0.29 (28.999...%) from showing one point short.
    const int percent = static_cast<int>(std::floor(100 * std::clamp(fraction, 0.0, 1.0) + 1e-9));
    return done < total ? std::min(percent, 99) : percent;
}

ProgressBar::ProgressBar(std::string label, std::uint64_t total, bool enabled, ProgressStyle style)
    : label_(std::move(label)), total_(total), style_(style), tty_(::isatty(STDERR_FILENO) == 1),
      start_(std::chrono::steady_clock::now()), last_draw_(start_) {
    enabled_ = enabled && total > 0 && (tty_ || !style_.terminal_only);
}

ProgressBar::~ProgressBar() {
    if (tty_ && drawn_ && !finished_) std::fputc('\n', stderr);  // leave the cursor on a new line
}

bool ProgressBar::shown_yet() const {
    return drawn_ || std::chrono::steady_clock::now() - start_ >= std::chrono::duration<double>(style_.delay_seconds);
}

void ProgressBar::update(std::uint64_t done) {
    update(done, total_ ? static_cast<double>(done) / static_cast<double>(total_) : 1.0);
}

void ProgressBar::update(std::uint64_t done, double fraction) {
    if (!enabled_) return;
    std::lock_guard lock(mutex_);
    if (finished_ || !shown_yet()) return;
    const auto now = std::chrono::steady_clock::now();
    if (tty_) {
        if (drawn_ && now - last_draw_ < std::chrono::milliseconds(100) && done < total_) return;
    } else {
        if (done >= total_) return;  // finish() prints the last line
        const int decile = static_cast<int>(10 * fraction);
        if (decile == last_decile_) return;
        last_decile_ = decile;
    }
    last_draw_ = now;
    draw(done, fraction, false);
}

void ProgressBar::finish() {
    if (!enabled_) return;
    std::lock_guard lock(mutex_);
    if (finished_) return;
    finished_ = true;
    if (shown_yet()) draw(total_, 1.0, true);
}

void ProgressBar::draw(std::uint64_t done, double fraction, bool final) {
    const double elapsed = std::chrono::duration<double>(std::chrono::steady_clock::now() - start_).count();
    fraction = std::clamp(fraction, 0.0, 1.0);
    const int percent = shown_percent(fraction, done, total_);
    constexpr int kWidth = 24;  // the line fits 80 columns with 4-digit counts and an ETA in minutes
    std::string bar(static_cast<std::size_t>(percent * kWidth / 100), '#');  // full only at 100%
    bar.resize(kWidth, '.');
    std::string line = label_ + " [" + bar + "] ";
    char percent_text[8];
    std::snprintf(percent_text, sizeof percent_text, "%3d%%", percent);
    line += percent_text;
    if (style_.counts) {
        line += ", " + std::to_string(done) + "/" + std::to_string(total_);
        if (*style_.counted) line += std::string(" ") + style_.counted;
    }
    if (!final && fraction > 0) {
        // Hundredths of a second of an estimate are noise.
        const double eta = eta_seconds(elapsed, fraction);
        line += eta < 0.95 ? std::string(", ETA under 1 s") : ", ETA " + format_duration(eta);
    } else if (!final || style_.final_time) line += ", elapsed " + format_duration(elapsed);
    std::fprintf(stderr, "%s%s%s", tty_ ? "\r" : "", line.c_str(), tty_ && !final ? "   " : "\n");
    drawn_ = true;
    std::fflush(stderr);
}

double eta_seconds(double elapsed, double fraction) {
    if (fraction <= 0) return -1;
    return elapsed * (1 - std::min(fraction, 1.0)) / fraction;
}

WorkProgress::WorkProgress(std::vector<double> work)
    : work_(std::move(work)), fraction_(work_.size(), 0.0), finished_flags_(work_.size(), false) {
    for (double& w : work_) {
        w = std::max(w, 1.0);  // a configuration of no known work still counts
        total_ += w;
    }
}

void WorkProgress::report(std::size_t i, double fraction) {
    std::lock_guard lock(mutex_);
    advance(i, fraction);
}

void WorkProgress::finish(std::size_t i) {
    std::lock_guard lock(mutex_);
    if (i >= fraction_.size() || finished_flags_[i]) return;
    advance(i, 1.0);
    finished_flags_[i] = true;
    ++finished_;
}

void WorkProgress::advance(std::size_t i, double fraction) {
    fraction = std::clamp(fraction, 0.0, 1.0);
    if (i >= fraction_.size() || fraction <= fraction_[i]) return;
    done_ += (fraction - fraction_[i]) * work_[i];
    fraction_[i] = fraction;
}

double WorkProgress::fraction() const {
    std::lock_guard lock(mutex_);
    return total_ > 0 ? std::min(1.0, done_ / total_) : 1.0;
}

std::size_t WorkProgress::finished() const {
    std::lock_guard lock(mutex_);
    return finished_;
}

namespace {

constexpr int kNoticeSignals[] = {SIGINT, SIGTERM, SIGHUP};
constexpr std::size_t kNoticeSignalCount = sizeof kNoticeSignals / sizeof kNoticeSignals[0];

// The notice's text and count, read by the handler: set before it is installed, and not changed
// while it is (but for the count, an atomic).
struct NoticeState {
    std::string before, after;
    std::uint64_t total = 0;
    std::atomic<std::uint64_t> finished{0};
    std::atomic<bool> printed{false};
    bool newline_first = false;  // a terminal's progress line is left unfinished
    struct sigaction previous[kNoticeSignalCount] = {};
    bool installed[kNoticeSignalCount] = {};
};
NoticeState notice;
static_assert(std::atomic<std::uint64_t>::is_always_lock_free, "the signal handler needs a lock-free count");

void write_to_stderr(const char* text, std::size_t size) noexcept {
    while (size > 0) {
        const ssize_t written = ::write(STDERR_FILENO, text, size);
        if (written < 0 && errno == EINTR) continue;
        if (written <= 0) return;
        text += written;
        size -= static_cast<std::size_t>(written);
    }
}

void write_number_to_stderr(std::uint64_t value) noexcept {
    char digits[24];
    std::size_t first = sizeof digits;
    do {
        digits[--first] = static_cast<char>('0' + value % 10);
        value /= 10;
    } while (value > 0);
    write_to_stderr(digits + first, sizeof digits - first);
}

extern "C" void print_notice_and_pass_on(int signal_number) {
    const int saved = errno;
    if (!notice.printed.exchange(true)) {
        if (notice.newline_first) write_to_stderr("\n", 1);
        write_to_stderr(notice.before.data(), notice.before.size());
        write_number_to_stderr(notice.finished.load());
        write_to_stderr(" of ", 4);
        write_number_to_stderr(notice.total);
        write_to_stderr(notice.after.data(), notice.after.size());
        write_to_stderr("\n", 1);
    }
    errno = saved;
    for (std::size_t k = 0; k < kNoticeSignalCount; ++k) {
        if (kNoticeSignals[k] != signal_number) continue;
        const struct sigaction& previous = notice.previous[k];
        if (previous.sa_handler != SIG_DFL) {
            previous.sa_handler(signal_number);
            return;
        }
        // Blocked until this handler returns, then delivered with the default action.
        ::sigaction(signal_number, &previous, nullptr);
        ::raise(signal_number);
    }
}

}  // namespace

InterruptNotice::InterruptNotice(std::string before, std::uint64_t finished, std::uint64_t total, std::string after) {
    notice.before = std::move(before);
    notice.after = std::move(after);
    notice.total = total;
    notice.finished.store(finished);
    notice.printed.store(false);
    notice.newline_first = ::isatty(STDERR_FILENO) == 1;
    // output_cleanup's handlers first: they install only over a signal's default action, so once
    // this one is in place they would leave the temporaries and the lock behind.
    { output_cleanup::DeferSignals installs_cleanup_handlers; }
    for (std::size_t k = 0; k < kNoticeSignalCount; ++k) {
        struct sigaction& previous = notice.previous[k];
        if (::sigaction(kNoticeSignals[k], nullptr, &previous) != 0 || previous.sa_handler == SIG_IGN ||
            (previous.sa_flags & SA_SIGINFO))
            continue;
        struct sigaction action {};
        action.sa_handler = print_notice_and_pass_on;
        sigemptyset(&action.sa_mask);
        action.sa_flags = SA_RESTART;
        notice.installed[k] = ::sigaction(kNoticeSignals[k], &action, nullptr) == 0;
    }
}

InterruptNotice::~InterruptNotice() {
    for (std::size_t k = 0; k < kNoticeSignalCount; ++k)
        if (notice.installed[k]) {
            ::sigaction(kNoticeSignals[k], &notice.previous[k], nullptr);
            notice.installed[k] = false;
        }
}

void InterruptNotice::finished_one() { notice.finished.fetch_add(1); }

}  // namespace cachesim::cli
