#include "traces/trace_format_writer.hpp"

#include <algorithm>
#include <cstring>
#include <zstd.h>

#include "traces/atomic_output.hpp"
#include "traces/input_error.hpp"
#include "traces/trace_format_bytes.hpp"
#include "traces/trace_format_checksum.hpp"

namespace cachesim::cst {

TraceWriter::TraceWriter(std::string path, TraceHeader header, int zstd_level)
    : path_(std::move(path)), header_(std::move(header)), level_(zstd_level) {
    if (header_.arrays.empty()) header_.arrays.push_back({"trace", 0, 1, 0, 1});
    if (header_.arrays.size() > kMaxArrays) throw InputError(path_ + ": too many arrays for a cst trace");
    for (const ArrayInfo& a : header_.arrays) {
        if (a.name.size() > kMaxNameBytes) throw InputError(path_ + ": array name '" + a.name + "' is too long");
        if (const std::string problem = array_extent_problem(a); !problem.empty()) throw InputError(path_ + ": " + problem);
    }
    if (header_.loop && (!header_.launch || header_.loop->empty()))
        throw InputError(path_ + ": a recorded loop needs a launch and at least one load request");
    if (header_.resources && !header_.launch) throw InputError(path_ + ": a launch's resources need a launch");
    header_.version = header_.resources ? kVersionResources
                      : header_.loop    ? kVersionLoop
                      : header_.launch  ? kVersionLaunch
                                        : kVersionPlain;
    if (header_.launch) {
        const LaunchGeometry& g = *header_.launch;
        for (int i = 0; i < 3; ++i)
            if (g.grid[i] == 0 || g.block[i] == 0) throw InputError(path_ + ": launch " + g.describe() + " has a zero dimension");
        if (static_cast<std::uint64_t>(g.block[0]) * g.block[1] * g.block[2] > kMaxThreadsPerBlock)
            throw InputError(path_ + ": launch " + g.describe() + " has more than " +
                             std::to_string(kMaxThreadsPerBlock) + " threads per block");
        if (g.grid[1] > 65535 || g.grid[2] > 65535)
            throw InputError(path_ + ": launch " + g.describe() + ": grid y and z are at most 65535");
    }
    header_.steps = header_.accesses = header_.blocks = 0;
    output_ = std::make_unique<AtomicOutput>(path_, /*needs_seek=*/true);
    deltas_.reserve(kBlockAccesses);
    previous_address_.assign(header_.arrays.size(), 0);
    metas_.reserve(kBlockAccesses);
    write_header(false);  // placeholder counts, rewritten by finish()
    // Last: a constructor that throws runs no destructor, so nothing after this may throw.
    cctx_ = ZSTD_createCCtx();
    if (!cctx_) fail("cannot create a zstd compression context");
}

TraceWriter::~TraceWriter() {
    if (cctx_) ZSTD_freeCCtx(static_cast<ZSTD_CCtx*>(cctx_));
}  // output_ removes its temporary unless finish() committed it

void TraceWriter::fail(const std::string& why) {
    throw InputError(path_ + ": " + why);
}

void TraceWriter::write_bytes(const void* data, std::size_t bytes) { output_->write(data, bytes); }

void TraceWriter::write_header(bool rewrite) {
    const std::string body = encode_header_body(header_);
    std::string head(kMagic, sizeof kMagic);
    put_u32(head, header_.version);
    put_u32(head, static_cast<std::uint32_t>(body.size()));
    head += body;
    put_u64(head, checksum(head.data(), head.size()));
    if (rewrite) output_->write_at(0, head.data(), head.size());
    else write_bytes(head.data(), head.size());
}

void TraceWriter::append(const AccessBatch& batch) {
    const std::uint32_t per_step = batch.accesses_per_step ? batch.accesses_per_step : 1;
    if (launch()) {
        if (batch.accesses.size() % per_step != 0) fail("a batch ends inside a step");
        for (std::size_t i = 0; i < batch.accesses.size(); i += per_step)
            append_thread(batch.first_step + i / per_step, batch.accesses.data() + i, per_step);
        return;
    }
    if (!per_step_known_) {
        if (per_step > kMaxAccessesPerStep)
            fail("steps of " + std::to_string(per_step) + " accesses exceed the cst limit of " +
                 std::to_string(kMaxAccessesPerStep));
        header_.accesses_per_step = per_step;
        per_step_known_ = true;
    } else if (per_step != header_.accesses_per_step) {
        fail("steps change from " + std::to_string(header_.accesses_per_step) + " to " +
             std::to_string(per_step) + " accesses; cst traces need a fixed step size");
    }
    if (batch.accesses.size() % per_step != 0) fail("a batch ends inside a step");
    if (batch.first_step != header_.steps + block_steps_)
        fail("steps arrive out of order (expected step " + std::to_string(header_.steps + block_steps_) +
             ", got " + std::to_string(batch.first_step) + ")");
    for (std::size_t i = 0; i < batch.accesses.size(); i += per_step)
        append_step(batch.accesses.data() + i, per_step);
}

void TraceWriter::append_thread(std::uint64_t thread, const Access* accesses, std::uint32_t count) {
    if (!launch()) fail("threads need a launch (a version 2 trace)");
    if (count == 0) return;
    if (thread < next_thread_)
        fail("thread " + std::to_string(thread) + " arrives after thread " + std::to_string(next_thread_ - 1) +
             " (threads must come in increasing order)");
    if (thread >= header_.launch->threads())
        fail("thread " + std::to_string(thread) + " is outside the launch (" + header_.launch->describe() + ")");
    if (count > kMaxAccessesPerStep)
        fail("thread " + std::to_string(thread) + " makes " + std::to_string(count) +
             " accesses, more than the cst limit of " + std::to_string(kMaxAccessesPerStep));
    if (!per_step_known_ || count > header_.accesses_per_step) header_.accesses_per_step = count;
    per_step_known_ = true;
    if (!metas_.empty() && metas_.size() + count > kBlockAccesses) flush_block();
    thread_deltas_.push_back(thread - (block_steps_ == 0 ? 0 : block_last_thread_));
    step_counts_.push_back(count);
    block_last_thread_ = thread;
    next_thread_ = thread + 1;
    append_step(accesses, count);
}

void TraceWriter::append_step(const Access* step, std::uint32_t count) {
    if (!launch() && !metas_.empty() && metas_.size() + count > kBlockAccesses) flush_block();
    const std::size_t arrays = header_.arrays.size();
    for (std::uint32_t k = 0; k < count; ++k) {
        const Access& a = step[k];
        if (a.size == 0 || a.size > kMaxAccessSize)
            fail("access size " + std::to_string(a.size) + " is outside 1.." + std::to_string(kMaxAccessSize));
        if (a.array >= arrays)
            fail("access names array " + std::to_string(a.array) + " of " + std::to_string(arrays));
        if (a.address > ~0ull - (a.size - 1)) fail("access at the top of the address space overflows");
        deltas_.push_back(a.address - previous_address_[a.array]);
        previous_address_[a.array] = a.address;
        metas_.push_back(a.size | (a.is_write ? 1u << 15 : 0u) | (static_cast<std::uint32_t>(a.array) << 16));
    }
    ++block_steps_;
}

void TraceWriter::flush_block() {
    const std::size_t n = metas_.size();
    if (n == 0) return;
    const std::size_t table = launch() ? static_cast<std::size_t>(block_steps_) * kStepRecordBytes : 0;
    raw_.resize(table + n * kRecordBytes);
    if (launch()) {
        std::memcpy(raw_.data(), thread_deltas_.data(), block_steps_ * 8ull);
        std::memcpy(raw_.data() + block_steps_ * 8ull, step_counts_.data(), block_steps_ * 4ull);
    }
    std::memcpy(raw_.data() + table, deltas_.data(), n * 8);
    std::memcpy(raw_.data() + table + n * 8, metas_.data(), n * 4);
    compressed_.resize(ZSTD_compressBound(raw_.size()));
    const std::size_t packed = ZSTD_compressCCtx(static_cast<ZSTD_CCtx*>(cctx_), compressed_.data(),
                                                 compressed_.size(), raw_.data(), raw_.size(), level_);
    if (ZSTD_isError(packed)) fail(std::string("zstd compression failed: ") + ZSTD_getErrorName(packed));
    std::string head;
    put_u32(head, kBlockTag);
    put_u32(head, static_cast<std::uint32_t>(packed));
    put_u32(head, static_cast<std::uint32_t>(n));
    put_u32(head, block_steps_);
    put_u64(head, header_.steps);
    std::uint64_t sum = checksum_update(kChecksumSeed, head.data(), head.size());
    sum = checksum_update(sum, compressed_.data(), packed);
    put_u64(head, sum);
    write_bytes(head.data(), head.size());
    write_bytes(compressed_.data(), packed);
    header_.steps += block_steps_;
    header_.accesses += n;
    ++header_.blocks;
    block_steps_ = 0;
    std::fill(previous_address_.begin(), previous_address_.end(), 0);
    deltas_.clear();
    metas_.clear();
    thread_deltas_.clear();
    step_counts_.clear();
}

const TraceHeader& TraceWriter::finish() {
    flush_block();
    std::string end;
    put_u32(end, kEndTag);
    put_u32(end, 0);
    put_u64(end, header_.steps);
    put_u64(end, header_.accesses);
    put_u64(end, checksum(end.data(), end.size()));
    write_bytes(end.data(), end.size());
    // A file its own reader refuses is never committed: the final header passes the reader's checks.
    try {
        decode_header_body(encode_header_body(header_), header_.version);
    } catch (const InputError& e) {
        fail(std::string("the header written would not read back (") + e.what() + ")");
    }
    write_header(true);
    output_->commit();
    return header_;
}

TraceHeader write_trace(AccessSource& source, const std::string& path, TraceHeader header,
                        int zstd_level) {
    if (header.arrays.empty()) header.arrays = source.arrays();
    TraceWriter writer(path, std::move(header), zstd_level);
    AccessBatch batch;
    source.rewind();
    while (source.next(batch, kBlockAccesses)) writer.append(batch);
    return writer.finish();
}

}  // namespace cachesim::cst
