#!/usr/bin/env python3
"""The warm step (GpuConfig::warp_age_warm_step) from progressprobe's samples: how far a block's
warps part where its blocks read from the L2, as the pace ratio between two warps of a block that
would part them as far over the loop.

  scripts/warm_step_measure.py --out FILE.csv PROGRESS.csv.gz ...

Pools the blocks of the given launches (scripts/device_progress.sh files, two or more warps a
block) and writes one row: the launches, the blocks, the loop's steps L, the median over the blocks
of their widest gap and of their mean gap over the samples (in steps, progress_replay_report.py's
gaps), and the two steps they give. A warp that runs at S of its block mate's pace lies (1 - S) L
steps behind at the loop's end and half that on average, so
  step_widest = 1 - widest / L        step_mean = 1 - 2 mean / L
"""
import argparse
import csv
import os
import statistics

from progress_replay_report import block_gaps, read_samples
from warp_ends_report import fail


def main():
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--out", required=True)
    parser.add_argument("progress", nargs="+")
    args = parser.parse_args()
    widest, mean, loops = [], [], set()
    for path in args.progress:
        header, rows, steps = read_samples(path)
        loops.add(int(header[steps[-1]][1:]) - int(header[steps[0]][1:]))
        for gaps in block_gaps(header, rows, steps):
            widest.append(max(gaps))
            mean.append(sum(gaps) / len(gaps))
    if len(loops) != 1:
        fail("the launches' loops differ in length ({}): pool launches of one loop".format(sorted(loops)))
    if not widest:
        fail("no block with two or more warps in the given files")
    loop = loops.pop()
    w, m = statistics.median(widest), statistics.median(mean)
    tmp = args.out + ".tmp"
    with open(tmp, "w", newline="") as f:
        out = csv.writer(f)
        out.writerow(["launches", "blocks", "loop_steps", "widest_gap_median", "mean_gap_median", "step_widest",
                      "step_mean"])
        out.writerow([" ".join(os.path.basename(p) for p in args.progress), len(widest), loop, f"{w:.1f}", f"{m:.1f}",
                      f"{1 - w / loop:.3f}", f"{1 - 2 * m / loop:.3f}"])
    os.replace(tmp, args.out)


if __name__ == "__main__":
    main()
