#!/usr/bin/env python3
"""When the chip starts a launch's blocks: how far apart in time consecutive blocks start, from
gpubench's block placement (--placement: per block its SM and when its thread 0 started and its
last warp ended, in ns of %globaltimer).

The chip dispatches blocks in launch order as residency frees, so consecutive blocks are the ones
whose L2 requests can meet in the request coalescer (the model's `pairs` scope: blocks 2i and
2i+1). Per configuration and launch, over the blocks after the first wave (the first SMs x
resident blocks, resident = 2048 threads over the block size, at most 32):
  later_blocks_per_us   how many later blocks start per microsecond (the dispatch rate);
  gap_p25/p50/p75/p90   quantiles of |start(i+1) - start(i)| over consecutive later blocks, ns;
  same_sm, same_tpc     the share of consecutive later blocks on one SM, on one TPC (SMs 2k, 2k+1);
  run_p10/p50/p90       quantiles of the later blocks' run times (end - start), ns;
  uniform_ns            the width W of a start delay drawn uniformly from [0, W) per block that
                        gives the same median gap: two such draws differ by a median of
                        W (1 - 1/sqrt 2).

  scripts/block_starts_report.py PLACEMENT.csv[.gz] [...] --out SUMMARY.csv
"""
import argparse
import csv
import math
import os
import sys

from warp_ends_report import fail, open_text  # one error exit and one reader for the scripts beside this file


def quantile(values, q):
    """The q quantile of sorted values, by the nearest rank below (the value at floor(q n))."""
    return values[min(len(values) - 1, int(q * len(values)))]


KEY = ("kernel", "width", "height", "stencil_w", "stencil_h", "depth", "schedule", "block_size", "launch")
BLOCK = ("block", "sm", "start_ns", "end_ns")


def read_launches(paths):
    launches = {}
    for path in paths:
        with open_text(path) as f:
            reader = csv.DictReader(f)
            missing = [k for k in KEY + BLOCK if k not in (reader.fieldnames or [])]
            if missing:
                fail("{}: not a gpubench --placement file: no column {}".format(path, ", ".join(missing)))
            for line, row in enumerate(reader, 2):
                try:
                    block, sm, start, end = (int(row[k]) for k in BLOCK)
                except (TypeError, ValueError):
                    fail("{}:{}: block, sm, start_ns and end_ns must be whole numbers".format(path, line))
                launches.setdefault(tuple(row[k] for k in KEY), {})[block] = (sm, start, end)
    return launches


def summarise(key, blocks):
    block_size = int(key[KEY.index("block_size")])
    sms = len({sm for sm, _, _ in blocks.values()})
    resident = min(32, 2048 // block_size)
    first = sms * resident
    later = sorted(b for b in blocks if b >= first)
    pairs = [(blocks[b], blocks[b + 1]) for b in later if b + 1 in blocks]
    if not pairs:
        return None
    gaps = sorted(abs(b[1] - a[1]) for a, b in pairs)
    starts = [blocks[b][1] for b in later]
    span_us = (max(starts) - min(starts)) / 1000.0
    runs = sorted(blocks[b][2] - blocks[b][1] for b in later)
    median_gap = quantile(gaps, 0.5)
    row = dict(zip(KEY, key))
    row.update({
        "blocks": len(blocks), "sms": sms, "first_wave": first,
        "later_blocks_per_us": "{:.1f}".format(len(later) / span_us) if span_us > 0 else "",
        "gap_p25": quantile(gaps, 0.25), "gap_p50": median_gap, "gap_p75": quantile(gaps, 0.75),
        "gap_p90": quantile(gaps, 0.9),
        "same_sm": "{:.3f}".format(sum(a[0] == b[0] for a, b in pairs) / len(pairs)),
        "same_tpc": "{:.3f}".format(sum(a[0] // 2 == b[0] // 2 for a, b in pairs) / len(pairs)),
        "run_p10": quantile(runs, 0.1), "run_p50": quantile(runs, 0.5), "run_p90": quantile(runs, 0.9),
        "uniform_ns": "{:.0f}".format(median_gap / (1 - 1 / math.sqrt(2))),
    })
    return row


def main(argv):
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("placement", nargs="+")
    parser.add_argument("--out", required=True)
    args = parser.parse_args(argv)
    rows = []
    for key, blocks in sorted(read_launches(args.placement).items()):
        row = summarise(key, blocks)
        if row is None:
            print("block_starts_report: {} has no block after its first wave; left out".format(
                " ".join(key)), file=sys.stderr)
            continue
        rows.append(row)
    if not rows:
        fail("no launch with blocks after its first wave")
    tmp = args.out + ".new"
    with open(tmp, "w", newline="") as f:
        writer = csv.DictWriter(f, fieldnames=list(rows[0]))
        writer.writeheader()
        writer.writerows(rows)
    os.replace(tmp, args.out)
    for row in rows:
        print("{schedule} block {block_size} launch {launch}: gaps p50 {gap_p50} ns, p90 {gap_p90} ns, "
              "same SM {same_sm}".format(**row))


if __name__ == "__main__":
    main(sys.argv[1:])
