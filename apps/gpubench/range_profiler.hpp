#pragma once
// Hardware counters of single kernel launches through CUPTI's range profiler (CUDA 13 API):
// one user range around one launch, replayed by us as often as the metrics need passes, with the
// caller's cache flush before every pass so that each pass sees the same cold caches.
#include <cstdint>
#include <functional>
#include <memory>
#include <string>
#include <vector>

namespace gpubench {

class RangeProfiler {
public:
    // Prepares the metrics for the current device's chip; throws CuptiError (unknown metric,
    // unsupported device, insufficient permissions, ...).
    RangeProfiler(int device, std::vector<std::string> metrics);
    ~RangeProfiler();
    RangeProfiler(const RangeProfiler&) = delete;
    RangeProfiler& operator=(const RangeProfiler&) = delete;

    // Runs `prepare_pass` (outside the range) then `launch` (inside it, synchronised) once per
    // pass and returns one value per metric, in the constructor's order.
    std::vector<double> measure(const std::string& range_name, const std::function<void()>& prepare_pass,
                                const std::function<void()>& launch);

    std::size_t passes() const { return passes_; }
    const std::string& chip() const { return chip_; }

private:
    struct Host;
    std::vector<std::string> metrics_;
    std::vector<const char*> metric_ptrs_;
    std::vector<std::uint8_t> config_image_;
    std::unique_ptr<Host> host_;
    void* context_ = nullptr;  // CUcontext
    std::size_t passes_ = 0;
    std::string chip_;
};

}  // namespace gpubench
