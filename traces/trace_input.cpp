#include "traces/trace_input.hpp"

#include <cstring>
#include <fstream>
#include <mutex>

#include "traces/choice_hint.hpp"
#include "traces/input_error.hpp"
#include "traces/trace_format.hpp"
#include "traces/trace_format_reader.hpp"
#include "traces/trace_readers.hpp"

namespace cachesim {

class PendingTraceStream {
public:
    explicit PendingTraceStream(std::unique_ptr<InputStream> stream) : stream_(std::move(stream)) {}
    std::unique_ptr<InputStream> take() {
        std::lock_guard lock(mutex_);
        return std::move(stream_);
    }

private:
    std::mutex mutex_;
    std::unique_ptr<InputStream> stream_;
};

namespace {

// Whether the file at `path` begins as a cst trace does, whatever its name says.
bool starts_with_cst_magic(const std::string& path) {
    std::ifstream in(path, std::ios::binary);
    char head[sizeof cst::kMagic] = {};
    return in.read(head, sizeof head) && std::memcmp(head, cst::kMagic, sizeof head) == 0;
}

}  // namespace

std::string named_trace_format(const std::string& requested, const std::string& path) {
    if (requested != "auto" && requested != "cst" && requested != "din" && requested != "u64" && requested != "traceg")
        throw InputError("--trace-format: unknown trace format '" + requested + "' (expected auto, cst, din, u64 or traceg)" +
                         case_hint(requested, {"auto", "cst", "din", "u64", "traceg"}));
    // Accel-Sim's kernel traces, plain or compressed (the input stream reads gzip and zstd)
    if (requested == "auto" && (path.ends_with(".traceg") || path.ends_with(".traceg.gz") || path.ends_with(".traceg.zst")) &&
        !starts_with_cst_magic(path))
        return "traceg";
    return requested;
}

TraceInput resolve_trace_input(const std::string& requested_format, const std::string& path) {
    const std::string requested = named_trace_format(requested_format, path);
    TraceInput input;
    input.path = path;
    if (requested == "traceg") {
        input.format = requested;  // read by its converter (accelsim::ConvertedTrace), not here
        return input;
    }
    auto stream = std::make_unique<InputStream>(path);
    input.rewindable = stream->rewindable();
    const std::string_view magic(cst::kMagic, sizeof cst::kMagic);
    const std::string_view head = stream->peek(sizeof cst::kMagic);
    input.format = requested;
    if (requested == "auto") {
        input.format = head == magic ? "cst" : "din";
        if (!head.empty() && head.size() < magic.size() && magic.starts_with(head))
            throw InputError(stream->name() + ": " + std::to_string(head.size()) +
                             " bytes: a truncated cst trace (shorter than the cst magic \"CSTRACE\\x1a\")");
    }
    // A forced din or u64 reading of a cst file would take its header and zstd bytes for addresses
    if ((input.format == "din" || input.format == "u64") && head == magic)
        throw InputError(stream->name() + ": a cst trace (it starts with the cst magic \"CSTRACE\\x1a\"), not " +
                         input.format + "; drop --trace-format " + input.format + " or use --trace-format cst");
    if (input.format == "cst") {
        if (stream->compression() != Compression::none)
            throw InputError(stream->name() + ": a compressed cst trace: cst blocks are compressed already and "
                             "the reader needs a seekable file; decompress it to a file and pass that path");
        if (!stream->rewindable())
            throw InputError(stream->name() + " is " + stream->kind() +
                             ": cst traces need a seekable file (the reader checks the end record before the "
                             "blocks); save it to a file and pass that path, or use the din or u64 format");
        return input;  // the cst reader opens the path itself ("-": standard input, from where it stands)
    }
    input.pending = std::make_shared<PendingTraceStream>(std::move(stream));
    return input;
}

std::unique_ptr<AccessSource> open_trace_source(const TraceInput& input) {
    if (input.format == "traceg")
        throw InputError(input.path + ": an Accel-Sim trace is replayed from its cst conversion, not read directly");
    if (input.format == "cst") return std::make_unique<cst::TraceFileSource>(input.path);
    std::unique_ptr<InputStream> stream = input.pending ? input.pending->take() : nullptr;
    if (!stream) {
        if (!input.rewindable)
            throw InputError((input.path == "-" ? std::string("standard input") : input.path) +
                             " is a pipe, which can be read only once, and this command reads the trace "
                             "more than once; save it to a file and pass that path");
        stream = std::make_unique<InputStream>(input.path);
    }
    if (input.format == "u64") return std::make_unique<U64TraceSource>(std::move(stream));
    return std::make_unique<DinTraceSource>(std::move(stream));
}

}  // namespace cachesim
