// Several readers decoding a recorded launch's blocks side by side (RecordedWarps with readers > 1)
// give what one reader gives: the same error, at the same byte, for a damaged block whichever
// reader decodes it, and for threads that go back across two blocks (which no single reader of
// the two can see).
#include <gtest/gtest.h>

#include <filesystem>
#include <fstream>
#include <functional>
#include <string>
#include <unistd.h>
#include <vector>

#include "sim/gpu/recorded_warps.hpp"
#include "traces/input_error.hpp"
#include "traces/trace_format.hpp"
#include "traces/trace_format_writer.hpp"

namespace cachesim {
namespace {

constexpr std::uint32_t kThreadsPerBlock = 64, kAccesses = 40;  // 409 threads to a file block
constexpr std::uint64_t kThreads = 4000;                       // about ten file blocks

std::filesystem::path dir() {
    static const auto d = [] {
        auto p = std::filesystem::temp_directory_path() / ("cachesim-readers-" + std::to_string(::getpid()));
        std::filesystem::remove_all(p);
        std::filesystem::create_directories(p);
        return p;
    }();
    return d;
}

// Threads thread_of(0), thread_of(1), ... of a launch of 2 x kThreads threads, each reading
// kAccesses consecutive floats of its own row.
std::string write(const std::string& name, const std::function<std::uint64_t(std::uint64_t)>& thread_of) {
    const std::string path = (dir() / name).string();
    cst::TraceHeader header;
    header.arrays = {{"a", 0x10000, 4, kAccesses, static_cast<std::uint32_t>(2 * kThreads)}};
    header.launch = cst::linear_launch(2 * kThreads, kThreadsPerBlock);
    cst::TraceWriter writer(path, header);
    for (std::uint64_t i = 0; i < kThreads; ++i) {
        const std::uint64_t t = thread_of(i);
        std::vector<Access> a;
        for (std::uint64_t k = 0; k < kAccesses; ++k) a.push_back({0x10000 + 4 * (t * kAccesses + k), 4, 0, false});
        writer.append_thread(t, a.data(), kAccesses);
    }
    writer.finish();
    return path;
}

std::string bytes_of(const std::string& path) {
    std::ifstream in(path, std::ios::binary);
    return {std::istreambuf_iterator<char>(in), {}};
}

// Where each file block starts (its "CSTB" tag), from the header's end on.
std::vector<std::size_t> block_offsets(const std::string& bytes) {
    std::vector<std::size_t> at;
    std::size_t p = bytes.find("CSTB");
    while (p != std::string::npos) {
        at.push_back(p);
        const std::uint32_t payload = static_cast<std::uint8_t>(bytes[p + 4]) | static_cast<std::uint8_t>(bytes[p + 5]) << 8 |
                                      static_cast<std::uint8_t>(bytes[p + 6]) << 16 |
                                      static_cast<std::uint32_t>(static_cast<std::uint8_t>(bytes[p + 7])) << 24;
        p += cst::kBlockHeaderBytes + payload;
        if (bytes.compare(p, 4, "CSTB") != 0) break;
    }
    return at;
}

// Every warp loaded in order: each warp's active lanes and request count, or the error.
struct Outcome {
    std::vector<std::uint64_t> warps;
    std::string error;
};
Outcome replay(const std::string& path, unsigned readers) {
    Outcome out;
    try {
        RecordedWarps recorded(path, readers);
        WarpRequests warp;
        for (std::uint64_t b = 0; b < recorded.blocks(); ++b)
            for (std::uint32_t w = 0; w < kThreadsPerBlock / 32; ++w) {
                out.warps.push_back(recorded.load(b, w, 32, warp));
                out.warps.push_back(warp.count());
            }
    } catch (const InputError& e) {
        out.error = e.what();
    }
    return out;
}

TEST(RecordedWarpsReaders, AHealthyFileGivesTheSameWarps) {
    const std::string path = write("healthy.cst", [](std::uint64_t i) { return 2 * i; });
    ASSERT_GE(block_offsets(bytes_of(path)).size(), 8u);
    const Outcome one = replay(path, 0);
    ASSERT_EQ(one.error, "");
    for (const unsigned readers : {1u, 2u, 3u, 4u}) {
        const Outcome many = replay(path, readers);
        EXPECT_EQ(many.error, "") << readers;
        EXPECT_EQ(many.warps, one.warps) << readers;
    }
}

TEST(RecordedWarpsReaders, ADamagedBlockIsReportedAsOneReaderReportsIt) {
    const std::string healthy = bytes_of(write("source.cst", [](std::uint64_t i) { return 2 * i; }));
    const std::vector<std::size_t> blocks = block_offsets(healthy);
    for (std::size_t b = 0; b < 5; ++b) {  // each block of the first five: a different reader's
        std::string damaged = healthy;
        damaged[blocks[b] + cst::kBlockHeaderBytes + 3] ^= 0x55;  // in its payload
        const std::string path = (dir() / ("damaged" + std::to_string(b) + ".cst")).string();
        std::ofstream(path, std::ios::binary) << damaged;
        const Outcome one = replay(path, 0);
        ASSERT_NE(one.error.find("byte " + std::to_string(blocks[b]) + ": block checksum mismatch"), std::string::npos)
            << one.error;
        for (const unsigned readers : {2u, 3u})
            EXPECT_EQ(replay(path, readers).error, one.error) << "block " << b << ", " << readers << " readers";
    }
}

TEST(RecordedWarpsReaders, ThreadsGoingBackAcrossBlocksAreReportedAsOneReaderReportsIt) {
    // Two files with the same blocks of the same sizes: threads 2i and threads i. The first's
    // blocks 0-2 and the second's from block 3 on make a file whose threads go back at block 3.
    const std::string even = bytes_of(write("even.cst", [](std::uint64_t i) { return 2 * i; }));
    const std::string dense = bytes_of(write("dense.cst", [](std::uint64_t i) { return i; }));
    const std::vector<std::size_t> a = block_offsets(even), b = block_offsets(dense);
    ASSERT_EQ(a[0], b[0]);  // the same header
    const std::string spliced = even.substr(0, a[3]) + dense.substr(b[3]);
    const std::string path = (dir() / "spliced.cst").string();
    std::ofstream(path, std::ios::binary) << spliced;
    const Outcome one = replay(path, 0);
    ASSERT_NE(one.error.find("byte " + std::to_string(a[3]) + ": thread 0 of the block"), std::string::npos) << one.error;
    ASSERT_NE(one.error.find("does not come after the previous thread"), std::string::npos) << one.error;
    for (const unsigned readers : {2u, 3u, 4u}) EXPECT_EQ(replay(path, readers).error, one.error) << readers << " readers";
}

}  // namespace
}  // namespace cachesim
