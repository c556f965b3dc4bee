#!/usr/bin/env python3
"""Why the GPU model's L1 is right for strips of 128 columns and too high for wider ones: the 1024^3
matmul in strips of 128, 256 and 512 columns (scripts/device_progress.sh wide_strips), the chip's
own pace (progressprobe's per-warp samples) replayed by the model's caches under every width, and
the blocks' ends on the chip and in the model's rounds.

  scripts/wide_strips_report.py --dir DIR --out FILE.csv [--preset NAME] [--jobs N]

DIR holds progress_1024x1024_d1024_<schedule>_<block>.csv.gz (progressprobe, 64-bit addresses, a
sample every 64 k), wide_strips_ncu.csv (Nsight Compute's raw page of the same launches: the
sampled ones, schedules outer and blocks inner, then the same with start and end only) and
wide_strips_gpubench.csv (gpubench's own kernel in the same launches). Per launch the output has:
  chip_l1                      gpubench's kernel: the chip's L1 hit %;
  probe_l1, probe_l1_start_end progressprobe's L1 hit % with the samples and with start and end only;
  replay_<schedule>            the preset's caches replaying the probe's recorded pace (cachesim
                               simulate --warp-times) with the launch's blocks read as <schedule>:
                               replay_column:128 of a column:256 launch is its pace under 128-wide
                               strips;
  model_l1                     the preset in its own rounds;
  chip_ends_together, model_ends_together
                               of the blocks that start after the first wave, the share whose SM
                               holds another block reading the same columns of B that ends within
                               1% of the median block's run time of it (the probe's pace, and the
                               model's own: cachesim simulate --warp-progress);
  chip_start_gap_p90, model_start_gap_p90
                               per such block, how long after the latest co-resident block reading
                               the same columns it started, over that block's run time: the 90th
                               percentile (nearest rank) over the blocks that have one.
The binary is $CACHESIM_BIN, else build/apps/cachesim/cachesim.
"""
import argparse
import csv
import math
import os
import statistics
import tempfile
from collections import defaultdict
from concurrent.futures import ThreadPoolExecutor

from progress_replay_report import read_samples
from wave_sync_report import ncu_l1_launches, simulate_l1
from warp_ends_report import fail  # one error exit for the scripts beside this file

SIZE, DEPTH = 1024, 1024
SCHEDULES = ("column:128", "column:256", "column:512")
BLOCKS = (128, 256)
FIRST_WAVE = 0.1     # a block starting within this share of the median run time of the first start
ENDS_TOGETHER = 0.01  # of the median run time
L1 = "l1tex__t_sector_pipe_lsu_mem_global_op_ld_hit_rate.pct"


def column_x(thread, width):
    """traces/schedule.hpp's column_position, the x of `thread` (rows of SIZE, height SIZE)."""
    strip = thread // (width * SIZE)
    offset = strip * width
    strip_width = min(width, SIZE - offset)
    return offset + (thread - strip * width * SIZE) % strip_width


def columns_of(block, block_size, width):
    """The 32-column groups of B that the block's warps read."""
    return frozenset(column_x(block * block_size + w, width) // 32 for w in range(0, block_size, 32))


def block_spans(rows):
    """Rows (block, warp, sm, start, end) -> per block (sm, start, end)."""
    spans = {}
    for block, _warp, sm, start, end in rows:
        s = spans.get(block)
        spans[block] = (sm, start, end) if s is None else (sm, min(s[1], start), max(s[2], end))
    return spans


def read_probe(path):
    """progressprobe's samples -> rows (block, warp, SM, first sample, last sample)."""
    header, rows, steps = read_samples(path)
    try:
        block, warp, sm = (header.index(name) for name in ("block", "warp", "sm"))
        return [(int(r[block]), int(r[warp]), int(r[sm]), int(r[steps[0]]), int(r[steps[-1]])) for r in rows]
    except (ValueError, IndexError) as e:
        fail(f"{path}: cannot read progressprobe samples ({e})")


def report_arguments(doc):
    """The pace reports' command line (--dir, --out, --preset, --jobs) and the cachesim binary."""
    parser = argparse.ArgumentParser(description=doc.split("\n\n")[0])
    parser.add_argument("--dir", required=True)
    parser.add_argument("--out", required=True)
    parser.add_argument("--preset", default="h100")
    parser.add_argument("--jobs", type=int, default=1)
    return parser.parse_args(), os.environ.get("CACHESIM_BIN", "build/apps/cachesim/cachesim")


def pace_figures(spans, block_size, width):
    """(share of later blocks ending together with a co-resident sharer, p90 of their start gaps)."""
    figures = pace_details(spans, block_size, width)
    return figures["ends_together"], figures["start_gap_p90"]


def pace_details(spans, block_size, width):
    """Of the blocks that start after the first wave: the share ending together with a co-resident
    sharer (`ends_together`), the p90 of their start gaps (`start_gap_p90`) and how many
    co-resident blocks reading their columns overlap them in time, on average (`sharers`)."""
    median = statistics.median(end - start for _, start, end in spans.values())
    first = min(start for _, start, _ in spans.values())
    by_sm = defaultdict(list)
    for block, (sm, start, end) in spans.items():
        by_sm[sm].append((block, start, end, columns_of(block, block_size, width)))
    together = later = overlapping = 0
    gaps = []
    for resident in by_sm.values():
        for block, start, end, cols in resident:
            if start - first < FIRST_WAVE * median:
                continue
            later += 1
            sharers = [(s, e) for b, s, e, c in resident if b != block and c & cols and s < end and e > start]
            overlapping += len(sharers)
            together += any(abs(e - end) <= ENDS_TOGETHER * median for _, e in sharers)
            before = [start - s for s, _ in sharers if s <= start]
            if before:
                gaps.append(min(before) / (end - start))
    if not later or not gaps:
        fail("no block starts after the first wave beside another reading its columns")
    gaps.sort()
    return {"ends_together": together / later, "start_gap_p90": gaps[math.ceil(0.9 * len(gaps)) - 1],  # nearest rank
            "sharers": overlapping / later}


def simulate(binary, preset, schedule, block, extra):
    """The preset's L1 hit % of the 1024^3 matmul launch, with `extra` options."""
    launch = {"kernel": "matmul", "width": SIZE, "height": SIZE, "depth": DEPTH, "block_size": block,
              "schedule": schedule}
    return simulate_l1(binary, preset, launch, extra)


def model_pace(binary, preset, schedule, block):
    """The preset's L1 hit % and per block (sm, start, end) in rounds (cachesim simulate --warp-progress)."""
    with tempfile.TemporaryDirectory() as tmp:
        path = os.path.join(tmp, "progress.csv")
        rate = simulate(binary, preset, schedule, block, ["--warp-progress", path, "--warp-progress-every", str(1 << 30)])
        with open(path) as f:
            rows = [(int(r["block"]), int(r["warp"]), int(r["sm"]), int(r["r0"]), int(r["end_round"]))
                    for r in csv.DictReader(f)]
    return rate, block_spans(rows)


def write_rows(path, rows):
    """The rows as a CSV at `path`, whole or not at all."""
    tmp = path + ".tmp"
    with open(tmp, "w", newline="") as f:
        writer = csv.DictWriter(f, fieldnames=list(rows[0]))
        writer.writeheader()
        writer.writerows(rows)
    os.replace(tmp, path)


def read_gpubench(path):
    try:
        with open(path) as f:
            return {(r["schedule"], int(r["block"])): float(r[L1]) for r in csv.DictReader(f)}
    except (OSError, KeyError, ValueError) as e:
        fail(f"{path}: not gpubench's rows of the launches ({e})")


def main():
    args, binary = report_arguments(__doc__)
    launches = [(s, b) for s in SCHEDULES for b in BLOCKS]
    ncu = [rate for _, rate in ncu_l1_launches(os.path.join(args.dir, "wide_strips_ncu.csv"))]
    if len(ncu) != 2 * len(launches):
        fail(f"{args.dir}/wide_strips_ncu.csv: {len(ncu)} launches, expected {2 * len(launches)}")
    chip = read_gpubench(os.path.join(args.dir, "wide_strips_gpubench.csv"))
    paths = {(s, b): os.path.join(args.dir, f"progress_{SIZE}x{SIZE}_d{DEPTH}_{s.replace(':', '-')}_{b}.csv.gz")
             for s, b in launches}
    with ThreadPoolExecutor(max_workers=max(1, args.jobs)) as pool:
        replays = {(s, b, as_s): pool.submit(simulate, binary, args.preset, as_s, b, ["--warp-times", paths[(s, b)]])
                   for s, b in launches for as_s in SCHEDULES}
        models = {key: pool.submit(model_pace, binary, args.preset, *key) for key in launches}
        out = []
        for i, (s, b) in enumerate(launches):
            if (s, b) not in chip:
                fail(f"{args.dir}/wide_strips_gpubench.csv: no row for {s} at block {b}")
            width = int(s.split(":")[1])
            chip_together, chip_gap = pace_figures(block_spans(read_probe(paths[(s, b)])), b, width)
            model_l1, spans = models[(s, b)].result()
            model_together, model_gap = pace_figures(spans, b, width)
            row = {"schedule": s, "block": b, "chip_l1": f"{chip[(s, b)]:.2f}", "probe_l1": f"{ncu[i]:.2f}",
                   "probe_l1_start_end": f"{ncu[len(launches) + i]:.2f}"}
            row.update({f"replay_{as_s}": f"{replays[(s, b, as_s)].result():.2f}" for as_s in SCHEDULES})
            row.update({"model_l1": f"{model_l1:.2f}", "chip_ends_together": f"{chip_together:.3f}",
                        "model_ends_together": f"{model_together:.3f}", "chip_start_gap_p90": f"{chip_gap:.3f}",
                        "model_start_gap_p90": f"{model_gap:.3f}"})
            out.append(row)
    write_rows(args.out, out)


if __name__ == "__main__":
    main()
