#!/usr/bin/env python3
"""scripts/smem_probe_report.sh with a stand-in for cachesim that logs its arguments and writes the
CSV it is asked for. Each probe is compared once per model and per shared memory its measured file
holds (the values read off the file's smem_per_block column, not off the script), with the
model's --gpu options, into DIR/MODEL_PROBE_SMEM.{csv,txt}. The eight-blocks file has a row whose
L2 counters contradict each other, so its runs leave such rows out (--skip-invalid-rows) where
every other probe's runs refuse them. Refused with exit 2 and nothing run: an unknown probe or
model; a failed run gives exit 1."""
import csv
import os
import tempfile

from stand_in import assert_refused, logging_runner

ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
SCRIPT = os.path.join(ROOT, "scripts", "smem_probe_report.sh")
SMEM = os.path.join(ROOT, "tests", "data", "h200", "smem")

PROBES = {"smem_waves": "smem_waves_matmul.csv", "eight_blocks": "eight_blocks_matmul.csv"}
# the models' meaning in the script's help: lock step is no rate spread and no block start skip,
# and every model but the preset places the first wave by the slot cycle
MODELS = {"preset": [], "lockstep": ["cta-order=floorplan", "warp-rate-spread=0", "block-start-skip=0"]}


def file_smems(name):
    with open(os.path.join(SMEM, name), newline="") as f:
        return sorted({row["smem_per_block"] for row in csv.DictReader(f)}, key=int)


def has_contradicting_l2(name):
    with open(os.path.join(SMEM, name), newline="") as f:
        return any(float(r["lts__t_sectors_srcunit_tex_op_read_lookup_hit.sum"]) >
                   1.1 * float(r["lts__t_sectors_srcunit_tex_op_read.sum"]) for r in csv.DictReader(f))


def main():
    assert has_contradicting_l2("eight_blocks_matmul.csv")
    assert not has_contradicting_l2("smem_waves_matmul.csv")
    with tempfile.TemporaryDirectory() as tmp:
        run = logging_runner(tmp, SCRIPT, ROOT)

        out = os.path.join(tmp, "out")
        got, logged = run("--out", out, "--jobs", "1", "--model", "preset", "--model", "lockstep",
                          "smem_waves", "eight_blocks")
        assert got.returncode == 0, got.stderr
        expected = sorted("{}_{}_{}".format(model, probe, smem) for probe, name in PROBES.items()
                          for smem in file_smems(name) for model in MODELS)
        assert len(expected) == 6, expected
        names = []
        for args in logged:
            name = os.path.basename(args[args.index("--out") + 1])[:-len(".csv")]
            names.append(name)
            model = next(m for m in MODELS if name.startswith(m + "_"))
            probe = next(p for p in PROBES if name[len(model) + 1:].startswith(p + "_"))
            smem = name.rsplit("_", 1)[1]
            assert args[args.index("--measured") + 1] == "tests/data/h200/smem/" + PROBES[probe], args
            assert args[args.index("--where") + 1] == "smem_per_block=" + smem, args
            gpu = [args[i + 1] for i, a in enumerate(args) if a == "--gpu"]
            assert gpu == MODELS[model], (name, gpu)
            assert ("--skip-invalid-rows" in args) == (probe == "eight_blocks"), (name, args)
            assert os.path.exists(os.path.join(out, name + ".txt")), name
        assert sorted(names) == expected, (names, expected)

        got, logged = run("--out", os.path.join(tmp, "failed"), "--model", "preset", "eight_blocks", fail=True)
        assert got.returncode == 1 and len(logged) == 1, (got.returncode, logged)

        assert_refused(run, [(["--out", out, "eight"], "unknown option or probe eight"),
                             (["--out", out, "--model", "lock", "eight_blocks"], "unknown model lock")])
    print("smem_probe_report.sh: one run per model and measured shared memory; the eight-blocks file's "
          "contradicting row left out, every other probe's refused; unknown probes and models refused")


if __name__ == "__main__":
    main()
