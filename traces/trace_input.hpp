#pragma once
// What --trace names, decided once: the format (auto: from the first bytes) and, for din and u64,
// the stream already opened to look at them. A pipe or standard input ("-") is read once: the
// first reader takes the opened stream, and a second reader of a pipe is an InputError saying the
// command needs a seekable file. A regular file (plain or compressed) is opened again per reader.
#include <memory>
#include <string>

#include "traces/access_source.hpp"
#include "traces/input_stream.hpp"

namespace cachesim {

class PendingTraceStream;

struct TraceInput {
    std::string path;    // as given; "-" is standard input
    std::string format;  // cst | din | u64 | traceg
    bool rewindable = true;  // a regular file (it can be read again)
    std::shared_ptr<PendingTraceStream> pending;  // din/u64: the stream opened to resolve the format
};

// requested: auto | cst | din | u64 | traceg (auto: traceg for a name ending in .traceg, an
// Accel-Sim kernel trace, which is only named here and not opened: its converter reads it; cst
// when the data starts with the cst magic, else din; compressed data is looked at decompressed).
// InputError for an unknown format, a missing file, a cst trace that is not a seekable file or is
// compressed, or a file too short to be a cst trace that starts like one.
TraceInput resolve_trace_input(const std::string& requested, const std::string& path);

// The first step of resolve_trace_input, which reads nothing: traceg when `requested` or the
// name says so, else `requested` (auto stays auto). For a caller that must know whether the input
// is an Accel-Sim trace before anything consumes a pipe. InputError for an unknown format.
std::string named_trace_format(const std::string& requested, const std::string& path);

// A reader for the input (see the class comment for pipes).
std::unique_ptr<AccessSource> open_trace_source(const TraceInput& input);

}  // namespace cachesim
