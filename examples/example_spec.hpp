#pragma once
// One example launch named by a short spec, shared by record_kernel_host/_cuda (which record it)
// and gpubench (which measures it), so both run the same body on the same data and the measured
// row names the trace of the same launch:
//
//   transpose:WxH                   naive transpose, blocks of 32 x 8
//   transpose_tiled:WxH             shared-memory transpose (32 x 32 tile, +1 padding), blocks of 32 x 8
//   stencil3d:WxHxD                 7-point stencil, edges clamped, 3D blocks of 32 x 4 x 2
//   gemm:MxNxK:rowmajor             tiled GEMM (32 x 32 tiles and threads), blocks in row-major order
//   gemm:MxNxK:grouped:G            the same, blocks in grouped order (G tile rows per group)
//   spmv:ROWS[:seed=S]              CSR SpMV on examples/sparse_matrix.hpp's matrix, blocks of 256
//
// Plain C++ (no CUDA), compiled by nvcc too.
#include <cstdint>
#include <cstring>
#include <stdexcept>
#include <string>
#include <vector>

#include "examples/kernels.hpp"
#include "examples/sparse_matrix.hpp"
#include "traces/recorder.hpp"

namespace cachesim::examples {

enum class ExampleKind { transpose, transpose_tiled, stencil3d, gemm, spmv };

struct ExampleSpec {
    ExampleKind kind = ExampleKind::transpose;
    std::uint32_t width = 0, height = 1, depth = 1;  // transpose W x H; stencil W x H x D; gemm N x M x K; spmv rows
    std::uint32_t group_m = 0;                       // gemm: 0 row-major, else grouped order
    std::uint64_t seed = 1;                          // spmv
    std::string text;                                // the spec as given (normalised)
};

// Throws std::invalid_argument with a message naming what is wrong.
inline std::uint32_t parse_example_number(const std::string& text, const std::string& what) {
    std::size_t used = 0;
    unsigned long long v = 0;
    try {
        v = std::stoull(text, &used, 10);
    } catch (const std::exception&) {
        used = 0;
    }
    if (used == 0 || used != text.size() || v == 0 || v > (1ull << 30) || text[0] == '-' || text[0] == '+')
        throw std::invalid_argument(what + ": '" + text + "' is not a whole number from 1 to 2^30");
    return static_cast<std::uint32_t>(v);
}

inline std::vector<std::string> split_example(const std::string& text, char separator) {
    std::vector<std::string> parts;
    std::size_t start = 0;
    while (true) {
        const std::size_t end = text.find(separator, start);
        parts.push_back(text.substr(start, end == std::string::npos ? std::string::npos : end - start));
        if (end == std::string::npos) return parts;
        start = end + 1;
    }
}

inline const char* example_kind_name(ExampleKind kind) {
    switch (kind) {
        case ExampleKind::transpose: return "transpose";
        case ExampleKind::transpose_tiled: return "transpose_tiled";
        case ExampleKind::stencil3d: return "stencil3d";
        case ExampleKind::gemm: return "gemm";
        case ExampleKind::spmv: return "spmv";
    }
    return "?";
}

inline const char* example_spec_usage() {
    return "transpose:WxH, transpose_tiled:WxH, stencil3d:WxHxD, gemm:MxNxK:rowmajor, gemm:MxNxK:grouped:G "
           "(M, N, K multiples of 32), spmv:ROWS[:seed=S]";
}

// Throws std::invalid_argument naming the spec and what is wrong with it.
inline ExampleSpec parse_example_spec(const std::string& text) {
    const std::vector<std::string> parts = split_example(text, ':');
    ExampleSpec s;
    auto fail = [&](const std::string& why) {
        return std::invalid_argument("example '" + text + "': " + why + " (expected " + example_spec_usage() + ")");
    };
    auto dims = [&](const std::string& field, std::size_t count) {
        const std::vector<std::string> d = split_example(field, 'x');
        if (d.size() != count) throw fail("the size needs " + std::to_string(count) + " numbers joined by 'x'");
        std::vector<std::uint32_t> v;
        try {
            for (const std::string& x : d) v.push_back(parse_example_number(x, "size"));
        } catch (const std::invalid_argument& e) {
            throw fail(e.what());
        }
        return v;
    };
    const std::string& kind = parts[0];
    if ((kind == "transpose" || kind == "transpose_tiled") && parts.size() == 2) {
        s.kind = kind == "transpose" ? ExampleKind::transpose : ExampleKind::transpose_tiled;
        const auto d = dims(parts[1], 2);
        s.width = d[0];
        s.height = d[1];
    } else if (kind == "stencil3d" && parts.size() == 2) {
        s.kind = ExampleKind::stencil3d;
        const auto d = dims(parts[1], 3);
        s.width = d[0];
        s.height = d[1];
        s.depth = d[2];
    } else if (kind == "gemm" && (parts.size() == 3 || parts.size() == 4)) {
        s.kind = ExampleKind::gemm;
        const auto d = dims(parts[1], 3);
        s.height = d[0];  // M
        s.width = d[1];   // N
        s.depth = d[2];   // K
        if (s.height % kTile || s.width % kTile || s.depth % kTile) throw fail("M, N and K must be multiples of 32");
        if (parts[2] == "rowmajor" && parts.size() == 3) {
            s.group_m = 0;
        } else if (parts[2] == "grouped" && parts.size() == 4) {
            try {
                s.group_m = parse_example_number(parts[3], "group");
            } catch (const std::invalid_argument& e) {
                throw fail(e.what());
            }
        } else {
            throw fail("the block order is rowmajor or grouped:G");
        }
    } else if (kind == "spmv" && (parts.size() == 2 || parts.size() == 3)) {
        s.kind = ExampleKind::spmv;
        try {
            s.width = s.height = parse_example_number(parts[1], "rows");
            if (parts.size() == 3) {
                if (parts[2].rfind("seed=", 0) != 0) throw fail("the third field is seed=S");
                s.seed = parse_example_number(parts[2].substr(5), "seed");
            }
        } catch (const std::invalid_argument& e) {
            if (std::string(e.what()).rfind("example '", 0) == 0) throw;
            throw fail(e.what());
        }
    } else {
        throw fail("unknown kernel or wrong number of fields");
    }
    s.text = text;
    return s;
}

inline Dim3 example_block(const ExampleSpec& s) {
    switch (s.kind) {
        case ExampleKind::transpose:
        case ExampleKind::transpose_tiled: return {32, 8, 1};
        case ExampleKind::stencil3d: return {32, 4, 2};
        case ExampleKind::gemm: return {kTile, kTile, 1};
        case ExampleKind::spmv: return {256, 1, 1};
    }
    return {};
}

inline Dim3 example_grid(const ExampleSpec& s) {
    const Dim3 b = example_block(s);
    auto up = [](std::uint32_t n, std::uint32_t d) { return (n + d - 1) / d; };
    switch (s.kind) {
        case ExampleKind::transpose: return {up(s.width, b.x), up(s.height, b.y), 1};
        case ExampleKind::transpose_tiled: return {up(s.width, kTile), up(s.height, kTile), 1};
        case ExampleKind::stencil3d: return {up(s.width, b.x), up(s.height, b.y), up(s.depth, b.z)};
        case ExampleKind::gemm: return {(s.height / kTile) * (s.width / kTile), 1, 1};
        case ExampleKind::spmv: return {up(s.height, b.x), 1, 1};
    }
    return {};
}

// The block order as gpubench's `schedule` column names it.
inline std::string example_order_name(const ExampleSpec& s) {
    if (s.kind != ExampleKind::gemm) return "linear";
    return s.group_m == 0 ? "rowmajor" : "grouped:" + std::to_string(s.group_m);
}

// The trace file's name for the spec: its fields joined by '_' (e.g. gemm_2048x2048x2048_grouped_8.cst).
inline std::string example_trace_name(const ExampleSpec& s) {
    std::string name;
    for (char c : s.text) name += c == ':' ? '_' : c == '=' ? '-' : c;
    return name + ".cst";
}

// An array of a launch: its shape (width x height elements of elem_bytes) and, for an input, its
// contents as 32-bit words (floats or unsigned indices); outputs have none.
struct ExampleArray {
    std::string name;
    std::uint32_t elem_bytes = 4;
    std::uint32_t width = 0, height = 1;
    std::vector<std::uint32_t> contents;  // empty: an output
    std::uint64_t count() const { return static_cast<std::uint64_t>(width) * height; }
};

// Deterministic floats in [0, 1) as 32-bit words.
inline std::vector<std::uint32_t> example_floats(std::uint64_t count, std::uint64_t seed) {
    std::vector<std::uint32_t> words(count);
    for (std::uint64_t i = 0; i < count; ++i) {
        const float f = static_cast<float>(splitmix64(seed * 0x9e3779b97f4a7c15ull + i) >> 40) * (1.0f / 16777216.0f);
        std::uint32_t w;
        static_assert(sizeof w == sizeof f);
        std::memcpy(&w, &f, sizeof w);
        words[i] = w;
    }
    return words;
}

// The launch's arrays with their inputs filled (in the order the body's pointers take them).
inline std::vector<ExampleArray> example_arrays(const ExampleSpec& s) {
    std::vector<ExampleArray> a;
    switch (s.kind) {
        case ExampleKind::transpose:
        case ExampleKind::transpose_tiled:
            a.push_back({"in", 4, s.width, s.height, example_floats(static_cast<std::uint64_t>(s.width) * s.height, 11)});
            a.push_back({"out", 4, s.height, s.width, {}});
            break;
        case ExampleKind::stencil3d: {
            const std::uint64_t n = static_cast<std::uint64_t>(s.width) * s.height * s.depth;
            if (n > 0xffffffffull) throw std::invalid_argument("example '" + s.text + "': more than 2^32 points");
            a.push_back({"in", 4, s.width, s.height * s.depth, example_floats(n, 12)});
            a.push_back({"out", 4, s.width, s.height * s.depth, {}});
            break;
        }
        case ExampleKind::gemm:
            a.push_back({"A", 4, s.depth, s.height, example_floats(static_cast<std::uint64_t>(s.depth) * s.height, 13)});
            a.push_back({"B", 4, s.width, s.depth, example_floats(static_cast<std::uint64_t>(s.width) * s.depth, 14)});
            a.push_back({"C", 4, s.width, s.height, {}});
            break;
        case ExampleKind::spmv: {
            SparseMatrix m = generate_sparse_matrix(s.height, s.seed);
            const std::uint32_t nnz = static_cast<std::uint32_t>(m.columns.size());
            a.push_back({"row_begin", 4, s.height + 1, 1, std::move(m.row_begin)});
            a.push_back({"columns", 4, nnz, 1, std::move(m.columns)});
            a.push_back({"values", 4, nnz, 1, example_floats(nnz, 15)});
            a.push_back({"x", 4, s.height, 1, example_floats(s.height, 16)});
            a.push_back({"y", 4, s.height, 1, {}});
            break;
        }
    }
    return a;
}

// Calls f(body) with the spec's body over the arrays at `p` (example_arrays' order, host or
// device pointers as the body will see them). Bodies with shared tiles (kSharedTiles > 0) take
// them as a third argument.
template <class F>
decltype(auto) with_example_body(const ExampleSpec& s, const std::vector<void*>& p, F&& f) {
    auto fp = [&](std::size_t i) { return static_cast<float*>(p.at(i)); };
    auto up = [&](std::size_t i) { return static_cast<std::uint32_t*>(p.at(i)); };
    switch (s.kind) {
        case ExampleKind::transpose: return f(Transpose{fp(0), fp(1), s.width, s.height});
        case ExampleKind::transpose_tiled: return f(TransposeTiled{fp(0), fp(1), s.width, s.height});
        case ExampleKind::stencil3d: return f(Stencil3d{fp(0), fp(1), s.width, s.height, s.depth});
        case ExampleKind::gemm: return f(TiledGemm{fp(0), fp(1), fp(2), s.height, s.width, s.depth, s.group_m});
        case ExampleKind::spmv: return f(SpmvCsr{up(0), up(1), fp(2), fp(3), fp(4), s.height});
    }
    throw std::invalid_argument("example '" + s.text + "': unknown kernel");
}

// How many shared tiles a body takes (0: a plain (thread, recorder) body).
template <class Body, class = void>
struct shared_tiles_of {
    static constexpr std::uint32_t value = 0;
};
template <class Body>
struct shared_tiles_of<Body, decltype(void(Body::kSharedTiles))> {
    static constexpr std::uint32_t value = Body::kSharedTiles;
};

}  // namespace cachesim::examples
