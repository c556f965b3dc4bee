#pragma once
// A trace read front to back in large blocks: a regular file, a pipe or FIFO, or standard input
// ("-"), plain or compressed with gzip or zstd (recognised by their magic bytes, whatever the
// file's name). Memory stays bounded: one raw block and the decoder's state.
//
// Only a regular file can be read again (rewind); a pipe is read once, and rewinding one after
// reading has started is an InputError that says the command needs a seekable file.
#include <cstddef>
#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <sys/types.h>
#include <vector>

struct stat;

namespace cachesim {

enum class Compression { none, gzip, zstd };

class InputStream {
public:
    static constexpr std::size_t kBlockBytes = std::size_t{1} << 20;

    // "-" is standard input. Throws InputError when the path is missing, a directory or unreadable.
    explicit InputStream(std::string path);
    ~InputStream();
    InputStream(const InputStream&) = delete;
    InputStream& operator=(const InputStream&) = delete;

    // What messages call the input: its path, or "standard input".
    const std::string& name() const { return name_; }
    Compression compression() const { return compression_; }
    // A regular file (plain or compressed): it can be read again from the start.
    bool rewindable() const { return regular_; }
    // The byte count when it is known up front (a regular, uncompressed file).
    std::optional<std::uint64_t> plain_size() const;
    // "a pipe", "a FIFO", "a character device", ... (for "needs a seekable file" messages).
    std::string kind() const;

    // Up to n decoded bytes into `out`; fewer only at the end of the input.
    std::size_t read(void* out, std::size_t n);
    // The first decoded bytes (up to n), without consuming them; only before the first read().
    std::string_view peek(std::size_t n);
    // Decoded bytes consumed so far.
    std::uint64_t offset() const { return offset_; }
    // Back to the first byte; InputError for a pipe that has been read from.
    void rewind();

private:
    std::size_t fill_raw();  // more raw bytes into raw_ (after the unread ones); 0 at the end
    ssize_t read_fd(char* out, std::size_t n);  // read(2), or pread(2) at start_ + raw_offset_ for a regular file
    std::size_t decode(char* out, std::size_t n);
    void start_decoder();
    void stop_decoder();
    [[noreturn]] void fail(const std::string& why) const;
    void refuse_second_open(const struct stat& st) const;

    std::string path_, name_;
    int fd_ = -1;
    bool owns_fd_ = false;
    bool regular_ = false;
    unsigned mode_ = 0;
    std::uint64_t file_bytes_ = 0;
    std::int64_t start_ = 0;  // the fd's offset when opened (standard input may start mid-file); reads never move it
    Compression compression_ = Compression::none;
    std::vector<char> raw_;
    std::size_t raw_begin_ = 0, raw_end_ = 0;
    bool raw_eof_ = false;
    std::uint64_t raw_offset_ = 0;  // raw bytes read from the fd
    std::string peeked_;            // decoded bytes read ahead by peek()
    std::size_t peeked_used_ = 0;
    bool decoder_done_ = false;     // the compressed stream ended cleanly
    void* zlib_ = nullptr;          // z_stream
    void* zstd_ = nullptr;          // ZSTD_DStream
    std::uint64_t offset_ = 0;
};

}  // namespace cachesim
