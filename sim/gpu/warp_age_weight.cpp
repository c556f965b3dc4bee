#include "sim/gpu/warp_age_weight.hpp"

#include <cmath>

namespace cachesim {

void WarpAgeWeights::configure(double weight, std::uint32_t group, std::uint32_t max_rank) {
    scale_.clear();
    if (!(weight > 0 && weight < 1) || group > max_rank) return;
    scale_.resize(static_cast<std::size_t>(max_rank) + 1);
    for (std::uint32_t r = 0; r <= max_rank; ++r) {
        const double behind = r < group ? 0 : static_cast<double>(r - group + 1);
        scale_[r] = static_cast<std::uint64_t>(std::ldexp(std::pow(weight, behind), 32));
    }
}

void WarpStepWeights::configure(double step, std::uint32_t max_offset) {
    scale_.clear();
    if (!(step > 0 && step < 1)) return;
    max_offset_ = max_offset;
    scale_.resize(2 * static_cast<std::size_t>(max_offset) + 1);
    for (std::int64_t d = -max_offset_; d <= max_offset_; ++d)
        scale_[static_cast<std::size_t>(d + max_offset_)] =
            static_cast<std::uint64_t>(std::ldexp(std::pow(step, static_cast<double>(d)), 32));
}

}  // namespace cachesim
