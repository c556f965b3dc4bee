#pragma once
// The requests of warps of a recorded launch (a cst version 2 trace: threads with their block and
// thread index and their own accesses), the GPU model's second source of requests beside the
// built-in workloads (warp_lanes.hpp). A warp is 32 consecutive linear thread indices of a block;
// request k is the k-th access of each lane that has one (lanes with fewer accesses sit out the
// rest), split by direction and size where the lanes' k-th accesses differ. A warp's requests are
// built once, when it is loaded into a slot; issuing one is a copy of its lanes' addresses.
//
// The trace is read forward as blocks are dispatched (in launch order), a file block of threads at
// a time into a chunk that the launch blocks point into (no copy); a chunk is reused once every
// launch block with threads in it has had its last warp loaded. With `read_ahead`, a thread of its
// own decompresses and decodes the next chunks while the model runs (the order, and so every
// result, is the same).
#include <cstdint>
#include <condition_variable>
#include <deque>
#include <exception>
#include <map>
#include <memory>
#include <mutex>
#include <thread>
#include <string>
#include <vector>

#include "sim/gpu/warp_lanes.hpp"
#include "traces/trace_format_reader.hpp"

namespace cachesim {

// A request whose lanes' addresses step evenly (lane l at base + l x stride: a warp reading
// consecutive elements, or all one address) keeps just base and stride; any other keeps its lanes'
// addresses in WarpRequests::addresses from `first` on. Most requests of regular kernels are even,
// so a resident warp costs a few bytes per request instead of 8 per lane.
struct RecordedRequest {
    static constexpr std::uint32_t kEven = ~0u;
    RequestShape shape;   // size, array (its first lane's), direction and active lanes
    std::uint32_t first;  // kEven, or its first lane's address in WarpRequests::addresses
    std::uint64_t base;   // even: lane l's address is base + l * stride
    std::int64_t stride;
};

// One warp's requests in issue order, with the lanes' addresses of its uneven ones.
struct WarpRequests {
    std::vector<RecordedRequest> requests;
    std::vector<std::uint64_t> addresses;
};

class RecordedWarps {
public:
    // Opens a cst trace of a launch; throws InputError for a bad file or a version 1 trace.
    explicit RecordedWarps(const std::string& path, bool read_ahead = false);
    ~RecordedWarps();
    RecordedWarps(const RecordedWarps&) = delete;
    RecordedWarps& operator=(const RecordedWarps&) = delete;

    const cst::TraceHeader& header() const { return source_.header(); }
    const cst::LaunchGeometry& launch() const { return *source_.header().launch; }
    std::uint32_t threads_per_block() const { return threads_per_block_; }
    std::uint64_t blocks() const { return launch().blocks(); }

    // The requests of warp `warp` (lanes warp*warp_size ..) of launch block `block` into `out`.
    // Returns the lanes that make an access (0: the warp issues nothing). Blocks are asked for in
    // increasing order, each block's warps in increasing order (IssueScheduler::dispatch).
    std::uint32_t load(std::uint64_t block, std::uint32_t warp, std::uint32_t warp_size, WarpRequests& out);

private:
    // Threads as read from the file, and how many launch blocks still point into them.
    struct Chunk {
        cst::ThreadBatch batch;
        std::uint32_t blocks_open = 0;
    };
    // A launch block's threads: thread i's accesses are begin[i] .. begin[i] + count[i].
    struct PendingBlock {
        std::vector<const Access*> begin;
        std::vector<std::uint32_t> count;
        std::vector<Chunk*> chunks;  // the chunks its threads lie in
    };
    void read_through(std::uint64_t block);
    void release(const PendingBlock& block);
    // The next chunk of threads from the file, or nullptr at its end (rethrows the reader's error).
    Chunk* next_chunk();
    Chunk* free_chunk();  // a chunk to read into (callers hold mutex_ where the reader runs)
    void read_ahead_loop();

    cst::TraceFileSource source_;
    std::uint32_t threads_per_block_ = 1;
    std::map<std::uint64_t, PendingBlock> pending_;
    std::uint64_t next_block_ = 0;  // every block below it is complete in pending_ (or absent)
    bool finished_ = false;         // the whole trace has been read
    std::vector<std::unique_ptr<Chunk>> chunks_;  // every chunk, in use or free
    std::vector<Chunk*> free_chunks_;
    // Read ahead: the reader fills free chunks into ready_ (at most kReadyAhead waiting).
    static constexpr std::size_t kReadyAhead = 16;  // file blocks of 16K accesses
    std::mutex mutex_;
    std::condition_variable changed_;
    std::deque<Chunk*> ready_;
    bool reader_done_ = false, stopping_ = false;
    std::exception_ptr reader_error_;
    std::thread reader_;
    std::vector<std::uint32_t> lane_count_;
    std::vector<const Access*> lane_accesses_;
    std::vector<std::uint64_t> scratch_;  // a warp's lane addresses while its requests are built
};

}  // namespace cachesim
