/* pycachesim's C backend alone, driven from C through its C API (README.c_api.md): no Python
 * between the accesses. A second peer for scripts/bench.sh beside tests/bench/pycachesim_runner.py,
 * to show how much of pycachesim's time is its Python iteration. Reads the whole u64 trace (each
 * little-endian address an 8-byte load), then calls Cache__load once per address on the same
 * hierarchy as the runner (L1 32 KiB 8-way 64 B + L2 1 MiB 16-way 64 B, LRU, write-back,
 * write-allocate) and prints the miss counts as the minimal C loop does.
 *
 * Built outside the repository against pycachesim's own source (docs/speed.md):
 *   gcc -O3 -DNO_PYTHON -I PYCACHESIM/cachesim -o pycachesim_c_replay \
 *       tests/bench/pycachesim_c_replay.c PYCACHESIM/cachesim/backend.c
 *   pycachesim_c_replay TRACE.u64
 * Not built by CMake or run by CI. */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <unistd.h>

#include "backend.h"

/* The C API builds a hierarchy only from a definition file (the first line: the level count). */
static const char kDefinition[] =
    "2\n"
    "name=L1,sets=64,ways=8,cl_size=64,replacement_policy_id=1,write_back=1,write_allocate=1,"
    "subblock_size=64,load_from=L2,store_to=L2\n"
    "name=L2,sets=1024,ways=16,cl_size=64,replacement_policy_id=1,write_back=1,write_allocate=1,"
    "subblock_size=64\n";

int main(int argc, char** argv) {
    if (argc != 2) {
        fprintf(stderr, "usage: pycachesim_c_replay TRACE.u64\n");
        return 2;
    }
    FILE* f = fopen(argv[1], "rb");
    if (!f) {
        perror(argv[1]);
        return 2;
    }
    fseek(f, 0, SEEK_END);
    const long bytes = ftell(f);
    fseek(f, 0, SEEK_SET);
    if (bytes < 0 || bytes % 8 != 0) {
        fprintf(stderr, "%s: length is not a multiple of 8 bytes\n", argv[1]);
        return 2;
    }
    const size_t n = (size_t)bytes / 8;
    unsigned char* raw = (unsigned char*)malloc(n * 8 + 8);
    if (!raw || fread(raw, 8, n, f) != n) {
        perror(argv[1]);
        return 2;
    }
    fclose(f);

    /* It also writes a log, "log_cachesim", into the working directory: both go in a scratch
     * directory, removed again. */
    char dir[] = "/tmp/pycachesim_c_replay_XXXXXX";
    if (!mkdtemp(dir) || chdir(dir) != 0) {
        perror(dir);
        return 1;
    }
    FILE* definition = fopen("cachedef", "w");
    if (!definition || fputs(kDefinition, definition) < 0 || fclose(definition) != 0) {
        perror("cachedef");
        return 1;
    }
    Cache* l1 = get_cacheSim_from_file("cachedef");
    unlink("cachedef");
    unlink("log_cachesim");
    rmdir(dir);
    Cache* l2 = l1->load_from;

    for (size_t i = 0; i < n; ++i) {
        uint64_t address = 0;
        for (int b = 7; b >= 0; --b) address = (address << 8) | raw[i * 8 + b];
        addr_range range;
        range.addr = (long long)address;
        range.length = 8;
        Cache__load(l1, range);
    }
    printf("accesses %zu L1 misses %lld L2 misses %lld\n", n, l1->MISS.count, l2->MISS.count);
    return 0;
}
