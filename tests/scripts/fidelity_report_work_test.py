#!/usr/bin/env python3
"""scripts/fidelity_report.sh --by-row --work DIR with a stand-in for cachesim that writes, for the
row it is asked for, a CSV of one header and one line naming the GPU, the measured file and the
row, and logs each call. A first run simulates every row (the first 2 of two files); the same
command again simulates none and writes the same files; a row stopped part way (its report still
.txt.part) runs again alone; a row that fails fails the script and names the row. Refused, with
exit 2 and the folder left as it was: a folder another run holds; a folder whose rows were run with
other --gpu options, another --head or another binary; --work without --by-row; --head or --gpu
writing into tests/data."""
import fcntl
import os
import shutil
import subprocess
import tempfile

from stand_in import write_stand_in

ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
SCRIPT = os.path.join(ROOT, "scripts", "fidelity_report.sh")
PARTS = ["h200:training:stencil", "h100:heldout:matmul"]

FAKE = """#!/usr/bin/env python3
import os, sys
args = sys.argv[1:]
value = lambda flag: args[args.index(flag) + 1]
gpu, measured, row = value("--preset"), value("--measured"), value("--rows")
with open(os.environ["CALLS"], "a") as f:
    f.write("{} {} {}\\n".format(gpu, measured, row))
if os.environ.get("FAIL_ROW") == gpu + row:
    sys.exit("made-up failure")
with open(value("--out"), "w") as f:
    f.write("gpu,measured,row\\n{},{},{}\\n".format(gpu, measured, row))
print("report of {} row {}".format(gpu, row))
"""


def write_fake(path, extra=""):
    write_stand_in(path, FAKE + extra)


class Runner:
    def __init__(self, tmp):
        self.calls = os.path.join(tmp, "calls")
        self.fake = os.path.join(tmp, "cachesim")
        write_fake(self.fake)

    def __call__(self, *args, fake=None, fail_row=""):
        open(self.calls, "w").close()
        env = dict(os.environ, CACHESIM_BIN=fake or self.fake, CALLS=self.calls, FAIL_ROW=fail_row)
        got = subprocess.run([SCRIPT, *args], capture_output=True, text=True, env=env, cwd=ROOT)
        with open(self.calls) as f:
            return got, sorted(f.read().splitlines())


def snapshot(folder):
    files = {}
    for root, _, names in os.walk(folder):
        for name in names:
            path = os.path.join(root, name)
            with open(path) as f:
                files[os.path.relpath(path, folder)] = f.read()
    return files


def main():
    with tempfile.TemporaryDirectory() as tmp:
        run = Runner(tmp)
        work, out = os.path.join(tmp, "work"), os.path.join(tmp, "out")
        common = ["--by-row", "--jobs", "2", "--head", "2", "--work", work, "--out", out]

        got, calls = run(*common, *PARTS)
        assert got.returncode == 0, got.stderr
        training = "training=tests/data/h200/fidelity_stencil_spread.csv"
        heldout = "tests/data/h100/heldout_matmul.csv"
        assert calls == sorted(["h200 {} {}".format(training, r) for r in (1, 2)] +
                               ["h100 {} {}".format(heldout, r) for r in (1, 2)]), calls
        merged = os.path.join(out, "h200", "fidelity_report_training_stencil.csv")
        with open(merged) as f:
            assert f.read() == "gpu,measured,row\nh200,{0},1\nh200,{0},2\n".format(training)
        with open(os.path.join(out, "h100", "fidelity_report_heldout_matmul.txt")) as f:
            text = f.read()
        assert "report of h100 row 1" in text and "report of h100 row 2" in text, text
        first = snapshot(out)

        # the same command again: every row is in the folder, so nothing runs and nothing changes
        got, calls = run(*common, *PARTS)
        assert got.returncode == 0 and calls == [], (got.stderr, calls)
        assert snapshot(out) == first

        # a row stopped part way runs again, alone
        stem = os.path.join(work, "h100_heldout_matmul_2")
        os.rename(stem + ".txt", stem + ".txt.part")
        got, calls = run(*common, *PARTS)
        assert got.returncode == 0 and calls == ["h100 {} 2".format(heldout)], (got.stderr, calls)
        assert snapshot(out) == first

        # a row that fails fails the script, names the row and stays to be run again
        os.remove(stem + ".txt")
        got, calls = run(*common, *PARTS, fail_row="h1002")
        assert got.returncode != 0, "a failed row must fail the script"
        assert "h100 heldout matmul row 2 failed" in got.stderr and "made-up failure" in got.stderr, got.stderr
        assert not os.path.exists(stem + ".txt")
        got, calls = run(*common, *PARTS)
        assert got.returncode == 0 and calls == ["h100 {} 2".format(heldout)], (got.stderr, calls)

        # a folder another run holds is refused and left as it was
        kept = snapshot(work)
        with open(os.path.join(work, "lock"), "w") as lock:
            fcntl.flock(lock, fcntl.LOCK_EX)  # as the other run's shell holds it
            got, calls = run(*common, *PARTS)
        assert got.returncode == 2 and calls == [], (got.returncode, calls)
        assert "is in use by another fidelity_report run" in got.stderr, got.stderr
        assert snapshot(work) == kept

        # a folder of rows run otherwise is refused and left as it was
        kept = snapshot(work)
        other = os.path.join(tmp, "other", "cachesim")
        os.makedirs(os.path.dirname(other))
        write_fake(other, "# another build\n")
        for args, fake in [([*common, "--gpu", "timing=cycles", *PARTS], None),
                           ([*common[:3], "3", *common[4:], *PARTS], None),
                           ([*common, *PARTS], other)]:
            got, calls = run(*args, fake=fake)
            assert got.returncode == 2 and calls == [], (args, got.returncode, calls)
            assert "holds rows run with other options or another binary" in got.stderr, got.stderr
            assert snapshot(work) == kept, args

        # options that do not go together
        for args, message in [(["--work", work, "--out", out, *PARTS], "give --by-row too"),
                              (["--by-row", "--head", "2", *PARTS], "give --out DIR"),
                              (["--by-row", "--gpu", "timing=cycles", *PARTS], "give --out DIR")]:
            got, calls = run(*args)
            assert got.returncode == 2 and message in got.stderr and calls == [], (args, got.stderr)
        shutil.rmtree(work)
    print("fidelity_report.sh --work: rows resumed, failures named, a folder in use, other options and binaries refused")


if __name__ == "__main__":
    main()
