#include "apps/cachesim/sweep_progress.hpp"

#include <algorithm>
#include <cstdio>
#include <unistd.h>

namespace cachesim::cli {

std::string format_duration(double seconds) {
    if (seconds < 0) seconds = 0;
    const auto s = static_cast<long long>(seconds + 0.5);
    char buffer[32];
    if (s >= 3600) std::snprintf(buffer, sizeof buffer, "%lldh%02lldm", s / 3600, (s / 60) % 60);
    else if (s >= 60) std::snprintf(buffer, sizeof buffer, "%lldm%02llds", s / 60, s % 60);
    else std::snprintf(buffer, sizeof buffer, "%llds", s);
    return buffer;
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
    constexpr int kWidth = 30;
    const int filled = static_cast<int>(fraction * kWidth);
    std::string bar(static_cast<std::size_t>(filled), '#');
    bar.resize(kWidth, '.');
    std::string tail = final || fraction <= 0 ? "elapsed " + format_duration(elapsed)
                                              : "ETA " + format_duration(eta_seconds(elapsed, fraction));
    const std::string counts = style_.counts ? std::to_string(done) + "/" + std::to_string(total_) + " " : "";
    std::fprintf(stderr, "%s%s [%s] %s%3.0f%% %s%s", tty_ ? "\r" : "", label_.c_str(), bar.c_str(), counts.c_str(),
                 100 * fraction, tail.c_str(), tty_ && !final ? "   " : "\n");
    drawn_ = true;
    std::fflush(stderr);
}

double eta_seconds(double elapsed, double fraction) {
    if (fraction <= 0) return -1;
    return elapsed * (1 - std::min(fraction, 1.0)) / fraction;
}

WorkProgress::WorkProgress(std::vector<double> work) : work_(std::move(work)), fraction_(work_.size(), 0.0) {
    for (double& w : work_) {
        w = std::max(w, 1.0);  // a configuration of no known work still counts
        total_ += w;
    }
}

void WorkProgress::report(std::size_t i, double fraction) {
    std::lock_guard lock(mutex_);
    fraction = std::clamp(fraction, 0.0, 1.0);
    if (i >= fraction_.size() || fraction <= fraction_[i]) return;
    done_ += (fraction - fraction_[i]) * work_[i];
    if (fraction == 1.0) ++finished_;
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

}  // namespace cachesim::cli
