// libFuzzer target: the warp-timeline reader (gpubench --warp-times files) must turn any input
// into a complete timeline of the asked launch or an InputError.
#include <string_view>

#include "traces/input_error.hpp"
#include "traces/warp_times.hpp"

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
    const std::string_view text(reinterpret_cast<const char*>(data), size);
    cachesim::WorkloadSpec matmul;
    matmul.kind = cachesim::WorkloadKind::matmul;
    matmul.width = 32;
    matmul.height = 2;
    matmul.depth = 4;
    cachesim::WorkloadSpec stencil;  // 16x16, 7x7: 256 threads
    for (const auto& [spec, block] : {std::pair{matmul, 32u}, std::pair{stencil, 64u}}) {
        try {
            const cachesim::WarpTimeline t = cachesim::parse_warp_times(text, "fuzz", spec, block);
            for (const cachesim::WarpInterval& w : t.warps)
                if (w.end_ns < w.start_ns) __builtin_trap();  // promised never to happen
        } catch (const cachesim::InputError&) {
        }
    }
    return 0;
}
