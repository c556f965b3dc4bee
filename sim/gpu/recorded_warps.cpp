#include "sim/gpu/recorded_warps.hpp"

#include <algorithm>

#include "traces/input_error.hpp"

namespace cachesim {
namespace {

// The request of `shape.lanes` addresses at addresses[used ..]: even ones keep base and stride
// and give their room back (used stays), others keep the addresses (used moves past them).
RecordedRequest request(const RequestShape& shape, const std::uint64_t* addresses, std::uint32_t& used) {
    const std::uint64_t* a = addresses + used;
    const std::uint64_t stride = shape.lanes > 1 ? a[1] - a[0] : 0;  // (wraps for a falling one: still exact)
    bool even = true;
    for (std::uint32_t l = 2; l < shape.lanes; ++l) even &= a[l] - a[l - 1] == stride;
    if (even) {
        RequestShape even_shape = shape;
        even_shape.even = true;
        even_shape.stride = stride;
        return {even_shape, 0, a[0]};
    }
    RecordedRequest r{shape, used, 0};
    used += shape.lanes;
    return r;
}

}  // namespace

RecordedWarps::RecordedWarps(const std::string& path, unsigned readers) : path_(path), source_(path) {
    if (!source_.header().launch)
        throw InputError(path + ": a version " + std::to_string(source_.header().version) +
                         " trace holds no launch; the GPU model replays version 2 traces (cachesim trace "
                         "--trace-version 2, or a recorded kernel)");
    threads_per_block_ = launch().threads_per_block();
    array_stamp_.assign(source_.header().arrays.size(), 0);
    for (unsigned r = 0; r < readers; ++r) {
        auto reader = std::make_unique<Reader>();
        if (readers > 1) {
            reader->source = std::make_unique<cst::TraceFileSource>(path);
            reader->source->share_blocks(r, readers);
        }
        readers_.push_back(std::move(reader));
    }
    for (auto& reader : readers_) {
        Reader& r = *reader;
        r.thread = std::thread([this, &r] { read_ahead_loop(r, r.source ? *r.source : source_); });
    }
}

RecordedWarps::~RecordedWarps() {
    {
        std::lock_guard lock(mutex_);
        stopping_ = true;
    }
    changed_.notify_all();
    for (auto& reader : readers_)
        if (reader->thread.joinable()) reader->thread.join();
}

RecordedWarps::Chunk* RecordedWarps::free_chunk() {
    if (free_chunks_.empty()) {
        chunks_.push_back(std::make_unique<Chunk>());
        free_chunks_.push_back(chunks_.back().get());
    }
    Chunk* chunk = free_chunks_.back();
    free_chunks_.pop_back();
    return chunk;
}

void RecordedWarps::read_ahead_loop(Reader& reader, cst::TraceFileSource& source) {
    try {
        for (;;) {
            Chunk* chunk = nullptr;
            {
                std::unique_lock lock(mutex_);
                if (reader.ready.size() >= kReadyAhead) {  // full: sleep until half of it is taken
                    reader.waiting = true;
                    changed_.wait(lock, [&] { return stopping_ || reader.ready.size() <= kReadyAhead / 2; });
                    reader.waiting = false;
                }
                if (stopping_) return;
                chunk = free_chunk();
            }
            const bool more = source.next_thread_records(chunk->records);  // the work done beside the model
            std::lock_guard lock(mutex_);
            if (!more) {
                free_chunks_.push_back(chunk);
                reader.done = true;
                changed_.notify_all();
                return;
            }
            reader.ready.push_back(chunk);
            if (model_waiting_) changed_.notify_all();
        }
    } catch (...) {
        std::lock_guard lock(mutex_);
        reader.error = std::current_exception();
        reader.done = true;
        changed_.notify_all();
    }
}

RecordedWarps::Chunk* RecordedWarps::next_chunk() {
    if (readers_.empty()) {
        Chunk* chunk = free_chunk();
        if (source_.next_thread_records(chunk->records)) return chunk;
        free_chunks_.push_back(chunk);
        return nullptr;
    }
    std::unique_lock lock(mutex_);
    Reader& reader = *readers_[turn_];
    if (reader.ready.empty() && !reader.done) {
        model_waiting_ = true;
        changed_.wait(lock, [&] { return !reader.ready.empty() || reader.done; });
        model_waiting_ = false;
    }
    if (!reader.ready.empty()) {
        Chunk* chunk = reader.ready.front();
        reader.ready.pop_front();
        if (reader.waiting && reader.ready.size() <= kReadyAhead / 2) changed_.notify_all();
        turn_ = (turn_ + 1) % readers_.size();
        if (readers_.size() > 1) {
            lock.unlock();
            join_in_order(chunk->records);
        }
        return chunk;
    }
    if (reader.error) {
        if (readers_.size() > 1) {
            const std::exception_ptr error = reader.error;
            lock.unlock();
            fail_in_file_order(error);
        }
        std::rethrow_exception(reader.error);
    }
    return nullptr;
}

void RecordedWarps::join_in_order(cst::ThreadRecords& records) {
    if (has_last_ && records.threads[0] <= last_thread_) fail_in_file_order(nullptr);
    const std::uint32_t* metas = records.metas.data() + records.at[0];
    const std::uint64_t* deltas = records.deltas.data() + records.at[0];
    const std::uint32_t count = records.count(0);
    if (has_last_ && count == last_metas_.size() &&
        std::equal(metas, metas + count, last_metas_.begin())) {
        // Equal meta words: equal deltas too, but at each array's first use (the thread's start).
        if (++stamp_ == 0) {
            std::fill(array_stamp_.begin(), array_stamp_.end(), 0);
            stamp_ = 1;
        }
        bool same = true;
        for (std::uint32_t k = 0; k < count && same; ++k) {
            std::uint32_t& seen = array_stamp_[cst::meta_array(metas[k])];
            if (seen != stamp_) {
                seen = stamp_;
                continue;
            }
            same = deltas[k] == last_deltas_[k];
        }
        records.repeats[0] = same;
    }
    // The block's last thread: its run's first thread's records (equal but at first uses).
    const std::size_t last = records.size() - 1;
    last_thread_ = records.threads[last];
    last_metas_.assign(records.metas.data() + records.at[last], records.metas.data() + records.at[last] + records.count(last));
    last_deltas_.assign(records.deltas.data() + records.at[last],
                        records.deltas.data() + records.at[last] + records.count(last));
    has_last_ = true;
}

void RecordedWarps::fail_in_file_order(std::exception_ptr error) {
    cst::TraceFileSource again(path_);
    cst::ThreadRecords records;
    while (again.next_thread_records(records)) {
    }
    if (error) std::rethrow_exception(error);
    throw InputError(path_ + ": the file's blocks decoded side by side disagree with one reader");
}

void RecordedWarps::read_through(std::uint64_t block) {
    while (!finished_ && next_block_ <= block) {
        Chunk* chunk = next_chunk();
        if (!chunk) {
            finished_ = true;
            break;
        }
        const cst::ThreadRecords& records = chunk->records;
        PendingBlock* p = nullptr;
        std::uint64_t b_last = ~0ull;
        for (std::size_t i = 0; i < records.size(); ++i) {
            const std::uint64_t thread = records.threads[i];
            const std::uint64_t b = thread / threads_per_block_;
            const std::uint32_t t = static_cast<std::uint32_t>(thread % threads_per_block_);
            if (b != b_last) {  // threads come in order: one lookup per block
                p = &pending_[b];
                b_last = b;
                if (p->records.empty()) {
                    p->records.assign(threads_per_block_, nullptr);
                    p->index.assign(threads_per_block_, 0);
                }
                p->chunks.push_back(chunk);
                ++chunk->blocks_open;
            }
            p->records[t] = &records;
            p->index[t] = static_cast<std::uint32_t>(i);
            next_block_ = b;  // threads increase: every block before this one is complete
        }
    }
}

void RecordedWarps::release(const PendingBlock& block) {
    std::unique_lock lock(mutex_, std::defer_lock);  // (free_chunks_ is shared with the readers)
    if (!readers_.empty()) lock.lock();
    for (Chunk* chunk : block.chunks)
        if (--chunk->blocks_open == 0) free_chunks_.push_back(chunk);
}

std::uint32_t RecordedWarps::load(std::uint64_t block, std::uint32_t warp, std::uint32_t warp_size,
                                  WarpRequests& out) {
    out.requests.clear();
    out.addresses.clear();
    out.repeating = false;
    out.run.reset();
    read_through(block);
    const auto found = pending_.find(block);
    if (found == pending_.end()) return 0;  // no thread of the block made an access
    const PendingBlock& p = found->second;
    const std::uint32_t first = warp * warp_size;
    const std::uint32_t lanes = first >= threads_per_block_ ? 0 : std::min(warp_size, threads_per_block_ - first);
    const std::uint32_t active = load_repeating(p, first, lanes, out) ? lanes : load_gathered(p, first, lanes, out);
    if (warp + 1 == (threads_per_block_ + warp_size - 1) / warp_size) {
        release(p);
        pending_.erase(found);
    }
    return active;
}

bool RecordedWarps::load_repeating(const PendingBlock& p, std::uint32_t first, std::uint32_t lanes, WarpRequests& out) {
    if (lanes == 0 || !p.records[first]) return false;
    for (std::uint32_t l = 1; l < lanes; ++l) {
        const cst::ThreadRecords* r = p.records[first + l];
        if (!r || !r->repeats[p.index[first + l]]) return false;  // (lane l - 1 is the thread before it)
    }
    const cst::ThreadRecords& lane0 = *p.records[first];
    const std::uint32_t i0 = p.index[first];
    const std::uint32_t count = lane0.count(i0);
    const std::uint32_t* metas = lane0.metas.data() + lane0.at[i0];
    const std::uint64_t* deltas = lane0.deltas.data() + lane0.at[i0];
    // The arrays lane 0 uses, in the order of first use (at most WarpRequests::kMaxUses; a warp
    // using more is gathered instead).
    const std::uint32_t uses = lane0.uses(i0);
    if (uses > WarpRequests::kMaxUses) return false;
    const std::uint32_t* arrays = lane0.start_arrays_of(i0);
    out.uses.clear();
    for (std::uint32_t j = 0; j < uses; ++j) out.uses.push_back({arrays[j], true, 0, 0});
    // Lane l's k-th access is lane 0's shifted by the distance between the two lanes' starts of
    // its array; a request is even where those distances step evenly across the lanes.
    out.offsets.resize(uses * lanes);
    const std::uint64_t* starts0 = lane0.starts_of(i0);
    for (std::uint32_t l = 0; l < lanes; ++l) {
        const std::uint64_t* starts = p.records[first + l]->starts_of(p.index[first + l]);
        for (std::size_t j = 0; j < uses; ++j) out.offsets[l * uses + j] = starts[j] - starts0[j];
    }
    for (std::size_t j = 0; j < uses; ++j) {
        WarpRequests::ArrayUse& use = out.uses[j];
        use.start = starts0[j];
        use.stride = lanes > 1 ? out.offsets[uses + j] : 0;
        for (std::uint32_t l = 2; l < lanes; ++l) use.even &= out.offsets[l * uses + j] == l * use.stride;
    }
    const std::uint64_t thread0 = lane0.threads[i0];
    if (!(last_run_ && lane0.repeats[i0] && thread0 == last_run_thread_ + 1)) {
        auto run = std::make_shared<RunRecords>();
        run->metas.assign(metas, metas + count);
        run->deltas.assign(deltas, deltas + count);
        last_run_ = std::move(run);
    }
    last_run_thread_ = thread0 + lanes - 1;  // the lanes are consecutive threads of one block
    out.run = last_run_;
    out.repeating = true;
    out.lanes = lanes;
    out.decoded_ = 0;
    out.seen_ = 0;
    out.use_ = 0;
    return true;
}

std::uint32_t RecordedWarps::load_gathered(const PendingBlock& p, std::uint32_t first, std::uint32_t lanes,
                                           WarpRequests& out) {
    lane_count_.assign(lanes, 0);
    lane_accesses_.assign(lanes, nullptr);
    std::uint32_t active = 0, most = 0;
    for (std::uint32_t l = 0; l < lanes; ++l) {
        const cst::ThreadRecords* r = p.records[first + l];
        lane_count_[l] = r ? r->count(p.index[first + l]) : 0;
        active += lane_count_[l] != 0;
        most = std::max(most, lane_count_[l]);
    }
    const std::size_t room = static_cast<std::size_t>(lanes) * most;
    if (decoded_.size() < room) decoded_.resize(room);
    for (std::uint32_t l = 0; l < lanes; ++l) {
        if (lane_count_[l] == 0) continue;
        lane_accesses_[l] = decoded_.data() + static_cast<std::size_t>(l) * most;
        decoder_.decode(*p.records[first + l], p.index[first + l], decoded_.data() + static_cast<std::size_t>(l) * most);
    }
    // Request k: the k-th access of every lane that has one, one request per (direction, size) in
    // the order the lanes first show it (one request in any kernel whose lanes run the same code).
    // Every lane gives at most one address per k: room for lanes * most in the scratch buffer.
    if (scratch_.size() < room) scratch_.resize(room);
    std::uint64_t* addresses = scratch_.data();
    std::uint32_t used = 0;
    const bool full = lanes > 0 && active == lanes &&
                      std::all_of(lane_count_.begin(), lane_count_.end(), [&](std::uint32_t n) { return n == most; });
    struct Kind {
        bool is_write;
        std::uint32_t size;
    };
    Kind kinds[64];
    for (std::uint32_t k = 0; k < most; ++k) {
        if (full) {  // every lane makes a k-th access: one request when they are all of one kind
            const Access& first_lane = lane_accesses_[0][k];
            bool uniform = true;
            for (std::uint32_t l = 0; l < lanes; ++l) {
                const Access& a = lane_accesses_[l][k];
                addresses[used + l] = a.address;
                uniform &= (a.is_write == first_lane.is_write) & (a.size == first_lane.size);
            }
            if (uniform) {
                out.requests.push_back(request({first_lane.size, first_lane.array, first_lane.is_write, lanes},
                                               addresses, used));
                continue;
            }
        }
        std::uint32_t count = 0;
        for (std::uint32_t l = 0; l < lanes; ++l) {
            if (lane_count_[l] <= k) continue;
            const Access& a = lane_accesses_[l][k];
            bool seen = false;
            for (std::uint32_t g = 0; g < count && !seen; ++g) seen = kinds[g].is_write == a.is_write && kinds[g].size == a.size;
            if (!seen) kinds[count++] = {a.is_write, a.size};
        }
        for (std::uint32_t g = 0; g < count; ++g) {
            RequestShape shape;
            shape.lanes = 0;
            for (std::uint32_t l = 0; l < lanes; ++l) {
                if (lane_count_[l] <= k) continue;
                const Access& a = lane_accesses_[l][k];
                if (a.is_write != kinds[g].is_write || a.size != kinds[g].size) continue;
                if (shape.lanes == 0) shape = {a.size, a.array, a.is_write, 0};
                addresses[used + shape.lanes++] = a.address;
            }
            out.requests.push_back(request(shape, addresses, used));
        }
    }
    out.addresses.assign(addresses, addresses + used);  // the uneven requests' lanes only
    return active;
}

}  // namespace cachesim
