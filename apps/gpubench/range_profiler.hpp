#pragma once
// Hardware counters of single kernel launches through CUPTI's range profiler (CUDA 13 API).
//
// The metrics are split into groups that each fit one hardware pass, and every group is collected
// on its own launch (after the caller's cache flush). So a ratio such as L2 hits / L2 lookups
// always comes from one run: mixing passes of different runs gave "hit rates" above 100% on the
// H200, because which warps hit in L1, and so what reaches L2, varies from run to run.
#include <cstdint>
#include <functional>
#include <memory>
#include <string>
#include <vector>

namespace gpubench {

class RangeProfiler {
public:
    // Prepares the metrics for the device's chip; throws CuptiError (unknown metric, unsupported
    // device, insufficient permissions, ...).
    RangeProfiler(int device, std::vector<std::string> metrics);
    ~RangeProfiler();
    RangeProfiler(const RangeProfiler&) = delete;
    RangeProfiler& operator=(const RangeProfiler&) = delete;

    // For every metric group: `prepare` (outside the range), then `launch` inside one user range,
    // synchronised. Returns one value per metric, in the constructor's order.
    std::vector<double> measure(const std::string& range_name, const std::function<void()>& prepare,
                                const std::function<void()>& launch);

    std::size_t groups() const { return groups_.size(); }
    std::string describe_groups() const;  // e.g. "{a.sum, b.sum} {c.pct}"
    const std::string& chip() const { return chip_; }

private:
    struct Group;
    std::vector<double> measure_group(Group& group, const std::string& range_name,
                                      const std::function<void()>& prepare, const std::function<void()>& launch);
    std::unique_ptr<Group> make_group(const std::vector<std::size_t>& metric_indices) const;

    std::vector<std::string> metrics_;
    std::vector<std::unique_ptr<Group>> groups_;
    std::vector<std::uint8_t> availability_;  // counter availability image of the device
    void* context_ = nullptr;                 // CUcontext
    std::string chip_;
};

}  // namespace gpubench
