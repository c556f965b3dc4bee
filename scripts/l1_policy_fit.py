#!/usr/bin/env python3
"""Which set-associative L1 reproduces the H200's l1policyprobe (docs/h200-data.md, "Which lines the
L1 keeps"): replays the probe's cyclic programs (four passes over N lines; random lines, lines in
address order, lines at strides of 3 to 128 lines) through LRU caches of S sets x W ways with a
set index of the line address (mod: line mod S; fold, as `--l1-index fold`: the line with its
higher bit fields folded onto the low ones, then mod S; mult: a multiplicative hash, mod S) and
compares the hits of pass 4 with the chip's, largest carve-out. Random lines are drawn afresh here (the probe's own draws are
not recorded), so the random programs compare shares, not lines.

    scripts/l1_policy_fit.py [--probe CSV] [--out CSV]

Writes one row per geometry and index: the mean |hit share error| over the random programs, over
lines in address order and at power-of-two strides, over the other strides, and over all.
"""
import argparse
import collections
import csv
import os
import random
import sys

GEOMETRIES = [(512, 4), (496, 4), (256, 8), (248, 8), (1024, 2), (128, 16)]
INDICES = ["mod", "fold", "mult"]
RANDOM = ("cyclic", "cyclic_draw2", "cyclic_draw3")
POWER_OF_TWO = ("cyclic_seq", "cyclic_stride8", "cyclic_stride32", "cyclic_stride128")
OTHER_STRIDES = ("cyclic_stride3", "cyclic_stride36", "cyclic_stride40", "cyclic_stride48")
REGION_LINES = 1 << 18  # the probe's region


def fail(message):
    print("l1_policy_fit: " + message, file=sys.stderr)
    sys.exit(2)


def chip_shares(path):
    shares = {}
    try:
        rows = list(csv.DictReader(open(path, newline="")))
    except OSError as e:
        fail("cannot read {}: {}".format(path, e.strerror))
    for r in rows:
        try:
            if r["carveout"] == "max_l1" and r["program"].startswith("cyclic") and r["phase"] == "pass4":
                shares[(r["program"], int(r["size"]))] = int(r["hits"]) / int(r["visits"])
        except (KeyError, ValueError):
            fail("{}: not an l1policyprobe CSV (carveout, program, size, phase, visits, hits)".format(path))
    if not shares:
        fail("{}: no pass-4 rows of the largest carve-out".format(path))
    return shares


def program_lines(program, n, rng):
    if program == "cyclic_seq":
        return list(range(n))
    if program.startswith("cyclic_stride"):
        stride = int(program[len("cyclic_stride"):])
        return [i * stride for i in range(n)]
    return rng.sample(range(REGION_LINES), n)


def set_index(kind, sets):
    bits = max(1, sets.bit_length() - 1)
    if kind == "mod":
        return lambda line: line % sets
    if kind == "fold":
        return lambda line: (line ^ (line >> bits) ^ (line >> 2 * bits)) % sets
    return lambda line: (((line * 0x9E3779B97F4A7C15) & (2**64 - 1)) >> 40) % sets


def replay(sets, ways, kind, programs):
    index = set_index(kind, sets)
    rng = random.Random(3)
    shares = {}
    for program, n in programs:
        lines = program_lines(program, n, rng)
        cache = [collections.OrderedDict() for _ in range(sets)]
        hits = 0
        for rep in range(4):
            for line in lines:
                s = cache[index(line)]
                if line in s:
                    hits += rep == 3
                    s.move_to_end(line)
                else:
                    if len(s) >= ways:
                        s.popitem(last=False)
                    s[line] = True
        shares[(program, n)] = hits / n
    return shares


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--probe", default="tests/data/h200/l1policy/l1policyprobe.csv")
    ap.add_argument("--out", default="tests/data/h200/l1policy/l1_fit.csv")
    a = ap.parse_args()
    chip = chip_shares(a.probe)
    programs = sorted(k for k in chip if k[0] in RANDOM + POWER_OF_TWO + OTHER_STRIDES)
    rows = []
    for sets, ways in GEOMETRIES:
        for kind in INDICES:
            model = replay(sets, ways, kind, programs)

            def error(group):
                """The mean |error| over the group's programs, empty where the probe has none."""
                keys = [k for k in programs if group is None or k[0] in group]
                return "%.3f" % (sum(abs(model[k] - chip[k]) for k in keys) / len(keys)) if keys else ""

            rows.append({"sets": sets, "ways": ways, "lines": sets * ways, "index": kind, "random": error(RANDOM),
                         "power_of_two": error(POWER_OF_TWO), "other_strides": error(OTHER_STRIDES),
                         "all": error(None)})
    try:
        with open(a.out + ".new", "w", newline="") as f:
            w = csv.DictWriter(f, fieldnames=list(rows[0]))
            w.writeheader()
            w.writerows(rows)
    except OSError as e:
        fail("cannot write {}: {}".format(a.out, e.strerror))
    os.replace(a.out + ".new", a.out)


if __name__ == "__main__":
    main()
