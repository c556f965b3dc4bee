#include "traces/workload_source.hpp"

#include <type_traits>

namespace cachesim {

WorkloadSource::WorkloadSource(const WorkloadSpec& spec) : spec_(spec) { validate(spec_); }

std::uint64_t WorkloadSource::item_at(std::uint64_t launch_index) const {
    return schedule_map(spec_.schedule, launch_index, spec_.width, spec_.height);
}

namespace {

// One item's accesses in StencilWorkload::access order (rows dy outer, columns dx inner, clamped
// edges, then the write), a row at a time: no division per access.
Access* stencil_item(const StencilWorkload& w, GridPos p, Access* out) {
    const std::int64_t iw = w.iw, ih = w.ih, e = w.elem_bytes;
    const std::int64_t x0 = static_cast<std::int64_t>(p.x) - static_cast<std::int64_t>(w.sw / 2);
    const std::int64_t y0 = static_cast<std::int64_t>(p.y) - static_cast<std::int64_t>(w.sh / 2);
    const bool inside_x = x0 >= 0 && x0 + static_cast<std::int64_t>(w.sw) <= iw;
    for (std::uint32_t r = 0; r < w.sh; ++r) {
        const std::int64_t cy = StencilWorkload::clamp(y0 + r, ih - 1);
        const std::uint64_t row = w.in_base() + static_cast<std::uint64_t>(cy * iw) * static_cast<std::uint64_t>(e);
        if (inside_x) {
            std::uint64_t address = row + static_cast<std::uint64_t>(x0 * e);
            for (std::uint32_t c = 0; c < w.sw; ++c, address += static_cast<std::uint64_t>(e), ++out) {
                out->address = address;
                out->size = w.elem_bytes;
                out->array = StencilWorkload::kIn;
                out->is_write = false;
            }
        } else {
            for (std::uint32_t c = 0; c < w.sw; ++c, ++out) {
                const std::int64_t cx = StencilWorkload::clamp(x0 + c, iw - 1);
                out->address = row + static_cast<std::uint64_t>(cx * e);
                out->size = w.elem_bytes;
                out->array = StencilWorkload::kIn;
                out->is_write = false;
            }
        }
    }
    const std::uint64_t item = static_cast<std::uint64_t>(p.y) * w.iw + p.x;
    out->address = w.out_base() + item * w.elem_bytes;
    out->size = w.elem_bytes;
    out->array = StencilWorkload::kOut;
    out->is_write = true;
    return out + 1;
}

// MatmulWorkload::access order: A[y][i] then B[i][x] for each i, then the write of C[y][x].
Access* matmul_item(const MatmulWorkload& w, GridPos p, Access* out) {
    const std::uint64_t e = w.elem_bytes;
    std::uint64_t a = w.a_base() + static_cast<std::uint64_t>(p.y) * w.depth * e;
    std::uint64_t b = w.b_base() + static_cast<std::uint64_t>(p.x) * e;
    const std::uint64_t b_step = static_cast<std::uint64_t>(w.iw) * e;
    for (std::uint32_t i = 0; i < w.depth; ++i, a += e, b += b_step) {
        out->address = a;
        out->size = w.elem_bytes;
        out->array = MatmulWorkload::kA;
        out->is_write = false;
        ++out;
        out->address = b;
        out->size = w.elem_bytes;
        out->array = MatmulWorkload::kB;
        out->is_write = false;
        ++out;
    }
    const std::uint64_t item = static_cast<std::uint64_t>(p.y) * w.iw + p.x;
    out->address = w.c_base() + item * e;
    out->size = w.elem_bytes;
    out->array = MatmulWorkload::kC;
    out->is_write = true;
    return out + 1;
}

}  // namespace

template <class Workload>
void WorkloadSource::fill(const Workload& w, AccessBatch& batch, std::uint64_t first,
                          std::uint64_t count) const {
    const std::uint32_t per_item = w.accesses_per_item();
    batch.accesses.resize(count * per_item);
    Access* out = batch.accesses.data();
    for (std::uint64_t t = first; t < first + count; ++t) {
        const GridPos p = schedule_position(spec_.schedule, t, spec_.width, spec_.height);
        if constexpr (std::is_same_v<Workload, StencilWorkload>) out = stencil_item(w, p, out);
        else out = matmul_item(w, p, out);
    }
}

bool WorkloadSource::next(AccessBatch& batch, std::size_t max_accesses) {
    const std::uint64_t items = spec_.items();
    if (next_launch_ >= items) {
        batch.accesses.clear();
        return false;
    }
    const std::uint32_t per_item = spec_.accesses_per_item();
    std::uint64_t count = max_accesses / per_item;
    if (count == 0) count = 1;  // a step is never split, even when larger than the batch
    if (count > items - next_launch_) count = items - next_launch_;
    batch.first_step = next_launch_;
    batch.accesses_per_step = per_item;
    if (spec_.kind == WorkloadKind::stencil) fill(spec_.stencil(), batch, next_launch_, count);
    else fill(spec_.matmul(), batch, next_launch_, count);
    next_launch_ += count;
    return true;
}

}  // namespace cachesim
