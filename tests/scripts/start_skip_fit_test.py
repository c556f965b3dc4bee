#!/usr/bin/env python3
"""scripts/start_skip_fit.sh --by-row with a stand-in for cachesim that writes, for the row it is
asked for, a CSV of one header and one line naming the pair, the fit file and the row. The merged
files must hold the 27 training rows and the first 10 probe rows of the committed fit files, in
file order under one header, one file a pair and fit file; a row that fails must fail the script
and leave the files of an earlier run as they were; a pair that is not SKIP:SPREAD is refused."""
import csv
import os
import subprocess
import tempfile

from stand_in import write_stand_in

ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
SCRIPT = os.path.join(ROOT, "scripts", "start_skip_fit.sh")
TRAIN_ROWS = sum(1 for _ in csv.DictReader(open(os.path.join(ROOT, "tests/data/h200/fidelity_matmul_spread21.csv"))))

FAKE = """#!/usr/bin/env python3
import os, sys
args = sys.argv[1:]
value = lambda flag: args[args.index(flag) + 1]
gpu = [args[i + 1] for i, a in enumerate(args) if a == "--gpu"]
skip = [g.split("=")[1] for g in gpu if g.startswith("block-start-skip=")][0]
spread = [g.split("=")[1] for g in gpu if g.startswith("warp-rate-spread=")][0]
fit = value("--measured").split("=")[0]
row = value("--rows")
if os.environ.get("FAIL_ROW") == fit + row:
    sys.exit("made-up failure")
with open(value("--out"), "w") as f:
    f.write("skip,spread,set,row\\n{},{},{},{}\\n".format(skip, spread, fit, row))
"""


def run(out, fake, *args, fail_row=""):
    env = dict(os.environ, CACHESIM_BIN=fake, FAIL_ROW=fail_row)
    return subprocess.run([SCRIPT, "--by-row", "--jobs", "3", "--out", out, *args], capture_output=True, text=True,
                          env=env)


def main():
    with tempfile.TemporaryDirectory() as tmp:
        fake = os.path.join(tmp, "cachesim")
        write_stand_in(fake, FAKE)
        out = os.path.join(tmp, "fit")

        got = run(out, fake, "8:0.15", "1:0.3")
        assert got.returncode == 0, got.stderr
        assert sorted(os.listdir(out)) == ["probe_s1_0.3.csv", "probe_s8_0.15.csv", "train_s1_0.3.csv",
                                           "train_s8_0.15.csv"], os.listdir(out)
        for name, fit, rows in [("train_s8_0.15.csv", "training", TRAIN_ROWS), ("probe_s1_0.3.csv", "probe", 10)]:
            with open(os.path.join(out, name)) as f:
                lines = f.read().splitlines()
            skip, spread = name[:-4].split("_s")[1].split("_")
            assert lines[0] == "skip,spread,set,row", lines[0]
            assert lines[1:] == ["{},{},{},{}".format(skip, spread, fit, r) for r in range(1, rows + 1)], lines

        with open(os.path.join(out, "train_s8_0.15.csv")) as f:
            before = f.read()
        got = run(out, fake, "8:0.15", fail_row="training5")
        assert got.returncode != 0, "a failed row must fail the script"
        assert "skip 8 spread 0.15 train row 5 failed" in got.stderr, got.stderr
        with open(os.path.join(out, "train_s8_0.15.csv")) as f:
            assert f.read() == before, "a failed run must leave the earlier files as they were"
        assert not [n for n in os.listdir(out) if n.endswith(".new")], os.listdir(out)

        got = run(out, fake, "8")
        assert got.returncode == 2 and "'8' is not a pair SKIP:SPREAD" in got.stderr, got.stderr
    print("start_skip_fit.sh --by-row: rows merged in order, failures fail, bad pairs refused")


if __name__ == "__main__":
    main()
