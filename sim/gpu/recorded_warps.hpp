#pragma once
// The requests of warps of a recorded launch (a cst version 2 trace: threads with their block and
// thread index and their own accesses), the GPU model's second source of requests beside the
// built-in workloads (warp_lanes.hpp). A warp is 32 consecutive linear thread indices of a block;
// request k is the k-th access of each lane that has one (lanes with fewer accesses sit out the
// rest), split by direction and size where the lanes' k-th accesses differ. A warp's requests are
// built once, when it is loaded into a slot; issuing one is a copy of its lanes' addresses.
//
// The trace is read forward as blocks are dispatched (in launch order), a file block of threads at
// a time into a chunk that the launch blocks point into, left undecoded (cst::ThreadRecords); a
// chunk is reused once every launch block with threads in it has had its last warp loaded. A warp
// whose lanes repeat lane 0's records (the common case: neighbouring threads, neighbouring
// elements) is built from lane 0's decoded accesses and each lane's array starts; any other has
// each lane decoded and gathered. With `read_ahead`, a thread of its
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
        cst::ThreadRecords records;
        std::uint32_t blocks_open = 0;
    };
    // A launch block's threads: thread t is records[t]'s thread index[t] (records[t] null: no access).
    struct PendingBlock {
        std::vector<const cst::ThreadRecords*> records;
        std::vector<std::uint32_t> index;
        std::vector<Chunk*> chunks;  // the chunks its threads lie in
    };
    // Builds the requests of a warp whose lanes repeat lane 0's records (ThreadRecords::repeats)
    // from lane 0's accesses and the lanes' array starts; returns false for any other warp.
    bool load_repeating(const PendingBlock& p, std::uint32_t first, std::uint32_t lanes, WarpRequests& out);
    // Any warp: every lane decoded, request k gathered from the lanes' k-th accesses.
    std::uint32_t load_gathered(const PendingBlock& p, std::uint32_t first, std::uint32_t lanes, WarpRequests& out);
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
    cst::ThreadDecoder decoder_;
    std::vector<std::uint32_t> lane_count_;
    std::vector<const Access*> lane_accesses_;
    std::vector<Access> decoded_;         // the lanes' accesses, decoded for the warp being built
    std::vector<std::uint32_t> used_;     // lane 0's arrays in the order of first use
    std::vector<std::uint32_t> use_of_array_;
    std::vector<std::uint64_t> lane_offsets_;  // per lane and used array: its start less lane 0's
    struct ArrayUse {
        bool even;             // the lanes' offsets step evenly: lane l at l x stride
        std::uint64_t stride;
    };
    std::vector<ArrayUse> array_uses_;  // per array lane 0 uses, in the order of first use
    std::vector<std::uint64_t> scratch_;  // a warp's lane addresses while its requests are built
};

}  // namespace cachesim
