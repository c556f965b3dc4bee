#pragma once
// A cst version 2 block's threads left undecoded (a delta and a meta word per access, as stored),
// with what it takes to decode any one thread alone, and which threads repeat their predecessor.
//
// Why: a consumer that builds warps (the GPU model's replay) needs thread i's k-th access beside
// thread i+1's. Decoding every record into an Access first writes 16 bytes per access that are read
// once, a transposition later. In a regular kernel a thread's records equal its predecessor's but
// for where each array starts (neighbouring threads read neighbouring elements), so one decoded
// thread and each thread's array starts give the others by an add.
#include <cstdint>
#include <cstring>
#include <vector>

#include "traces/access.hpp"
#include "traces/trace_format.hpp"

namespace cachesim::cst {

struct ThreadRecords {
    std::vector<std::uint64_t> threads;  // global linear thread indices, increasing
    std::vector<std::uint32_t> first;    // threads.size() + 1: thread i makes first[i + 1] - first[i] accesses
    // repeats[i]: thread i's meta words and deltas equal those of the thread before it in the file
    // (across blocks too), except the delta of each array's first use, so the two threads make the
    // same accesses (direction, size, array, order) at addresses that differ by one amount per array.
    std::vector<std::uint8_t> repeats;
    // starts[starts_at[i] ..]: thread i's address of its first access to each array it uses, in the
    // order of first use, and start_arrays[starts_at[i] ..] those arrays; starts_at has
    // threads.size() + 1 entries.
    std::vector<std::uint32_t> starts_at;
    std::vector<std::uint64_t> starts;
    std::vector<std::uint32_t> start_arrays;
    // The records of the threads that do not repeat the one before them, each thread's from at[i]:
    // a run of repeating threads shares its first thread's (only the starts differ), so a block of
    // a regular kernel keeps a few threads' records instead of all of them.
    std::vector<std::uint32_t> at;
    std::vector<std::uint64_t> deltas;
    std::vector<std::uint32_t> metas;
    std::uint32_t arrays = 0;  // the header's array count: every meta names one below it

    std::size_t size() const { return threads.size(); }
    std::uint32_t count(std::size_t i) const { return first[i + 1] - first[i]; }
    const std::uint64_t* starts_of(std::size_t i) const { return starts.data() + starts_at[i]; }
    const std::uint32_t* start_arrays_of(std::size_t i) const { return start_arrays.data() + starts_at[i]; }
    std::uint32_t uses(std::size_t i) const { return starts_at[i + 1] - starts_at[i]; }
};

// A meta word's fields (trace-format.md: size in bits 0-14, write in bit 15, array above).
inline std::uint32_t meta_size(std::uint32_t meta) { return meta & kMaxAccessSize; }
inline bool meta_is_write(std::uint32_t meta) { return (meta >> 15) & 1u; }
inline std::uint32_t meta_array(std::uint32_t meta) { return meta >> 16; }

// Decodes the records of one thread of a block. The scratch (one entry per array) is reused
// across calls so that decoding a thread allocates nothing; the records were validated when the
// block was read (TraceFileSource::next_thread_records), so decoding cannot fail.
class ThreadDecoder {
public:
    // Thread i's accesses into out[0 .. records.count(i)).
    void decode(const ThreadRecords& records, std::size_t i, Access* out);

private:
    std::vector<std::uint64_t> last_;    // per array: the thread's last address so far
    std::vector<std::uint32_t> stamp_;   // per array: the decode that last used it
    std::uint32_t current_ = 0;
};

}  // namespace cachesim::cst
