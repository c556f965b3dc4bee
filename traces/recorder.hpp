#pragma once
// Recording a kernel's global accesses ("bring your own kernel"). Plain structs and
// __host__ __device__ functions only (no CUDA runtime), so one kernel body runs on the GPU
// (traces/recorder_cuda.cuh) and on the host (traces/recorder_host.hpp) and records the same
// accesses.
//
// The body is a functor called once per thread with the thread's index and a Recorder:
//
//   struct Transpose {
//       const float* in; float* out; std::uint32_t w, h;
//       template <class Rec> CACHESIM_HD void operator()(const cachesim::ThreadIndex& t, Rec& rec) const {
//           const std::uint32_t x = t.block.x * t.block_dim.x + t.thread.x, y = ...;
//           if (x < w && y < h) rec.store(&out[x * h + y], rec.load(&in[y * w + x]));
//       }
//   };
//
// rec.load(p) reads *p and records a load of sizeof(*p) bytes at p; rec.store(p, v) writes and
// records a store; cachesim::traced<T> wraps a pointer so that a[i] records. The recorder finds
// each access's array among those registered (RecordedArray) and records its address relative
// to the array's place in the trace (arrays placed from 0 at 4 KiB multiples, as the built-in
// workloads are), so host and GPU recordings of a body give the same bytes.
#include <cstdint>

#include "traces/hd.hpp"

namespace cachesim {

struct Dim3 {
    std::uint32_t x = 1, y = 1, z = 1;
};

// What a thread knows of itself, as CUDA's blockIdx, threadIdx, blockDim and gridDim.
struct ThreadIndex {
    Dim3 block, thread, block_dim, grid_dim;
    CACHESIM_HD std::uint64_t linear_block() const {
        return (static_cast<std::uint64_t>(block.z) * grid_dim.y + block.y) * grid_dim.x + block.x;
    }
    CACHESIM_HD std::uint32_t linear_thread() const {
        return (thread.z * block_dim.y + thread.y) * block_dim.x + thread.x;
    }
    CACHESIM_HD std::uint32_t threads_per_block() const { return block_dim.x * block_dim.y * block_dim.z; }
    // The thread's global linear index (its step in the trace).
    CACHESIM_HD std::uint64_t global() const {
        return linear_block() * threads_per_block() + linear_thread();
    }
};

// The index of global linear thread g of a launch.
CACHESIM_HD ThreadIndex thread_index(std::uint64_t g, Dim3 grid, Dim3 block) {
    ThreadIndex t;
    t.grid_dim = grid;
    t.block_dim = block;
    const std::uint32_t per_block = block.x * block.y * block.z;
    const std::uint64_t b = g / per_block;
    const std::uint32_t i = static_cast<std::uint32_t>(g - b * per_block);
    t.thread = {i % block.x, (i / block.x) % block.y, i / (block.x * block.y)};
    t.block = {static_cast<std::uint32_t>(b % grid.x), static_cast<std::uint32_t>((b / grid.x) % grid.y),
               static_cast<std::uint32_t>(b / (static_cast<std::uint64_t>(grid.x) * grid.y))};
    return t;
}

// One recorded access: the same 16 bytes as the trace generator's TraceRecord.
struct RecordedAccess {
    std::uint64_t address;  // relative to the trace's placement of its array
    std::uint32_t size;
    std::uint16_t array;    // kUnknownArray: outside every registered array (the host reports it)
    std::uint8_t is_write;
    std::uint8_t reserved;  // always 0
};
inline constexpr std::uint16_t kUnknownArray = 0xffff;

// Where a registered array lives in the recording process, and where the trace puts it.
struct ArrayPlacement {
    std::uint64_t begin = 0, end = 0;  // its bytes in this process (host or device pointers)
    std::uint64_t trace_base = 0;
};

// Where a launch's recorded accesses go: thread t (global index, counted from first_thread)
// writes its accesses from records + offsets[t - first_thread]; counts[t - first_thread] counts
// every access it makes. With records null the pass only counts.
struct RecordBuffer {
    RecordedAccess* records = nullptr;
    const std::uint64_t* offsets = nullptr;
    std::uint32_t* counts = nullptr;
    std::uint64_t first_thread = 0;
    const ArrayPlacement* arrays = nullptr;
    std::uint32_t array_count = 0;
    // Recording pass: the accesses counted for each thread (a thread that makes more in this pass
    // than in the counting pass stops recording; the host reports it).
    const std::uint32_t* capacity = nullptr;
};

class Recorder {
public:
    CACHESIM_HD Recorder(const RecordBuffer& buffer, std::uint64_t thread)
        : buffer_(buffer), slot_(thread - buffer.first_thread) {
        out_ = buffer.records ? buffer.records + buffer.offsets[slot_] : nullptr;
        capacity_ = buffer.capacity ? buffer.capacity[slot_] : 0;
    }
    CACHESIM_HD ~Recorder() { buffer_.counts[slot_] = count_; }
    Recorder(const Recorder&) = delete;
    Recorder& operator=(const Recorder&) = delete;

    // Records a load of *p and returns it.
    template <class T>
    CACHESIM_HD T load(const T* p) {
        record(p, sizeof(T), false);
        return *p;
    }
    // Records a store of v to *p and performs it.
    template <class T, class V>
    CACHESIM_HD void store(T* p, const V& v) {
        record(p, sizeof(T), true);
        *p = v;
    }
    // Records an access of `size` bytes at p without touching memory.
    CACHESIM_HD void record(const void* p, std::uint32_t size, bool is_write) {
        if (out_ && count_ < capacity_) {
            const std::uint64_t address = reinterpret_cast<std::uint64_t>(p);
            RecordedAccess a{address, size, kUnknownArray, static_cast<std::uint8_t>(is_write ? 1 : 0), 0};
            for (std::uint32_t i = 0; i < buffer_.array_count; ++i) {
                const ArrayPlacement& r = buffer_.arrays[i];
                if (address >= r.begin && address < r.end) {
                    a.address = address - r.begin + r.trace_base;
                    a.array = static_cast<std::uint16_t>(i);
                    break;
                }
            }
            out_[count_] = a;
        }
        ++count_;
    }

private:
    const RecordBuffer& buffer_;
    std::uint64_t slot_;
    RecordedAccess* out_;
    std::uint32_t capacity_;
    std::uint32_t count_ = 0;
};

// A reference through traced<T>: reading it records a load, assigning records a store.
template <class T, class Rec = Recorder>
class TracedRef {
public:
    CACHESIM_HD TracedRef(T* p, Rec& rec) : p_(p), rec_(rec) {}
    CACHESIM_HD operator T() const { return rec_.load(p_); }
    template <class V>
    CACHESIM_HD TracedRef& operator=(const V& v) {
        rec_.store(p_, v);
        return *this;
    }

private:
    T* p_;
    Rec& rec_;
};

// A pointer whose element accesses record: traced<const float> a(in, rec); float v = a[i]. A body
// templated on its recorder names it: traced<const float, Rec> a(in, rec).
template <class T, class Rec = Recorder>
class traced {
public:
    CACHESIM_HD traced(T* p, Rec& rec) : p_(p), rec_(rec) {}
    CACHESIM_HD TracedRef<T, Rec> operator[](std::uint64_t i) const { return TracedRef<T, Rec>(p_ + i, rec_); }
    CACHESIM_HD T* get() const { return p_; }

private:
    T* p_;
    Rec& rec_;
};

// The recorder's interface with nothing recorded: what a body runs with when it is the measured
// kernel itself (gpubench), so the loads and stores are the kernel's own and nothing else.
struct PlainAccess {
    template <class T>
    CACHESIM_HD T load(const T* p) const {
        return *p;
    }
    template <class T, class V>
    CACHESIM_HD void store(T* p, const V& v) const {
        *p = v;
    }
};

}  // namespace cachesim
