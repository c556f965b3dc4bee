#!/usr/bin/env python3
"""scripts/predict_set.sh with a stand-in for cachesim that logs each call and writes a row per
schedule of the launch it was asked for. The third fresh set's calls are the launches its README
entry lists (written out here by hand), and the configurations they give are those of the
committed predictions; a matmul that gpubench runs at its default depth (the output's width) is
predicted at that depth; --hit-sources asks each sweep for the L1 hits' sources and adds their
share from other blocks (300 of 400 sectors hit, 60 from other blocks: 15 points); --gpu KEY=VALUE
passes --KEY=VALUE to every sweep, beside the hit sources; an unknown set, a missing binary or a
--gpu without KEY=VALUE is refused with exit 2 and writes nothing."""
import csv
import os
import subprocess
import tempfile

from stand_in import write_stand_in

ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
SCRIPT = os.path.join(ROOT, "scripts", "predict_set.sh")
COMMITTED = os.path.join(ROOT, "tests", "data", "h200", "fresh3_predicted.csv")
SCHEDULES = "linear,column:8,column:16,column:32,column:64,column:128,zigzag:32,tiled:32x32,morton"
CONFIG = ["workload", "width", "height", "stencil_w", "stencil_h", "depth", "block", "compilation", "schedule"]

STAND_IN = """#!/usr/bin/env python3
import csv, os, sys
args = sys.argv[1:]
value = lambda flag, default="0": args[args.index(flag) + 1] if flag in args else default
with open(os.environ["CALLS"], "a") as f:
    f.write(" ".join(args) + "\\n")
out = value("-o")
width, height = value("--size").split("x")
box = value("--stencil", "0x0").split("x")
new = not os.path.exists(out)
with open(out, "a", newline="") as f:
    w = csv.writer(f)
    if new:
        w.writerow(["workload", "width", "height", "stencil_w", "stencil_h", "depth", "block", "compilation",
                    "schedule", "threads", "l1tex__t_sector_pipe_lsu_mem_global_op_ld_hit_rate.pct",
                    "lts__t_sector_op_read_hit_rate.pct", "l1tex__t_requests_pipe_lsu_mem_global_op_ld.sum",
                    "l1tex__t_sectors_pipe_lsu_mem_global_op_ld.sum", "l1_hits_other_block"])
    for s in value("--schedule").split(","):
        w.writerow([value("--workload"), width, height, box[0], box[1], value("--depth"), value("--block"),
                    value("--compilation"), s, "1", "75", "87.5", "100", "400",
                    "60" if "--hit-sources" in args else ""])
"""


def run(tmp, *args, binary=None):
    calls = os.path.join(tmp, "calls")
    open(calls, "w").close()
    env = dict(os.environ, CACHESIM_BIN=binary or os.path.join(tmp, "cachesim"), CALLS=calls)
    got = subprocess.run([SCRIPT, *args], capture_output=True, text=True, env=env, cwd=ROOT)
    with open(calls) as f:
        return got, [line.split(" ") for line in f.read().splitlines()]


def rows(path):
    with open(path, newline="") as f:
        return list(csv.DictReader(f))


def sweep_args(workload, size, block, compilation, depth=None, stencil=None):
    args = ["sweep", "--model", "gpu", "--preset", "h200", "--schedule", SCHEDULES, "-o", None,
            "--workload", workload, "--size", size]
    if depth:
        args += ["--depth", depth]
    if stencil:
        args += ["--stencil", stencil]
    args += ["--block", block, "--compilation", compilation]
    return args


def without_out(call):
    return [None if i > 0 and call[i - 1] == "-o" else a for i, a in enumerate(call)]


def main():
    with tempfile.TemporaryDirectory() as tmp:
        write_stand_in(os.path.join(tmp, "cachesim"), STAND_IN)

        out = os.path.join(tmp, "fresh3.csv")
        got, calls = run(tmp, "fresh3", out)
        assert got.returncode == 0, got.stderr
        assert "72 launches of fresh3" in got.stdout, got.stdout
        expected = [
            sweep_args("matmul", "1408x1408", "160", "index64", depth="704"),
            sweep_args("matmul", "1408x1408", "160", "index32", depth="704"),
            sweep_args("matmul", "2304x1152", "320", "index64", depth="576"),
            sweep_args("matmul", "896x1792", "224", "unroll1", depth="1792"),
            sweep_args("matmul", "1664x1664", "128", "index32", depth="832"),
            sweep_args("stencil", "3584x2304", "160", "index64", stencil="3x7"),
            sweep_args("stencil", "3584x3584", "320", "index32", stencil="9x9"),
            sweep_args("stencil", "2816x2816", "224", "unroll1", stencil="7x3"),
        ]
        assert [without_out(c) for c in calls] == expected, calls
        predicted = rows(out)
        assert list(predicted[0].keys()) == CONFIG + [
            "l1tex__t_sector_pipe_lsu_mem_global_op_ld_hit_rate.pct", "lts__t_sector_op_read_hit_rate.pct",
            "l1tex__t_requests_pipe_lsu_mem_global_op_ld.sum", "l1tex__t_sectors_pipe_lsu_mem_global_op_ld.sum"]
        assert predicted[0]["l1tex__t_sector_pipe_lsu_mem_global_op_ld_hit_rate.pct"] == "75"
        # The lists the script reads still describe the predictions committed before measuring.
        config = lambda r: tuple(r[k] for k in CONFIG)
        assert sorted(map(config, predicted)) == sorted(map(config, rows(COMMITTED)))

        # gpubench's default matmul depth is the output's width.
        got, calls = run(tmp, "fresh", os.path.join(tmp, "fresh.csv"))
        assert got.returncode == 0, got.stderr
        default_depth = [c for c in calls if "1280x1280" in c]
        assert len(default_depth) == 2 and all(c[c.index("--depth") + 1] == "1280" for c in default_depth), calls
        assert len(rows(os.path.join(tmp, "fresh.csv"))) == 9 * 8  # six matmul and two stencil launches

        # With the hit sources: every sweep asks for them, and each row carries their share.
        got, calls = run(tmp, "--hit-sources", "fresh3", os.path.join(tmp, "sources.csv"))
        assert got.returncode == 0, got.stderr
        assert len(calls) == 8 and all(c[-1] == "--hit-sources" for c in calls), calls
        with_sources = rows(os.path.join(tmp, "sources.csv"))
        assert len(with_sources) == 72
        assert {r["l1_hit_rate_other_block.pct"] for r in with_sources} == {"15.0000"}

        # A variant beside the preset: every sweep gets the override, in either order with --hit-sources.
        got, calls = run(tmp, "--gpu", "cta-order=floorplan-turns", "--hit-sources", "fresh3",
                         os.path.join(tmp, "turns.csv"))
        assert got.returncode == 0, got.stderr
        assert len(calls) == 8 and all(c[-2:] == ["--hit-sources", "--cta-order=floorplan-turns"] for c in calls), calls
        assert len(rows(os.path.join(tmp, "turns.csv"))) == 72

        # Refused: no set, an unknown set, a missing binary, --gpu without KEY=VALUE; nothing written.
        for args, binary, words in [((), None, "usage"), (("fresh9", os.path.join(tmp, "x.csv")), None, "fresh9"),
                                    (("fresh3", os.path.join(tmp, "x.csv")), os.path.join(tmp, "none"), "no cachesim"),
                                    (("--gpu", "cta-order", "fresh3", os.path.join(tmp, "x.csv")), None, "KEY=VALUE")]:
            got, calls = run(tmp, *args, binary=binary)
            assert got.returncode == 2, (args, got.returncode)
            assert words in got.stderr, got.stderr
            assert calls == [] and not os.path.exists(os.path.join(tmp, "x.csv")), args
    print("predict_set: ok")


if __name__ == "__main__":
    main()
