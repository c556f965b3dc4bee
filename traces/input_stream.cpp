#include "traces/input_stream.hpp"

#include <cerrno>
#include <cstring>
#include <mutex>
#include <set>
#include <utility>
#include <fcntl.h>
#include <sys/stat.h>
#include <unistd.h>
#include <zlib.h>
#include <zstd.h>

#include "traces/input_error.hpp"

namespace cachesim {

namespace {

constexpr unsigned char kGzipMagic[2] = {0x1f, 0x8b};
constexpr unsigned char kZstdMagic[4] = {0x28, 0xb5, 0x2f, 0xfd};
// Compressions the reader does not decode, named so that their bytes are not parsed as a trace
// (magic numbers long enough not to be taken for the first address of a u64 trace).
struct UnreadCompression {
    const char* name;
    const char* decompress;
    unsigned char magic[6];
    std::size_t magic_size;
};
constexpr UnreadCompression kUnreadCompressions[] = {
    {"xz", "xz -dk", {0xfd, '7', 'z', 'X', 'Z', 0x00}, 6},
    {"bzip2", "bzip2 -dk", {'B', 'Z', 'h', '9'}, 4},  // the level digit of bzip2 -9, its default
};
constexpr std::size_t kLongestMagic = 6;  // xz's: the bytes read before the format is decided
// Below this, a plain read goes through the block buffer; above it, straight into the caller's.
constexpr std::size_t kDirectReadBytes = std::size_t{64} << 10;

bool starts_with(const char* data, std::size_t size, const unsigned char* magic, std::size_t magic_size) {
    return size >= magic_size && std::memcmp(data, magic, magic_size) == 0;
}

// A pipe, FIFO or device opened twice would hand each reader part of the data: the second open
// in a process is refused (a sweep over standard input, say). Kept for the process's lifetime:
// a pipe read to its end and closed has nothing left to give either.
bool first_open_of_stream(const struct stat& st) {
    static std::mutex mutex;
    static std::set<std::pair<dev_t, ino_t>> opened;
    std::lock_guard lock(mutex);
    return opened.insert({st.st_dev, st.st_ino}).second;
}

}  // namespace

InputStream::InputStream(std::string path) : path_(std::move(path)) {
    if (path_ == "-") {
        name_ = "standard input";
        fd_ = STDIN_FILENO;
        struct stat st {};
        if (::fstat(fd_, &st) == 0) refuse_second_open(st);
    } else {
        name_ = path_;
        struct stat st {};
        if (::stat(path_.c_str(), &st) != 0) {
            if (errno == ENOENT || errno == ENOTDIR) fail("no such file");
            fail(std::string("cannot open for reading (") + std::strerror(errno) + ")");
        }
        if (S_ISDIR(st.st_mode)) fail("is a directory, not a trace file");
        refuse_second_open(st);  // before open(): opening a FIFO waits for a writer
        fd_ = ::open(path_.c_str(), O_RDONLY | O_CLOEXEC);
        if (fd_ < 0) fail(std::string("cannot open for reading (") + std::strerror(errno) + ")");
        owns_fd_ = true;
    }
    struct stat st {};
    if (::fstat(fd_, &st) != 0) {
        if (errno == EBADF) fail("is not open (the command ran with standard input closed)");
        fail(std::string("cannot stat (") + std::strerror(errno) + ")");
    }
    mode_ = st.st_mode;
    regular_ = S_ISREG(st.st_mode);
    if (S_ISDIR(st.st_mode)) fail("is a directory, not a trace file");
    if (regular_) {
        start_ = ::lseek(fd_, 0, SEEK_CUR);
        if (start_ < 0) start_ = 0;
        file_bytes_ = st.st_size > start_ ? static_cast<std::uint64_t>(st.st_size - start_) : 0;  // (past the end: none)
    }
    raw_.resize(kBlockBytes);
    while (raw_end_ < kLongestMagic && fill_raw() > 0) {
    }
    if (starts_with(raw_.data(), raw_end_, kGzipMagic, sizeof kGzipMagic)) compression_ = Compression::gzip;
    else if (starts_with(raw_.data(), raw_end_, kZstdMagic, sizeof kZstdMagic)) compression_ = Compression::zstd;
    for (const UnreadCompression& c : kUnreadCompressions)
        if (starts_with(raw_.data(), raw_end_, c.magic, c.magic_size))
            fail(std::string("is ") + c.name + "-compressed, which cachesim does not read: decompress it (" +
                 c.decompress + ") or compress it with gzip or zstd");
    start_decoder();
}

InputStream::~InputStream() {
    stop_decoder();
    if (owns_fd_) ::close(fd_);
}

std::optional<std::uint64_t> InputStream::plain_size() const {
    if (regular_ && compression_ == Compression::none) return file_bytes_;
    return std::nullopt;
}

std::string InputStream::kind() const {
    if (regular_) return "a regular file";
    if (S_ISFIFO(mode_)) return "a pipe or FIFO";
    if (S_ISCHR(mode_)) return "a character device";
    if (S_ISSOCK(mode_)) return "a socket";
    return "not a regular file";
}

void InputStream::refuse_second_open(const struct stat& st) const {
    if (S_ISREG(st.st_mode) || first_open_of_stream(st)) return;
    fail(std::string(S_ISFIFO(st.st_mode) ? "is a pipe or FIFO" : "is not a regular file") +
         ", which can be read only once, and this command reads it more than once; save it to a file and "
         "pass that path");
}

void InputStream::fail(const std::string& why) const { throw InputError(name_ + ": " + why); }

ssize_t InputStream::read_fd(char* out, std::size_t n) {
    // A regular file is read at this stream's own position, never the descriptor's: standard
    // input redirected from a file is one descriptor that every configuration of a sweep (in
    // turn, or in threads at once) reads from its start.
    if (regular_) return ::pread(fd_, out, n, static_cast<off_t>(static_cast<std::uint64_t>(start_) + raw_offset_));
    return ::read(fd_, out, n);
}

std::size_t InputStream::fill_raw() {
    if (raw_eof_) return 0;
    if (raw_begin_ > 0) {
        std::memmove(raw_.data(), raw_.data() + raw_begin_, raw_end_ - raw_begin_);
        raw_end_ -= raw_begin_;
        raw_begin_ = 0;
    }
    if (raw_end_ == raw_.size()) return 0;
    for (;;) {
        const ssize_t got = read_fd(raw_.data() + raw_end_, raw_.size() - raw_end_);
        if (got < 0 && errno == EINTR) continue;
        if (got < 0)
            fail("read error at byte " + std::to_string(raw_offset_) + " (" + std::strerror(errno) + ")");
        if (got == 0) raw_eof_ = true;
        raw_end_ += static_cast<std::size_t>(got);
        raw_offset_ += static_cast<std::uint64_t>(got);
        return static_cast<std::size_t>(got);
    }
}

void InputStream::start_decoder() {
    decoder_done_ = false;
    if (compression_ == Compression::gzip) {
        auto* z = new z_stream{};
        if (inflateInit2(z, 15 + 16) != Z_OK) {  // 15 + 16: a gzip wrapper
            delete z;
            fail("cannot start the gzip decoder");
        }
        zlib_ = z;
    } else if (compression_ == Compression::zstd) {
        zstd_ = ZSTD_createDStream();
        if (!zstd_) fail("cannot start the zstd decoder");
        ZSTD_initDStream(static_cast<ZSTD_DStream*>(zstd_));
    }
}

void InputStream::stop_decoder() {
    if (zlib_) {
        inflateEnd(static_cast<z_stream*>(zlib_));
        delete static_cast<z_stream*>(zlib_);
        zlib_ = nullptr;
    }
    if (zstd_) {
        ZSTD_freeDStream(static_cast<ZSTD_DStream*>(zstd_));
        zstd_ = nullptr;
    }
}

std::size_t InputStream::decode(char* out, std::size_t n) {
    std::size_t done = 0;
    if (compression_ == Compression::none) {
        while (done < n) {
            if (raw_begin_ == raw_end_) {
                if (raw_eof_) break;
                if (n - done >= kDirectReadBytes) {
                    const ssize_t got = read_fd(out + done, n - done);
                    if (got < 0 && errno == EINTR) continue;
                    if (got < 0)
                        fail("read error at byte " + std::to_string(raw_offset_) + " (" + std::strerror(errno) + ")");
                    if (got == 0) raw_eof_ = true;
                    raw_offset_ += static_cast<std::uint64_t>(got);
                    done += static_cast<std::size_t>(got);
                    continue;
                }
                if (fill_raw() == 0) break;
            }
            const std::size_t take = std::min(n - done, raw_end_ - raw_begin_);
            std::memcpy(out + done, raw_.data() + raw_begin_, take);
            raw_begin_ += take;
            done += take;
        }
        return done;
    }
    const std::string what = compression_ == Compression::gzip ? "gzip" : "zstd";
    while (done < n && !decoder_done_) {
        if (raw_begin_ == raw_end_) fill_raw();
        const std::size_t available = raw_end_ - raw_begin_;
        const std::size_t done_before = done;
        if (compression_ == Compression::gzip) {
            auto* z = static_cast<z_stream*>(zlib_);
            z->next_in = reinterpret_cast<Bytef*>(raw_.data() + raw_begin_);
            z->avail_in = static_cast<uInt>(available);
            z->next_out = reinterpret_cast<Bytef*>(out + done);
            z->avail_out = static_cast<uInt>(std::min<std::size_t>(n - done, 1u << 30));
            const uInt out_before = z->avail_out;
            const int rc = inflate(z, Z_NO_FLUSH);
            raw_begin_ += available - z->avail_in;
            done += out_before - z->avail_out;
            if (rc == Z_STREAM_END) {
                // Another gzip member may follow (concatenated .gz files decode as one).
                while (raw_end_ - raw_begin_ < sizeof kGzipMagic && fill_raw() > 0) {
                }
                if (raw_begin_ == raw_end_) {
                    decoder_done_ = true;
                } else if (starts_with(raw_.data() + raw_begin_, raw_end_ - raw_begin_, kGzipMagic,
                                       sizeof kGzipMagic)) {
                    inflateReset(z);
                } else {
                    fail("unexpected bytes after the gzip data at compressed byte " +
                         std::to_string(raw_offset_ - (raw_end_ - raw_begin_)));
                }
                continue;
            }
            if (rc != Z_OK && rc != Z_BUF_ERROR)
                fail("gzip data is corrupt near compressed byte " +
                     std::to_string(raw_offset_ - (raw_end_ - raw_begin_)) + " (" +
                     (z->msg ? z->msg : "inflate error") + ")");
        } else {
            ZSTD_inBuffer in{raw_.data() + raw_begin_, available, 0};
            ZSTD_outBuffer o{out + done, n - done, 0};
            const std::size_t rc = ZSTD_decompressStream(static_cast<ZSTD_DStream*>(zstd_), &o, &in);
            if (ZSTD_isError(rc))
                fail("zstd data is corrupt near compressed byte " +
                     std::to_string(raw_offset_ - (raw_end_ - raw_begin_)) + " (" + ZSTD_getErrorName(rc) + ")");
            raw_begin_ += in.pos;
            done += o.pos;
            // rc 0: a frame ended and is flushed; the input may hold another frame.
            if (rc == 0 && raw_begin_ == raw_end_ && fill_raw() == 0) {
                decoder_done_ = true;
                continue;
            }
        }
        const bool progress = done != done_before || raw_end_ - raw_begin_ != available;
        if (!progress && fill_raw() == 0)
            fail(what + " data ends early at compressed byte " + std::to_string(raw_offset_) +
                 " (a truncated file?)");
    }
    return done;
}

std::size_t InputStream::read(void* out, std::size_t n) {
    char* dst = static_cast<char*>(out);
    std::size_t done = 0;
    if (peeked_used_ < peeked_.size()) {
        done = std::min(n, peeked_.size() - peeked_used_);
        std::memcpy(dst, peeked_.data() + peeked_used_, done);
        peeked_used_ += done;
    }
    if (done < n) done += decode(dst + done, n - done);
    offset_ += done;
    return done;
}

std::string_view InputStream::peek(std::size_t n) {
    if (offset_ == 0 && peeked_.size() < n) {
        const std::size_t had = peeked_.size();
        peeked_.resize(n);
        const std::size_t got = decode(peeked_.data() + had, n - had);
        peeked_.resize(had + got);
    }
    return std::string_view(peeked_).substr(0, std::min(n, peeked_.size()));
}

void InputStream::rewind() {
    if (offset_ == 0) return;  // nothing consumed yet: peeked bytes are still ahead
    if (!regular_)
        fail("is " + kind() + ", which can be read only once, and this command reads the trace again; "
             "save it to a file and pass that file's path");
    raw_begin_ = raw_end_ = 0;
    raw_eof_ = false;
    raw_offset_ = 0;
    peeked_.clear();
    peeked_used_ = 0;
    offset_ = 0;
    stop_decoder();
    start_decoder();
}

}  // namespace cachesim
