#!/usr/bin/env python3
"""Whether an SM's blocks keep in step across waves, from gpubench --warp-times files (the first
recorded launch of each), with the L1 hit rates Nsight Compute measured for the same configuration
compiled with the clock reads (the placed launch, whose warp times these are) and without them
(the profiled launch), and optionally the GPU model replaying the recorded warp times.

  scripts/wave_sync_report.py --times FILE.csv.gz [--times ...] --ncu NCU_RAW.csv --out FILE.csv
                              [--replay] [--jobs N]

Per file: the blocks; their median run time; the start bunch of the median block (on its SM, the
blocks whose starts lie within 2% of the median run time of the one before form a bunch: 16 on
every SM when the blocks of a wave start together, 1 when they start one by one); the progress
spread (at tenths 2..8 of the launch, on each SM, the most and the least advanced resident block's
fraction of its run time done, the difference's median over SMs and instants: 0 in step, about 1
spread over a whole run). --ncu: the raw page (--csv --page raw) of scripts/device_progress.sh waves,
whose launches come in the order of the --times files, each configuration's profiled launch
followed by its placed ones. --replay: `cachesim simulate --preset h200 --carveout-rule occupancy --warp-times FILE` on each
(the binary is $CACHESIM_BIN, else build/apps/cachesim/cachesim).
"""
import argparse
import csv
import gzip
import json
import os
import statistics
import subprocess
from collections import defaultdict
from concurrent.futures import ThreadPoolExecutor

from warp_ends_report import fail  # one error exit for the scripts beside this file

BUNCH_TOLERANCE = 0.02  # of the median run time
SAMPLES = [x / 10 for x in range(2, 9)]


def read_launch(path, block_size=None):
    """The configuration and, per block of the first launch (the first at `block_size`, where one
    file holds several), (SM, start, end) in ns."""
    blocks, config = {}, None
    try:
        with gzip.open(path, "rt") if path.endswith(".gz") else open(path) as f:
            for r in csv.DictReader(f):
                if block_size is not None and int(r["block_size"]) != block_size:
                    continue
                if config is None:
                    config = {k: r[k] for k in ("kernel", "width", "height", "depth", "schedule", "block_size")}
                    first = r["launch"]
                if r["launch"] != first:
                    continue
                b, start, end = int(r["block"]), int(r["start_ns"]), int(r["end_ns"])
                if end < start:
                    fail(f"{path}: block {b} warp {r['warp']} ends before it starts")
                sm, s0, e0 = blocks.get(b, (int(r["sm"]), start, end))
                blocks[b] = (sm, min(s0, start), max(e0, end))
    except (OSError, EOFError, KeyError, ValueError) as e:
        fail(f"{path}: {e}")
    if not blocks:
        fail(f"{path}: no warps" + (f" at block {block_size}" if block_size is not None else ""))
    return config, blocks


def sync_figures(blocks):
    runs = [e - s for _, s, e in blocks.values()]
    median_run = statistics.median(runs)
    by_sm = defaultdict(list)
    for sm, s, e in blocks.values():
        by_sm[sm].append((s, e))
    bunch_of_block = []
    for starts in by_sm.values():
        starts.sort()
        size = 1
        for i in range(1, len(starts) + 1):
            if i < len(starts) and starts[i][0] - starts[i - 1][0] < BUNCH_TOLERANCE * median_run:
                size += 1
            else:
                bunch_of_block += [size] * size
                size = 1
    launch_end = max(e for _, _, e in blocks.values())
    spreads = []
    for t in (launch_end * x for x in SAMPLES):
        for resident in by_sm.values():
            done = [(t - s) / (e - s) for s, e in resident if s <= t < e]
            if len(done) > 1:
                spreads.append(max(done) - min(done))
    return {"blocks": len(blocks), "median_run_us": f"{median_run / 1000:.1f}",
            "median_start_bunch": statistics.median(bunch_of_block),
            "progress_spread": f"{statistics.median(spreads):.2f}" if spreads else ""}


def ncu_l1_launches(path):
    """An Nsight Compute raw page (--csv --page raw) -> per launch, in order: (kernel name, L1 hit %
    of its global-load sectors)."""
    number = lambda v: float(v.replace(",", ""))
    try:
        with open(path) as f:
            rows = [r for r in csv.DictReader(f) if r.get("ID", "").strip().isdigit()]
        return [(r["Kernel Name"], 100 * number(r["l1tex__t_sectors_pipe_lsu_mem_global_op_ld_lookup_hit.sum"]) /
                 number(r["l1tex__t_sectors_pipe_lsu_mem_global_op_ld.sum"])) for r in rows]
    except OSError as e:
        fail(f"{path}: {e.strerror}")
    except (KeyError, ValueError, ZeroDivisionError) as e:
        fail(f"{path}: not an Nsight Compute raw page of global-load sectors ({type(e).__name__}: {e})")


def ncu_rates(path, count):
    """Per configuration, in order: (profiled L1 %, mean placed L1 %)."""
    out, current = [], None
    for kernel, rate in ncu_l1_launches(path):
        if "ProfiledLaunch" in kernel:
            current = [rate, []]
            out.append(current)
        elif "PlacedLaunch" in kernel and current is not None:
            current[1].append(rate)
    if len(out) != count or any(not placed for _, placed in out):
        fail(f"{path}: {len(out)} profiled launches with their placed ones, for {count} warp-times files")
    return [(profiled, statistics.mean(placed)) for profiled, placed in out]


def simulate_l1(binary, preset, config, extra=()):
    """The preset's L1 hit % of the launch `config` (kernel, width, height, depth, block_size,
    schedule) with `extra` options, on one thread."""
    cmd = [binary, "simulate", "--preset", preset, "--workload", config["kernel"],
           "--size", f"{config['width']}x{config['height']}", "--depth", str(config["depth"]),
           "--block", str(config["block_size"]), "--schedule", config["schedule"],
           "--threads", "1", "--format", "json", *extra]
    done = subprocess.run(cmd, capture_output=True, text=True)
    if done.returncode != 0:
        fail(f"{' '.join(cmd)}: {done.stderr.strip()}")
    return json.loads(done.stdout)["ncu"]["l1tex__t_sector_pipe_lsu_mem_global_op_ld_hit_rate.pct"]


def replay(binary, path, config, extra=("--carveout-rule", "occupancy")):
    """The h200 preset's L1 hit % replaying the warp-times (or progress) file `path` of the launch
    `config`, with `extra` options (by default CUDA's occupancy rule for the carve-out, as the
    committed wave_sync.csv was made)."""
    return simulate_l1(binary, "h200", config, ["--warp-times", path, *extra])


def main():
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--times", action="append", required=True, help="gpubench --warp-times file")
    parser.add_argument("--ncu", required=True, help="ncu raw page of the same configurations, in order")
    parser.add_argument("--out", required=True)
    parser.add_argument("--replay", action="store_true", help="replay each file through the h200 preset")
    parser.add_argument("--jobs", type=int, default=1)
    args = parser.parse_args()
    rates = ncu_rates(args.ncu, len(args.times))
    launches = [read_launch(p) for p in args.times]
    rows = []
    for path, (config, blocks), (profiled, placed) in zip(args.times, launches, rates):
        rows.append({**config, **sync_figures(blocks), "l1_profiled": f"{profiled:.2f}",
                     "l1_placed": f"{placed:.2f}", "l1_replay": "", "file": os.path.basename(path)})
    if args.replay:
        binary = os.environ.get("CACHESIM_BIN", "build/apps/cachesim/cachesim")
        if not os.access(binary, os.X_OK):
            fail(f"no cachesim binary at {binary} (build with scripts/build.sh, or set CACHESIM_BIN)")
        with ThreadPoolExecutor(max(1, args.jobs)) as pool:
            replayed = list(pool.map(lambda pc: replay(binary, pc[0], pc[1][0]), zip(args.times, launches)))
        for row, l1 in zip(rows, replayed):
            row["l1_replay"] = f"{l1:.2f}"
    tmp = args.out + ".new"
    with open(tmp, "w", newline="") as f:
        w = csv.DictWriter(f, fieldnames=list(rows[0]), lineterminator="\n")
        w.writeheader()
        w.writerows(rows)
    os.replace(tmp, args.out)


if __name__ == "__main__":
    main()
