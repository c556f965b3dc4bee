#!/usr/bin/env python3
"""Whether the GPU model's caches give the chip's L1 hit rate when they are fed the chip's own
pace: progressprobe's per-warp samples (scripts/device_progress.sh progress_widths) replayed by
`cachesim simulate --warp-times`, beside the L1 hit rate Nsight Compute measured for the same
launches.

  scripts/progress_replay_report.py --dir DIR --ncu NCU_RAW.csv --rows ROWS.csv --out FILE.csv [--jobs N]
                                    [--schedules S,...] [--block B]

DIR holds progress_<W>x<H>_d<D>_index32_<schedule>_<block>.csv.gz for each layout of ROWS (width,
height, depth) and each of the schedules (default linear,column:128), block B (default 128). The
ncu page has, per layout in ROWS' order, the sampled launches (a sample every 64 k: the schedules
in order) and then the same with start and end only. Per launch the output has:
  l1_sampled, l1_start_end   the chip's L1 hit % with the samples and with start and end only;
  replay_samples             the model (the h200 preset as it is) replaying every sample: each
                             warp's requests spread evenly between its samples;
  replay_start_end           the same with each warp's first and last sample only;
  progress_spread            at tenths 2..8 of the launch, on each SM, the most and the least
                             advanced resident warp's share of its loop done, the difference's
                             median over SMs and instants (0: in step; 1: a whole loop apart);
  block_lag_median, block_lag_p90, blocks_lag_over_128
                             per block, the most steps of its loop by which its warps lie apart at
                             any sample (the latest warp's time less the earliest's, over the
                             block's mean time a step): the median and 90th percentile over the
                             blocks, and the share of blocks more than 128 steps apart.
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


def progress_path(directory, layout, schedule, block):
    width, height, depth = layout
    return os.path.join(directory, f"progress_{width}x{height}_d{depth}_index32_{schedule.replace(':', '-')}_{block}.csv.gz")


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


def block_gaps(header, rows, steps):
    """Per block with two or more warps, at each sample, how many steps of its loop its warps lie
    apart: the latest warp's time less the earliest's, over the block's mean time a step."""
    block_col = header.index("block")
    ks = [int(header[i][1:]) for i in steps]
    blocks = defaultdict(list)
    for row in rows:
        blocks[int(row[block_col])].append([int(row[i]) for i in steps])
    gaps = []
    for times in blocks.values():
        if len(times) < 2:
            continue
        per_step = (max(t[-1] for t in times) - min(t[0] for t in times)) / (ks[-1] - ks[0])
        if per_step <= 0:
            continue
        gaps.append([(max(t[j] for t in times) - min(t[j] for t in times)) / per_step for j in range(len(ks))])
    return gaps


PARTED_STEPS = 64   # a block whose warps lie further apart than this at some sample has parted
REJOINED_STEPS = 16  # and has rejoined if they end closer than this


def gap_summary(gaps):
    """Over the blocks of block_gaps: how many; the median, 90th percentile (nearest rank below)
    and share over 128 steps of each block's widest gap at any sample; the median of each block's
    mean gap over the samples and of its gap at the last sample (the loop's end); the share of
    blocks that parted (PARTED_STEPS), and of those the share that rejoined by the end
    (REJOINED_STEPS; None where none parted). None for no blocks."""
    if not gaps:
        return None
    widest = sorted(max(g) for g in gaps)
    parted = [g for g in gaps if max(g) > PARTED_STEPS]
    return {"blocks": len(gaps), "widest_median": statistics.median(widest),
            "widest_p90": widest[int(0.9 * (len(widest) - 1))],
            "widest_over_128": sum(w > 128 for w in widest) / len(widest),
            "mean_median": statistics.median(sum(g) / len(g) for g in gaps),
            "end_median": statistics.median(g[-1] for g in gaps),
            "parted": len(parted) / len(gaps),
            "rejoined": sum(g[-1] < REJOINED_STEPS for g in parted) / len(parted) if parted else None}


def block_lags(header, rows, steps):
    """(median, 90th percentile, share over 128) of each block's widest gap between its warps, in
    steps of its loop, over the samples (gap_summary)."""
    s = gap_summary(block_gaps(header, rows, steps))
    if s is None:
        return 0.0, 0.0, 0.0
    return s["widest_median"], s["widest_p90"], s["widest_over_128"]


def replay_launch(binary, layout, schedule, block, path):
    width, height, depth = layout
    config = {"kernel": "matmul", "width": width, "height": height, "depth": depth, "block_size": block,
              "schedule": schedule}
    # the preset's own carve-out rule; the compilation does not enter a replay of measured times
    return replay(binary, path, config, ())


def main():
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--dir", required=True)
    parser.add_argument("--ncu", required=True)
    parser.add_argument("--rows", required=True)
    parser.add_argument("--out", required=True)
    parser.add_argument("--jobs", type=int, default=2)
    parser.add_argument("--schedules", default=",".join(SCHEDULES))
    parser.add_argument("--block", type=int, default=BLOCK)
    args = parser.parse_args()
    schedules = [s for s in args.schedules.split(",") if s]
    if not schedules or args.block <= 0:
        fail("--schedules needs at least one schedule and --block a positive size")
    binary = os.environ.get("CACHESIM_BIN", "build/apps/cachesim/cachesim")
    if not os.access(binary, os.X_OK):
        fail(f"no cachesim binary at {binary} (build with scripts/build.sh, or set CACHESIM_BIN)")
    try:
        with open(args.rows) as f:
            layouts = [(int(r["width"]), int(r["height"]), int(r["depth"])) for r in csv.DictReader(f)]
    except (OSError, KeyError, ValueError) as e:
        fail(f"{args.rows}: not a list of layouts (width,height,depth): {e}")
    rates = [rate for _, rate in ncu_l1_launches(args.ncu)]
    per_layout = 2 * len(schedules)
    if len(rates) != per_layout * len(layouts):
        fail(f"{args.ncu}: {len(rates)} launches, expected {per_layout} for each of the {len(layouts)} layouts")
    launches = [(layout, schedule) for layout in layouts for schedule in schedules]
    with tempfile.TemporaryDirectory() as tmp:
        jobs, figures, lags = [], {}, {}
        for n, (layout, schedule) in enumerate(launches):
            path = progress_path(args.dir, layout, schedule, args.block)
            header, rows, steps = read_samples(path)
            figures[n] = progress_spread(header, rows, steps)
            lags[n] = block_lags(header, rows, steps)
            ends_only = os.path.join(tmp, f"start_end_{n}.csv")
            keep = [i for i in range(len(header)) if i not in steps] + [steps[0], steps[-1]]
            with open(ends_only, "w", newline="") as f:
                writer = csv.writer(f)
                writer.writerow([header[i] for i in keep])
                writer.writerows([row[i] for i in keep] for row in rows)
            jobs += [(layout, schedule, path), (layout, schedule, ends_only)]
        with ThreadPoolExecutor(args.jobs) as pool:
            replayed = list(pool.map(lambda j: replay_launch(binary, j[0], j[1], args.block, j[2]), jobs))
    with open(args.out, "w", newline="") as f:
        writer = csv.writer(f)
        writer.writerow(["width", "height", "depth", "schedule", "block_size", "l1_sampled", "l1_start_end",
                         "replay_samples", "replay_start_end", "progress_spread", "block_lag_median", "block_lag_p90",
                         "blocks_lag_over_128"])
        for n, (layout, schedule) in enumerate(launches):
            first = (n // len(schedules)) * per_layout + n % len(schedules)
            writer.writerow([*layout, schedule, args.block, f"{rates[first]:.2f}",
                             f"{rates[first + len(schedules)]:.2f}", f"{replayed[2 * n]:.2f}",
                             f"{replayed[2 * n + 1]:.2f}", f"{figures[n]:.2f}", f"{lags[n][0]:.0f}",
                             f"{lags[n][1]:.0f}", f"{lags[n][2]:.2f}"])


if __name__ == "__main__":
    main()
