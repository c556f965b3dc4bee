#!/usr/bin/env python3
"""scripts/warp_age_measure.py on a launch made up by hand: every SM holds 5 blocks of 128 threads
(4 warps each), the 3 oldest end together at T_g = 1000 ns, and the two younger ones left behind
at paces 0.8 and 0.64 = 0.8^2 of the group's, so they end at (2 - p) T_g = 1200 and 1360 ns. The
script must find the group of 3, those paces, and W = 0.8, on a chip of 132 SMs and on one of
48; and refuse a launch that is not one full wave of the SMs given, and an SM count of 0, without
writing its output."""
import csv
import os
import subprocess
import sys
import tempfile

ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
SCRIPT = os.path.join(ROOT, "scripts", "warp_age_measure.py")
HEADER = "kernel,width,height,stencil_w,stencil_h,depth,schedule,block_size,launch,block,warp,sm,slot,end_ns\n"


def write_launch(path, sms):
    ends = [1000, 1000, 1000, 1200, 1360]  # oldest block first
    with open(path, "w") as f:
        f.write(HEADER)
        for sm in range(sms):
            for j, end in enumerate(ends):
                block = j * sms + sm  # the lower index is dispatched first
                for warp in range(4):
                    # the block ends with its last warp; the others a little earlier
                    f.write(f"matmul,128,{5 * sms},0,0,64,linear,128,0,{block},{warp},{sm},{j * 4 + warp},"
                            f"{end - (3 - warp)}\n")


def main():
    failures = []
    with tempfile.TemporaryDirectory() as tmp:
        ends, out = os.path.join(tmp, "ends.csv"), os.path.join(tmp, "out.csv")
        for sms in (132, 48):
            write_launch(ends, sms)
            done = subprocess.run([sys.executable, SCRIPT, "--sms", str(sms), "--chip", ends,
                                   "--launch", f"128x{5 * sms}", "--out", out], capture_output=True, text=True)
            if done.returncode != 0:
                print(done.stderr)
                return 1
            rows = {r["launch"]: r for r in csv.DictReader(open(out))}
            launch, summary = rows[f"128x{5 * sms}#0"], rows["all"]
            checks = [(launch["group"], "3.0"), (launch["stragglers"], str(2 * sms)), (launch["sms"], str(sms)),
                      (summary["group"], "3.0"), (summary["weight"], "0.800")]
            # the stamps lie up to 3 ns before the block's end, so the paces are exact to 3 decimals
            checks += [(launch["pace_1"], "0.800"), (launch["pace_2"], "0.640")]
            failures += [f"{sms} SMs: got {got}, expected {want}" for got, want in checks if got != want]

        write_launch(ends, 131)  # one SM short of a full wave
        bad = os.path.join(tmp, "bad.csv")
        done = subprocess.run([sys.executable, SCRIPT, "--sms", "132", "--chip", ends, "--launch", "128x655",
                               "--out", bad], capture_output=True, text=True)
        if done.returncode != 2 or "not one full wave" not in done.stderr or os.path.exists(bad):
            failures.append(f"a partial wave: exit {done.returncode}, {done.stderr.strip()!r}")

        done = subprocess.run([sys.executable, SCRIPT, "--sms", "0", "--chip", ends, "--launch", "128x655",
                               "--out", bad], capture_output=True, text=True)
        if done.returncode != 2 or "--sms 0" not in done.stderr or os.path.exists(bad):
            failures.append(f"--sms 0: exit {done.returncode}, {done.stderr.strip()!r}")
    for f in failures:
        print("warp_age_measure_test:", f)
    return 1 if failures else 0


if __name__ == "__main__":
    sys.exit(main())
