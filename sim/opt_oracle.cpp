#include "sim/opt_oracle.hpp"

#include "sim/line_map.hpp"
#include "sim/policies/policy.hpp"

namespace cachesim {

std::vector<std::uint64_t> next_use_from_stream(std::vector<std::uint64_t> lines) {
    LineMap next_seen(1024);
    for (std::size_t i = lines.size(); i-- > 0;) {
        bool inserted = false;
        std::uint64_t& slot = next_seen.find_or_insert(lines[i], kNeverUsedAgain, inserted);
        const std::uint64_t next = slot;
        slot = i;
        lines[i] = next;
    }
    return lines;
}

}  // namespace cachesim
