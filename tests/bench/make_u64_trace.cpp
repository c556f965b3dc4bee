// Writes the benchmark's u64 traces (the same addresses as bench_core's in-memory traces):
//   make_u64_trace stream|random|mix N OUT
// stream: 8-byte loads at 0, 8, 16, ...; random: 8-byte aligned, uniform over 8 MiB; mix: each
// access one or the other with probability 1/2 (the stream part keeps its position i * 8).
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <vector>

#include "sim/rng.hpp"

int main(int argc, char** argv) {
    if (argc != 4) {
        std::fprintf(stderr, "usage: make_u64_trace stream|random|mix N OUT\n");
        return 2;
    }
    const int kind = std::strcmp(argv[1], "stream") == 0 ? 0 : std::strcmp(argv[1], "random") == 0 ? 1
                     : std::strcmp(argv[1], "mix") == 0 ? 2 : -1;
    if (kind < 0) {
        std::fprintf(stderr, "make_u64_trace: unknown kind '%s'\n", argv[1]);
        return 2;
    }
    const std::size_t n = std::strtoull(argv[2], nullptr, 10);
    cachesim::Rng rng(2024);
    std::vector<unsigned char> bytes(n * 8);
    for (std::size_t i = 0; i < n; ++i) {
        const bool sequential = kind == 0 || (kind == 2 && (rng.next() & 1));
        const std::uint64_t a = sequential ? i * 8 : (rng.next() % (8u << 20)) & ~7ull;
        for (int b = 0; b < 8; ++b) bytes[i * 8 + b] = static_cast<unsigned char>(a >> (8 * b));
    }
    std::FILE* f = std::fopen(argv[3], "wb");
    if (!f || std::fwrite(bytes.data(), 1, bytes.size(), f) != bytes.size() || std::fclose(f) != 0) {
        std::perror(argv[3]);
        return 1;
    }
    return 0;
}
