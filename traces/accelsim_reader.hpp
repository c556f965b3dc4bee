#pragma once
// Accel-Sim traces: the `kernel-N.traceg` files that Accel-Sim's NVBit tracer and its
// post-processing write (one kernel launch: a header, then per thread block and warp the warp's
// instructions with their active mask and, for memory instructions, the lanes' addresses in one
// of three compressed forms). The reader turns a kernel's global memory instructions into each
// thread's accesses in program order, and its instructions into the kernel's loop (what limits
// it, its loads per iteration); the converter writes them as a cst launch with that loop.
// docs/trace-format.md ("Accel-Sim traces") describes the format and what is kept.
#include <cstdint>
#include <istream>
#include <memory>
#include <optional>
#include <string>
#include <vector>

#include "traces/access.hpp"
#include "traces/instruction_pipes.hpp"
#include "traces/trace_format.hpp"

namespace cachesim::accelsim {

inline constexpr std::uint32_t kWarpSize = 32;
// A generic LD/ST whose first active address lies this far above the local window's base is
// local memory (Accel-Sim's rule, with gpgpu-sim's per-thread local memory size).
inline constexpr std::uint64_t kLocalWindowBytes = 16 * 1024;

// The kernel header (the lines starting with '-').
struct KernelInfo {
    std::string name;
    std::uint64_t id = 0;
    cst::LaunchGeometry launch;
    // "-accelsim tracer version" (its integer part; 0 when absent, which Accel-Sim reads as the
    // oldest format): below 3 every instruction line starts with the block and warp; from 4 an
    // instruction may end with an immediate.
    std::uint32_t tracer_version = 0;
    bool lineinfo = false;  // "-enable lineinfo = 1": a source line number precedes the PC
    std::uint64_t shmem_base = 0, local_base = 0;  // generic addresses' shared and local windows
    // "-shmem" (bytes a block, static and dynamic) and "-nregs" (a thread's): what a block holds
    // on its SM; both given, or none (then the replay takes the GPU model's own values).
    std::optional<cst::LaunchResources> resources;
};

// What a traceg held, counted in warp instructions unless said otherwise.
struct ImportCounts {
    std::uint64_t instructions = 0;
    std::uint64_t global_loads = 0;    // LDG, LDGSTS, generic LD resolved to global
    std::uint64_t global_stores = 0;   // STG, generic ST resolved to global
    std::uint64_t global_atomics = 0;  // ATOM, ATOMG, RED: replayed as a store per lane
    std::uint64_t global_no_lanes = 0; // global memory instructions without an active lane
    std::uint64_t shared = 0, local = 0, constant = 0;  // skipped memory instructions
    std::uint64_t other_memory = 0;   // skipped: texture, surface, cache control, ...
    std::uint64_t non_memory = 0;     // skipped: no address
    std::uint64_t accesses = 0;       // per-thread global accesses produced
    std::uint64_t warps = 0;          // warp sections read
};

// One warp's global accesses, lane by lane, in program order.
struct WarpAccesses {
    std::uint64_t block = 0;  // linear block index in the grid (x fastest)
    std::uint32_t warp = 0;   // warp in the block: its lane l is thread warp * 32 + l of the block
    std::uint32_t lanes = 0;  // lanes that exist (the block's last warp may be partial)
    std::vector<Access> lane[kWarpSize];
    std::uint64_t line = 0;   // the "warp = N" line (for messages)
};

// Streams a traceg: the header when constructed, then one warp at a time. Anything malformed is
// an InputError "NAME:LINE: what is wrong".
class TracegReader {
public:
    TracegReader(std::istream& in, std::string name);
    const KernelInfo& kernel() const { return kernel_; }
    // The next warp (blocks in launch order, warps in increasing order); false at the end.
    bool next_warp(WarpAccesses& out);
    const ImportCounts& counts() const { return counts_; }
    std::uint64_t blocks_read() const { return blocks_read_; }  // the 'thread block =' sections so far
    // The kernel's loop from the instructions of the warps read so far (instruction_pipes.hpp).
    RecordedLoop loop() const { return profiler_.loop(); }

private:
    enum class State { header, between_blocks, block_begun, warp_named, instructions };
    bool read_line();
    [[noreturn]] void fail(const std::string& why) const;
    void header_line();
    void begin_header_end();
    void thread_block_line();
    void warp_line(WarpAccesses& out);
    void insts_line();
    void instruction_line(WarpAccesses& out);

    std::istream& in_;
    std::string name_;
    KernelInfo kernel_;
    ImportCounts counts_;
    InstructionProfiler profiler_;
    std::string line_;
    std::uint64_t line_number_ = 0;
    bool have_grid_ = false, have_block_ = false;
    std::optional<std::uint32_t> shmem_bytes_, regs_per_thread_;  // "-shmem", "-nregs" as read
    std::vector<std::string> header_keys_;  // each header line's key, to refuse one given twice
    State state_ = State::header;
    std::uint64_t block_begun_at_ = 0;
    bool block_named_ = false;
    std::uint32_t block_xyz_[3] = {0, 0, 0};
    std::uint64_t block_ = 0;
    bool any_block_ = false;
    std::uint64_t last_block_ = 0, blocks_read_ = 0;
    std::int64_t last_warp_ = -1;  // in the current block
    std::uint32_t warp_ = 0;
    std::uint64_t remaining_ = 0;  // instruction lines still to come in the current warp
    std::uint32_t warps_per_block_ = 1;
    bool pending_line_ = false;    // line_ holds a line not yet handled
};

// What a conversion did.
struct TracegConversion {
    KernelInfo kernel;
    ImportCounts counts;
    RecordedLoop loop;        // the kernel's loop (empty without global load requests)
    cst::TraceHeader header;  // as written
};

// Converts `in_path` (a plain-text traceg) to the cst trace `out_path`: version 3, with the
// kernel's loop, when the kernel makes global load requests, else version 2. Reads the input
// twice: first to check it all and find the address regions its accesses touch (the arrays),
// then to write. Nothing is written when the input is bad.
TracegConversion convert_traceg(const std::string& in_path, const std::string& out_path, int zstd_level = 3);

// The arrays (one per contiguous run of touched 4 KiB pages, at most kMaxRegions, the closest
// runs merged first) for a set of touched page numbers, sorted and unique. A run past 4 GiB is
// rows of 1 GiB whose last row runs on past the run, except within a row of 2^64, where that
// part row is an array of its own (kMaxRegions + 1 arrays at most); every array ends at or below 2^64.
inline constexpr std::size_t kMaxRegions = 64;
inline constexpr std::uint32_t kPageShift = 12;
std::vector<ArrayInfo> regions_for_pages(const std::vector<std::uint64_t>& pages);

// A traceg converted to a cst file in a private temporary directory, removed with the object
// (`simulate --trace FILE --trace-format traceg` replays that file).
class ConvertedTrace {
public:
    explicit ConvertedTrace(const std::string& traceg_path);
    ~ConvertedTrace();
    ConvertedTrace(const ConvertedTrace&) = delete;
    ConvertedTrace& operator=(const ConvertedTrace&) = delete;
    const std::string& path() const { return path_; }
    const std::string& source_path() const { return source_path_; }  // the traceg it was converted from
    const TracegConversion& conversion() const { return conversion_; }

private:
    void remove_files() noexcept;

    std::string source_path_, dir_, path_;
    TracegConversion conversion_;
    int dir_slot_ = -1, path_slot_ = -1;  // output_cleanup: removed on SIGINT/SIGTERM too
};

// "3 LDG, 1 STG, ... " the conversion summary `cachesim trace` prints.
std::string describe(const ImportCounts& counts);

}  // namespace cachesim::accelsim
