#!/usr/bin/env python3
"""scripts/merge_profile_runs.py on files made up by hand: a launch's row takes the second run's
metrics (with their ranges) and keeps its own times and other metrics; launches differing only in
compilation stay apart; rows the second run lacks, and the row order, stay as they were. Refused
with exit 2, naming the problem, with the output left as it was: a column the base lacks, a launch
twice in one file, a launch the base lacks, a ragged row, an empty file, an output that is an input or a folder.
And every committed merged file (the H200's held-out and fresh matmuls, the H100's training and held-out
matmuls) is what the script makes from the committed runs."""
import csv
import filecmp
import os
import subprocess
import sys
import tempfile

ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
SCRIPT = os.path.join(ROOT, "scripts", "merge_profile_runs.py")
H200 = os.path.join(ROOT, "tests", "data", "h200")
H100 = os.path.join(ROOT, "tests", "data", "h100")

BASE = """kernel,width,schedule,block,gpu,time_ms,time_ms_min,repetitions,rel_error,variant,l1__hits.sum,l1__rate.pct,lts__rate.pct,l1__rate.pct:min,l1__rate.pct:max,lts__rate.pct:min,lts__rate.pct:max
matmul,1024,linear,128,H200,0.20,0.19,5,,index64,100,50.0,97.0,49.0,51.0,90.0,99.0
matmul,1024,linear,128,H200,0.25,0.24,5,,index32,90,40.0,96.0,39.0,41.0,91.0,98.0
matmul,1024,column:32,128,H200,0.30,0.29,5,,index64,180,88.0,95.0,87.5,88.5,94.0,96.0
"""
# the second run: two of the three launches (listed in another order), two rates with ranges
OVERRIDE = """kernel,width,schedule,block,gpu,time_ms,time_ms_min,repetitions,rel_error,variant,l1__rate.pct,lts__rate.pct,l1__rate.pct:min,l1__rate.pct:max,lts__rate.pct:min,lts__rate.pct:max
matmul,1024,column:32,128,H200,0.31,0.30,5,,index64,88.2,93.0,87.0,89.0,70.0,120.0
matmul,1024,linear,128,H200,0.26,0.25,5,,index32,41.5,99.5,38.0,42.0,95.0,101.0
"""


def write(path, text):
    with open(path, "w") as f:
        f.write(text)


def run(*args):
    return subprocess.run([sys.executable, SCRIPT, *args], capture_output=True, text=True)


def rows(path):
    with open(path, newline="") as f:
        return list(csv.DictReader(f))


def merged_by_hand():
    """BASE with OVERRIDE's rates put in by hand: the index32 naive and the column:32 rows."""
    expected = rows_of(BASE)
    expected[1].update({"l1__rate.pct": "41.5", "lts__rate.pct": "99.5", "l1__rate.pct:min": "38.0",
                        "l1__rate.pct:max": "42.0", "lts__rate.pct:min": "95.0", "lts__rate.pct:max": "101.0"})
    expected[2].update({"l1__rate.pct": "88.2", "lts__rate.pct": "93.0", "l1__rate.pct:min": "87.0",
                        "l1__rate.pct:max": "89.0", "lts__rate.pct:min": "70.0", "lts__rate.pct:max": "120.0"})
    return expected


def rows_of(text):
    return list(csv.DictReader(text.splitlines()))


def check_merge(tmp):
    base, override, out = (os.path.join(tmp, n) for n in ("base.csv", "override.csv", "out.csv"))
    write(base, BASE)
    write(override, OVERRIDE)
    got = run(base, override, "--out", out)
    assert got.returncode == 0, got.stderr
    assert "2 of" in got.stderr and "3 rows" in got.stderr and "6 metric columns" in got.stderr, got.stderr
    merged = rows(out)
    assert merged == merged_by_hand(), merged
    # the times stay the base's own (the second run's were another process's)
    assert [r["time_ms"] for r in merged] == ["0.20", "0.25", "0.30"]
    with open(out) as f:
        assert f.readline().rstrip("\n") == BASE.splitlines()[0]
    # an ordinary file, readable by others as the umask allows, not the temporary file's 0600
    umask = os.umask(0o022)
    os.umask(umask)
    assert (os.stat(out).st_mode & 0o777) == (0o666 & ~umask), oct(os.stat(out).st_mode)


def check_refused(tmp):
    base, override, out = (os.path.join(tmp, n) for n in ("base.csv", "override.csv", "out.csv"))
    lines = OVERRIDE.splitlines()
    base_lines = BASE.splitlines()
    cases = {
        "a column the base lacks": (BASE, OVERRIDE.replace("lts__rate.pct:max\n", "lts__rate.pct:max,dram__bytes.sum\n", 1)
                                    .replace(",70.0,120.0\n", ",70.0,120.0,5\n").replace(",95.0,101.0\n", ",95.0,101.0,6\n"),
                                    "dram__bytes.sum"),
        "a launch twice in the base": ("\n".join(base_lines + [base_lines[1]]) + "\n", OVERRIDE, "name the same launch"),
        "a launch twice in the override": (BASE, "\n".join(lines + [lines[1]]) + "\n", "name the same launch"),
        "a launch the base lacks": (BASE, OVERRIDE.replace("column:32", "column:64"), "has no such launch"),
        "a ragged row": (BASE, OVERRIDE.replace(",70.0,120.0", ",70.0"), "fewer fields"),
        "a row too long": (BASE.replace(",94.0,96.0", ",94.0,96.0,1"), OVERRIDE, "more fields"),
        "an empty override": (BASE, lines[0] + "\n", "has no rows"),
        "no metrics to merge": (BASE, "kernel,width,schedule,block,gpu,variant\nmatmul,1024,linear,128,H200,index64\n",
                                "no metric columns"),
    }
    for name, (base_text, override_text, message) in cases.items():
        write(base, base_text)
        write(override, override_text)
        write(out, "left alone\n")
        got = run(base, override, "--out", out)
        assert got.returncode == 2, (name, got.returncode, got.stderr)
        assert message in got.stderr, (name, got.stderr)
        with open(out) as f:
            assert f.read() == "left alone\n", name
    write(base, BASE)
    write(override, OVERRIDE)
    got = run(base, override, "--out", base)
    assert got.returncode == 2 and "one of the inputs" in got.stderr, got.stderr
    with open(base) as f:
        assert f.read() == BASE
    got = run(base, override, "--out", tmp)
    assert got.returncode == 2 and "is a folder" in got.stderr, got.stderr
    got = run(os.path.join(tmp, "missing.csv"), override, "--out", out)
    assert got.returncode == 2 and "cannot read" in got.stderr, got.stderr
    assert not [n for n in os.listdir(tmp) if n.startswith(".merge_profile_runs.")], os.listdir(tmp)


# each committed 21-launch set: (its chip's folder, the file measured over fewer launches, the
# 21-launch rates, the merge)
COMMITTED = [(H200, "heldout_matmul.csv", "heldout_matmul_rates21.csv", "heldout21_matmul.csv"),
             (H200, "fresh_matmul.csv", "fresh_matmul_rates21.csv", "fresh-21_matmul.csv"),
             (H200, "fresh2_matmul.csv", "fresh2_matmul_rates21.csv", "fresh2-21_matmul.csv"),
             (H200, "fresh3_matmul.csv", "fresh3_matmul_rates21.csv", "fresh3-21_matmul.csv"),
             (H200, "fresh4_matmul.csv", "fresh4_matmul_rates21.csv", "fresh4-21_matmul.csv"),
             (H100, "training_matmul.csv", "training_matmul_rates21.csv", "training21_matmul.csv"),
             (H100, "heldout_matmul.csv", "heldout_matmul_rates21.csv", "heldout21_matmul.csv"),
             (os.path.join(H100, "naive32"), "naive32_matmul.csv", "naive32_matmul_rates21.csv", "naive32-21_matmul.csv")]


def check_committed(tmp):
    for folder, base, override, merged in COMMITTED:
        out = os.path.join(tmp, merged)
        got = run(os.path.join(folder, base), os.path.join(folder, override), "--out", out)
        assert got.returncode == 0, got.stderr
        assert filecmp.cmp(out, os.path.join(folder, merged), shallow=False), \
            "{} is not what scripts/merge_profile_runs.py makes".format(os.path.relpath(os.path.join(folder, merged), ROOT))


def main():
    with tempfile.TemporaryDirectory() as tmp:
        check_merge(tmp)
        check_refused(tmp)
        check_committed(tmp)
    print("merge_profile_runs: ok")


if __name__ == "__main__":
    main()
