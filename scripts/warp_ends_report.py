#!/usr/bin/env python3
"""Which warps of a launch run together: the chip's warp ends (gpubench --warp-ends) beside the
GPU model's under cycle timing (cachesim simulate --warp-ends), summarised per launch.

A block ends when its last warp does. On each SM the blocks are sorted by their end and cut into
groups wherever two ends in a row lie more than 2% of the SM's first end apart: blocks that read
the same lines in step end together, a block the others left behind ends on its own. Per launch
(the median over SMs): the blocks of the SM's first group, its groups, and its last end over its
first.

  scripts/warp_ends_report.py --chip ENDS.csv.gz [--chip ENDS2.csv.gz ...] [--chip-launch N]
                              --out SUMMARY.csv [--model NAME='cachesim options' ...]
                              [--rounds NAME='cachesim options' ...] [--compilation C] [--jobs N]

Every configuration of the chip's files (their launch N, default 0) is summarised; each --model runs
`cachesim simulate --model gpu --preset h200 --timing cycles --warp-ends` on it with the options
given (the workload's own options are added) and is summarised the same way, with its L1 hit rate.
Each --rounds runs the preset's rounds (which have no warp ends) with the options given: its rows
have the L1 hit rate alone. --jobs: simulations at once (default 1). The cachesim binary is
$CACHESIM_BIN, else build/apps/cachesim/cachesim.
"""
import argparse
import concurrent.futures
import csv
import gzip
import json
import os
import shlex
import statistics
import subprocess
import sys
import tempfile
from collections import defaultdict

GAP = 0.02  # a new group starts where an end lies more than this fraction of the first end later
CONFIG = ("width", "height", "depth", "schedule", "block_size")


def fail(message):
    # the script that runs, which may be another one importing these helpers
    print(f"{os.path.basename(sys.argv[0]).removesuffix('.py')}: {message}", file=sys.stderr)
    sys.exit(2)


def model_specs(specs, default):
    """--model NAME=OPTIONS arguments (default when none is given) -> [(name, options)]; a spec
    without '=' or a name, or named chip (the measured source's name), is refused."""
    models = []
    for spec in specs or default:
        name, sep, options = spec.partition("=")
        if not sep or not name or name == "chip":
            fail(f"--model {spec}: expected NAME=OPTIONS with a name other than 'chip'")
        models.append((name, options))
    return models


def cachesim_binary():
    """$CACHESIM_BIN, else the build's cachesim; refused when it is not there to run."""
    binary = os.environ.get("CACHESIM_BIN", "build/apps/cachesim/cachesim")
    if not os.access(binary, os.X_OK):
        fail(f"no cachesim binary at {binary} (build with scripts/build.sh, or set CACHESIM_BIN)")
    return binary


def open_text(path):
    try:
        return gzip.open(path, "rt") if path.endswith(".gz") else open(path)
    except OSError as e:
        fail(f"{path}: {e.strerror}")


def group_cuts(sm_ends):
    """An SM's block ends, sorted -> the indices where a new group starts (an end more than GAP of
    the first end after the one before it); the first group is sm_ends[:cuts[0]]."""
    gap = GAP * sm_ends[0]
    return [i for i in range(1, len(sm_ends)) if sm_ends[i] - sm_ends[i - 1] > gap]


def block_ends(ends):
    """ends: (sm, block, end) per warp -> {(sm, block): the block's end, its last warp's}."""
    block_end = {}
    for sm, block, end in ends:
        block_end[(sm, block)] = max(end, block_end.get((sm, block), 0))
    return block_end


def block_ends_per_sm(ends):
    """ends: (sm, block, end) per warp -> per SM, its blocks' ends, sorted."""
    per_sm = defaultdict(list)
    for (sm, _), end in block_ends(ends).items():
        per_sm[sm].append(end)
    for sm_ends in per_sm.values():
        sm_ends.sort()
    return per_sm


def summarise(ends):
    """ends: (sm, block, end) per warp -> (first group, groups, last/first), medians over SMs."""
    firsts, groups, spans = [], [], []
    for sm_ends in block_ends_per_sm(ends).values():
        cuts = group_cuts(sm_ends)
        firsts.append(cuts[0] if cuts else len(sm_ends))
        groups.append(len(cuts) + 1)
        spans.append(sm_ends[-1] / sm_ends[0])
    if not firsts:
        fail("no warp ends to summarise")
    return statistics.median(firsts), statistics.median(groups), statistics.median(spans)


def read_chip(path, launch):
    launches = defaultdict(list)
    try:
        with open_text(path) as f:
            reader = csv.DictReader(f)
            missing = set(CONFIG + ("launch", "block", "sm", "end_ns")) - set(reader.fieldnames or [])
            if missing:
                fail(f"{path}: not a gpubench --warp-ends file (no column {', '.join(sorted(missing))})")
            for row in reader:
                if row["launch"] != str(launch):
                    continue
                key = tuple(row[c] for c in CONFIG)
                launches[key].append((int(row["sm"]), int(row["block"]), int(row["end_ns"])))
    except (OSError, EOFError, ValueError) as e:  # a cut gzip file, a field that is no number
        fail(f"{path}: {e}")
    if not launches:
        fail(f"{path}: no rows of launch {launch}")
    return launches


def run_model(binary, options, config, compilation, cycles):
    """-> (L1 hit %, the warp ends under cycle timing, or None for the rounds)."""
    width, height, depth, schedule, block = config
    with tempfile.TemporaryDirectory() as tmp:
        ends_path = os.path.join(tmp, "ends.csv")
        cmd = [binary, "simulate", "--model", "gpu", "--preset", "h200", "--workload", "matmul",
               "--size", f"{width}x{height}", "--depth", depth, "--block", block, "--schedule", schedule,
               "--compilation", compilation, *(["--timing", "cycles"] if cycles else []), *shlex.split(options),
               *(["--warp-ends", ends_path] if cycles else []), "--format", "json"]
        done = subprocess.run(cmd, capture_output=True, text=True)
        if done.returncode != 0:
            fail(f"{' '.join(cmd)} failed: {done.stderr.strip()}")
        l1 = json.loads(done.stdout)["ncu"]["l1tex__t_sector_pipe_lsu_mem_global_op_ld_hit_rate.pct"]
        if not cycles:
            return l1, None
        with open(ends_path) as f:
            ends = [(int(r["sm"]), int(r["block"]), int(r["end_cycle"])) for r in csv.DictReader(f)]
    return l1, ends


def main():
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--chip", required=True, action="append", help="gpubench --warp-ends CSV (.gz allowed)")
    parser.add_argument("--chip-launch", type=int, default=0)
    parser.add_argument("--model", action="append", default=[], metavar="NAME=OPTIONS")
    parser.add_argument("--rounds", action="append", default=[], metavar="NAME=OPTIONS")
    parser.add_argument("--compilation", default="index32")
    parser.add_argument("--jobs", type=int, default=1)
    parser.add_argument("--out", required=True)
    args = parser.parse_args()
    binary = os.environ.get("CACHESIM_BIN", "build/apps/cachesim/cachesim")
    models = []
    for m, cycles in [(m, True) for m in args.model] + [(m, False) for m in args.rounds]:
        name, sep, options = m.partition("=")
        if not sep or not name:
            fail(f"{'--model' if cycles else '--rounds'} {m}: expected NAME=OPTIONS")
        models.append((name, options, cycles))
    if args.jobs < 1:
        fail(f"--jobs {args.jobs}: at least 1")
    if models and not os.access(binary, os.X_OK):
        fail(f"no cachesim binary at {binary} (build with scripts/build.sh, or set CACHESIM_BIN)")

    launches = {}
    for path in args.chip:
        for config, ends in read_chip(path, args.chip_launch).items():
            if config in launches:
                fail(f"{path}: {config} is in an earlier --chip file too")
            launches[config] = ends
    with concurrent.futures.ThreadPoolExecutor(args.jobs) as pool:
        runs = {(config, name): pool.submit(run_model, binary, options, config, args.compilation, cycles)
                for config in launches for name, options, cycles in models}
        rows = []
        for config, ends in launches.items():
            first, groups, span = summarise(ends)
            rows.append(dict(zip(CONFIG, config), source="chip", l1="", first_group=first, groups=groups,
                             last_over_first=f"{span:.3f}"))
            for name, _, _ in models:
                l1, model_ends = runs[(config, name)].result()
                row = dict(zip(CONFIG, config), source=name, l1=f"{l1:.2f}", first_group="", groups="",
                           last_over_first="")
                if model_ends is not None:
                    first, groups, span = summarise(model_ends)
                    row.update(first_group=first, groups=groups, last_over_first=f"{span:.3f}")
                rows.append(row)
    fields = list(CONFIG) + ["source", "l1", "first_group", "groups", "last_over_first"]
    tmp = args.out + ".tmp"
    with open(tmp, "w", newline="") as f:
        writer = csv.DictWriter(f, fieldnames=fields)
        writer.writeheader()
        writer.writerows(rows)
    os.replace(tmp, args.out)


if __name__ == "__main__":
    main()
