#include "traces/recorder_writer.hpp"

#include <cstdio>

#include "traces/input_error.hpp"
#include "traces/trace_format_writer.hpp"
#include "traces/workload.hpp"

namespace cachesim {

struct RecordingWriter::Impl {
    Impl(const std::string& path, cst::TraceHeader header, int level) : writer(path, std::move(header), level) {}
    cst::TraceWriter writer;
    std::vector<Access> accesses;
};

RecordingWriter::RecordingWriter(const std::string& path, Dim3 grid, Dim3 block,
                                 const std::vector<RecordingArray>& arrays, int zstd_level)
    : grid_(grid), block_(block) {
    if (arrays.empty() || arrays.size() >= kUnknownArray)
        throw InputError(path + ": a recording needs 1.." + std::to_string(kUnknownArray - 1) + " arrays");
    cst::TraceHeader header;
    cst::LaunchGeometry g;
    g.grid[0] = grid.x, g.grid[1] = grid.y, g.grid[2] = grid.z;
    g.block[0] = block.x, g.block[1] = block.y, g.block[2] = block.z;
    header.launch = g;
    header.elem_bytes = arrays.front().elem_bytes;
    std::uint64_t next = 0;
    for (const RecordingArray& a : arrays) {
        const ArrayInfo info{a.name, next, a.elem_bytes, a.width, a.height};
        if (info.bytes() == 0) throw InputError(path + ": array '" + a.name + "' is empty");
        const std::uint64_t begin = reinterpret_cast<std::uint64_t>(a.data);
        placements_.push_back({begin, begin + info.bytes(), next});
        header.arrays.push_back(info);
        next = align_up(next + info.bytes(), kArrayAlignment);
    }
    impl_ = std::make_unique<Impl>(path, std::move(header), zstd_level);  // checks the launch
}

RecordingWriter::~RecordingWriter() = default;

std::uint64_t RecordingWriter::threads() const {
    return static_cast<std::uint64_t>(grid_.x) * grid_.y * grid_.z * block_.x * block_.y * block_.z;
}

void RecordingWriter::append(std::uint64_t first, std::size_t n, const std::uint32_t* counted,
                             const std::uint32_t* recorded, const std::uint64_t* offsets,
                             const RecordedAccess* records) {
    for (std::size_t i = 0; i < n; ++i) {
        const std::uint64_t thread = first + i;
        const auto where = [&] {
            const ThreadIndex t = thread_index(thread, grid_, block_);
            return "thread " + std::to_string(thread) + " (block " + std::to_string(t.block.x) + "," +
                   std::to_string(t.block.y) + "," + std::to_string(t.block.z) + ", thread " +
                   std::to_string(t.thread.x) + "," + std::to_string(t.thread.y) + "," + std::to_string(t.thread.z) + ")";
        };
        if (counted[i] != recorded[i])
            throw InputError("recorder overflow: " + where() + " made " + std::to_string(recorded[i]) +
                             " accesses in the recording pass, " + std::to_string(counted[i]) +
                             " in the counting pass (the kernel body must make the same accesses every time)");
        std::vector<Access>& out = impl_->accesses;
        out.resize(counted[i]);
        const RecordedAccess* r = records + offsets[i];
        for (std::uint32_t k = 0; k < counted[i]; ++k) {
            if (r[k].array == kUnknownArray)
                throw InputError(where() + ", access " + std::to_string(k) + ": address 0x" + [&] {
                    char hex[20];
                    std::snprintf(hex, sizeof hex, "%llx", static_cast<unsigned long long>(r[k].address));
                    return std::string(hex);
                }() + " lies outside every registered array");
            out[k] = Access{r[k].address, r[k].size, r[k].array, r[k].is_write != 0};
        }
        impl_->writer.append_thread(thread, out.data(), counted[i]);
    }
}

std::uint64_t RecordingWriter::finish() { return impl_->writer.finish().accesses; }

std::uint64_t record_offsets(const std::uint32_t* counts, std::size_t n, std::uint64_t* offsets) {
    std::uint64_t total = 0;
    for (std::size_t i = 0; i < n; ++i) {
        offsets[i] = total;
        total += counts[i];
    }
    return total;
}

}  // namespace cachesim
