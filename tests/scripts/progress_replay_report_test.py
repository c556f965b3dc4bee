#!/usr/bin/env python3
"""scripts/progress_replay_report.py on progress samples made up by hand, with a stand-in for
cachesim that answers 50% for a file with every sample and 60% for one with start and end only
(0.5 more for `column:128`), so the test sees which file each replay got. One layout, 64x16 at
depth 4, two warps on SM 0 sampled at steps 0, 2 and 4, both running from 0 to 200 ns:
- `linear`: w0 reaches step 2 at 100 ns, w1 at 50 ns. At 40, 60, ..., 160 ns w0 has done t/200 of
  its loop and w1 t/100 before 50 ns, 0.5 + (t - 50)/300 after, so the spreads are 0.2, 0.233,
  0.2, 0.167, 0.133, 0.1 and 0.067: their median 0.17.
- `column:128`: both warps at one pace: spread 0.
The ncu page gives the sampled launches 45% and 85%, and those with start and end only 47% and 86%.
A ncu page with another number of launches is refused without output."""
import csv
import gzip
import os
import subprocess
import sys
import tempfile

from stand_in import write_stand_in

ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
SCRIPT = os.path.join(ROOT, "scripts", "progress_replay_report.py")
SECTORS = "l1tex__t_sectors_pipe_lsu_mem_global_op_ld.sum"
HITS = "l1tex__t_sectors_pipe_lsu_mem_global_op_ld_lookup_hit.sum"
STAND_IN = """#!/usr/bin/env python3
import gzip, json, sys
args = sys.argv[1:]
path = args[args.index("--warp-times") + 1]
header = (gzip.open(path, "rt") if path.endswith(".gz") else open(path)).readline().strip().split(",")
samples = sum(1 for c in header if c[:1] == "t" and c[1:].isdigit())
l1 = (50.0 if samples > 2 else 60.0) + (0.5 if args[args.index("--schedule") + 1] == "column:128" else 0)
print(json.dumps({"ncu": {"l1tex__t_sector_pipe_lsu_mem_global_op_ld_hit_rate.pct": l1}}))
"""


def write_progress(path, paces):
    with gzip.open(path, "wt") as f:
        f.write("launch,block,warp,sm,slot,t0,t2,t4\n")
        for block, middle in enumerate(paces):
            f.write(f"0,{block},0,0,{block},0,{middle},200\n")


def write_ncu(path, hits):
    with open(path, "w") as f:
        f.write(f'"ID","Kernel Name","{SECTORS}","{HITS}"\n')
        for i, h in enumerate(hits):
            f.write(f'"{i}","void progress_matmul<true>(ProgressArgs)","1,000","{h}"\n')


def run(args, binary):
    return subprocess.run([sys.executable, SCRIPT, *args], capture_output=True, text=True,
                          env=dict(os.environ, CACHESIM_BIN=binary))


def main():
    failures = []
    with tempfile.TemporaryDirectory() as tmp:
        binary = os.path.join(tmp, "cachesim")
        write_stand_in(binary, STAND_IN)
        write_progress(os.path.join(tmp, "progress_64x16_d4_index32_linear_128.csv.gz"), [100, 50])
        write_progress(os.path.join(tmp, "progress_64x16_d4_index32_column-128_128.csv.gz"), [100, 100])
        rows, ncu, out = (os.path.join(tmp, n) for n in ("rows.csv", "ncu.csv", "out.csv"))
        with open(rows, "w") as f:
            f.write("width,height,depth\n64,16,4\n")
        write_ncu(ncu, ["450", "850", "470", "860"])
        done = run(["--dir", tmp, "--ncu", ncu, "--rows", rows, "--out", out, "--jobs", "1"], binary)
        if done.returncode != 0:
            print(done.stderr)
            return 1
        got = {r["schedule"]: r for r in csv.DictReader(open(out))}
        expected = {
            "linear": {"l1_sampled": "45.00", "l1_start_end": "47.00", "replay_samples": "50.00",
                       "replay_start_end": "60.00", "progress_spread": "0.17"},
            "column:128": {"l1_sampled": "85.00", "l1_start_end": "86.00", "replay_samples": "50.50",
                           "replay_start_end": "60.50", "progress_spread": "0.00"},
        }
        for schedule, checks in expected.items():
            row = got.get(schedule)
            if row is None:
                failures.append(f"no {schedule} row")
                continue
            failures += [f"{schedule} {k}: got {row[k]}, expected {v}" for k, v in checks.items() if row[k] != v]

        write_ncu(ncu, ["450", "850"])  # the start-and-end launches missing
        bad = os.path.join(tmp, "bad.csv")
        done = run(["--dir", tmp, "--ncu", ncu, "--rows", rows, "--out", bad], binary)
        if done.returncode != 2 or "expected 4" not in done.stderr or os.path.exists(bad):
            failures.append(f"a ncu page short of launches: exit {done.returncode}, {done.stderr.strip()!r}")
    for f in failures:
        print("progress_replay_report_test:", f)
    return 1 if failures else 0


if __name__ == "__main__":
    sys.exit(main())
