#!/usr/bin/env python3
"""Whether the first-wave blocks of an SM that read the same lines of B end together, on the chip
and in the GPU model: gpubench --warp-ends of naive-order matmul launches
(scripts/device_progress.sh naive32_ends) beside `cachesim simulate --warp-ends` of the same
launches, each model placed as the chip placed that launch.

  scripts/sharer_ends_report.py --out FILE.csv [--preset P] [--model NAME='cachesim options' ...]
                                [--jobs N] ENDS.csv.gz ...

Each ENDS file is one launch's warp ends (launch 0 is used): columns kernel, width, height, depth,
schedule (linear), block_size, launch, block, warp, sm, end_ns. A block's end is its last warp's.
The first wave is the blocks below 132 times the blocks an SM holds, min(32, 2048 / block). In the
naive order block b computes the threads b*block .. b*block+block-1 of the W-wide output and reads
the columns of B their x cover; two first-wave blocks of one SM that have a column in common are
sharers, the other pairs of the SM are not. The chip starts a launch's first wave at the row of
its dispatch cycle where earlier launches left it: the row is the --seed (0..7) from which
`--cta-order floorplan-turns` places the recorded first wave exactly, and every model runs with
that seed (a launch no row reproduces is refused). Models (default: `slot=--cta-order floorplan`,
the slot cycle alone, and `preset=`, whose first wave is the turns) simulate with the preset
(default h100), the launch's compilation (default index32, --compilation in the options overrides
it) and their options.
Per launch and source (chip, then each model), the gaps between pairs' ends in steps of the loop
(the end difference over the median first-wave block's end, divided by the depth):
  row                                        the starting row found;
  sharer_pairs, sharers_median, sharers_p90  the sharing pairs, and their gap's median and 90th
                                             percentile (nearest rank below; empty where there are none);
  other_pairs, others_median, others_p90     the same over the SM's other first-wave pairs;
  l1                                         the model's L1 hit rate, % (empty for the chip).
The binary is $CACHESIM_BIN, else build/apps/cachesim/cachesim.
"""
import argparse
import csv
import gzip
import json
import os
import shlex
import statistics
import subprocess
import tempfile
from collections import defaultdict
from concurrent.futures import ThreadPoolExecutor

from warp_ends_report import cachesim_binary, fail, model_specs  # helpers shared by the scripts beside this file

SMS = 132
ROWS = 8  # the rows of the H200's and H100's measured dispatch cycle
L1_RATE = "l1tex__t_sector_pipe_lsu_mem_global_op_ld_hit_rate.pct"


def read_launch(path):
    """-> (launch dict, {block: (sm, end)}) of launch 0 of a gpubench --warp-ends file."""
    try:
        with gzip.open(path, "rt") as f:
            rows = [r for r in csv.DictReader(f) if r.get("launch") == "0"]
    except (OSError, EOFError) as e:
        fail(f"{path}: cannot read warp ends ({e})")
    if not rows:
        fail(f"{path}: no warp of launch 0")
    first = rows[0]
    if first.get("kernel") != "matmul" or first.get("schedule") != "linear":
        fail(f"{path}: not a naive-order (linear) matmul launch")
    launch = {k: int(first[k]) for k in ("width", "height", "depth", "block_size")}
    return launch, block_ends((r["block"], r["sm"], r["end_ns"]) for r in rows)


def block_ends(warps):
    """(block, sm, end) per warp -> {block: (sm, latest end)}."""
    blocks = {}
    for block, sm, end in warps:
        b, s, e = int(block), int(sm), float(end)
        blocks[b] = (s, max(e, blocks[b][1])) if b in blocks else (s, e)
    return blocks


def first_wave(launch):
    return SMS * min(32, 2048 // launch["block_size"])


def nearest_rank(values, share):
    ordered = sorted(values)
    return ordered[int(share * (len(ordered) - 1))]


def end_gaps(blocks, launch):
    """The report's pair figures for one source's {block: (sm, end)}."""
    width, size, depth, wave = launch["width"], launch["block_size"], launch["depth"], first_wave(launch)
    firsts = {b: v for b, v in blocks.items() if b < wave}
    if len(firsts) < wave:
        return None
    per_step = statistics.median(end for _, end in firsts.values()) / depth
    by_sm = defaultdict(list)
    for b, (sm, _) in firsts.items():
        by_sm[sm].append(b)
    columns = {b: {(b * size + i) % width for i in range(size)} for b in firsts}
    sharers, others = [], []
    for members in by_sm.values():
        for i, a in enumerate(members):
            for b in members[i + 1:]:
                gap = abs(firsts[a][1] - firsts[b][1]) / per_step
                (sharers if columns[a] & columns[b] else others).append(gap)
    # a placement may give an SM no sharing pair at all (the slot cycle at 7 blocks across, 6 an SM)
    figure = lambda f, gaps, *a: f(gaps, *a) if gaps else None
    return {"sharer_pairs": len(sharers), "sharers_median": figure(statistics.median, sharers),
            "sharers_p90": figure(nearest_rank, sharers, 0.9), "other_pairs": len(others),
            "others_median": figure(statistics.median, others), "others_p90": figure(nearest_rank, others, 0.9)}


def simulate(binary, preset, launch, options, seed, depth=None):
    """-> ({block: (sm, end)}, L1 hit rate) of the model's run of `launch`."""
    with tempfile.TemporaryDirectory() as tmp:
        ends = os.path.join(tmp, "ends.csv")
        extra = shlex.split(options)
        compilation = [] if "--compilation" in extra else ["--compilation", "index32"]
        cmd = [binary, "simulate", "--model", "gpu", "--preset", preset, "--workload", "matmul",
               "--size", f"{launch['width']}x{launch['height']}", "--depth", str(depth or launch["depth"]),
               "--block", str(launch["block_size"]), "--schedule", "linear", *compilation, *extra,
               "--seed", str(seed), "--threads", "1", "--warp-ends", ends, "--format", "json"]
        done = subprocess.run(cmd, capture_output=True, text=True)
        if done.returncode != 0:
            fail(f"{' '.join(cmd)} failed: {done.stderr.strip()}")
        with open(ends) as f:
            reader = csv.DictReader(f)
            end_column = next((c for c in reader.fieldnames if c.startswith("end")), None)
            blocks = block_ends((r["block"], r["sm"], r[end_column]) for r in reader)
    return blocks, json.loads(done.stdout)["ncu"][L1_RATE]


def chip_row(binary, preset, launch, chip):
    """The seed whose floorplan-turns first wave is the chip's, block for block."""
    wave = first_wave(launch)
    recorded = [chip.get(b, (None,))[0] for b in range(wave)]
    def placed(seed):
        blocks = simulate(binary, preset, launch, "--cta-order floorplan-turns", seed, depth=8)[0]
        return [blocks.get(b, (None,))[0] for b in range(wave)]

    rows = [seed for seed in range(ROWS) if placed(seed) == recorded]
    return rows[0] if len(rows) == 1 else None


def main():
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--out", required=True)
    parser.add_argument("--preset", default="h100")
    parser.add_argument("--model", action="append", default=[], metavar="NAME=OPTIONS")
    parser.add_argument("--jobs", type=int, default=1)
    parser.add_argument("ends", nargs="+")
    args = parser.parse_args()
    models = model_specs(args.model, ["slot=--cta-order floorplan", "preset="])
    binary = cachesim_binary()
    launches = [read_launch(p) for p in args.ends]
    with ThreadPoolExecutor(max(1, args.jobs)) as pool:
        rows_found = list(pool.map(lambda lc: chip_row(binary, args.preset, *lc), launches))
        for path, row in zip(args.ends, rows_found):
            if row is None:
                fail(f"{path}: no single starting row of --cta-order floorplan-turns places its first wave")
        runs = {(i, name): pool.submit(simulate, binary, args.preset, launch, options, row)
                for i, ((launch, _), row) in enumerate(zip(launches, rows_found)) for name, options in models}
        out_rows = []
        for i, (path, (launch, chip)) in enumerate(zip(args.ends, launches)):
            sources = [("chip", chip, "")] + [(n, *runs[(i, n)].result()) for n, _ in models]
            for source, blocks, l1 in sources:
                s = end_gaps(blocks, launch)
                if s is None:
                    fail(f"{path} ({source}): its first wave is incomplete")
                steps = lambda v: "" if v is None else f"{v:.1f}"
                out_rows.append([launch["width"], launch["height"], launch["depth"], launch["block_size"], source,
                                 rows_found[i], s["sharer_pairs"], steps(s["sharers_median"]),
                                 steps(s["sharers_p90"]), s["other_pairs"], steps(s["others_median"]),
                                 steps(s["others_p90"]), "" if l1 == "" else f"{l1:.2f}"])
    tmp = args.out + ".tmp"
    with open(tmp, "w", newline="") as f:
        out = csv.writer(f)
        out.writerow(["width", "height", "depth", "block_size", "source", "row", "sharer_pairs", "sharers_median",
                      "sharers_p90", "other_pairs", "others_median", "others_p90", "l1"])
        out.writerows(out_rows)
    os.replace(tmp, args.out)


if __name__ == "__main__":
    main()
