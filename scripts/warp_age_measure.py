#!/usr/bin/env python3
"""The warp age group and weight as the chip shows them: from gpubench's warp ends of one-wave
launches whose warps all start together (the knee probe, blocks of 128 threads: one warp of each
block on each of an SM's four schedulers, so an SM's blocks are a scheduler's warps).

On each SM the blocks, sorted by their end, are cut into groups as scripts/warp_ends_report.py
cuts them (where an end lies more than 2% of the SM's first end after the one before); the first
group is the one that kept together (its size is one sample of the group), and each block after it
a straggler, the i-th counted from the group (i = 1, 2, ...; on the chip they end in age order). A straggler that runs at a
fraction p of the group's pace until the group ends at T_g, and at the full pace after it (it is
then among the oldest), ends at T = T_g + (1 - p) T_g, so p = 2 - T / T_g. The model's form gives
the i-th straggler the pace W^i; W is the least-squares fit of log p_i = i log W over every
straggler (through the origin: W = exp(sum(i log p_i) / sum(i^2))).

  scripts/warp_age_measure.py --sms N --chip ENDS.csv.gz [--chip ...] --launch WxH [--launch ...] --out FILE.csv

--sms: the chip's SM count (132 on the H200), to check that each launch is one full wave.

Writes one row per launch (warps a scheduler, SMs, the median group, the number of stragglers, their
median pace by i) and a last row `all`: the group (median over every SM), the stragglers fitted,
the paces W^i of the fit and W. Only launches
with blocks of 128 threads in a single wave are meaningful: the script refuses others.
"""
import argparse
import csv
import gzip
import math
import os
import statistics
import sys
from collections import defaultdict

# one definition of the blocks that end together, and one error exit (scripts/, beside this file)
from warp_ends_report import fail, group_cuts


def read_ends(paths, launches):
    """-> {(launch name, launch index): {sm: {block: end}}} for the launches asked for."""
    out = defaultdict(lambda: defaultdict(dict))
    for path in paths:
        try:
            with gzip.open(path, "rt") if path.endswith(".gz") else open(path) as f:
                for row in csv.DictReader(f):
                    name = f"{row['width']}x{row['height']}"
                    if name not in launches:
                        continue
                    if row["block_size"] != "128":
                        fail(f"{path}: launch {name} has blocks of {row['block_size']} threads, not 128")
                    blocks = out[(name, row["launch"])][int(row["sm"])]
                    block = int(row["block"])
                    blocks[block] = max(int(row["end_ns"]), blocks.get(block, 0))
        except OSError as e:
            fail(f"{path}: {e.strerror}")
        except KeyError as e:
            fail(f"{path}: no column {e} (not gpubench --warp-ends output)")
    missing = set(launches) - {name for name, _ in out}
    if missing:
        fail(f"no warp ends for launch(es) {', '.join(sorted(missing))} in the files given")
    return out


def split_sm(ends_by_block):
    """An SM's blocks -> (group size, [(i, pace)] of its stragglers)."""
    by_end = sorted(ends_by_block.values())
    cut = next(iter(group_cuts(by_end)), len(by_end))
    group_end = statistics.median(by_end[:cut])
    stragglers = by_end[cut:]
    return cut, [(i, 2 - end / group_end) for i, end in enumerate(stragglers, 1)]


def main():
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--chip", action="append", required=True, help="gpubench --warp-ends file (.csv or .csv.gz)")
    parser.add_argument("--launch", action="append", required=True, help="WIDTHxHEIGHT of a one-wave launch")
    parser.add_argument("--sms", type=int, required=True, help="the chip's SM count (a full wave holds them all)")
    parser.add_argument("--out", required=True)
    args = parser.parse_args()
    if args.sms < 1:
        fail(f"--sms {args.sms}: give the chip's SM count, at least 1")
    ends = read_ends(args.chip, args.launch)
    rows, all_groups, all_paces = [], [], []
    for (name, launch), sms in sorted(ends.items()):
        blocks_per_sm = {len(b) for b in sms.values()}
        if len(sms) != args.sms or len(blocks_per_sm) != 1:
            fail(f"launch {name} ({launch}): not one full wave (SMs {len(sms)}, blocks per SM {sorted(blocks_per_sm)})")
        groups, paces = [], defaultdict(list)
        for blocks in sms.values():
            group, stragglers = split_sm(blocks)
            groups.append(group)
            for i, pace in stragglers:
                paces[i].append(pace)
                all_paces.append((i, pace))
        all_groups += groups
        row = {"launch": f"{name}#{launch}", "warps_per_scheduler": blocks_per_sm.pop(), "sms": len(sms),
               "group": statistics.median(groups), "stragglers": sum(len(p) for p in paces.values())}
        row.update({f"pace_{i}": f"{statistics.median(p):.3f}" for i, p in sorted(paces.items())})
        rows.append(row)
    usable = [(i, p) for i, p in all_paces if p > 0]
    if not usable:
        fail("no straggler in the launches given: nothing to fit the weight on")
    if len(usable) < len(all_paces):
        print(f"warp_age_measure: {len(all_paces) - len(usable)} stragglers with a pace at or below 0 left out",
              file=sys.stderr)
    weight = math.exp(sum(i * math.log(p) for i, p in usable) / sum(i * i for i, _ in usable))
    deepest = max(i for i, _ in all_paces)
    rows.append({"launch": "all", "warps_per_scheduler": "", "sms": sum(r["sms"] for r in rows),
                 "group": statistics.median(all_groups), "stragglers": len(usable),
                 **{f"pace_{i}": f"{weight ** i:.3f}" for i in range(1, deepest + 1)}, "weight": f"{weight:.3f}"})
    fields = ["launch", "warps_per_scheduler", "sms", "group", "stragglers"] + \
        [f"pace_{i}" for i in range(1, deepest + 1)] + ["weight"]
    tmp = args.out + ".new"
    with open(tmp, "w", newline="") as f:
        writer = csv.DictWriter(f, fieldnames=fields, restval="", lineterminator="\n")
        writer.writeheader()
        writer.writerows(rows)
    os.replace(tmp, args.out)


if __name__ == "__main__":
    main()
