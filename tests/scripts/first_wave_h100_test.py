#!/usr/bin/env python3
"""The H100's recorded first waves against the model's measured dispatch: every block of the first
wave of the eight 32-bit naive-order probes that gpubench --warp-ends recorded on an H100
(tests/data/h100/naive32/naive32_ends_<size>.csv.gz, launch 0) is on the SM where
`cachesim simulate --preset h100 --cta-order floorplan-turns` puts it, from exactly one of the
eight starting rows (--seed 0..7; the chip starts where earlier launches left its scheduler). The
first wave is the blocks below 132 times the blocks an SM holds, min(32, 2048 / block) (the
threads an SM holds, and its block limit). The slot cycle alone (--cta-order floorplan)
gives none of them whole. The reading, the simulation and the row search are
scripts/sharer_ends_report.py's, which places its models so."""
import glob
import os
import sys

ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
sys.path.insert(0, os.path.join(ROOT, "scripts"))
ENDS = sorted(glob.glob(os.path.join(ROOT, "tests", "data", "h100", "naive32", "naive32_ends_*.csv.gz")))

from sharer_ends_report import chip_row, first_wave, read_launch, simulate  # noqa: E402


def main():
    binary = os.environ.get("CACHESIM_BIN", os.path.join(ROOT, "build", "apps", "cachesim", "cachesim"))
    assert len(ENDS) == 8, ENDS
    for path in ENDS:
        launch, chip = read_launch(path)
        wave = first_wave(launch)
        recorded = [chip[b][0] for b in range(wave)]  # every first-wave block was recorded
        row = chip_row(binary, "h100", launch, chip)  # the one row that places it, else None
        assert row is not None, path
        cycle = simulate(binary, "h100", launch, "--cta-order floorplan", 1, depth=8)[0]
        assert [cycle.get(b, (None,))[0] for b in range(wave)] != recorded, path
        print(f"{os.path.basename(path)}: {wave} blocks, row {row}")
    print("first_wave_h100: ok")


if __name__ == "__main__":
    sys.exit(main())
