#include "traces/trace_format_writer.hpp"

#include <algorithm>
#include <cerrno>
#include <cstring>
#include <filesystem>
#include <unistd.h>
#include <zstd.h>

#include "traces/input_error.hpp"
#include "traces/trace_format_bytes.hpp"
#include "traces/trace_format_checksum.hpp"

namespace cachesim::cst {

TraceWriter::TraceWriter(std::string path, TraceHeader header, int zstd_level)
    : path_(std::move(path)), header_(std::move(header)), level_(zstd_level) {
    if (header_.arrays.empty()) header_.arrays.push_back({"trace", 0, 1, 0, 1});
    if (header_.arrays.size() > kMaxArrays) throw InputError(path_ + ": too many arrays for a cst trace");
    for (const ArrayInfo& a : header_.arrays)
        if (a.name.size() > kMaxNameBytes) throw InputError(path_ + ": array name '" + a.name + "' is too long");
    header_.version = kVersion;
    header_.steps = header_.accesses = header_.blocks = 0;
    temp_path_ = path_ + ".tmp." + std::to_string(::getpid());
    file_ = std::fopen(temp_path_.c_str(), "wb");
    if (!file_) throw InputError(path_ + ": cannot write (" + std::strerror(errno) + ")");
    cctx_ = ZSTD_createCCtx();
    if (!cctx_) fail("cannot create a zstd compression context");
    deltas_.reserve(kBlockAccesses);
    previous_address_.assign(header_.arrays.size(), 0);
    metas_.reserve(kBlockAccesses);
    write_header();  // placeholder counts, rewritten by finish()
}

TraceWriter::~TraceWriter() {
    if (cctx_) ZSTD_freeCCtx(static_cast<ZSTD_CCtx*>(cctx_));
    if (file_) {
        std::fclose(file_);
        std::error_code ignored;
        std::filesystem::remove(temp_path_, ignored);
    }
}

void TraceWriter::fail(const std::string& why) {
    throw InputError(path_ + ": " + why);
}

void TraceWriter::write_bytes(const void* data, std::size_t bytes) {
    if (std::fwrite(data, 1, bytes, file_) != bytes)
        fail(std::string("write failed (") + std::strerror(errno) + ")");
}

void TraceWriter::write_header() {
    const std::string body = encode_header_body(header_);
    std::string head(kMagic, sizeof kMagic);
    put_u32(head, kVersion);
    put_u32(head, static_cast<std::uint32_t>(body.size()));
    head += body;
    put_u64(head, checksum(head.data(), head.size()));
    write_bytes(head.data(), head.size());
}

void TraceWriter::append(const AccessBatch& batch) {
    const std::uint32_t per_step = batch.accesses_per_step ? batch.accesses_per_step : 1;
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

void TraceWriter::append_step(const Access* step, std::uint32_t count) {
    if (!metas_.empty() && metas_.size() + count > kBlockAccesses) flush_block();
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
    raw_.resize(n * kRecordBytes);
    std::memcpy(raw_.data(), deltas_.data(), n * 8);
    std::memcpy(raw_.data() + n * 8, metas_.data(), n * 4);
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
    if (std::fseek(file_, 0, SEEK_SET) != 0) fail("cannot seek to rewrite the header");
    write_header();
    const bool flushed = std::fflush(file_) == 0 && ::fsync(::fileno(file_)) == 0;
    const bool closed = std::fclose(file_) == 0;
    file_ = nullptr;
    std::error_code ec;
    if (!flushed || !closed) {
        std::filesystem::remove(temp_path_, ec);
        fail(std::string("write failed (") + std::strerror(errno) + ")");
    }
    std::filesystem::rename(temp_path_, path_, ec);
    if (ec) {
        std::error_code ignored;
        std::filesystem::remove(temp_path_, ignored);
        fail("cannot move into place (" + ec.message() + ")");
    }
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
