#!/usr/bin/env python3
"""How far a block's warps part in the middle of the loop, on the chip and in the GPU model:
progressprobe's per-warp samples (scripts/device_progress.sh) beside the model's own
(`cachesim simulate --warp-progress`) for the same launches.

  scripts/block_gaps_report.py --out FILE.csv [--model NAME='cachesim options' ...] [--jobs N]
                               PROGRESS.csv.gz ...

Each PROGRESS file is progress_<W>x<H>_d<D>_index32_<schedule>_<block>.csv.gz, a 32-bit matmul
launch (progress_replay_report.py's names). Each model (default: the presets, `preset=`) simulates
it with `--compilation index32 --warp-progress-every 128`: a matmul warp issues two loads a step,
so the model's request 128 j is the chip's sample after 64 j steps, and its closing store the end
of the loop. Per launch and source (chip, then each model), over the blocks of two or more warps
(progress_replay_report.py's gaps, in steps of the loop):
  widest_median, widest_p90, widest_over_128   each block's widest gap at any sample: its median,
                                               90th percentile, and the share of blocks over 128;
  mean_median                                  each block's mean gap over the samples: its median;
  end_median                                   each block's gap at the loop's end: its median;
  parted, rejoined                             the share of blocks whose widest gap is over 64 steps,
                                               and of those the share less than 16 apart at the end
                                               (empty where none parted).
The binary is $CACHESIM_BIN, else build/apps/cachesim/cachesim.
"""
import argparse
import csv
import os
import re
import shlex
import subprocess
import tempfile
from concurrent.futures import ThreadPoolExecutor

from progress_replay_report import block_gaps, gap_summary, read_samples
from warp_ends_report import cachesim_binary, fail, model_specs  # helpers shared by the scripts beside this file

NAME = re.compile(r"progress_(\d+)x(\d+)_d(\d+)_index32_(.+)_(\d+)\.csv\.gz$")
REQUESTS_A_STEP = 2  # a matmul warp's loads of one step of its loop: A's and B's


def launch_of(path):
    match = NAME.search(os.path.basename(path))
    if not match:
        fail(f"{path}: not a progress_<W>x<H>_d<D>_index32_<schedule>_<block>.csv.gz file")
    width, height, depth, schedule, block = match.groups()
    return width, height, depth, schedule.replace("-", ":", 1), block


def model_gaps(binary, options, launch):
    """The model's block gaps for `launch` with `options`, its samples renamed to loop steps."""
    width, height, depth, schedule, block = launch
    with tempfile.TemporaryDirectory() as tmp:
        path = os.path.join(tmp, "progress.csv")
        cmd = [binary, "simulate", "--model", "gpu", "--preset", "h200", "--workload", "matmul",
               "--size", f"{width}x{height}", "--depth", depth, "--block", block, "--schedule", schedule,
               "--compilation", "index32", *shlex.split(options), "--threads", "1",
               "--warp-progress", path, "--warp-progress-every", str(64 * REQUESTS_A_STEP), "--format", "json"]
        done = subprocess.run(cmd, capture_output=True, text=True)
        if done.returncode != 0:
            fail(f"{' '.join(cmd)} failed: {done.stderr.strip()}")
        with open(path) as f:
            reader = csv.reader(f)
            header = next(reader)
            rows = list(reader)
    header = [f"t{int(name[1:]) // REQUESTS_A_STEP}" if name[:1] == "r" and name[1:].isdigit() else name
              for name in header]
    steps = [i for i, name in enumerate(header) if name[:1] == "t" and name[1:].isdigit()]
    if int(header[steps[-1]][1:]) != int(depth):
        fail(f"{' '.join(cmd)}: its last sample is not the end of a {depth}-step loop")
    return block_gaps(header, rows, steps)


def main():
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--out", required=True)
    parser.add_argument("--model", action="append", default=[], metavar="NAME=OPTIONS")
    parser.add_argument("--jobs", type=int, default=1)
    parser.add_argument("progress", nargs="+")
    args = parser.parse_args()
    models = model_specs(args.model, ["preset="])
    binary = cachesim_binary()
    launches = [launch_of(p) for p in args.progress]
    with ThreadPoolExecutor(max(1, args.jobs)) as pool:
        runs = {(i, name): pool.submit(model_gaps, binary, options, launch)
                for i, launch in enumerate(launches) for name, options in models}
        rows = []
        for i, (path, launch) in enumerate(zip(args.progress, launches)):
            header, samples, steps = read_samples(path)
            sources = [("chip", block_gaps(header, samples, steps))] + [(n, runs[(i, n)].result()) for n, _ in models]
            for source, gaps in sources:
                s = gap_summary(gaps)
                if s is None:
                    fail(f"{path} ({source}): no block with two or more warps")
                rejoined = "" if s["rejoined"] is None else f"{s['rejoined']:.2f}"
                rows.append([*launch, source, s["blocks"], f"{s['widest_median']:.1f}", f"{s['widest_p90']:.1f}",
                             f"{s['widest_over_128']:.2f}", f"{s['mean_median']:.1f}", f"{s['end_median']:.1f}",
                             f"{s['parted']:.2f}", rejoined])
    tmp = args.out + ".tmp"
    with open(tmp, "w", newline="") as f:
        out = csv.writer(f)
        out.writerow(["width", "height", "depth", "schedule", "block_size", "source", "blocks", "widest_median",
                      "widest_p90", "widest_over_128", "mean_median", "end_median", "parted", "rejoined"])
        out.writerows(rows)
    os.replace(tmp, args.out)


if __name__ == "__main__":
    main()
