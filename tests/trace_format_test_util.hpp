#pragma once
// Helpers for cst trace tests: small traces on disk, byte-level surgery with valid checksums.
#include <unistd.h>

#include <filesystem>
#include <fstream>
#include <functional>
#include <optional>
#include <sstream>
#include <string>
#include <vector>

#include "traces/trace_format.hpp"
#include "traces/trace_format_bytes.hpp"
#include "traces/input_error.hpp"
#include "traces/trace_format_checksum.hpp"
#include "traces/trace_format_reader.hpp"
#include "traces/trace_format_writer.hpp"
#include "traces/workload_source.hpp"

namespace cachesim::test {

inline std::filesystem::path trace_temp_dir() {
    static const std::filesystem::path dir = [] {
        // Emptied first: an earlier process with the same id may have left files here.
        auto d = std::filesystem::temp_directory_path() / ("cachesim-cst-" + std::to_string(::getpid()));
        std::filesystem::remove_all(d);
        std::filesystem::create_directories(d);
        return d;
    }();
    return dir;
}

inline std::string slurp(const std::filesystem::path& p) {
    std::ifstream in(p, std::ios::binary);
    std::ostringstream s;
    s << in.rdbuf();
    return s.str();
}

// A launch of one block of 32 threads, each with one 4-byte load, carrying `loop` (version 3) and
// `resources` (version 4) where given.
inline std::filesystem::path write_one_block_launch(const std::string& name, std::optional<RecordedLoop> loop,
                                                    std::optional<cst::LaunchResources> resources = std::nullopt) {
    const auto path = trace_temp_dir() / name;
    cst::TraceHeader h;
    h.elem_bytes = 4;
    h.arrays = {{"a", 0x1000, 4, 32, 1}};
    h.launch = cst::LaunchGeometry{{1, 1, 1}, {32, 1, 1}};
    h.loop = loop;
    h.resources = resources;
    cst::TraceWriter writer(path.string(), h);
    for (std::uint32_t t = 0; t < 32; ++t) {
        const Access a{0x1000 + 4 * t, 4, 0, false};
        writer.append_thread(t, &a, 1);
    }
    writer.finish();
    return path;
}

inline void spit(const std::filesystem::path& p, const std::string& bytes) {
    std::ofstream out(p, std::ios::binary | std::ios::trunc);
    out.write(bytes.data(), static_cast<std::streamsize>(bytes.size()));
}

inline WorkloadSpec small_stencil(const char* schedule = "column:4") {
    WorkloadSpec w;
    w.width = 40;
    w.height = 24;
    w.stencil_w = 3;
    w.stencil_h = 5;
    w.schedule = parse_schedule(schedule);
    return w;
}

// Writes the workload's trace to `name` in the temp dir and returns its path.
inline std::filesystem::path write_workload_trace(const WorkloadSpec& w, const std::string& name) {
    const auto path = trace_temp_dir() / name;
    WorkloadSource source(w);
    cst::TraceHeader header;
    header.elem_bytes = w.elem_bytes;
    header.arrays = w.arrays();
    header.workload = w;
    cst::write_trace(source, path.string(), header);
    return path;
}

// A complete file from a header body and the bytes after the header (blocks, end record).
inline std::string file_with_header_body(const std::string& body, const std::string& rest,
                                         std::uint32_t version = cst::kVersionPlain) {
    std::string head(cst::kMagic, sizeof cst::kMagic);
    cst::put_u32(head, version);
    cst::put_u32(head, static_cast<std::uint32_t>(body.size()));
    head += body;
    cst::put_u64(head, cst::checksum(head.data(), head.size()));
    return head + rest;
}

// `file` with the last `tail_bytes` of its header body replaced by what `write_tail` appends, the
// header's checksum redone and the version set to `version`, written to `name` and opened: the
// reader's message, or "" where it reads.
inline std::string rejection_of_header_tail(const std::string& file, std::size_t tail_bytes,
                                            const std::function<void(std::string&)>& write_tail,
                                            std::uint32_t version, const std::string& name) {
    const std::uint32_t body_bytes = cst::load_le<std::uint32_t>(file.data() + 12);
    std::string body = file.substr(cst::kPreambleBytes, body_bytes);
    body.resize(body.size() - tail_bytes);
    write_tail(body);
    const std::string rest = file.substr(cst::kPreambleBytes + body_bytes + 8);
    const auto path = trace_temp_dir() / name;
    spit(path, file_with_header_body(body, rest, version));
    try {
        cst::TraceFileSource source(path.string());
    } catch (const InputError& e) {
        return e.what();
    }
    return "";
}

inline std::string end_record(std::uint64_t steps, std::uint64_t accesses) {
    std::string end;
    cst::put_u32(end, cst::kEndTag);
    cst::put_u32(end, 0);
    cst::put_u64(end, steps);
    cst::put_u64(end, accesses);
    cst::put_u64(end, cst::checksum(end.data(), end.size()));
    return end;
}

// Offset of the first block header in a file written by TraceWriter.
inline std::size_t first_block_offset(const std::string& file) {
    return cst::kPreambleBytes + cst::load_le<std::uint32_t>(file.data() + 12) + 8;
}

}  // namespace cachesim::test
