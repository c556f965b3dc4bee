#!/usr/bin/env python3
"""scripts/block_gaps_report.py on progress samples made up by hand, with a stand-in for cachesim
that writes a --warp-progress file. One launch, 64x16 at depth 256, blocks of two warps.

The chip's samples (steps 0, 128, 256; a block's mean time a step is its span over 256 steps):
- block 0: w0 at 0, 1280, 2560 ns, w1 at 0, 1640, 2560: 10 ns a step, gaps 0, 36, 0 steps;
- block 1: w0 at 0, 1280, 2560, w1 at 0, 2740, 5120: 20 ns a step, gaps 0, 73, 128;
- block 2: w0 at 0, 10, 2560, w1 at 0, 2000, 2560: 10 ns a step, gaps 0, 199, 0;
- block 3: one warp, left out.
Widest gaps 36, 128, 199: median 128, 90th percentile (nearest rank below, index 1) 128, one of
three over 128 (0.33); mean gaps 12, 67, 66.33: median 66.3; gaps at the end 0, 128, 0: median
0.0; blocks 1 and 2 parted (widest over 64: 0.67), and of those block 2 alone ends less than 16
apart (0.50).

The stand-in's model (requests 0, 256, 512 are steps 0, 128, 256: two loads a step):
- `preset=` (no options): block 0 w0 at rounds 0, 100, 200, w1 at 0, 150, 200 (200/256 rounds a
  step, gap 64 at step 128); block 1's warps in step. Widest 0 and 64: median 32.0, 90th
  percentile 0.0, none over 128; mean gaps 21.33 and 0: median 10.7; both end in step (0.0);
  no block parted (64 is not over 64), so the rejoined share is empty.
- `rank=--warp-age-rank block`: every warp in step: all 0, the rejoined share empty.
It refuses any call without --compilation index32, --depth 256 and --warp-progress-every 128, so
the test sees what the script asks of cachesim. Refused without output: a model named chip, a file
whose name is not a progress file, a model whose last sample is not the loop's end (the stand-in
stops at request 256 when given --warp-age-group 99)."""
import csv
import gzip
import os
import subprocess
import sys
import tempfile

from stand_in import write_stand_in

ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
SCRIPT = os.path.join(ROOT, "scripts", "block_gaps_report.py")
STAND_IN = """#!/usr/bin/env python3
import sys
args = sys.argv[1:]
def value(name):
    return args[args.index(name) + 1] if name in args else None
if value("--compilation") != "index32" or value("--depth") != "256" or value("--warp-progress-every") != "128":
    sys.exit("stand-in: unexpected call " + " ".join(args))
in_step = value("--warp-age-rank") == "block"
short = value("--warp-age-group") == "99"
samples = ["r0", "r256"] if short else ["r0", "r256", "r512"]
rows = [(0, 0, 0, 100, 200), (0, 1, 0, 100 if in_step else 150, 200), (1, 0, 0, 100, 200), (1, 1, 0, 100, 200)]
with open(value("--warp-progress"), "w") as f:
    f.write(",".join(["block", "warp", "sm", "slot", *samples, "end_round"]) + "\\n")
    for block, warp, *times in rows:
        f.write(",".join(str(x) for x in [block, warp, 0, 2 * block + warp, *times[:len(samples)], times[-1] + 1]) + "\\n")
print("{}")
"""
CHIP = [(0, 0, 0, 1280, 2560), (0, 1, 0, 1640, 2560), (1, 0, 0, 1280, 2560), (1, 1, 0, 2740, 5120),
        (2, 0, 0, 10, 2560), (2, 1, 0, 2000, 2560), (3, 0, 0, 1280, 2560)]
EXPECTED = [
    ["64", "16", "256", "linear", "64", "chip", "3", "128.0", "128.0", "0.33", "66.3", "0.0", "0.67", "0.50"],
    ["64", "16", "256", "linear", "64", "preset", "2", "32.0", "0.0", "0.00", "10.7", "0.0", "0.00", ""],
    ["64", "16", "256", "linear", "64", "rank", "2", "0.0", "0.0", "0.00", "0.0", "0.0", "0.00", ""],
]


def run(args, binary):
    return subprocess.run([sys.executable, SCRIPT, *args], capture_output=True, text=True,
                          env=dict(os.environ, CACHESIM_BIN=binary))


def main():
    failures = []
    with tempfile.TemporaryDirectory() as tmp:
        binary = os.path.join(tmp, "cachesim")
        write_stand_in(binary, STAND_IN)
        chip = os.path.join(tmp, "progress_64x16_d256_index32_linear_64.csv.gz")
        with gzip.open(chip, "wt") as f:
            f.write("launch,block,warp,sm,slot,t0,t128,t256\n")
            for block, warp, *times in CHIP:
                f.write(",".join(str(x) for x in [0, block, warp, 0, 2 * block + warp, *times]) + "\n")
        out = os.path.join(tmp, "gaps.csv")
        done = run(["--out", out, "--jobs", "2", "--model", "preset=", "--model", "rank=--warp-age-rank block", chip],
                   binary)
        if done.returncode != 0:
            failures.append(f"run failed: {done.stderr}")
        else:
            with open(out) as f:
                rows = list(csv.reader(f))
            if rows[0][:6] != ["width", "height", "depth", "schedule", "block_size", "source"]:
                failures.append(f"header {rows[0]}")
            if rows[1:] != EXPECTED:
                failures.append(f"rows {rows[1:]}, expected {EXPECTED}")

        refused = [
            (["--model", "chip=", chip], "chip"),
            ([os.path.join(tmp, "gaps_of_something.csv.gz")], "not a progress_"),
            (["--model", "short=--warp-age-group 99", chip], "last sample is not the end"),
        ]
        for args, message in refused:
            bad_out = os.path.join(tmp, "refused.csv")
            done = run(["--out", bad_out, *args], binary)
            if done.returncode == 0 or message not in done.stderr:
                failures.append(f"{args}: expected a refusal naming '{message}', got rc {done.returncode}: {done.stderr}")
            if os.path.exists(bad_out):
                failures.append(f"{args}: wrote {bad_out} though refused")
    for failure in failures:
        print("FAIL:", failure)
    return 1 if failures else 0


if __name__ == "__main__":
    sys.exit(main())
