#pragma once
// A level of the thread-model hierarchy: a cache plus its counters, forwarding misses, write-backs
// and forwarded stores to the level below (another LevelSim or MemorySink). Templated on policy
// and the level below so the whole access path inlines: no virtual call per access.
#include <algorithm>
#include <bit>
#include <cmath>
#include <cstdint>
#include <utility>
#include <vector>

#include "sim/cache.hpp"
#include "sim/geometry.hpp"
#include "sim/level_stats.hpp"
#include "sim/observer.hpp"
#include "sim/reuse_distance.hpp"
#include "traces/access.hpp"

namespace cachesim {

struct MemorySink {
    std::uint64_t bytes_read = 0, bytes_written = 0;
    void read(std::uint64_t, std::uint32_t size, std::uint16_t) { bytes_read += size; }
    void write(std::uint64_t, std::uint32_t size, std::uint16_t) { bytes_written += size; }
    std::uint64_t access_batch(const Access* a, std::size_t n) {
        std::uint64_t writes = 0;
        for (std::size_t i = 0; i < n; ++i) {
            if (a[i].is_write) {
                ++writes;
                bytes_written += a[i].size;
            } else {
                bytes_read += a[i].size;
            }
        }
        return writes;
    }
    void finish() {}
    std::uint64_t analysis_bytes() const { return 0; }
    static constexpr bool kIsMemory = true;
};

// Whether hitting the line just used again changes no replacement state (LRU's recency ring
// already has it first; the stamp policies say so themselves; OPT's next use moves).
template <class Policy>
constexpr bool repeat_hit_is_idempotent() {
    if constexpr (requires { Policy::kHitIsIdempotent; }) return Policy::kHitIsIdempotent;
    else return true;
}

struct LevelSetup {
    CacheGeometry geometry;
    WritePolicy write_policy = WritePolicy::write_back_allocate;
    std::uint64_t seed = 1;
    const std::vector<std::uint64_t>* next_use = nullptr;  // OPT
    std::vector<std::uint64_t>* record_lookups = nullptr;  // OPT pre-pass
    bool analysis = true;
    // SHARDS spatial sampling of the analysis, rate in (0, 1]: only the lines whose hash falls
    // below the rate are tracked; their distances and counts are scaled by 1 / rate. 0: every
    // line, exact.
    double reuse_sample = 0;
    // One table of line times for both levels' analyses (see LineTimes), this level's at
    // times_level; null: the level's own.
    LineTimes* shared_times = nullptr;
    unsigned times_level = 0;
    int index = 0;
    SimObserver* observer = nullptr;
    std::vector<ArrayInfo> arrays;  // to attribute write-backs to their array
};

template <class Policy, class Below>
class LevelSim {
public:
    static constexpr bool kIsMemory = false;

    LevelSim(const LevelSetup& s, Below& below, LevelStats& stats)
        : g_(s.geometry),
          cache_(s.geometry, s.seed, s.next_use),
          below_(below),
          stats_(stats),
          record_(s.record_lookups),
          observer_(s.observer),
          index_(s.index),
          analysis_(s.analysis),
          instrumented_(s.observer || s.record_lookups),
          inline_analysis_(s.analysis && !instrumented_),
          write_allocate_(s.write_policy == WritePolicy::write_back_allocate),
          sample_below_(sample_bound(s.reuse_sample)),
          // the rate the hash's bound gives exactly (the requested one rounded up to 2^-24)
          sample_rate_(double(sample_below_) / double(1ull << kSampleBits)),
          reuse_(tracker_threshold(s), s.shared_times, s.times_level),
          flush_below_(s.shared_times != nullptr && s.times_level == 0) {
        stats_.per_array.assign(std::max<std::size_t>(1, s.arrays.size()), ArrayCounters{});
        // First and last byte: an array may end exactly at 2^64, where base + bytes wraps to 0. An
        // empty array's range (first above last) holds no address.
        for (const ArrayInfo& a : s.arrays) {
            const std::uint64_t bytes = a.bytes();
            if (bytes) array_ranges_.emplace_back(a.base, a.base + (bytes - 1));
            else array_ranges_.emplace_back(1, 0);
        }
        stats_.classified = analysis_;
        stats_.reuse_sample = analysis_ ? s.reuse_sample : 0;
    }

    // Replays accesses in order and returns how many were writes (for runs with no observer or
    // recorder). A read of the sector the previous lookup left resident is a hit that changes
    // nothing but counters, at its reuse distance 0: such runs (sequential streams, a stencil's
    // row within one line) are only counted, without a lookup.
    std::uint64_t access_batch(const Access* a, std::size_t n) {
        return inline_analysis_ ? replay_batch<true>(a, n) : replay_batch<false>(a, n);
    }

    // kAnalysis: the analysis alone is on (here and below, as in every run without an observer or
    // recorder); the lookup queues itself for it. A separate instantiation, so that runs without
    // the analysis carry none of it.
    template <bool kAnalysis = false>
    [[gnu::always_inline]] void read(std::uint64_t address, std::uint32_t size, std::uint16_t array) {
        const std::uint64_t first = address >> g_.sector_shift;
        const std::uint64_t last = (address + (size ? size - 1 : 0)) >> g_.sector_shift;
        for (std::uint64_t sector_id = first; sector_id <= last; ++sector_id) {
            if (instrumented_) [[unlikely]] lookup_instrumented(sector_id, false, array, true);
            else lookup<false, kAnalysis>(sector_id, false, array, true);
        }
    }

    template <bool kAnalysis = false>
    [[gnu::always_inline]] void write(std::uint64_t address, std::uint32_t size, std::uint16_t array) {
        if (!write_allocate_) {
            ++stats_.writes_forwarded;
            stats_.bytes_to_below += size;
            write_below<kAnalysis>(address, size, array);
            return;
        }
        const std::uint64_t last_byte = address + (size ? size - 1 : 0);  // no wrap for an access ending at 2^64
        const std::uint64_t first = address >> g_.sector_shift;
        const std::uint64_t last = last_byte >> g_.sector_shift;
        for (std::uint64_t sector_id = first; sector_id <= last; ++sector_id) {
            const std::uint64_t lo = sector_id << g_.sector_shift;
            const bool whole_sector = address <= lo && last_byte >= lo + (g_.sector_bytes - 1);
            if (instrumented_) [[unlikely]] lookup_instrumented(sector_id, true, array, !whole_sector);
            else lookup<false, kAnalysis>(sector_id, true, array, !whole_sector);
        }
    }

    // Whether the analysis alone is on here (see read's kAnalysis).
    bool inline_analysis() const { return inline_analysis_; }

    const Cache<Policy>& cache() const { return cache_; }

    // Memory held by the analysis here and below (it follows the distinct lines seen).
    std::uint64_t analysis_bytes() const {
        std::uint64_t bytes = analysis_ ? reuse_.memory_bytes() : 0;
        if constexpr (!Below::kIsMemory) bytes += below_.analysis_bytes();
        return bytes;
    }

    // Takes the analysis's queued lookups now.
    void classify_queued() {
        if (pending_) classify_pending();
    }

    // Completes the counters (the analysis's queued lookups), here and below.
    void finish() {
        if (pending_) classify_pending();
        add_tally();
        if (sample_rate_ > 0) add_sampled();
        if constexpr (!Below::kIsMemory) below_.finish();
    }

private:
    static constexpr bool kRepeatShortcut = repeat_hit_is_idempotent<Policy>();
    static constexpr unsigned kSampleBits = 24;  // the hash's top bits that select the sampled lines

    static std::uint64_t sample_bound(double rate) {
        return rate > 0 ? static_cast<std::uint64_t>(std::ceil(rate * double(1ull << kSampleBits))) : 0;
    }
    // A fully associative LRU cache of the level's size misses at distances >= its sectors; in a
    // sample at rate R, distances shrink by R (SHARDS), so the sample's threshold is R times it.
    static std::uint64_t tracker_threshold(const LevelSetup& s) {
        const std::uint64_t sectors = s.geometry.lines * s.geometry.sectors_per_line;
        if (s.reuse_sample <= 0) return sectors;
        return static_cast<std::uint64_t>(std::ceil(double(sectors) * s.reuse_sample));
    }
    // Whether the analysis tracks this sector (a mixed hash, so strided lines sample evenly).
    bool sampled(std::uint64_t sector_id) const {
        std::uint64_t h = sector_id + 0x9e3779b97f4a7c15ull;
        h = (h ^ (h >> 30)) * 0xbf58476d1ce4e5b9ull;
        h = (h ^ (h >> 27)) * 0x94d049bb133111ebull;
        h ^= h >> 31;
        return (h >> (64 - kSampleBits)) < sample_below_;
    }

    template <bool kAnalysis>
    std::uint64_t replay_batch(const Access* a, std::size_t n) {
        std::uint64_t writes = 0;
        std::size_t i = 0;
        while (i < n) {
            if constexpr (kRepeatShortcut) {
                const std::size_t end = skip_repeats(a, i, n, repeat_sector_, repeat_array_, g_.sector_shift);
                if (end != i) {
                    count_repeats(end - i);
                    i = end;
                    if (i == n) break;
                }
            }
            const Access& x = a[i++];
            if (x.is_write) {
                ++writes;
                write<kAnalysis>(x.address, x.size, x.array);
            } else {
                read<kAnalysis>(x.address, x.size, x.array);
            }
        }
        return writes;
    }

    // The level below's read and write in the same mode (out of the instrumented path, in the
    // mode the level below runs in).
    template <bool kAnalysis>
    [[gnu::always_inline]] void read_below(std::uint64_t address, std::uint32_t size, std::uint16_t array) {
        if constexpr (Below::kIsMemory) below_.read(address, size, array);
        else below_.template read<kAnalysis>(address, size, array);
    }
    template <bool kAnalysis>
    [[gnu::always_inline]] void write_below(std::uint64_t address, std::uint32_t size, std::uint16_t array) {
        if constexpr (Below::kIsMemory) below_.write(address, size, array);
        else below_.template write<kAnalysis>(address, size, array);
    }

    // The end of the run of reads, from i, that lie within `sector` of `array` (a tight loop of
    // its own, so that its few values stay in registers).
    static std::size_t skip_repeats(const Access* a, std::size_t i, std::size_t n, std::uint64_t sector,
                                    std::uint16_t array, std::uint32_t shift) {
        for (; i < n; ++i) {
            const Access& x = a[i];
            const std::uint64_t end = x.address + (x.size ? x.size - 1 : 0);
            if (x.is_write || (x.address >> shift) != sector || (end >> shift) != sector || x.array != array) break;
        }
        return i;
    }

    // `n` read hits on repeat_sector_ (see access_batch).
    void count_repeats(std::uint64_t n) {
        stats_.reads += n;
        stats_.read_hits += n;
        stats_.per_array[repeat_array_ < stats_.per_array.size() ? repeat_array_ : 0].reads += n;
        cache_.count_repeat_hits(n);
        // Hits at distance 0, with the tracker's counts (finish() adds them to the histogram).
        if (analysis_) tally_.count[0][0] += n;
    }

    // Out of line, so the plain path stays small enough to inline well.
    [[gnu::noinline]] void lookup_instrumented(std::uint64_t sector_id, bool is_write, std::uint16_t array,
                                               bool fetch_on_miss) {
        lookup<true>(sector_id, is_write, array, fetch_on_miss);
    }

    // kInstrumented: an observer or the OPT pre-pass recorder is attached. The plain instantiation
    // carries none of their checks; the analysis alone only queues the lookup there.
    template <bool kInstrumented, bool kAnalysis = false>
    [[gnu::always_inline]] void lookup(std::uint64_t sector_id, bool is_write, std::uint16_t array,
                                       bool fetch_on_miss) {
        const std::uint32_t shift = g_.line_shift - g_.sector_shift;
        const std::uint64_t line = sector_id >> shift;
        const std::uint32_t sector = static_cast<std::uint32_t>(sector_id & ((1ull << shift) - 1));
        if (kInstrumented && record_) record_->push_back(line);
        const LookupOutcome out = cache_.access(line, sector, is_write, true);
        repeat_sector_ = sector_id;  // resident now, hit or filled
        repeat_array_ = array;
        count(out.hit, is_write, array);
        if (kInstrumented && observer_) observer_->on_lookup(index_, line, out.hit, is_write, array);
        if (kInstrumented ? analysis_ : kAnalysis) classify(sector_id, out.hit);
        if (out.hit) return;
        // The fetch goes below before the victim's write-back, as in pycachesim and in hardware
        // (the demand miss is on the critical path; the write-back waits in a buffer).
        if (fetch_on_miss) {
            stats_.bytes_from_below += g_.sector_bytes;
            if (kInstrumented && below_inline_analysis()) read_below<true>(sector_id << g_.sector_shift, g_.sector_bytes, array);
            else read_below<kAnalysis>(sector_id << g_.sector_shift, g_.sector_bytes, array);
        }
        for (std::uint32_t i = 0; i < out.evicted_count; ++i) {
            ++stats_.evictions;
            if (kInstrumented && observer_) observer_->on_evict(index_, cache_.evicted_line(i));
            // A clean victim (every victim of a load-only stream) costs no call.
            if (const std::uint32_t dirty = cache_.evicted_dirty(i)) {
                if (kInstrumented && below_inline_analysis()) write_back<true>(cache_.evicted_line(i), dirty);
                else write_back<kAnalysis>(cache_.evicted_line(i), dirty);
            }
        }
        // A fill is a line allocation: a sector added to a present line is not a new resident line.
        if (kInstrumented && observer_ && !out.line_present) observer_->on_fill(index_, line);
    }

    void count(bool hit, bool is_write, std::uint16_t array) {
        ArrayCounters& a = stats_.per_array[array < stats_.per_array.size() ? array : 0];
        if (is_write) {
            ++stats_.writes;
            ++a.writes;
            if (hit) ++stats_.write_hits; else { ++stats_.write_misses; ++a.write_misses; }
        } else {
            ++stats_.reads;
            ++a.reads;
            if (hit) ++stats_.read_hits; else { ++stats_.read_misses; ++a.read_misses; }
        }
    }

    // Lookups wait in a short queue for the reuse tracker, which takes them in order a queue at a
    // time, its table's lookups overlapped (finish() takes the rest).
    void classify(std::uint64_t sector_id, bool hit) {
        if (sample_rate_ > 0 && !sampled(sector_id)) return;
        pending_lines_[pending_] = sector_id;
        pending_miss_[pending_] = !hit;
        if (++pending_ == kPending) {
            classify_pending();
            // The level below's lookups since are mostly this queue's misses: taken now, their
            // lines' times are still in the host's cache.
            if constexpr (!Below::kIsMemory)
                if (flush_below_) below_.classify_queued();
        }
    }

    // Capacity miss: a fully associative LRU cache of the level's size (in sectors) would miss
    // too, i.e. the reuse distance reaches that size. The tracker counts them (tally_) until
    // finish() adds them to the level's.
    [[gnu::noinline]] void classify_pending() {
        if (sample_rate_ > 0) {
            ReuseDistanceTracker::Result r[kPending];
            reuse_.access_batch(pending_lines_, r, pending_);
            classify_sampled(r);
            return;
        }
        reuse_.count_batch(pending_lines_, pending_miss_, pending_, tally_);
        pending_ = 0;
    }

    // Adds the tracker's counts to the level's (once: they are cleared).
    void add_tally() {
        for (std::size_t b = 0; b < ReuseDistanceTracker::kColdIndex; ++b)
            if (const std::uint64_t n = tally_.in_bucket(b)) stats_.reuse.add_bucket(b, n);
        stats_.reuse.cold += tally_.in_bucket(ReuseDistanceTracker::kColdIndex);
        stats_.compulsory += tally_.compulsory();
        stats_.capacity += tally_.capacity();
        stats_.conflict += tally_.conflict();
        tally_ = {};
    }

    // The sample's lookups, counted apart until finish() scales them.
    void classify_sampled(const ReuseDistanceTracker::Result* r) {
        for (std::size_t i = 0; i < pending_; ++i) {
            const bool miss = pending_miss_[i];
            if (r[i].bucket == ReuseDistanceTracker::kColdBucket) {
                ++sampled_.reuse.cold;
                sampled_.compulsory += miss;
                continue;
            }
            const auto distance = static_cast<std::uint64_t>(double(r[i].distance) / sample_rate_);
            sampled_.reuse.add_bucket(ReuseHistogram::bucket_of(distance));
            if (!miss) continue;
            if (r[i].beyond) ++sampled_.capacity;
            else ++sampled_.conflict;
        }
        pending_ = 0;
    }

    // Adds the sample's counts, scaled by 1 / rate, to the level's (once: they are cleared).
    void add_sampled() {
        const auto scaled = [&](std::uint64_t n) { return static_cast<std::uint64_t>(std::llround(double(n) / sample_rate_)); };
        for (std::size_t b = 0; b < sampled_.reuse.buckets.size(); ++b)
            if (sampled_.reuse.buckets[b]) stats_.reuse.add_bucket(b, scaled(sampled_.reuse.buckets[b]));
        stats_.reuse.cold += scaled(sampled_.reuse.cold);
        stats_.compulsory += scaled(sampled_.compulsory);
        stats_.capacity += scaled(sampled_.capacity);
        stats_.conflict += scaled(sampled_.conflict);
        sampled_ = {};
    }

    bool below_inline_analysis() const {
        if constexpr (Below::kIsMemory) return false;
        else return below_.inline_analysis();
    }

    template <bool kAnalysis>
    void write_back(std::uint64_t line, std::uint32_t dirty_mask) {
        while (dirty_mask) {
            const std::uint32_t sector = static_cast<std::uint32_t>(std::countr_zero(dirty_mask));
            dirty_mask &= dirty_mask - 1;
            ++stats_.writebacks;
            stats_.bytes_to_below += g_.sector_bytes;
            const std::uint64_t address = (line << g_.line_shift) + (static_cast<std::uint64_t>(sector) << g_.sector_shift);
            write_below<kAnalysis>(address, g_.sector_bytes, array_of(address));
        }
    }

    std::uint16_t array_of(std::uint64_t address) const {
        for (std::size_t i = 0; i < array_ranges_.size(); ++i)
            if (address >= array_ranges_[i].first && address <= array_ranges_[i].second)
                return static_cast<std::uint16_t>(i);
        return 0;
    }

    CacheGeometry g_;
    Cache<Policy> cache_;
    std::vector<std::pair<std::uint64_t, std::uint64_t>> array_ranges_;  // each array's first and last byte
    Below& below_;
    LevelStats& stats_;
    std::vector<std::uint64_t>* record_;
    SimObserver* observer_;
    int index_;
    bool analysis_;
    bool instrumented_;      // an observer or the OPT recorder: lookups out of line
    bool inline_analysis_;   // the analysis alone: it queues its lookups on the inlined path
    bool write_allocate_;
    std::uint64_t sample_below_;
    double sample_rate_;
    struct {
        ReuseHistogram reuse;
        std::uint64_t compulsory = 0, capacity = 0, conflict = 0;
    } sampled_;
    ReuseDistanceTracker reuse_;
    ReuseDistanceTracker::Tally tally_;
    bool flush_below_;
    static constexpr std::size_t kPending = 64;
    static_assert(kPending <= ReuseDistanceTracker::kMaxBatch);
    std::size_t pending_ = 0;
    std::uint64_t pending_lines_[kPending];
    bool pending_miss_[kPending];
    std::uint64_t repeat_sector_ = ~0ull;  // the sector the last lookup left resident
    std::uint16_t repeat_array_ = 0;
};

}  // namespace cachesim
