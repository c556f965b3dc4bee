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

}  // namespace cachesim
