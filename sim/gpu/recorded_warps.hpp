#pragma once
// The requests of warps of a recorded launch (a cst version 2 trace: threads with their block and
// thread index and their own accesses), the GPU model's second source of requests beside the
// built-in workloads (warp_lanes.hpp). A warp is 32 consecutive linear thread indices of a block;
// request k is the k-th access of each lane that has one (lanes with fewer accesses sit out the
// rest), split by direction and size where the lanes' k-th accesses differ. A warp's requests are
// built once, when it is loaded into a slot; issuing one is a copy of its lanes' addresses.
//
// The trace is read forward as blocks are dispatched (in launch order); blocks read ahead of the
// one asked for wait in memory until their warps are loaded, and a block's accesses are dropped
// once its last warp is.
#include <cstdint>
#include <map>
#include <string>
#include <vector>

#include "sim/gpu/warp_lanes.hpp"
#include "traces/trace_format_reader.hpp"

namespace cachesim {

struct RecordedRequest {
    RequestShape shape;   // size, array (its first lane's), direction and active lanes
    std::uint32_t first;  // its first lane's address in WarpRequests::addresses
};

// One warp's requests in issue order, with their lanes' addresses.
struct WarpRequests {
    std::vector<RecordedRequest> requests;
    std::vector<std::uint64_t> addresses;
};

class RecordedWarps {
public:
    // Opens a cst trace of a launch; throws InputError for a bad file or a version 1 trace.
    explicit RecordedWarps(const std::string& path);

    const cst::TraceHeader& header() const { return source_.header(); }
    const cst::LaunchGeometry& launch() const { return *source_.header().launch; }
    std::uint32_t threads_per_block() const { return threads_per_block_; }
    std::uint64_t blocks() const { return launch().blocks(); }

    // The requests of warp `warp` (lanes warp*warp_size ..) of launch block `block` into `out`.
    // Returns the lanes that make an access (0: the warp issues nothing). Blocks are asked for in
    // increasing order, each block's warps in increasing order (IssueScheduler::dispatch).
    std::uint32_t load(std::uint64_t block, std::uint32_t warp, std::uint32_t warp_size, WarpRequests& out);

private:
    // A block's threads read from the trace: thread i's accesses are accesses[begin[i] .. end[i]).
    struct PendingBlock {
        std::vector<std::uint32_t> begin, end;
        std::vector<Access> accesses;
    };
    void read_through(std::uint64_t block);

    cst::TraceFileSource source_;
    std::uint32_t threads_per_block_ = 1;
    std::map<std::uint64_t, PendingBlock> pending_;
    std::uint64_t next_block_ = 0;  // every block below it is complete in pending_ (or absent)
    bool finished_ = false;         // the whole trace has been read
    cst::ThreadBatch batch_;
    std::vector<std::uint32_t> lane_count_;
    std::vector<const Access*> lane_accesses_;
};

}  // namespace cachesim
