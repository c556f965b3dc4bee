#!/usr/bin/env python3
"""Replays a u64 trace through pycachesim, the peer of scripts/bench.sh.

    pycachesim_runner.py TRACE.u64 [--check CACHESIM]

A u64 trace is a stream of little-endian 64-bit byte addresses, each an 8-byte load (no writes
are encoded). The hierarchy is the one bench.sh gives cachesim: L1 32 KiB 8-way 64 B + L2 1 MiB
16-way 64 B, both LRU, write-back, write-allocate. Every address goes through pycachesim's C
backend one by one: `Cache.iterload(addresses, length=8)` loops over a whole block of them in C
(no Python call per access), which is the fastest of pycachesim's calls that keeps one lookup
per access (`load(addr, length)` over a range would fold the 8 loads of a 64-byte line into
one). The file is read in blocks of 1 M addresses into an `array('Q')`, so memory stays bounded.

Prints the accesses and each level's misses. With --check, runs cachesim on the same trace
(--no-analysis, JSON) and exits 1 unless its per-level misses are the same.

Not run by CI: it needs pycachesim (docs/speed.md says how to build it outside the repository).
"""
import argparse
import array
import json
import subprocess
import sys

from cachesim import Cache, CacheSimulator, MainMemory

BLOCK_ADDRESSES = 1 << 20


def hierarchy():
    memory = MainMemory()
    l2 = Cache("L2", sets=1024, ways=16, cl_size=64, replacement_policy="LRU",
               write_back=True, write_allocate=True)
    memory.load_to(l2)
    memory.store_from(l2)
    l1 = Cache("L1", sets=64, ways=8, cl_size=64, replacement_policy="LRU",
               write_back=True, write_allocate=True, load_from=l2, store_to=l2)
    return CacheSimulator(l1, memory), l1, l2


def replay(path, l1):
    accesses = 0
    with open(path, "rb") as f:
        while True:
            chunk = f.read(BLOCK_ADDRESSES * 8)
            if not chunk:
                break
            if len(chunk) % 8:
                sys.exit(f"{path}: ends with a partial address (length not a multiple of 8)")
            addresses = array.array("Q")
            addresses.frombytes(chunk)
            if sys.byteorder != "little":
                addresses.byteswap()
            l1.backend.iterload(addresses, length=8)
            accesses += len(addresses)
    return accesses


def cachesim_misses(binary, path):
    out = subprocess.run(
        [binary, "simulate", "--trace", path, "--trace-format", "u64", "--no-analysis",
         "--l1-size", "32K", "--l1-line", "64", "--l1-ways", "8", "--l1-write", "back",
         "--l2-size", "1M", "--l2-line", "64", "--l2-ways", "16", "--format", "json"],
        capture_output=True, text=True, check=True).stdout
    return [lv["read_misses"] + lv["write_misses"] for lv in json.loads(out)["levels"]]


def main():
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("trace")
    parser.add_argument("--check", metavar="CACHESIM",
                        help="compare the miss counts with this cachesim binary's")
    args = parser.parse_args()
    _, l1, l2 = hierarchy()
    accesses = replay(args.trace, l1)
    ours = [l1.backend.MISS_count, l2.backend.MISS_count]
    print(f"accesses {accesses} L1 misses {ours[0]} L2 misses {ours[1]}")
    if args.check:
        theirs = cachesim_misses(args.check, args.trace)
        if theirs != ours:
            sys.exit(f"{args.trace}: pycachesim misses {ours}, cachesim {theirs}")
        print("cachesim agrees")


if __name__ == "__main__":
    main()
