#!/usr/bin/env python3
"""The H100's recorded first waves against the model's measured dispatch: every block of the first
wave of the eight 32-bit naive-order probes that gpubench --warp-ends recorded on an H100
(tests/data/h100/naive32/naive32_ends_<size>.csv.gz, launch 0) is on the SM where
`cachesim simulate --preset h100 --cta-order floorplan-turns` puts it, from exactly one of the
eight starting rows (--seed 0..7; the chip starts where earlier launches left its scheduler). The
first wave is the blocks below 132 times the blocks an SM holds, min(32, 2048 / block) (the
threads an SM holds, and its block limit). The slot cycle alone (--cta-order floorplan, the
presets') gives none of them whole."""
import csv
import glob
import gzip
import os
import subprocess
import sys
import tempfile

ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
ENDS = sorted(glob.glob(os.path.join(ROOT, "tests", "data", "h100", "naive32", "naive32_ends_*.csv.gz")))
SMS = 132


def chip_first_wave(path):
    with gzip.open(path, "rt") as f:
        rows = [r for r in csv.DictReader(f) if r["launch"] == "0"]
    block = int(rows[0]["block_size"])
    wave = SMS * min(32, 2048 // block)
    sm_of = {int(r["block"]): int(r["sm"]) for r in rows}
    launch = (f"{rows[0]['width']}x{rows[0]['height']}", rows[0]["depth"], block)
    return launch, [sm_of[b] for b in range(wave)]


def model_first_wave(binary, launch, wave, order, seed, tmp):
    size, _, block = launch
    out = os.path.join(tmp, "ends.csv")
    cmd = [binary, "simulate", "--model", "gpu", "--preset", "h100", "--workload", "matmul", "--size", size,
           "--depth", "8", "--block", str(block), "--schedule", "linear", "--compilation", "index32",
           "--cta-order", order, "--seed", str(seed), "--threads", "1", "--warp-ends", out]
    done = subprocess.run(cmd, capture_output=True, text=True)
    assert done.returncode == 0, (cmd, done.stderr)
    with open(out) as f:
        sm_of = {int(r["block"]): int(r["sm"]) for r in csv.DictReader(f)}
    return [sm_of.get(b) for b in range(wave)]


def main():
    binary = os.environ.get("CACHESIM_BIN", os.path.join(ROOT, "build", "apps", "cachesim", "cachesim"))
    assert len(ENDS) == 8, ENDS
    with tempfile.TemporaryDirectory() as tmp:
        for path in ENDS:
            launch, recorded = chip_first_wave(path)
            rows = [seed for seed in range(8)
                    if model_first_wave(binary, launch, len(recorded), "floorplan-turns", seed, tmp) == recorded]
            assert len(rows) == 1, (path, rows)
            cycle = model_first_wave(binary, launch, len(recorded), "floorplan", 1, tmp)
            assert cycle != recorded, path
            print(f"{os.path.basename(path)}: {len(recorded)} blocks, row {rows[0]}")
    print("first_wave_h100: ok")


if __name__ == "__main__":
    sys.exit(main())
