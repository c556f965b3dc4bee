#pragma once
// The cachesim trace format ("cst"): per-thread address traces in zstd-compressed, checksummed
// blocks. All integers are little-endian. Version 1: steps of a fixed number of accesses (plain
// traces, and workloads without a launch). Version 2: a kernel launch, its geometry in the header;
// a step is one thread, named by its global linear index (block * threads per block + thread in
// block), with its own number of accesses. Version 3: a version 2 launch whose header also holds
// the kernel's compiled loop as its executed instructions give it (RecordedLoop: a converted
// Accel-Sim trace). Version 4: a launch with what its blocks hold on an SM (shared memory per
// block, registers per thread: LaunchResources), and the loop where one was recorded. This build
// writes and reads all four; it writes version 4 only for a launch with resources.
//
//   offset  size  field
//   0       8     magic "CSTRACE\x1a"
//   8       4     version (1 to 4)
//   12      4     header body length H (at most kMaxHeaderBytes)
//   16      H     header body (see TraceHeader; written by encode_header_body; version 3 ends it
//                 with the loop: u64 load requests, u64 warp instructions, u64 ALU cycles, u64 fma
//                 heavy-only cycles, u64 fma either-half cycles, u32 loads per iteration;
//                 version 4 ends it with u8 sections (bit 0: a loop, bit 1: resources; bit 1
//                 set, no other), the loop where bit 0 is set, then the resources: u32 shared
//                 memory bytes per block, u32 registers per thread)
//   16+H    8     checksum of bytes 0 .. 16+H
//   then blocks, each: 32-byte block header + payload
//     u32 tag "CSTB", u32 payload bytes, u32 accesses, u32 steps, u64 first step,
//     u64 checksum of the 24 bytes before it and the payload
//     payload: one zstd frame of `accesses` x (u64 address delta) then `accesses` x (u32 meta);
//     version 2 puts the step table first: `steps` x (u64 thread delta: the step's thread minus
//     the previous step's in the block, the first one from 0) then `steps` x (u32 accesses)
//     address delta: address minus the previous address of the same array in the block (the
//     first one from 0), modulo 2^64, so strided streams (a column of B) repeat exactly;
//     meta: size (bits 0-14) | is_write (bit 15) | array index (bits 16-31)
//   end record (32 bytes): u32 tag "CSTE", u32 0, u64 steps, u64 accesses, u64 checksum of the
//     24 bytes before it.
// Blocks hold whole steps (a step = one launch index / work item, or one record of a plain
// trace), at most max(kMaxBlockAccesses, accesses per step) accesses each. In version 2 the
// threads increase strictly through the file (block-major, then the thread's linear index in its
// block: x fastest); a thread without accesses is absent.
#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "traces/access_source.hpp"
#include "traces/recorded_loop.hpp"
#include "traces/workload_spec.hpp"

namespace cachesim::cst {

inline constexpr char kMagic[8] = {'C', 'S', 'T', 'R', 'A', 'C', 'E', '\x1a'};
inline constexpr std::uint32_t kVersionPlain = 1;   // fixed-size steps, no launch
inline constexpr std::uint32_t kVersionLaunch = 2;  // threads of a kernel launch
inline constexpr std::uint32_t kVersionLoop = 3;    // a launch and its kernel's recorded loop
inline constexpr std::uint32_t kVersionResources = 4;  // a launch, its blocks' resources, a loop if any
inline constexpr std::uint32_t kPreambleBytes = 16;  // magic, version, header length
inline constexpr std::uint32_t kMaxHeaderBytes = 1u << 20;
inline constexpr std::uint32_t kBlockHeaderBytes = 32;
inline constexpr std::uint32_t kEndRecordBytes = 32;
inline constexpr std::uint32_t kBlockTag = 0x42545343;  // "CSTB"
inline constexpr std::uint32_t kEndTag = 0x45545343;    // "CSTE"
// The writer's target block size: a decoded block (12 bytes per access) stays small enough to
// share the host's L2 with the simulator's own state.
inline constexpr std::uint32_t kBlockAccesses = 1u << 14;
inline constexpr std::uint32_t kMaxBlockAccesses = 1u << 16;  // what the reader accepts
inline constexpr std::uint32_t kMaxAccessesPerStep = 1u << 20;  // keeps blocks bounded
inline constexpr std::uint32_t kMaxAccessSize = (1u << 15) - 1;
inline constexpr std::uint32_t kMaxArrays = 1u << 16;
inline constexpr std::uint32_t kMaxNameBytes = 1024;
inline constexpr std::uint32_t kRecordBytes = 12;  // raw bytes per access inside a block
inline constexpr std::uint32_t kStepRecordBytes = 12;  // version 2: raw bytes per step (thread, count)
inline constexpr std::uint32_t kMaxThreadsPerBlock = 1024;  // as CUDA

// A kernel launch's geometry (version 2): grid of blocks and block of threads, each x, y, z.
// Linear indices as CUDA numbers them: x fastest, then y, then z.
struct LaunchGeometry {
    std::uint32_t grid[3] = {1, 1, 1};
    std::uint32_t block[3] = {1, 1, 1};
    std::uint64_t blocks() const { return static_cast<std::uint64_t>(grid[0]) * grid[1] * grid[2]; }
    std::uint32_t threads_per_block() const { return block[0] * block[1] * block[2]; }
    std::uint64_t threads() const { return blocks() * threads_per_block(); }
    std::string describe() const;  // e.g. "grid 2x64x1, block 32x8x1"
};
bool operator==(const LaunchGeometry& a, const LaunchGeometry& b);

// What each block of a launch holds on its SM (version 4), as the kernel was compiled and
// launched: they decide how many blocks an SM holds and how much of its memory is left to L1.
struct LaunchResources {
    std::uint32_t smem_per_block_bytes = 0;  // static and dynamic shared memory
    std::uint32_t regs_per_thread = 0;
    std::string describe() const;  // e.g. "49152 B of shared memory a block, 64 registers a thread"
};
bool operator==(const LaunchResources& a, const LaunchResources& b);
inline constexpr std::uint32_t kMaxRegsPerThread = 255;       // as CUDA
inline constexpr std::uint32_t kMaxSmemPerBlockBytes = 1u << 20;  // beyond any GPU's SM

// A 1D launch of `threads` threads in blocks of `block` (the built-in workloads' launches).
LaunchGeometry linear_launch(std::uint64_t threads, std::uint32_t block);

struct TraceHeader {
    std::uint32_t version = kVersionPlain;  // the writer sets it: 2 with a launch, else 1
    std::uint32_t elem_bytes = 4;         // the producer's element size (1 for plain traces)
    std::uint32_t accesses_per_step = 1;  // v1: every step has this many; v2: the most any thread has
    std::uint64_t steps = 0;              // launch indices (threads) or records
    std::uint64_t accesses = 0;
    std::uint64_t blocks = 0;
    std::vector<ArrayInfo> arrays;        // at least one; accesses index into it
    std::optional<WorkloadSpec> workload; // the workload and schedule that produced it, if any
    std::optional<LaunchGeometry> launch; // version 2: the launch whose threads the steps are
    std::optional<RecordedLoop> loop;     // version 3: the launch's kernel's loop (never empty)
    std::optional<LaunchResources> resources;  // version 4: what the launch's blocks hold
};

// The header body (without preamble and checksum); decode throws InputError naming the byte
// offset (counted from the start of the file) of what is wrong.
std::string encode_header_body(const TraceHeader& header);
TraceHeader decode_header_body(std::string_view body, std::uint32_t version);

// Why `array` cannot stand in a cst header, or "" when it can: its size (width x height x element
// bytes) must fit 64 bits and its last byte lie at or below 2^64 - 1 (an array may end exactly at
// 2^64). The reader and the writer apply the same check.
std::string array_extent_problem(const ArrayInfo& array);

// Largest block payload the reader accepts for a given step size (hostile-file guard).
std::uint64_t max_block_accesses(std::uint32_t accesses_per_step);

}  // namespace cachesim::cst
