// The requests of a recorded launch's warps (sim/gpu/recorded_warps.hpp), expanded lane by lane,
// are the lanes' k-th accesses in lane order, asked for in order and out of it: for warps whose
// lanes repeat lane 0 with an even step, with uneven steps per array, with one lane breaking the
// pattern, with a lane missing and with lanes of different lengths, and for warps lying across the
// file's blocks.
#include <gtest/gtest.h>

#include <filesystem>
#include <string>
#include <unistd.h>
#include <vector>

#include "sim/gpu/recorded_warps.hpp"
#include "traces/trace_format_writer.hpp"

namespace cachesim {
namespace {

constexpr std::uint32_t kWarp = 32;

// Thread t's accesses, by case (its warp: t / 32 within blocks of 64 threads).
std::vector<Access> accesses_of(std::uint64_t t) {
    const std::uint64_t warp = t / kWarp, lane = t % kWarp;
    const std::uint64_t a = 0x1000, b = 0x100000;
    std::vector<Access> out;
    switch (warp % 6) {
        case 0:  // neighbours: 3 loads along a, a store to b; even steps of 4 and 8 bytes
            for (std::uint64_t k = 0; k < 3; ++k) out.push_back({a + 4 * (t + k), 4, 0, false});
            out.push_back({b + 8 * t, 8, 1, true});
            break;
        case 1:  // the same structure, lane starts not evenly apart (l squared)
            for (std::uint64_t k = 0; k < 3; ++k) out.push_back({a + 4 * (lane * lane + k), 4, 0, false});
            out.push_back({b + 8 * t, 8, 1, true});
            break;
        case 2:  // lane 7 steps by 8 inside the loop: not a repeat of lane 6
            for (std::uint64_t k = 0; k < 3; ++k) out.push_back({a + 4 * (t + k * (lane == 7 ? 2 : 1)), 4, 0, false});
            out.push_back({b + 8 * t, 8, 1, true});
            break;
        case 3:  // lane 5 makes no access at all
            if (lane != 5)
                for (std::uint64_t k = 0; k < 2; ++k) out.push_back({a + 4 * (t + k), 4, 0, false});
            break;
        case 4:  // lane l makes l % 4 + 1 loads (divergent loop lengths)
            for (std::uint64_t k = 0; k <= lane % 4; ++k) out.push_back({a + 4 * t + 64 * k, 4, 0, false});
            break;
        case 5:  // every lane reads one address (a broadcast), then its own element of b
            out.push_back({a, 4, 0, false});
            out.push_back({b + 4 * lane, 4, 1, false});
            break;
    }
    return out;
}

TEST(RecordedWarps, RequestsExpandToTheLanesAccesses) {
    const auto dir = std::filesystem::temp_directory_path() / ("cachesim-recorded-warps-" + std::to_string(::getpid()));
    std::filesystem::create_directories(dir);
    const std::string path = (dir / "w.cst").string();
    const std::uint32_t threads_per_block = 64;
    const std::uint64_t blocks = 300;  // about 70,000 accesses: several file blocks
    {
        cst::TraceHeader header;
        header.arrays = {{"a", 0x1000, 4, 1 << 16, 1}, {"b", 0x100000, 8, 1 << 16, 1}};
        header.launch = cst::linear_launch(blocks * threads_per_block, threads_per_block);
        cst::TraceWriter writer(path, header);
        for (std::uint64_t t = 0; t < blocks * threads_per_block; ++t) {
            const std::vector<Access> a = accesses_of(t);
            if (!a.empty()) writer.append_thread(t, a.data(), static_cast<std::uint32_t>(a.size()));
        }
        writer.finish();
    }
    // Decoded by the model's thread, by one reader beside it, and by three sharing the blocks.
    for (const unsigned readers : {0u, 1u, 3u}) {
        SCOPED_TRACE("readers " + std::to_string(readers));
        RecordedWarps recorded(path, readers);
        WarpRequests warp;
        std::shared_ptr<const RunRecords> previous_run;  // the last repeating warp's records
        for (std::uint64_t block = 0; block < blocks; ++block)
            for (std::uint32_t w = 0; w < threads_per_block / kWarp; ++w) {
                const std::uint64_t first = block * threads_per_block + w * kWarp;
                std::vector<std::vector<Access>> lanes;
                std::uint32_t active = 0;
                std::size_t most = 0;
                for (std::uint32_t l = 0; l < kWarp; ++l) {
                    lanes.push_back(accesses_of(first + l));
                    active += !lanes.back().empty();
                    most = std::max(most, lanes.back().size());
                }
                ASSERT_EQ(recorded.load(block, w, kWarp, warp), active) << "block " << block << " warp " << w;
                ASSERT_EQ(warp.count(), most) << "block " << block << " warp " << w;
                // Every request in issue order, then a few again out of order (decoded from the start).
                std::vector<std::uint32_t> order(most);
                for (std::uint32_t k = 0; k < most; ++k) order[k] = k;
                order.insert(order.end(), {0u, static_cast<std::uint32_t>(most - 1), static_cast<std::uint32_t>(most / 2)});
                for (const std::uint32_t k : order) {
                    std::uint64_t addresses[kWarp];
                    RequestShape shape;
                    if (warp.repeating) {
                        shape = warp.generate_repeating(k, addresses);
                        if (shape.even)  // lane 0's address alone: lane l's is l steps on
                            for (std::uint32_t l = 1; l < shape.lanes; ++l) addresses[l] = addresses[0] + l * shape.stride;
                    } else {
                        const RecordedRequest& r = warp.requests[k];
                        shape = r.shape;
                        for (std::uint32_t l = 0; l < shape.lanes; ++l)
                            addresses[l] = shape.even ? r.base + l * shape.stride : warp.addresses[r.first + l];
                    }
                    std::vector<std::uint64_t> expected;
                    for (const std::vector<Access>& lane : lanes)
                        if (lane.size() > k) expected.push_back(lane[k].address);
                    std::size_t lead_lane = 0;  // the request is its first active lane's array, size and direction
                    while (lanes[lead_lane].size() <= k) ++lead_lane;
                    const Access& lead = lanes[lead_lane][k];
                    ASSERT_EQ(shape.lanes, expected.size()) << "block " << block << " warp " << w << " request " << k;
                    EXPECT_EQ(shape.size, lead.size);
                    EXPECT_EQ(shape.is_write, lead.is_write);
                    EXPECT_EQ(shape.array, lead.array);
                    for (std::uint32_t l = 0; l < shape.lanes; ++l)
                        ASSERT_EQ(addresses[l], expected[l]) << "block " << block << " warp " << w << " request " << k << " lane " << l;
                }
                // The warps whose lanes repeat lane 0 are kept as lane 0's records.
                const std::uint64_t kind = first / kWarp % 6;
                EXPECT_EQ(warp.repeating, kind == 0 || kind == 1 || kind == 5) << "block " << block << " warp " << w;
                // A kind-1 warp follows a kind-0 one (the two blocks' warps 0 and 1, or 6 and 7 ...)
                // whose last lane its lane 0 repeats (the same records, other starts): they share one
                // copy. Kind 0 follows kind 5 (other records) and kind 5 follows gathered warps: a copy
                // of their own.
                if (warp.repeating) {
                    EXPECT_EQ(warp.run == previous_run, kind == 1) << "block " << block << " warp " << w;
                    previous_run = warp.run;
                }
            }
    }
    std::filesystem::remove_all(dir);
}

}  // namespace
}  // namespace cachesim
