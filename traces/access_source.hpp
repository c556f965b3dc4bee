#pragma once
// A stream of thread-level accesses in execution order, delivered in batches of whole steps
// (a step is one work item of a workload, or one record of a plain trace).
#include <cstdint>
#include <string>
#include <vector>

#include "traces/access.hpp"

namespace cachesim {

struct ArrayInfo {
    std::string name;
    std::uint64_t base = 0;
    std::uint32_t elem_bytes = 4;
    std::uint32_t width = 0, height = 0;  // elements; height 1 for flat regions
    std::uint64_t bytes() const {
        return static_cast<std::uint64_t>(width) * height * elem_bytes;
    }
};

struct AccessBatch {
    std::vector<Access> accesses;
    std::uint64_t first_step = 0;
    // Accesses per step when every step has the same count; 0 means one step per access.
    std::uint32_t accesses_per_step = 1;
};

class AccessSource {
public:
    virtual ~AccessSource() = default;
    virtual std::vector<ArrayInfo> arrays() const = 0;
    // Replaces batch.accesses with up to about `max_accesses` accesses (whole steps); returns
    // false, with an empty batch, at the end.
    virtual bool next(AccessBatch& batch, std::size_t max_accesses) = 0;
    // Starts again from the first access (multi-pass policies such as OPT replay the stream).
    // Before the first next() it is always allowed; after, only when rewindable().
    virtual void rewind() = 0;
    // False for a stream that can be read only once (a pipe, standard input).
    virtual bool rewindable() const { return true; }
    // Total accesses if known up front (progress, OPT memory checks); 0 if unknown.
    virtual std::uint64_t size_hint() const { return 0; }
    // What the reader noticed that is legal but suspect ("the last line has no newline: the file
    // may be cut short"), each once, for the command to show: a reader writes to no stream.
    virtual std::vector<std::string> warnings() const { return {}; }
};

}  // namespace cachesim
