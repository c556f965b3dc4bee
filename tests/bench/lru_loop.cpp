// The speed-of-light reference for scripts/bench.sh: a minimal hand-written two-level LRU in
// plain C style, as one would write it without a simulator framework. It reads the whole u64
// trace into memory first, then replays it through L1 32 KiB 8-way 64 B + L2 1 MiB 16-way 64 B
// (LRU by access stamps, every access an 8-byte load, so write-back never writes) and prints the
// miss counts, which must equal cachesim's for the same trace.
//   lru_loop TRACE.u64
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

struct level {
    uint32_t sets, ways;
    uint64_t* tags;     /* sets * ways, ~0 = empty */
    uint64_t* stamps;   /* last use */
    uint64_t clock, misses;
};

static void level_init(struct level* l, uint64_t bytes, uint32_t line, uint32_t ways) {
    l->ways = ways;
    l->sets = (uint32_t)(bytes / line / ways);
    l->tags = (uint64_t*)malloc(sizeof(uint64_t) * l->sets * ways);
    l->stamps = (uint64_t*)calloc((size_t)l->sets * ways, sizeof(uint64_t));
    memset(l->tags, 0xff, sizeof(uint64_t) * l->sets * ways);
    l->clock = l->misses = 0;
}

/* Returns 1 on a hit; on a miss the least recently used (or an empty) way takes the line. */
static int level_access(struct level* l, uint64_t line) {
    uint64_t* tags = l->tags + (size_t)(line & (l->sets - 1)) * l->ways;
    uint64_t* stamps = l->stamps + (size_t)(line & (l->sets - 1)) * l->ways;
    uint32_t w, victim = 0;
    ++l->clock;
    for (w = 0; w < l->ways; ++w)
        if (tags[w] == line) {
            stamps[w] = l->clock;
            return 1;
        }
    for (w = 1; w < l->ways; ++w)
        if (stamps[w] < stamps[victim]) victim = w;
    tags[victim] = line;
    stamps[victim] = l->clock;
    ++l->misses;
    return 0;
}

int main(int argc, char** argv) {
    if (argc != 2) {
        fprintf(stderr, "usage: lru_loop TRACE.u64\n");
        return 2;
    }
    FILE* f = fopen(argv[1], "rb");
    if (!f) {
        perror(argv[1]);
        return 1;
    }
    fseek(f, 0, SEEK_END);
    const long bytes = ftell(f);
    fseek(f, 0, SEEK_SET);
    const size_t n = (size_t)bytes / 8;
    uint64_t* addresses = (uint64_t*)malloc(n * 8 + 8);
    if (fread(addresses, 8, n, f) != n) {
        perror(argv[1]);
        return 1;
    }
    fclose(f);
    struct level l1, l2;
    level_init(&l1, 32 * 1024, 64, 8);
    level_init(&l2, 1024 * 1024, 64, 16);
    for (size_t i = 0; i < n; ++i) {
        const uint64_t line = addresses[i] >> 6; /* little-endian host */
        if (!level_access(&l1, line)) level_access(&l2, line);
    }
    printf("accesses %zu L1 misses %llu L2 misses %llu\n", n, (unsigned long long)l1.misses,
           (unsigned long long)l2.misses);
    return 0;
}
