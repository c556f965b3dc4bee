#pragma once
// The requests of warps of a recorded launch (a cst version 2 trace: threads with their block and
// thread index and their own accesses), the GPU model's second source of requests beside the
// built-in workloads (warp_lanes.hpp). A warp is 32 consecutive linear thread indices of a block;
// request k is the k-th access of each lane that has one (lanes with fewer accesses sit out the
// rest), split by direction and size where the lanes' k-th accesses differ.
//
// The trace is read forward as blocks are dispatched (in launch order), a file block of threads at
// a time into a chunk that the launch blocks point into, left undecoded (cst::ThreadRecords); a
// chunk is reused once every launch block with threads in it has had its last warp loaded. A warp
// whose lanes repeat lane 0's records (the common case: neighbouring threads, neighbouring
// elements) keeps lane 0's records and each lane's array starts, and is decoded a request at a
// time as it issues; any other has each lane decoded and its requests built when it is loaded.
// With `readers`, threads of their own decompress and compare the next chunks while the model runs
// (the order, and so every result, is the same).
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
#include "traces/thread_records.hpp"
#include "traces/trace_format_reader.hpp"

namespace cachesim {

// A request whose lanes' addresses step evenly (shape.even: a warp reading consecutive elements,
// or all one address) keeps just lane 0's address and the step; any other keeps its lanes'
// addresses in WarpRequests::addresses from `first` on. Most requests of regular kernels are even,
// so a resident warp costs a few bytes per request instead of 8 per lane.
struct RecordedRequest {
    RequestShape shape;   // size, array (its first lane's), direction, active lanes, even and step
    std::uint32_t first;  // uneven: its first lane's address in WarpRequests::addresses
    std::uint64_t base;   // even: lane 0's address
};

// Lane 0's records of a repeating warp (cst meta words and deltas). Consecutive warps whose
// threads all repeat one another (a regular kernel: every warp of the launch) share one copy, so
// resident warps cost their decoding state, not a copy of the records each, and the SMs' threads
// read the same records from their caches.
struct RunRecords {
    std::vector<std::uint32_t> metas;
    std::vector<std::uint64_t> deltas;
};

// One warp's requests in issue order. Either built when the warp is loaded (`requests`, with the
// lanes' addresses of its uneven ones), or, for a warp whose lanes repeat lane 0 (`repeating`),
// lane 0's records, decoded one request at a time as the warp issues them (on the thread that
// runs its SM), each lane's address then being lane 0's plus the lane's offset for that array.
// (Aligned to a cache line: a repeating warp's decoding state is written as it issues, by the
// thread running its SM, and the slots of different SMs lie side by side.)
struct alignas(64) WarpRequests {
    std::vector<RecordedRequest> requests;
    std::vector<std::uint64_t> addresses;

    // A repeating warp: per used array (in the order of first use), lane 0's start and how the
    // lanes' starts step.
    struct ArrayUse {
        std::uint32_t array = 0;
        bool even = true;            // lane l's start is lane 0's plus l x stride
        std::uint64_t start = 0;     // lane 0's first address in the array
        std::uint64_t stride = 0;
    };
    bool repeating = false;
    std::uint32_t lanes = 0;
    std::shared_ptr<const RunRecords> run;  // lane 0's records, shared with the warps of its run
    std::vector<ArrayUse> uses;
    std::vector<std::uint64_t> offsets;  // lanes x uses: lane l's start less lane 0's (uneven arrays)

    std::uint32_t count() const {
        return static_cast<std::uint32_t>(repeating ? run->metas.size() : requests.size());
    }
    // Request k of a repeating warp: the lanes' addresses into `out` (lane 0's alone for an even
    // request, RequestShape::even). Requests are asked for in order; an earlier one is decoded
    // again from the start.
    RequestShape generate_repeating(std::uint32_t k, std::uint64_t* out) const;

private:
    // Decoding state: records decoded so far, lane 0's last address per use, uses seen, the
    // last record's use.
    // (Held in the object, not on the heap, where the small buffers of neighbouring slots would
    // share cache lines between the threads running their SMs.)
    static constexpr std::size_t kMaxUses = 16;
    mutable std::uint32_t decoded_ = 0;
    mutable std::uint64_t last_[kMaxUses] = {};
    mutable std::uint32_t seen_ = 0;
    mutable std::uint32_t use_ = 0;
    friend class RecordedWarps;
};

inline RequestShape WarpRequests::generate_repeating(std::uint32_t k, std::uint64_t* out) const {
    if (k + 1 < decoded_) decoded_ = 0, seen_ = 0;  // an earlier request: decode from the start
    const std::uint32_t* metas = run->metas.data();
    const std::uint64_t* deltas = run->deltas.data();
    while (decoded_ <= k) {
        const std::uint32_t array = cst::meta_array(metas[decoded_]);
        std::uint32_t j = use_;
        if (uses[j].array != array) {
            j = 0;
            while (uses[j].array != array) ++j;
        }
        const std::uint32_t bit = 1u << j;
        last_[j] = seen_ & bit ? last_[j] + deltas[decoded_] : uses[j].start;
        seen_ |= bit;
        use_ = j;
        ++decoded_;
    }
    const std::uint32_t meta = metas[k];
    const ArrayUse& use = uses[use_];
    const std::uint64_t address = last_[use_];
    RequestShape shape{cst::meta_size(meta), static_cast<std::uint16_t>(cst::meta_array(meta)), cst::meta_is_write(meta), lanes};
    if (use.even) {
        out[0] = address;
        shape.even = true;
        shape.stride = use.stride;
    } else {
        const std::size_t n = uses.size();
        for (std::uint32_t l = 0; l < lanes; ++l) out[l] = address + offsets[l * n + use_];
    }
    return shape;
}

class RecordedWarps {
public:
    // Opens a cst trace of a launch; throws InputError for a bad file or a version 1 trace.
    // `readers` threads decode the file beside the model (0: the model's thread decodes as it
    // goes); with several, reader r decodes the file blocks b with b % readers == r, and the blocks
    // are put back in file order, every result and every error the same as with one.
    explicit RecordedWarps(const std::string& path, unsigned readers = 0);
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
    // A warp whose lanes repeat lane 0's records (ThreadRecords::repeats) keeps lane 0's records
    // and the lanes' array starts (WarpRequests::repeating); returns false for any other warp.
    bool load_repeating(const PendingBlock& p, std::uint32_t first, std::uint32_t lanes, WarpRequests& out);
    // Any warp: every lane decoded, request k gathered from the lanes' k-th accesses.
    std::uint32_t load_gathered(const PendingBlock& p, std::uint32_t first, std::uint32_t lanes, WarpRequests& out);
    void read_through(std::uint64_t block);
    void release(const PendingBlock& block);
    // A thread decoding file blocks into its queue of chunks (at most kReadyAhead waiting).
    struct Reader {
        std::unique_ptr<cst::TraceFileSource> source;  // its own, where readers share the blocks
        std::deque<Chunk*> ready;
        bool done = false, waiting = false;
        std::exception_ptr error;
        std::thread thread;
    };
    // The next chunk of threads from the file, or nullptr at its end (rethrows the reader's error).
    Chunk* next_chunk();
    Chunk* free_chunk();  // a chunk to read into (callers hold mutex_ where readers run)
    void read_ahead_loop(Reader& reader, cst::TraceFileSource& source);
    // Several readers: a block's first thread is compared with the block before's last, as one
    // reader compares them (its `repeats`, and that threads increase through the file).
    void join_in_order(cst::ThreadRecords& records);
    // A reader failed, or the blocks are out of order: one reader reads the file again from its
    // start, so that the error is the one it reports (the first in file order).
    [[noreturn]] void fail_in_file_order(std::exception_ptr error);

    std::string path_;
    cst::TraceFileSource source_;
    std::uint32_t threads_per_block_ = 1;
    std::map<std::uint64_t, PendingBlock> pending_;
    std::uint64_t next_block_ = 0;  // every block below it is complete in pending_ (or absent)
    bool finished_ = false;         // the whole trace has been read
    std::vector<std::unique_ptr<Chunk>> chunks_;  // every chunk, in use or free
    std::vector<Chunk*> free_chunks_;
    // Read ahead: each reader fills free chunks into its queue.
    static constexpr std::size_t kReadyAhead = 16;  // file blocks of 16K accesses
    std::mutex mutex_;
    std::condition_variable changed_;
    std::vector<std::unique_ptr<Reader>> readers_;
    std::size_t turn_ = 0;  // the reader of the next file block
    bool stopping_ = false;
    // Who sleeps on changed_: each side wakes the other only then (a wake-up per chunk of 16K
    // accesses cost more than the chunk's decoding saves), a reader once half its queue is free.
    bool model_waiting_ = false;
    // join_in_order: the last thread of the block before (its index and records).
    bool has_last_ = false;
    std::uint64_t last_thread_ = 0;
    std::vector<std::uint32_t> last_metas_;
    std::vector<std::uint64_t> last_deltas_;
    std::vector<std::uint32_t> array_stamp_;
    std::uint32_t stamp_ = 0;
    cst::ThreadDecoder decoder_;
    std::vector<std::uint32_t> lane_count_;
    std::vector<const Access*> lane_accesses_;
    std::vector<Access> decoded_;         // the lanes' accesses, decoded for the warp being built
    std::vector<std::uint64_t> scratch_;  // a warp's lane addresses while its requests are built
    // The records of the last repeating warp loaded, and its last lane's thread: a warp whose lane
    // 0 is the next thread and repeats it (so, by the chain of repeats, every lane before it back
    // to that run's first) shares them.
    std::shared_ptr<const RunRecords> last_run_;
    std::uint64_t last_run_thread_ = ~0ull;
};

}  // namespace cachesim
