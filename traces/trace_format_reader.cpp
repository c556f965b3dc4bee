#include "traces/trace_format_reader.hpp"

#include <algorithm>
#include <cerrno>
#include <cstring>
#include <fcntl.h>
#include <filesystem>
#include <sys/stat.h>
#include <unistd.h>
#include <zstd.h>

#include "traces/input_error.hpp"
#include "traces/trace_format_bytes.hpp"
#include "traces/trace_format_checksum.hpp"

namespace cachesim::cst {

namespace {
#ifdef FUZZING_BUILD_MODE_UNSAFE_FOR_PRODUCTION
constexpr bool kVerifyChecksums = false;  // fuzz builds: let the fuzzer reach the parsers behind them
#else
constexpr bool kVerifyChecksums = true;
#endif

// Where the trace starts in the file: 0 for a file opened here; for standard input, where the
// shell left it (a file it was redirected from may hold other bytes first, as din and u64 allow).
// Reads use pread and never move the shared position, so every reader of a run finds it unchanged.
std::uint64_t trace_start(int fd) {
    const off_t at = ::lseek(fd, 0, SEEK_CUR);
    return at > 0 ? static_cast<std::uint64_t>(at) : 0;
}

// Only plain cst files are read here (info, --trace-format cst): a compressed file is named as
// such, and the other formats are pointed to their way in.
std::string not_cst_message(const char* head, std::uint64_t bytes) {
    const std::string_view start(head, std::min<std::uint64_t>(bytes, 4));
    const bool compressed = start.starts_with("\x1f\x8b") || start == std::string_view("\x28\xb5\x2f\xfd", 4);
    const std::string what = "not a cachesim trace (bad magic; expected \"CSTRACE\\x1a\"); ";
    const std::string others = "a din, u64 or Accel-Sim trace is read by `cachesim simulate --trace FILE` and "
                               "converted to cst by `cachesim trace --trace FILE -o OUT.cst`";
    if (compressed)
        return what + "it is gzip or zstd data: decompress a cst trace to a file; " + others + ", compressed or not";
    return what + others;
}
}  // namespace

TraceFileSource::TraceFileSource(std::string path)
    : path_(std::move(path)), name_(path_ == "-" ? "standard input" : path_) {
    if (path_ == "-") open_standard_input();
    else open_path();
    try {
        open_and_check();
    } catch (...) {
        ::close(fd_);
        fd_ = -1;
        throw;
    }
}

void TraceFileSource::open_path() {
    std::error_code ec;
    if (!std::filesystem::exists(path_, ec)) throw InputError(path_ + ": no such file");
    if (std::filesystem::is_directory(path_, ec)) throw InputError(path_ + ": is a directory, not a trace file");
    fd_ = ::open(path_.c_str(), O_RDONLY | O_CLOEXEC);
    if (fd_ < 0) throw InputError(path_ + ": cannot open for reading (" + std::strerror(errno) + ")");
}

// A descriptor of its own on the same open file (opening /dev/stdin would open the file again, at
// its first byte): it shares standard input's position, where the trace starts.
void TraceFileSource::open_standard_input() {
    fd_ = ::fcntl(STDIN_FILENO, F_DUPFD_CLOEXEC, 0);
    if (fd_ < 0 && errno == EBADF)
        throw InputError(name_ + ": is not open (the command ran with standard input closed)");
    if (fd_ < 0) throw InputError(name_ + ": cannot read (" + std::strerror(errno) + ")");
}

TraceFileSource::~TraceFileSource() {
    if (dctx_) ZSTD_freeDCtx(static_cast<ZSTD_DCtx*>(dctx_));
    if (fd_ >= 0) ::close(fd_);
}

void TraceFileSource::fail(std::uint64_t offset, const std::string& why) const {
    throw InputError(name_ + ": byte " + std::to_string(offset) + ": " + why);
}

void TraceFileSource::read_exact(std::uint64_t offset, void* out, std::size_t bytes, const char* what) const {
    if (offset > file_bytes_ || bytes > file_bytes_ - offset)
        fail(offset, std::string("file is truncated: ") + what + " needs " + std::to_string(bytes) +
                         " bytes but the file ends at byte " + std::to_string(file_bytes_));
    char* p = static_cast<char*>(out);
    while (bytes > 0) {
        const ssize_t got = ::pread(fd_, p, bytes, static_cast<off_t>(start_ + offset));
        if (got < 0 && errno == EINTR) continue;
        if (got <= 0) fail(offset, std::string("read error in ") + what + " (" + std::strerror(errno) + ")");
        p += got;
        offset += static_cast<std::uint64_t>(got);
        bytes -= static_cast<std::size_t>(got);
    }
}

void TraceFileSource::open_and_check() {
    struct stat st {};
    if (::fstat(fd_, &st) != 0) fail(0, std::string("cannot stat (") + std::strerror(errno) + ")");
    if (!S_ISREG(st.st_mode))
        throw InputError(name_ + " is not a regular file (a pipe, FIFO or device): cst traces need a seekable "
                                 "file; save it to a file and pass that path");
    start_ = trace_start(fd_);
    const auto size = static_cast<std::uint64_t>(st.st_size);
    file_bytes_ = size > start_ ? size - start_ : 0;
    if (file_bytes_ < kPreambleBytes) {  // name what the bytes are before saying they are too few
        char head[kPreambleBytes] = {};
        read_exact(0, head, file_bytes_, "the preamble");
        if (std::memcmp(head, kMagic, std::min<std::size_t>(file_bytes_, sizeof kMagic)) != 0)
            fail(0, not_cst_message(head, file_bytes_));
    }
    char preamble[kPreambleBytes];
    read_exact(0, preamble, sizeof preamble, "the preamble");
    if (std::memcmp(preamble, kMagic, sizeof kMagic) != 0)
        fail(0, not_cst_message(preamble, sizeof preamble));
    const std::uint32_t version = load_le<std::uint32_t>(preamble + 8);
    if (version < kVersionPlain || version > kVersionResources)
        fail(8, "unsupported trace version " + std::to_string(version) + " (this build reads versions " +
                    std::to_string(kVersionPlain) + " to " + std::to_string(kVersionResources) + ")");
    launch_ = version >= kVersionLaunch;
    const std::uint32_t body_bytes = load_le<std::uint32_t>(preamble + 12);
    if (body_bytes > kMaxHeaderBytes)
        fail(12, "header length " + std::to_string(body_bytes) + " exceeds the limit of " +
                     std::to_string(kMaxHeaderBytes) + " bytes");
    std::string head(kPreambleBytes + body_bytes + 8, '\0');
    read_exact(0, head.data(), head.size(), "the header");
    const std::uint64_t stored = load_le<std::uint64_t>(head.data() + kPreambleBytes + body_bytes);
    if (kVerifyChecksums && checksum(head.data(), kPreambleBytes + body_bytes) != stored)
        fail(kPreambleBytes + body_bytes, "header checksum mismatch (the header is corrupted)");
    try {
        header_ = decode_header_body(std::string_view(head).substr(kPreambleBytes, body_bytes), version);
    } catch (const InputError& e) {
        throw InputError(name_ + ": " + e.what());
    }
    first_block_offset_ = head.size();
    if (file_bytes_ < first_block_offset_ + kEndRecordBytes)
        fail(file_bytes_, "file is truncated: it ends before the end record (the file is " +
                              std::to_string(file_bytes_) + " bytes)");
    end_record_offset_ = file_bytes_ - kEndRecordBytes;
    char end[kEndRecordBytes];
    read_exact(end_record_offset_, end, sizeof end, "the end record");
    if (load_le<std::uint32_t>(end) != kEndTag || load_le<std::uint32_t>(end + 4) != 0)
        fail(end_record_offset_, "no end record at the end of the file (truncated or not finished)");
    if (kVerifyChecksums && checksum(end, 24) != load_le<std::uint64_t>(end + 24))
        fail(end_record_offset_, "end record checksum mismatch");
    if (load_le<std::uint64_t>(end + 8) != header_.steps || load_le<std::uint64_t>(end + 16) != header_.accesses)
        fail(end_record_offset_, "end record counts disagree with the header");
    // Every block has a 32-byte header, so the block count is bounded by the file size.
    if (header_.blocks > (end_record_offset_ - first_block_offset_) / kBlockHeaderBytes)
        fail(kPreambleBytes + 16, "block count " + std::to_string(header_.blocks) +
                                      " cannot fit in a file of " + std::to_string(file_bytes_) + " bytes");
    previous_.assign(header_.arrays.size(), 0);
    dctx_ = ZSTD_createDCtx();
    if (!dctx_) fail(0, "cannot create a zstd decompression context");
    rewind();
}

void TraceFileSource::rewind() {
    next_block_offset_ = first_block_offset_;
    next_step_ = 0;
    blocks_read_ = 0;
    block_accesses_ = block_position_ = 0;
    block_step_ = 0;
    step_threads_.clear();
    step_first_.assign(1, 0);
    next_thread_ = 0;
    previous_thread_.valid = false;
}

bool TraceFileSource::load_block() {
    const std::uint64_t at = next_block_offset_;
    if (blocks_read_ == header_.blocks) {
        if (at != end_record_offset_)
            fail(at, std::to_string(end_record_offset_ - at) + " unexpected bytes after the last block");
        return false;
    }
    if (at >= end_record_offset_)
        fail(at, "block " + std::to_string(blocks_read_) + " of " + std::to_string(header_.blocks) +
                     " is missing (reached the end record)");
    char head[kBlockHeaderBytes];
    if (end_record_offset_ - at < kBlockHeaderBytes)
        fail(at, "block header runs into the end record (truncated or damaged)");
    read_exact(at, head, sizeof head, "a block header");
    const std::uint32_t tag = load_le<std::uint32_t>(head);
    const std::uint32_t payload = load_le<std::uint32_t>(head + 4);
    const std::uint32_t accesses = load_le<std::uint32_t>(head + 8);
    const std::uint32_t steps = load_le<std::uint32_t>(head + 12);
    const std::uint64_t first_step = load_le<std::uint64_t>(head + 16);
    const std::uint64_t stored = load_le<std::uint64_t>(head + 24);
    if (tag != kBlockTag) fail(at, "expected a block (tag \"CSTB\"), found something else");
    const std::uint64_t max_accesses = max_block_accesses(header_.accesses_per_step);
    if (accesses == 0 || accesses > max_accesses)
        fail(at + 8, "block access count " + std::to_string(accesses) + " is outside 1.." +
                         std::to_string(max_accesses));
    if (!launch_ && static_cast<std::uint64_t>(steps) * header_.accesses_per_step != accesses)
        fail(at + 12, std::to_string(steps) + " steps of " + std::to_string(header_.accesses_per_step) +
                          " accesses do not make the block's " + std::to_string(accesses) + " accesses");
    if (launch_ && (steps == 0 || steps > accesses ||
                    static_cast<std::uint64_t>(steps) * header_.accesses_per_step < accesses))
        fail(at + 12, std::to_string(steps) + " threads of 1.." + std::to_string(header_.accesses_per_step) +
                          " accesses cannot make the block's " + std::to_string(accesses) + " accesses");
    if (steps > header_.steps - next_step_)
        fail(at + 12, "block holds " + std::to_string(steps) + " steps, only " +
                          std::to_string(header_.steps - next_step_) + " are left of the header's " +
                          std::to_string(header_.steps));
    if (first_step != next_step_)
        fail(at + 16, "block starts at step " + std::to_string(first_step) + ", expected " +
                          std::to_string(next_step_));
    const std::uint64_t table_bytes = launch_ ? static_cast<std::uint64_t>(steps) * kStepRecordBytes : 0;
    const std::uint64_t raw_bytes = table_bytes + static_cast<std::uint64_t>(accesses) * kRecordBytes;
    if (payload == 0 || payload > ZSTD_compressBound(raw_bytes) ||
        payload > end_record_offset_ - at - kBlockHeaderBytes)
        fail(at + 4, "block payload length " + std::to_string(payload) +
                         " is impossible (truncated or damaged file)");
    if (blocks_read_ % share_count_ != share_index_) {  // another reader's block (share_blocks)
        next_step_ += steps;
        ++blocks_read_;
        next_block_offset_ = at + kBlockHeaderBytes + payload;
        if (blocks_read_ == header_.blocks && next_step_ != header_.steps)
            fail(at, "the blocks hold " + std::to_string(next_step_) + " steps, the header says " +
                         std::to_string(header_.steps));
        next_thread_ = 0;  // unknown: the blocks' order is checked where they are put together
        previous_thread_.valid = false;
        return load_block();
    }
    compressed_.resize(payload);
    read_exact(at + kBlockHeaderBytes, compressed_.data(), payload, "a block payload");
    std::uint64_t sum = checksum_update(kChecksumSeed, head, 24);
    sum = checksum_update(sum, compressed_.data(), payload);
    if (kVerifyChecksums && sum != stored) fail(at, "block checksum mismatch (the block is corrupted)");
    raw_.resize(raw_bytes);
    const std::size_t got = ZSTD_decompressDCtx(static_cast<ZSTD_DCtx*>(dctx_), raw_.data(), raw_.size(),
                                                compressed_.data(), payload);
    if (ZSTD_isError(got))
        fail(at + kBlockHeaderBytes, std::string("block does not decompress: ") + ZSTD_getErrorName(got));
    if (got != raw_bytes)
        fail(at + kBlockHeaderBytes, "block decompresses to " + std::to_string(got) + " bytes, expected " +
                                         std::to_string(raw_bytes));
    block_offset_ = at;
    block_accesses_ = accesses;
    block_position_ = 0;
    table_bytes_ = table_bytes;
    if (launch_) decode_step_table(at, steps, accesses);
    block_first_step_ = first_step;
    std::fill(previous_.begin(), previous_.end(), 0);
    next_step_ += steps;
    ++blocks_read_;
    payload_bytes_seen_ += payload;
    next_block_offset_ = at + kBlockHeaderBytes + payload;
    if (blocks_read_ == header_.blocks && next_step_ != header_.steps)
        fail(at, "the blocks hold " + std::to_string(next_step_) + " steps, the header says " +
                     std::to_string(header_.steps));
    return true;
}

void TraceFileSource::decode_step_table(std::uint64_t at, std::uint32_t steps, std::uint32_t accesses) {
    const char* deltas = raw_.data();
    const char* counts = raw_.data() + steps * 8ull;
    step_threads_.resize(steps);
    step_first_.resize(steps + 1ull);
    step_first_[0] = 0;
    block_step_ = 0;
    const std::uint64_t threads = header_.launch->threads();
    std::uint64_t thread = 0, total = 0;
    for (std::uint32_t i = 0; i < steps; ++i) {
        const std::uint64_t delta = load_le<std::uint64_t>(deltas + i * 8ull);
        const std::uint32_t count = load_le<std::uint32_t>(counts + i * 4ull);
        thread = i == 0 ? delta : thread + delta;
        const auto where = [&] { return "thread " + std::to_string(i) + " of the block"; };  // only on failure
        if ((i > 0 && delta == 0) || thread < next_thread_ || (i > 0 && thread < delta))
            fail(at, where() + " (index " + std::to_string(thread) + ") does not come after the previous thread " +
                         "(threads must increase through the file)");
        if (thread >= threads)
            fail(at, where() + " has index " + std::to_string(thread) + ", outside the launch (" +
                         header_.launch->describe() + ": " + std::to_string(threads) + " threads)");
        if (count == 0 || count > header_.accesses_per_step)
            fail(at, where() + " makes " + std::to_string(count) + " accesses, outside 1.." +
                         std::to_string(header_.accesses_per_step));
        total += count;
        step_threads_[i] = thread;
        step_first_[i + 1] = static_cast<std::uint32_t>(total);
        next_thread_ = thread + 1;
    }
    if (total != accesses)
        fail(at, "the block's threads make " + std::to_string(total) + " accesses, its header says " +
                     std::to_string(accesses));
}

void TraceFileSource::report_bad_record(std::size_t first, std::size_t count) {
    const char* deltas = raw_.data() + table_bytes_;
    const char* metas = raw_.data() + table_bytes_ + block_accesses_ * 8;
    // Deltas restart at each block, so decode again from the block's start.
    std::vector<std::uint64_t> previous(header_.arrays.size(), 0);
    for (std::size_t i = 0; i < first + count; ++i) {
        const std::uint32_t meta = load_le<std::uint32_t>(metas + i * 4);
        const std::uint32_t size = meta & kMaxAccessSize;
        const std::uint32_t array = meta >> 16;
        const std::string where = "record " + std::to_string(i) + " of the block";
        if (array >= previous.size())
            fail(block_offset_, where + " names array " + std::to_string(array) + " but the header lists " +
                                    std::to_string(previous.size()));
        if (size == 0) fail(block_offset_, where + " has size 0");
        const std::uint64_t address = previous[array] += load_le<std::uint64_t>(deltas + i * 8);
        if (address > ~0ull - (size - 1)) fail(block_offset_, where + " overflows the address space");
    }
    fail(block_offset_, "invalid record in the block");
}

void TraceFileSource::decode(Access* out, std::size_t first, std::size_t count) {
    const char* deltas = raw_.data() + table_bytes_ + first * 8;
    const char* metas = raw_.data() + table_bytes_ + block_accesses_ * 8 + first * 4;
    const std::uint32_t arrays = static_cast<std::uint32_t>(previous_.size());
    // The current array's last address is kept in a register while the records stay in one array
    // (a thread's loads of one input come in runs), so that the chain from one record's address
    // to the next is an add, not a store and a reload.
    std::uint32_t current = 0;
    std::uint64_t last = previous_.empty() ? 0 : previous_[0];
    bool bad = arrays == 0 && count > 0;
    for (std::size_t i = 0; i < count; ++i) {
        const std::uint32_t meta = load_le<std::uint32_t>(metas + i * 4);
        const std::uint32_t size = meta & kMaxAccessSize;
        const std::uint32_t array = meta >> 16;
        if (array != current) [[unlikely]] {
            if (array >= arrays) {  // report_bad_record names it; never index past the table
                bad = true;
                continue;
            }
            previous_[current] = last;
            current = array;
            last = previous_[array];
        }
        const std::uint64_t address = last + load_le<std::uint64_t>(deltas + i * 8);
        bad |= (size == 0) | (address > ~0ull - (size - 1));  // the last byte is at most 2^64 - 1
        last = address;
        Access& a = out[i];
        a.address = address;
        a.size = size;
        a.array = static_cast<std::uint16_t>(array);
        a.is_write = (meta >> 15) & 1u;
    }
    if (arrays > 0) previous_[current] = last;
    if (bad) report_bad_record(first, count);
}

bool TraceFileSource::next(AccessBatch& batch, std::size_t max_accesses) {
    if (block_position_ == block_accesses_ && !load_block()) {
        batch.accesses.clear();
        return false;
    }
    if (launch_) {  // a run of threads with the same count, whole threads up to max_accesses
        const std::uint32_t per_step = step_first_[block_step_ + 1] - step_first_[block_step_];
        std::size_t end = block_step_ + 1;
        while (end < step_threads_.size() && step_first_[end + 1] - step_first_[end] == per_step &&
               step_first_[end + 1] - step_first_[block_step_] <= max_accesses)
            ++end;
        const std::size_t count = step_first_[end] - step_first_[block_step_];
        batch.first_step = block_first_step_ + block_step_;
        batch.accesses_per_step = per_step;
        batch.accesses.resize(count);
        decode(batch.accesses.data(), block_position_, count);
        block_position_ += count;
        block_step_ = end;
        return true;
    }
    const std::uint32_t per_step = header_.accesses_per_step;
    std::size_t steps = max_accesses / per_step;
    if (steps == 0) steps = 1;  // a step is never split
    const std::size_t left = (block_accesses_ - block_position_) / per_step;
    if (steps > left) steps = left;
    const std::size_t count = steps * per_step;
    batch.first_step = block_first_step_ + block_position_ / per_step;
    batch.accesses_per_step = per_step;
    batch.accesses.resize(count);
    decode(batch.accesses.data(), block_position_, count);
    block_position_ += count;
    return true;
}

bool TraceFileSource::next_threads(ThreadBatch& batch) {
    // (accesses is only resized below, never cleared: every record is overwritten by decode, so
    // keeping the old ones spares zeroing millions of them per block)
    batch.threads.clear();
    batch.first.assign(1, 0);
    if (!launch_) fail(8, "a version 1 trace has no threads (it holds no launch)");
    if (block_position_ == block_accesses_ && !load_block()) {
        batch.accesses.clear();
        return false;
    }
    const std::size_t count = block_accesses_ - block_position_;
    copy_thread_table(batch.threads, batch.first);
    batch.accesses.resize(count);
    decode(batch.accesses.data(), block_position_, count);
    block_position_ = block_accesses_;
    block_step_ = step_threads_.size();
    return true;
}

void TraceFileSource::copy_thread_table(std::vector<std::uint64_t>& threads, std::vector<std::uint32_t>& first) const {
    threads.assign(step_threads_.begin() + static_cast<std::ptrdiff_t>(block_step_), step_threads_.end());
    first.resize(threads.size() + 1);
    for (std::size_t i = 0; i <= threads.size(); ++i) first[i] = step_first_[block_step_ + i] - step_first_[block_step_];
}

bool TraceFileSource::next_thread_records(ThreadRecords& records) {
    records.threads.clear();
    records.first.assign(1, 0);
    records.repeats.clear();
    records.starts_at.assign(1, 0);
    records.starts.clear();
    records.start_arrays.clear();
    records.at.clear();
    records.deltas.clear();
    records.metas.clear();
    if (!launch_) fail(8, "a version 1 trace has no threads (it holds no launch)");
    if (block_position_ == block_accesses_ && !load_block()) return false;
    copy_thread_table(records.threads, records.first);
    records.arrays = static_cast<std::uint32_t>(header_.arrays.size());
    scan_threads(records);
    // The thread the next block's first thread is compared with keeps its records in copies.
    PreviousThread& p = previous_thread_;
    if (p.valid) {
        p.meta_copy.assign(p.metas, p.metas + p.count * 4ull);
        p.delta_copy.assign(p.deltas, p.deltas + p.count * 8ull);
        p.metas = p.meta_copy.data();
        p.deltas = p.delta_copy.data();
    }
    block_position_ = block_accesses_;
    block_step_ = step_threads_.size();
    return true;
}

// Each thread is compared with the one before it: equal meta words and equal deltas but at each
// array's first use make the same accesses shifted by one amount per array, found from the starts
// alone; its addresses are then the previous thread's shifted, so its bytes stay inside the address
// space when the previous thread's lowest and highest bytes, shifted, do. Any other thread is
// walked record by record, checking each (report_bad_record names the first bad one).
void TraceFileSource::scan_threads(ThreadRecords& out) {
    const char* deltas = raw_.data() + table_bytes_;
    const char* metas = raw_.data() + table_bytes_ + block_accesses_ * 8;
    PreviousThread& p = previous_thread_;
    out.repeats.resize(out.threads.size());
    out.starts_at.resize(out.threads.size() + 1);
    out.at.resize(out.threads.size());
    for (std::size_t i = 0; i < out.threads.size(); ++i) {
        const std::size_t first = step_first_[block_step_ + i];
        const std::uint32_t count = step_first_[block_step_ + i + 1] - static_cast<std::uint32_t>(first);
        const char* m = metas + first * 4;
        const char* d = deltas + first * 8;
        bool same = p.valid && count == p.count && std::memcmp(m, p.metas, count * 4ull) == 0;
        for (std::size_t j = 0; same && j < p.first_use.size(); ++j) {  // the deltas between first uses
            const std::size_t from = p.first_use[j] + 1;
            const std::size_t to = j + 1 < p.first_use.size() ? p.first_use[j + 1] : count;
            same = std::memcmp(d + from * 8, p.deltas + from * 8, (to - from) * 8) == 0;
        }
        bool shifted = same;
        if (same) {
            shifted_starts_.resize(p.first_use.size());
            for (std::size_t j = 0; shifted && j < p.first_use.size(); ++j) {
                const std::uint64_t start = previous_[p.array[j]] + load_le<std::uint64_t>(d + p.first_use[j] * 8ull);
                const std::uint64_t by = start - p.start[j];
                shifted = static_cast<std::int64_t>(by) >= 0 ? p.high[j] <= ~0ull - by : p.low[j] >= 0ull - by;
                shifted_starts_[j] = start;
            }
        }
        if (shifted) {
            for (std::size_t j = 0; j < p.first_use.size(); ++j) {
                const std::uint64_t by = shifted_starts_[j] - p.start[j];
                p.start[j] = shifted_starts_[j];
                p.end[j] += by;
                p.low[j] += by;
                p.high[j] += by;
                previous_[p.array[j]] = p.end[j];
            }
            out.starts.insert(out.starts.end(), p.start.begin(), p.start.end());
            out.start_arrays.insert(out.start_arrays.end(), p.array.begin(), p.array.end());
        } else {
            walk_thread(first, count, out);
        }
        if (!same || i == 0) {  // a run's first thread in the block: its records are kept
            const std::size_t kept = out.metas.size();
            out.metas.resize(kept + count);
            out.deltas.resize(kept + count);
            std::memcpy(out.metas.data() + kept, m, count * 4ull);   // (little-endian, as the file)
            std::memcpy(out.deltas.data() + kept, d, count * 8ull);
        }
        out.at[i] = static_cast<std::uint32_t>(out.metas.size() - count);
        out.repeats[i] = same;
        out.starts_at[i + 1] = static_cast<std::uint32_t>(out.starts.size());
        p.valid = true;
        p.count = count;
        p.metas = m;
        p.deltas = d;
    }
}

void TraceFileSource::walk_thread(std::size_t first, std::size_t count, ThreadRecords& out) {
    const char* deltas = raw_.data() + table_bytes_;
    const char* metas = raw_.data() + table_bytes_ + block_accesses_ * 8;
    const std::uint32_t arrays = static_cast<std::uint32_t>(previous_.size());
    PreviousThread& p = previous_thread_;
    p.first_use.clear();
    p.array.clear();
    p.start.clear();
    p.end.clear();
    p.low.clear();
    p.high.clear();
    if (use_stamp_.size() < arrays) {
        use_stamp_.resize(arrays, 0);
        use_of_array_.resize(arrays);
    }
    if (++walk_ == 0) {
        std::fill(use_stamp_.begin(), use_stamp_.end(), 0);
        walk_ = 1;
    }
    for (std::size_t k = 0; k < count; ++k) {
        const std::uint32_t meta = load_le<std::uint32_t>(metas + (first + k) * 4);
        const std::uint32_t size = meta_size(meta);
        const std::uint32_t array = meta_array(meta);
        if (array >= arrays || size == 0) report_bad_record(first, count);
        const std::uint64_t address = previous_[array] + load_le<std::uint64_t>(deltas + (first + k) * 8);
        if (address > ~0ull - (size - 1)) report_bad_record(first, count);
        previous_[array] = address;
        const std::uint64_t last_byte = address + (size - 1);
        if (use_stamp_[array] != walk_) {
            use_stamp_[array] = walk_;
            use_of_array_[array] = static_cast<std::uint32_t>(p.first_use.size());
            p.first_use.push_back(static_cast<std::uint32_t>(k));
            p.array.push_back(array);
            p.start.push_back(address);
            p.end.push_back(address);
            p.low.push_back(address);
            p.high.push_back(last_byte);
            out.starts.push_back(address);
            out.start_arrays.push_back(array);
        } else {
            const std::uint32_t j = use_of_array_[array];
            p.end[j] = address;
            p.low[j] = std::min(p.low[j], address);
            p.high[j] = std::max(p.high[j], last_byte);
        }
    }
}

}  // namespace cachesim::cst
