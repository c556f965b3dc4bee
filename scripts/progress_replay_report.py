#!/usr/bin/env python3
"""Whether the GPU model's caches give the chip's L1 hit rate when they are fed the chip's own
pace: progressprobe's per-warp samples (scripts/device_progress.sh progress_widths) replayed by
`cachesim simulate --warp-times`, beside the L1 hit rate Nsight Compute measured for the same
launches.

  scripts/progress_replay_report.py --dir DIR --ncu NCU_RAW.csv --rows ROWS.csv --out FILE.csv [--jobs N]

DIR holds progress_<W>x<H>_d<D>_index32_<schedule>_<block>.csv.gz for each layout of ROWS (width,
height, depth) and each schedule of SCHEDULES, block BLOCK. The ncu page has, per layout in ROWS'
order, the sampled launches (a sample every 64 k: the schedules in order) and then the same with
start and end only. Per launch the output has:
  l1_sampled, l1_start_end   the chip's L1 hit % with the samples and with start and end only;
  replay_samples             the model (the h200 preset as it is) replaying every sample: each
                             warp's requests spread evenly between its samples;
  replay_start_end           the same with each warp's first and last sample only;
  progress_spread            at tenths 2..8 of the launch, on each SM, the most and the least
                             advanced resident warp's share of its loop done, the difference's
                             median over SMs and instants (0: in step; 1: a whole loop apart).
The binary is $CACHESIM_BIN, else build/apps/cachesim/cachesim.
"""
import argparse
import csv
import gzip
import os
import statistics
import tempfile
from collections import defaultdict
from concurrent.futures import ThreadPoolExecutor

from warp_ends_report import fail  # one error exit for the scripts beside this file
from wave_sync_report import SAMPLES as INSTANTS  # the same tenths of the launch as its progress spread
from wave_sync_report import ncu_l1_launches, replay

SCHEDULES = ("linear", "column:128")
BLOCK = 128


def progress_path(directory, layout, schedule):
    width, height, depth = layout
    return os.path.join(directory, f"progress_{width}x{height}_d{depth}_index32_{schedule.replace(':', '-')}_{BLOCK}.csv.gz")


def read_samples(path):
    """-> (header, rows as lists, indices of the t<step> columns)."""
    try:
        with gzip.open(path, "rt") as f:
            reader = csv.reader(f)
            header = next(reader)
            rows = list(reader)
    except (OSError, StopIteration) as e:
        fail(f"{path}: cannot read progressprobe samples ({e})")
    steps = [i for i, name in enumerate(header) if name[:1] == "t" and name[1:].isdigit()]
    if len(steps) < 2:
        fail(f"{path}: no progress samples (t0, t64, ...)")
    return header, rows, steps


def progress_spread(header, rows, steps):
    """Median over SMs and instants of the spread of resident warps' loop shares done."""
    sm_col = header.index("sm")
    ks = [int(header[i][1:]) for i in steps]
    warps = defaultdict(list)  # SM -> per warp its sample times
    for row in rows:
        warps[int(row[sm_col])].append([int(row[i]) for i in steps])
    end = max(t[-1] for times in warps.values() for t in times)
    spreads = []
    for times in warps.values():
        for instant in INSTANTS:
            now = instant * end
            done = []
            for t in times:
                if not t[0] <= now < t[-1]:
                    continue
                j = max(i for i in range(len(t) - 1) if t[i] <= now)
                part = (now - t[j]) / (t[j + 1] - t[j]) if t[j + 1] > t[j] else 0
                done.append((ks[j] + part * (ks[j + 1] - ks[j])) / ks[-1])
            if len(done) > 1:
                spreads.append(max(done) - min(done))
    return statistics.median(spreads) if spreads else 0.0


def replay_launch(binary, layout, schedule, path):
    width, height, depth = layout
    config = {"kernel": "matmul", "width": width, "height": height, "depth": depth, "block_size": BLOCK,
              "schedule": schedule}
    return replay(binary, path, config, ("--compilation", "index32"))  # the preset's own carve-out rule


def main():
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--dir", required=True)
    parser.add_argument("--ncu", required=True)
    parser.add_argument("--rows", required=True)
    parser.add_argument("--out", required=True)
    parser.add_argument("--jobs", type=int, default=2)
    args = parser.parse_args()
    binary = os.environ.get("CACHESIM_BIN", "build/apps/cachesim/cachesim")
    if not os.access(binary, os.X_OK):
        fail(f"no cachesim binary at {binary} (build with scripts/build.sh, or set CACHESIM_BIN)")
    try:
        with open(args.rows) as f:
            layouts = [(int(r["width"]), int(r["height"]), int(r["depth"])) for r in csv.DictReader(f)]
    except (OSError, KeyError, ValueError) as e:
        fail(f"{args.rows}: not a list of layouts (width,height,depth): {e}")
    rates = [rate for _, rate in ncu_l1_launches(args.ncu)]
    per_layout = 2 * len(SCHEDULES)
    if len(rates) != per_layout * len(layouts):
        fail(f"{args.ncu}: {len(rates)} launches, expected {per_layout} for each of the {len(layouts)} layouts")
    launches = [(layout, schedule) for layout in layouts for schedule in SCHEDULES]
    with tempfile.TemporaryDirectory() as tmp:
        jobs, figures = [], {}
        for n, (layout, schedule) in enumerate(launches):
            path = progress_path(args.dir, layout, schedule)
            header, rows, steps = read_samples(path)
            figures[n] = progress_spread(header, rows, steps)
            ends_only = os.path.join(tmp, f"start_end_{n}.csv")
            keep = [i for i in range(len(header)) if i not in steps] + [steps[0], steps[-1]]
            with open(ends_only, "w", newline="") as f:
                writer = csv.writer(f)
                writer.writerow([header[i] for i in keep])
                writer.writerows([row[i] for i in keep] for row in rows)
            jobs += [(layout, schedule, path), (layout, schedule, ends_only)]
        with ThreadPoolExecutor(args.jobs) as pool:
            replayed = list(pool.map(lambda j: replay_launch(binary, *j), jobs))
    with open(args.out, "w", newline="") as f:
        writer = csv.writer(f)
        writer.writerow(["width", "height", "depth", "schedule", "block_size", "l1_sampled", "l1_start_end",
                         "replay_samples", "replay_start_end", "progress_spread"])
        for n, (layout, schedule) in enumerate(launches):
            first = (n // len(SCHEDULES)) * per_layout + n % len(SCHEDULES)
            writer.writerow([*layout, schedule, BLOCK, f"{rates[first]:.2f}", f"{rates[first + len(SCHEDULES)]:.2f}",
                             f"{replayed[2 * n]:.2f}", f"{replayed[2 * n + 1]:.2f}", f"{figures[n]:.2f}"])


if __name__ == "__main__":
    main()
