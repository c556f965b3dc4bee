#!/usr/bin/env python3
"""scripts/probe_sets_report.sh with a stand-in for cachesim that logs its arguments and writes the
CSV it is asked for. Each probe is compared with the measured files named as the presets' own
report of that probe names them (the names below are read off those reports' first rows, not off
the script), with every --gpu option, into DIR/PROBE.{csv,txt}; a report is renamed into place
only when its run succeeded. Refused with exit 2 and nothing run: no --out, no --gpu (the presets'
reports are the probes' own), an unknown probe."""
import csv
import os
import tempfile

from stand_in import assert_refused, logging_runner

ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
SCRIPT = os.path.join(ROOT, "scripts", "probe_sets_report.sh")
H200 = os.path.join(ROOT, "tests", "data", "h200")

# probe: the presets' joined CSV of it, whose `set` column names the measured files
PRESETS = {
    "compilation": "drift_probe/compare/preset.csv",
    "depth": "depth_probe/compare/preset.csv",
    "warm": "warm_l2/compare/preset.csv",
    "waves": "waves/waves_probe_compare.csv",
    "waves_unroll1": "waves/waves_probe_unroll1_compare.csv",
    "strip": "waves/waves_strip_compare.csv",
    "strip_blocks": "waves/waves_strip_blocks_compare.csv",
    "examples": "examples_compare.csv",
}


def presets_sets(probe):
    with open(os.path.join(H200, PRESETS[probe]), newline="") as f:
        return sorted({row.get("set", "") for row in csv.DictReader(f)})


def main():
    with tempfile.TemporaryDirectory() as tmp:
        run = logging_runner(tmp, SCRIPT, ROOT)

        out = os.path.join(tmp, "out")
        got, logged = run("--gpu", "warp-rate-scope=block", "--gpu", "block-start-skip=4", "--out", out)
        assert got.returncode == 0, got.stderr
        assert len(logged) == len(PRESETS), logged
        for args in logged:
            name = os.path.basename(args[args.index("--out") + 1])[:-len(".csv")]
            assert name in PRESETS, name
            measured = [args[i + 1] for i, a in enumerate(args) if a == "--measured"]
            # "NAME=FILE" gives its rows the set NAME; a bare FILE its name without .csv
            sets = sorted(m.split("=", 1)[0] if "=" in m else os.path.basename(m)[:-len(".csv")] for m in measured)
            assert sets == presets_sets(name), (name, sets, presets_sets(name))
            for m in measured:
                assert os.path.exists(os.path.join(ROOT, m.split("=", 1)[-1])), m
            assert args[args.index("--preset") + 1] == "h200", args
            gpu = [args[i + 1] for i, a in enumerate(args) if a == "--gpu"]
            assert gpu == ["warp-rate-scope=block", "block-start-skip=4"], gpu
            assert os.path.exists(os.path.join(out, name + ".txt")), name
        assert sorted(os.listdir(out)) == sorted(p + e for p in PRESETS for e in (".csv", ".txt"))

        # a run that fails leaves no report in place
        failed = os.path.join(tmp, "failed")
        got, logged = run("--gpu", "timing=cycles", "--out", failed, "depth", fail=True)
        assert got.returncode != 0 and len(logged) == 1, (got.returncode, logged)
        assert not os.path.exists(os.path.join(failed, "depth.txt"))

        assert_refused(run, [(["--gpu", "timing=cycles"], "give --out DIR"),
                             (["--out", out], "at least one --gpu"),
                             (["--gpu", "timing=cycles", "--out", out, "smem"], "unknown probe smem")])
    print("probe_sets_report.sh: each probe's measured files named as the presets' reports name them; "
          "failures and missing options refused")


if __name__ == "__main__":
    main()
