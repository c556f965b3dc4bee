#!/usr/bin/env python3
"""scripts/block_starts_report.py on a placement made up by hand: 2 SMs (a TPC), blocks of 1024
threads (2 resident, so blocks 0-3 are the first wave) and 4 later blocks 4-7 on SMs 0, 1, 1, 0
starting at 100, 150, 250, 260 ns and running 1,000, 900, 1,200 and 1,000 ns (sorted 900, 1,000,
1,000, 1,200: 900 at q = 0.1, 1,000 at 0.5, 1,200 at 0.9). The gaps of the consecutive later
pairs (4,5), (5,6), (6,7) are 50, 100 and 10 ns: sorted 10, 50, 100, so the quantile at floor(q n)
is 10 for q = 0.25, 50 for 0.5 and 100 for 0.75 and 0.9; one of the three pairs is on one SM
(5, 6), all three on one TPC; 4 later blocks over 160 ns are 25.0 a microsecond; a uniform start
delay with a median gap of 50 ns is 50 / (1 - 1/sqrt 2) = 170.7 ns wide. A launch without later
blocks is left out with a message; a file with none at all, a missing file, a file without the
placement columns and a start that is not a number are errors naming the file, with no output."""
import csv
import os
import subprocess
import sys
import tempfile

ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
SCRIPT = os.path.join(ROOT, "scripts", "block_starts_report.py")
HEADER = "kernel,width,height,stencil_w,stencil_h,depth,schedule,block_size,launch,block,sm,start_ns,end_ns\n"


def line(launch, block, sm, start, run=1000):
    return "stencil,64,64,3,3,0,linear,1024,{},{},{},{},{}\n".format(launch, block, sm, start, start + run)


def main():
    with tempfile.TemporaryDirectory() as tmp:
        placement = os.path.join(tmp, "p.csv")
        with open(placement, "w") as f:
            f.write(HEADER)
            for b, sm in enumerate((0, 1, 0, 1)):
                f.write(line(0, b, sm, 0))
            for b, sm, start, run in ((4, 0, 100, 1000), (5, 1, 150, 900), (6, 1, 250, 1200), (7, 0, 260, 1000)):
                f.write(line(0, b, sm, start, run))
            for b, sm in enumerate((0, 1, 0, 1)):  # launch 1: one wave only
                f.write(line(1, b, sm, 0))
        out = os.path.join(tmp, "s.csv")
        got = subprocess.run([sys.executable, SCRIPT, placement, "--out", out], capture_output=True, text=True)
        assert got.returncode == 0, got.stderr
        assert "no block after its first wave" in got.stderr, got.stderr
        with open(out) as f:
            rows = list(csv.DictReader(f))
        assert len(rows) == 1, rows
        r = rows[0]
        expected = {"launch": "0", "blocks": "8", "sms": "2", "first_wave": "4", "later_blocks_per_us": "25.0",
                    "gap_p25": "10", "gap_p50": "50", "gap_p75": "100", "gap_p90": "100", "same_sm": "0.333",
                    "same_tpc": "1.000", "run_p10": "900", "run_p50": "1000", "run_p90": "1200",
                    "uniform_ns": "171"}
        for k, v in expected.items():
            assert r[k] == v, (k, r[k], v)

        only_one_wave = os.path.join(tmp, "q.csv")
        with open(only_one_wave, "w") as f:
            f.write(HEADER + line(0, 0, 0, 0) + line(0, 1, 1, 0))
        got = subprocess.run([sys.executable, SCRIPT, only_one_wave, "--out", os.path.join(tmp, "t.csv")],
                             capture_output=True, text=True)
        assert got.returncode != 0 and "no launch with blocks after its first wave" in got.stderr, got.stderr
        assert not os.path.exists(os.path.join(tmp, "t.csv"))

        no_columns = os.path.join(tmp, "r.csv")
        with open(no_columns, "w") as f:
            f.write("kernel,block,sm\nstencil,0,0\n")
        bad_start = os.path.join(tmp, "b.csv")
        with open(bad_start, "w") as f:
            f.write(HEADER + line(0, 0, 0, 0).replace(",0,1000\n", ",x,1000\n"))
        for path, message in ((os.path.join(tmp, "absent.csv"), "absent.csv"),
                              (no_columns, "no column width"), (bad_start, "b.csv:2: block, sm, start_ns")):
            got = subprocess.run([sys.executable, SCRIPT, path, "--out", os.path.join(tmp, "u.csv")],
                                 capture_output=True, text=True)
            assert got.returncode == 2 and message in got.stderr and "Traceback" not in got.stderr, got.stderr
            assert not os.path.exists(os.path.join(tmp, "u.csv"))
    print("block_starts_report: all checks passed")


if __name__ == "__main__":
    main()
