// libFuzzer target: the Accel-Sim traceg reader must turn any input into warps of accesses or an
// InputError, and the address regions of whatever it read must cover every access.
#include <algorithm>
#include <fstream>

#include "tests/fuzz/fuzz_input_file.hpp"
#include "traces/accelsim_reader.hpp"
#include "traces/input_error.hpp"

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
    cachesim::fuzz::InputFile file(data, size);
    using namespace cachesim::accelsim;
    try {
        std::ifstream in(file.path(), std::ios::binary);
        TracegReader reader(in, file.path());
        WarpAccesses warp;
        std::vector<std::uint64_t> pages;
        while (reader.next_warp(warp))
            for (std::uint32_t l = 0; l < kWarpSize; ++l) {
                if (l >= warp.lanes && !warp.lane[l].empty()) __builtin_trap();  // a lane past the block
                for (const cachesim::Access& a : warp.lane[l]) pages.push_back(a.address >> kPageShift);
            }
        std::sort(pages.begin(), pages.end());
        pages.erase(std::unique(pages.begin(), pages.end()), pages.end());
        const std::vector<cachesim::ArrayInfo> regions = regions_for_pages(pages);
        if (regions.empty() || regions.size() > kMaxRegions) __builtin_trap();
        for (std::uint64_t p : pages) {
            const std::uint64_t a = p << kPageShift;
            if (std::none_of(regions.begin(), regions.end(), [&](const cachesim::ArrayInfo& r) {
                    return a >= r.base && a - r.base < r.bytes();
                }))
                __builtin_trap();
        }
    } catch (const cachesim::InputError&) {
    }
    return 0;
}
