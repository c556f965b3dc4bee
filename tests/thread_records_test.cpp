// A cst version 2 block read undecoded (TraceFileSource::next_thread_records): which threads repeat
// the thread before them, worked out from the accesses written; every thread decoded alone equals
// what was written; and a file with a bad record fails exactly as the decoding reader fails.
#include <gtest/gtest.h>
#include <zstd.h>

#include <algorithm>

#include <filesystem>
#include <functional>
#include <string>
#include <unistd.h>
#include <vector>

#include "tests/trace_format_test_util.hpp"
#include "traces/input_error.hpp"
#include "traces/trace_format_bytes.hpp"
#include "traces/trace_format_checksum.hpp"
#include "traces/trace_format_reader.hpp"
#include "traces/trace_format_writer.hpp"

namespace cachesim::cst {
namespace {

struct Thread {
    std::uint64_t index;
    std::vector<Access> accesses;
};

class ThreadRecordsTest : public ::testing::Test {
protected:
    void SetUp() override {
        dir_ = std::filesystem::temp_directory_path() /
               ("cachesim-thread-records-" + std::to_string(::getpid()) + "-" +
                ::testing::UnitTest::GetInstance()->current_test_info()->name());
        std::filesystem::create_directories(dir_);
    }
    void TearDown() override { std::filesystem::remove_all(dir_); }

    std::string write(const std::vector<Thread>& threads, std::uint64_t launch_threads) {
        TraceHeader header;
        header.arrays = {{"a", 0x1000, 4, 1 << 20, 1}, {"b", 0x10000000, 4, 1 << 20, 1}};
        header.launch = linear_launch(launch_threads, 128);
        const std::string path = (dir_ / "t.cst").string();
        TraceWriter writer(path, header);
        for (const Thread& t : threads)
            writer.append_thread(t.index, t.accesses.data(), static_cast<std::uint32_t>(t.accesses.size()));
        writer.finish();
        return path;
    }

    std::filesystem::path dir_;
};

Access load(std::uint16_t array, std::uint64_t address, std::uint32_t size = 4) { return {address, size, array, false}; }
Access store(std::uint16_t array, std::uint64_t address, std::uint32_t size = 4) { return {address, size, array, true}; }

// Everything of a file read undecoded: per thread, its index, repeat flag and decoded accesses.
struct ReadThread {
    std::uint64_t index;
    bool repeats;
    std::vector<Access> accesses;
};
std::vector<ReadThread> read_all(const std::string& path) {
    TraceFileSource source(path);
    ThreadRecords records;
    ThreadDecoder decoder;
    std::vector<ReadThread> out;
    while (source.next_thread_records(records))
        for (std::size_t i = 0; i < records.size(); ++i) {
            ReadThread t{records.threads[i], records.repeats[i] != 0, std::vector<Access>(records.count(i))};
            decoder.decode(records, i, t.accesses.data());
            out.push_back(std::move(t));
        }
    return out;
}

bool same(const Access& a, const Access& b) {
    return a.address == b.address && a.size == b.size && a.array == b.array && a.is_write == b.is_write;
}

// The definition, straight from the accesses: same count, the same (direction, size, array) at each
// position, and the same step from each array's previous address at every later use of it.
bool repeats(const std::vector<Access>& before, const std::vector<Access>& now) {
    if (before.size() != now.size()) return false;
    for (std::size_t k = 0; k < now.size(); ++k) {
        if (before[k].size != now[k].size || before[k].array != now[k].array || before[k].is_write != now[k].is_write)
            return false;
        for (std::size_t e = k; e-- > 0;)  // the array's previous use in the thread
            if (now[e].array == now[k].array) {
                if (now[k].address - now[e].address != before[k].address - before[e].address) return false;
                break;
            }
    }
    return true;
}

TEST_F(ThreadRecordsTest, RepeatsWorkedOutByHand) {
    const std::vector<Thread> threads{
        {0, {load(0, 0x1000), load(0, 0x1004), load(0, 0x1008), store(1, 0x10000000)}},
        {1, {load(0, 0x1004), load(0, 0x1008), load(0, 0x100c), store(1, 0x10000004)}},  // 0 shifted: repeats
        {2, {load(0, 0x1008), load(0, 0x100c), load(0, 0x1014), store(1, 0x10000008)}},  // a longer step
        {4, {load(0, 0x2000), store(1, 0x10000010)}},                                    // fewer accesses
        {5, {load(0, 0x2004), store(1, 0x10000014)}},                                    // 4 shifted
        {6, {load(0, 0x2008, 8), store(1, 0x10000018)}},                                 // another size
        {7, {load(0, 0x200c, 8), load(1, 0x10000018)}},                                  // a load, not a store
        {8, {store(1, 0x10000020), load(0, 0x2010)}},                                    // the arrays swapped
        {9, {store(1, 0x10000024), load(0, 0x2000)}},  // 8 shifted per array, by +4 and -16
    };
    const std::vector<ReadThread> read = read_all(write(threads, 128));
    const std::vector<bool> expected{false, true, false, false, true, false, false, false, true};
    ASSERT_EQ(read.size(), threads.size());
    for (std::size_t i = 0; i < threads.size(); ++i) {
        EXPECT_EQ(read[i].index, threads[i].index);
        EXPECT_EQ(read[i].repeats, expected[i]) << "thread " << threads[i].index;
        ASSERT_EQ(read[i].accesses.size(), threads[i].accesses.size());
        for (std::size_t k = 0; k < threads[i].accesses.size(); ++k)
            EXPECT_TRUE(same(read[i].accesses[k], threads[i].accesses[k])) << "thread " << threads[i].index << " access " << k;
    }
}

// Many blocks' worth of threads (a block holds 16,384 accesses), mostly neighbours of each other,
// with a thread every so often that breaks the pattern, and falling addresses: the flags follow the
// definition across block boundaries and every thread decodes to what was written.
TEST_F(ThreadRecordsTest, AcrossBlocksFlagsFollowTheDefinition) {
    std::vector<Thread> threads;
    for (std::uint64_t t = 0; t < 30000; ++t) {
        if (t % 97 == 13) continue;  // a thread without accesses
        Thread thread{t, {}};
        const std::uint64_t a = 0x1000 + 4 * t, b = 0x10000000 + 0x100000 - 8 * t;
        for (std::uint64_t k = 0; k < 5; ++k) thread.accesses.push_back(load(0, a + 4 * k * (t % 211 == 7 ? 3 : 1)));
        thread.accesses.push_back(load(1, b));
        thread.accesses.push_back(store(1, b - 8));
        if (t % 331 == 5) thread.accesses.push_back(store(0, a));
        threads.push_back(std::move(thread));
    }
    const std::vector<ReadThread> read = read_all(write(threads, 30080));
    ASSERT_EQ(read.size(), threads.size());
    std::size_t repeating = 0;
    for (std::size_t i = 0; i < threads.size(); ++i) {
        const bool expected = i > 0 && repeats(threads[i - 1].accesses, threads[i].accesses);
        EXPECT_EQ(read[i].repeats, expected) << "thread " << threads[i].index;
        repeating += expected;
        ASSERT_EQ(read[i].accesses.size(), threads[i].accesses.size());
        for (std::size_t k = 0; k < threads[i].accesses.size(); ++k)
            ASSERT_TRUE(same(read[i].accesses[k], threads[i].accesses[k])) << "thread " << threads[i].index << " access " << k;
    }
    EXPECT_GT(repeating, threads.size() * 9 / 10);  // the pattern is there to be found
}

// Threads near the top of the address space: shifting the previous thread's bytes leaves it, so
// the thread is checked record by record; wrapping to address 0 is an address like any other.
TEST_F(ThreadRecordsTest, ShiftsPastTheTopAreCheckedRecordByRecord) {
    const std::uint64_t top = ~0ull;
    const std::vector<Thread> threads{
        {0, {load(0, top - 15), load(0, top - 11)}},
        {1, {load(0, top - 11), load(0, top - 7)}},
        {2, {load(0, top - 7), load(0, top - 3)}},  // the last byte is the address space's last
        {3, {load(0, top - 3), load(0, 0)}},        // its second access wraps around to 0
        {4, {load(0, 0), load(0, 4)}},
    };
    const std::vector<ReadThread> read = read_all(write(threads, 128));
    ASSERT_EQ(read.size(), threads.size());
    for (std::size_t i = 0; i < threads.size(); ++i)
        for (std::size_t k = 0; k < 2; ++k)
            EXPECT_TRUE(same(read[i].accesses[k], threads[i].accesses[k])) << "thread " << i << " access " << k;
    EXPECT_TRUE(read[1].repeats);
    EXPECT_TRUE(read[2].repeats);
    EXPECT_TRUE(read[3].repeats);  // the same delta (4, wrapping): checked record by record, and valid
    EXPECT_TRUE(read[4].repeats);
}

std::string error_of(const std::function<void()>& read) {
    try {
        read();
    } catch (const InputError& e) {
        return e.what();
    }
    return "";
}

// A version 2 file of one block written byte by byte, with no writer to refuse what it holds.
std::string raw_file(const TraceHeader& header_in, const std::vector<Thread>& threads) {
    TraceHeader header = header_in;
    std::string table_deltas, table_counts, deltas, metas;
    std::vector<std::uint64_t> previous(header.arrays.size(), 0);
    std::uint64_t accesses = 0, previous_thread = 0;
    for (std::size_t i = 0; i < threads.size(); ++i) {
        put_u64(table_deltas, i == 0 ? threads[i].index : threads[i].index - previous_thread);
        previous_thread = threads[i].index;
        put_u32(table_counts, static_cast<std::uint32_t>(threads[i].accesses.size()));
        for (const Access& a : threads[i].accesses) {
            put_u64(deltas, a.address - previous[a.array]);
            previous[a.array] = a.address;
            put_u32(metas, a.size | (a.is_write ? 1u << 15 : 0u) | (static_cast<std::uint32_t>(a.array) << 16));
            ++accesses;
        }
        header.accesses_per_step = std::max<std::uint32_t>(header.accesses_per_step, static_cast<std::uint32_t>(threads[i].accesses.size()));
    }
    const std::string raw = table_deltas + table_counts + deltas + metas;
    std::string packed(ZSTD_compressBound(raw.size()), '\0');
    packed.resize(ZSTD_compress(packed.data(), packed.size(), raw.data(), raw.size(), 1));
    std::string block;
    put_u32(block, kBlockTag);
    put_u32(block, static_cast<std::uint32_t>(packed.size()));
    put_u32(block, static_cast<std::uint32_t>(accesses));
    put_u32(block, static_cast<std::uint32_t>(threads.size()));
    put_u64(block, 0);
    std::uint64_t sum = checksum_update(kChecksumSeed, block.data(), 24);
    sum = checksum_update(sum, packed.data(), packed.size());
    put_u64(block, sum);
    block += packed;
    header.version = kVersionLaunch;
    header.steps = threads.size();
    header.accesses = accesses;
    header.blocks = 1;
    return test::file_with_header_body(encode_header_body(header), block + test::end_record(header.steps, accesses),
                                       kVersionLaunch);
}

// A thread that repeats its predecessor but whose shifted bytes run past the end of the address
// space: the undecoded reader names the same record as the decoding one.
TEST_F(ThreadRecordsTest, AnOverflowingRepeatFailsAsTheDecodingReaderFails) {
    const std::uint64_t top = ~0ull;
    TraceHeader header;
    header.arrays = {{"a", 0, 8, 16, 1}};
    header.launch = linear_launch(128, 128);
    const std::vector<Thread> threads{
        {0, {load(0, top - 31, 8), load(0, top - 23, 8)}},
        {1, {load(0, top - 23, 8), load(0, top - 15, 8)}},
        {2, {load(0, top - 15, 8), load(0, top - 7, 8)}},
        {3, {load(0, top - 7, 8), load(0, top + 1, 8)}},  // wraps to 0: fine
    };
    const auto good_path = dir_ / "good.cst";
    test::spit(good_path, raw_file(header, threads));
    EXPECT_EQ(read_all(good_path.string()).size(), 4u);
    std::vector<Thread> bad = threads;
    bad[3] = {3, {load(0, top - 3, 8), load(0, top + 5, 8)}};  // its first access's last byte past the top
    const auto bad_path = dir_ / "bad.cst";
    test::spit(bad_path, raw_file(header, bad));
    const std::string decoded = error_of([&] {
        TraceFileSource source(bad_path.string());
        ThreadBatch batch;
        while (source.next_threads(batch)) {
        }
    });
    const std::string undecoded = error_of([&] { read_all(bad_path.string()); });
    EXPECT_NE(decoded.find("record 6 of the block overflows the address space"), std::string::npos) << decoded;
    EXPECT_EQ(undecoded, decoded);
}

}  // namespace
}  // namespace cachesim::cst
