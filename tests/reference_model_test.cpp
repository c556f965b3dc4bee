// Cross-check against an independent textbook model of the classic trace-driven simulators
// (Dinero IV, pycachesim): per-set recency lists, L1 misses and write-backs go to L2. On the same
// trace and configuration the miss counts must be equal, access for access.
#include <gtest/gtest.h>

#include <fstream>

#include "sim/rng.hpp"
#include "tests/textbook_cache.hpp"
#include "sim/thread_model.hpp"
#include "tests/cli_util.hpp"
#include "traces/trace_readers.hpp"

namespace cachesim {
namespace {

HierarchyConfig dinero_like() {
    HierarchyConfig h;
    h.l1 = {"L1", 32 * 1024, 64, 0, 8, PolicyKind::lru, WritePolicy::write_back_allocate};
    h.l2 = {"L2", 1024 * 1024, 64, 0, 16, PolicyKind::lru, WritePolicy::write_back_allocate};
    h.analysis = false;
    return h;
}

struct Record { std::uint64_t address; bool write; };

void expect_same_misses(AccessSource& source, const std::vector<Record>& records) {
    test::TextbookCache l2(1024 * 1024, 64, 16, nullptr);
    test::TextbookCache l1(32 * 1024, 64, 8, &l2);
    for (const Record& r : records) l1.access(r.address, r.write);
    const SimulationResult result = simulate_thread_model(source, dinero_like());
    ASSERT_EQ(result.levels.size(), 2u);
    EXPECT_EQ(result.levels[0].read_misses, l1.read_misses);
    EXPECT_EQ(result.levels[0].write_misses, l1.write_misses);
    EXPECT_EQ(result.levels[1].misses(), l2.misses);
    EXPECT_EQ(result.levels[1].read_misses, l2.read_misses);
    EXPECT_EQ(result.levels[1].write_misses, l2.write_misses);
}

std::vector<Record> pattern(const std::string& kind, std::size_t n, bool with_writes) {
    Rng rng(17);
    std::vector<Record> records(n);
    for (std::size_t i = 0; i < n; ++i) {
        std::uint64_t a;
        const bool sequential = kind == "seq" || (kind == "mix" && rng.below(2) == 0);
        a = sequential ? (i * 8) % (64ull << 20) : (rng.next() % (8ull << 20)) & ~7ull;
        records[i] = {a, with_writes && rng.below(4) == 0};
    }
    return records;
}

TEST(ReferenceModel, U64TracesMatchTextbookLruHierarchy) {
    for (const std::string kind : {"seq", "rand", "mix"}) {
        const auto records = pattern(kind, 300000, false);
        std::string bytes;
        for (const Record& r : records)
            for (int b = 0; b < 8; ++b) bytes.push_back(static_cast<char>((r.address >> (8 * b)) & 0xff));
        const auto path = test::temp_dir() / (kind + ".u64");
        std::ofstream(path, std::ios::binary) << bytes;
        U64TraceSource source(path.string());
        expect_same_misses(source, records);
    }
}

TEST(ReferenceModel, DinTracesWithWritesMatchTextbookLruHierarchy) {
    const auto records = pattern("mix", 200000, true);
    const auto path = test::temp_dir() / "mix.din";
    {
        std::ofstream out(path);
        for (const Record& r : records) out << (r.write ? 1 : 0) << " " << std::hex << r.address << " 8\n";
    }
    DinTraceSource source(path.string());
    expect_same_misses(source, records);
}

}  // namespace
}  // namespace cachesim
