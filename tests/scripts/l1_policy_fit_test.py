#!/usr/bin/env python3
"""scripts/l1_policy_fit.py on a probe made up by hand, two programs of the largest carve-out:
lines 0..4095 in address order, which no LRU cache of 2,048 lines keeps when its index spreads
them evenly (8 lines a set of 4 ways, read in a cycle: pass 4 hits none), and 1,024 lines 32 apart,
which all stay where the index spreads them (2 a set) and none stay with `line mod 512` (lines
32 apart fall in 16 of the 512 sets, 64 lines a set of 4 ways). With the chip hitting 0.0 and 1.0
there, the 512 x 4 geometry's power-of-two error is 0 with the fold index and (0 + 1) / 2 = 0.5
with mod. A file that is not a probe's CSV is refused, naming it, without writing the output."""
import csv
import os
import subprocess
import sys
import tempfile

ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
SCRIPT = os.path.join(ROOT, "scripts", "l1_policy_fit.py")


def main():
    failures = []
    with tempfile.TemporaryDirectory() as tmp:
        probe, out = os.path.join(tmp, "probe.csv"), os.path.join(tmp, "fit.csv")
        with open(probe, "w") as f:
            f.write("carveout,program,size,half,phase,visits,hits,median_cycles\n")
            f.write("max_l1,cyclic_seq,4096,,pass4,4096,0,300\n")
            f.write("max_l1,cyclic_stride32,1024,,pass4,1024,1024,64\n")
        done = subprocess.run([sys.executable, SCRIPT, "--probe", probe, "--out", out], capture_output=True, text=True)
        if done.returncode != 0:
            failures.append("exit {}: {}".format(done.returncode, done.stderr))
        else:
            rows = {(r["sets"], r["ways"], r["index"]): r for r in csv.DictReader(open(out))}
            for index, want in (("fold", 0.0), ("mod", 0.5)):
                got = float(rows[("512", "4", index)]["power_of_two"])
                if abs(got - want) > 1e-9:
                    failures.append("512 x 4 {}: power-of-two error {} (want {})".format(index, got, want))
        bad, bad_out = os.path.join(tmp, "bad.csv"), os.path.join(tmp, "bad_out.csv")
        with open(bad, "w") as f:
            f.write("a,b\n1,2\n")
        done = subprocess.run([sys.executable, SCRIPT, "--probe", bad, "--out", bad_out], capture_output=True, text=True)
        if done.returncode != 2 or "bad.csv" not in done.stderr or os.path.exists(bad_out):
            failures.append("a file that is not a probe's CSV: exit {}, {!r}".format(done.returncode, done.stderr))
    for f in failures:
        print("FAIL: " + f)
    sys.exit(1 if failures else 0)


if __name__ == "__main__":
    main()
