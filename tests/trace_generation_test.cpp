// Thrust trace generation: the host backend gives exactly WorkloadSource's accesses, in order and
// in whole-launch chunks; the CUDA backend (when built and a GPU is present) the same bytes.
#include <gtest/gtest.h>

#include <cstring>
#include <vector>

#include "traces/input_error.hpp"
#include "traces/trace_generation.hpp"
#include "traces/workload_source.hpp"
#ifdef CACHESIM_HAVE_CUDA_TRACEGEN
#include "traces/trace_generation_cuda.hpp"
#endif

namespace cachesim {
namespace {

WorkloadSpec stencil_spec(const char* schedule) {
    WorkloadSpec s;
    s.kind = WorkloadKind::stencil;
    s.width = 37;  // not a multiple of any schedule width: edge columns and tiles are cut short
    s.height = 23;
    s.stencil_w = 5;
    s.stencil_h = 3;
    s.schedule = parse_schedule(schedule);
    return s;
}

WorkloadSpec matmul_spec(const char* schedule) {
    WorkloadSpec s;
    s.kind = WorkloadKind::matmul;
    s.width = 19;
    s.height = 13;
    s.depth = 7;
    s.schedule = parse_schedule(schedule);
    return s;
}

struct Collected {
    std::vector<TraceRecord> records;
    std::vector<TraceChunk> chunks;
};

Collected collect_host(const WorkloadSpec& spec, std::size_t records_per_chunk) {
    Collected c;
    generate_trace_host(spec, [&](const TraceChunk& chunk) {
        c.chunks.push_back(chunk);
        c.records.insert(c.records.end(), chunk.records, chunk.records + chunk.count);
    }, records_per_chunk);
    return c;
}

void expect_same_as_workload_source(const WorkloadSpec& spec, std::size_t records_per_chunk) {
    SCOPED_TRACE(spec.describe() + ", chunks of " + std::to_string(records_per_chunk));
    const Collected generated = collect_host(spec, records_per_chunk);
    WorkloadSource source(spec);
    AccessBatch batch;
    std::size_t i = 0;
    while (source.next(batch, 1000)) {
        for (const Access& a : batch.accesses) {
            ASSERT_LT(i, generated.records.size());
            const TraceRecord& r = generated.records[i];
            ASSERT_EQ(r.address, a.address) << "record " << i;
            ASSERT_EQ(r.size, a.size) << "record " << i;
            ASSERT_EQ(r.array, a.array) << "record " << i;
            ASSERT_EQ(r.is_write != 0, a.is_write) << "record " << i;
            ASSERT_EQ(r.reserved, 0) << "record " << i;
            ++i;
        }
    }
    EXPECT_EQ(i, generated.records.size());
    EXPECT_EQ(i, spec.total_accesses());

    // Chunks are whole launches, consecutive, and never larger than asked (beyond one launch).
    const std::uint32_t per_launch = spec.accesses_per_item();
    std::uint64_t next_launch = 0;
    for (const TraceChunk& chunk : generated.chunks) {
        EXPECT_EQ(chunk.first_launch, next_launch);
        EXPECT_EQ(chunk.accesses_per_launch, per_launch);
        EXPECT_EQ(chunk.count % per_launch, 0u);
        EXPECT_LE(chunk.count, std::max<std::size_t>(records_per_chunk, per_launch));
        next_launch += chunk.count / per_launch;
    }
    EXPECT_EQ(next_launch, spec.items());
}

TEST(TraceGeneration, HostStencilMatchesWorkloadSourceForEverySchedule) {
    for (const char* schedule : {"linear", "column:8", "zigzag:5", "tiled:4x3", "morton"})
        for (std::size_t chunk : {std::size_t{1}, std::size_t{100}, kDefaultRecordsPerChunk})
            expect_same_as_workload_source(stencil_spec(schedule), chunk);
}

TEST(TraceGeneration, HostMatmulMatchesWorkloadSourceForEverySchedule) {
    for (const char* schedule : {"linear", "column:4", "zigzag:3", "tiled:8x2", "morton"})
        for (std::size_t chunk : {std::size_t{15}, std::size_t{1000}})
            expect_same_as_workload_source(matmul_spec(schedule), chunk);
}

TEST(TraceGeneration, HandWorkedFirstRecordsOfAColumnSchedule) {
    // 3x3 box on 4x2, column:2: launch 0 -> (0,0), launch 1 -> (1,0), launch 2 -> (0,1).
    WorkloadSpec s;
    s.kind = WorkloadKind::stencil;
    s.width = 4;
    s.height = 2;
    s.stencil_w = 3;
    s.stencil_h = 3;
    s.schedule = parse_schedule("column:2");
    const Collected c = collect_host(s, 1000);
    ASSERT_EQ(c.records.size(), 8u * 10u);
    // Launch 1 works on (1,0); its first read is in[clamp(-1)][0] = element 0, its 5th the centre
    // (1,0) = element 1, its write out[0][1] at out_base 4096 + 4.
    EXPECT_EQ(c.records[10].address, 0u);
    EXPECT_EQ(c.records[14].address, 4u);
    EXPECT_EQ(c.records[19].address, 4096u + 4u);
    EXPECT_EQ(c.records[19].is_write, 1);
    EXPECT_EQ(c.records[19].array, StencilWorkload::kOut);
    // Launch 2 works on (0,1): its write goes to element 4 of out.
    EXPECT_EQ(c.records[29].address, 4096u + 16u);
}

TEST(TraceGeneration, InvalidSpecIsRejected) {
    WorkloadSpec s = stencil_spec("linear");
    s.width = 0;
    EXPECT_THROW(generate_trace_host(s, [](const TraceChunk&) {}), InputError);
}

TEST(TraceGeneration, CudaBackendGivesTheSameBytes) {
#ifndef CACHESIM_HAVE_CUDA_TRACEGEN
    GTEST_SKIP() << "built without nvcc: the CUDA trace backend is not compiled";
#else
    if (!cuda_trace_generation_available()) GTEST_SKIP() << "no CUDA device: CUDA trace backend not run";
    for (const WorkloadSpec& spec : {stencil_spec("zigzag:5"), matmul_spec("morton")}) {
        const Collected host = collect_host(spec, 100);
        std::vector<TraceRecord> device;
        generate_trace_cuda(spec, [&](const TraceChunk& chunk) {
            device.insert(device.end(), chunk.records, chunk.records + chunk.count);
        }, 100);
        ASSERT_EQ(device.size(), host.records.size());
        EXPECT_EQ(std::memcmp(device.data(), host.records.data(), device.size() * sizeof(TraceRecord)), 0);
    }
#endif
}

}  // namespace
}  // namespace cachesim
