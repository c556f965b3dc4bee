#!/usr/bin/env python3
"""scripts/wide_strips_report.py on launches made up by hand, with a stand-in for cachesim.

Which columns a block reads (the thesis's eq. 4.1-4.3 on rows of 1024): in strips of 256, block 0
of 128 threads is x 0..127 (32-column groups 0-3), block 1 x 128..255 (groups 4-7), block 2 the
next row's x 0..127 (groups 0-3); in strips of 128, block 0 of 256 threads is two rows of x 0..127.

The pace figures, for every launch and source, come from four blocks (strips of 256, block 128):
  block 0  SM 0, 0-100    groups 0-3   the first wave (starts within 10% of the median run, 100)
  block 2  SM 0, 50-150   groups 0-3   after block 0 (50 later: gap 50/100), ends with block 4
  block 4  SM 0, 60-150   groups 0-3   after block 2 (10 later: gap 10/90), ends with block 2
  block 1  SM 0, 55-155   groups 4-7   no co-resident block reads its columns
so 2 of the 3 later blocks end within 1% of the median run (1.0) of a sharer (0.667), and the
gaps are 0.111 and 0.5, whose nearest-rank 90th percentile is 0.5. For the other widths the same
spans give other figures, which this test does not check.
The stand-in answers a replay with 10 x (width / 128) + block / 128 (`column:256` at block 128:
21) and the model's own run with 70 + width / 128 (72), writing the same four blocks as its warp
progress. gpubench's rows (70 + 2 x schedule index + block index + 0.5) and the ncu page (launch i:
60 + 0.5 i %) give the chip 72.5, the probe 61.0 (launch 2) and 64.0 (launch 8, start and end only).
A ncu page with another number of launches is refused without output."""
import csv
import gzip
import os
import subprocess
import sys
import tempfile

from stand_in import write_stand_in

ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
SCRIPT = os.path.join(ROOT, "scripts", "wide_strips_report.py")
sys.path.insert(0, os.path.join(ROOT, "scripts"))
import wide_strips_report  # noqa: E402  (the script's own helpers, checked directly)

SECTORS = "l1tex__t_sectors_pipe_lsu_mem_global_op_ld.sum"
HITS = "l1tex__t_sectors_pipe_lsu_mem_global_op_ld_lookup_hit.sum"
L1 = "l1tex__t_sector_pipe_lsu_mem_global_op_ld_hit_rate.pct"
SPANS = [(0, 0, 0, 100), (2, 0, 50, 150), (4, 0, 60, 150), (1, 0, 55, 155)]  # block, sm, start, end
STAND_IN = """#!/usr/bin/env python3
import json, sys
args = sys.argv[1:]
width = int(args[args.index("--schedule") + 1].split(":")[1])
block = int(args[args.index("--block") + 1])
if "--warp-times" in args:
    l1 = 10 * width / 128 + block / 128
else:
    l1 = 70 + width / 128
    with open(args[args.index("--warp-progress") + 1], "w") as f:
        f.write("block,warp,sm,slot,r0,end_round\\n")
        for b, sm, start, end in %r:
            f.write(f"{b},0,{sm},0,{start},{end}\\n")
print(json.dumps({"ncu": {"%s": l1}}))
""" % (SPANS, L1)


def write_launch_files(directory, ncu_launches):
    for schedule in wide_strips_report.SCHEDULES:
        for block in wide_strips_report.BLOCKS:
            name = f"progress_1024x1024_d1024_{schedule.replace(':', '-')}_{block}.csv.gz"
            with gzip.open(os.path.join(directory, name), "wt") as f:
                f.write("launch,block,warp,sm,slot,t0,t512,t1024\n")
                for b, sm, start, end in SPANS:
                    f.write(f"0,{b},0,{sm},0,{start},{(start + end) // 2},{end}\n")
    with open(os.path.join(directory, "wide_strips_ncu.csv"), "w") as f:
        f.write(f'"ID","Kernel Name","{SECTORS}","{HITS}"\n')
        for i in range(ncu_launches):
            f.write(f'"{i}","void progress_matmul<0>(ProgressArgs)","1,000","{600 + 5 * i}"\n')
    with open(os.path.join(directory, "wide_strips_gpubench.csv"), "w") as f:
        f.write(f"kernel,schedule,block,{L1}\n")
        for i, schedule in enumerate(wide_strips_report.SCHEDULES):
            for j, block in enumerate(wide_strips_report.BLOCKS):
                f.write(f"matmul,{schedule},{block},{70 + 2 * i + j + 0.5}\n")


def main():
    failures = []
    columns = wide_strips_report.columns_of
    for args, expected in [((0, 128, 256), {0, 1, 2, 3}), ((1, 128, 256), {4, 5, 6, 7}),
                           ((2, 128, 256), {0, 1, 2, 3}), ((0, 256, 128), {0, 1, 2, 3}),
                           ((8, 128, 256), {0, 1, 2, 3})]:
        if columns(*args) != expected:
            failures.append(f"columns_of{args}: got {sorted(columns(*args))}, expected {sorted(expected)}")
    with tempfile.TemporaryDirectory() as tmp:
        binary = os.path.join(tmp, "cachesim")
        write_stand_in(binary, STAND_IN)
        write_launch_files(tmp, 12)
        out = os.path.join(tmp, "out.csv")
        done = subprocess.run([sys.executable, SCRIPT, "--dir", tmp, "--out", out], capture_output=True,
                              text=True, env=dict(os.environ, CACHESIM_BIN=binary))
        if done.returncode != 0:
            print(done.stderr)
            return 1
        row = {(r["schedule"], r["block"]): r for r in csv.DictReader(open(out))}[("column:256", "128")]
        # launch 2 of 6: the ncu page's launches 2 (sampled) and 8 (start and end only)
        expected = {"chip_l1": "72.50", "probe_l1": "61.00", "probe_l1_start_end": "64.00",
                    "replay_column:128": "11.00", "replay_column:256": "21.00", "replay_column:512": "41.00",
                    "model_l1": "72.00", "chip_ends_together": "0.667", "model_ends_together": "0.667",
                    "chip_start_gap_p90": "0.500", "model_start_gap_p90": "0.500"}
        failures += [f"{k}: got {row[k]}, expected {v}" for k, v in expected.items() if row[k] != v]

        short = tempfile.mkdtemp(dir=tmp)
        write_launch_files(short, 6)  # the start-and-end launches missing
        bad = os.path.join(tmp, "bad.csv")
        done = subprocess.run([sys.executable, SCRIPT, "--dir", short, "--out", bad], capture_output=True,
                              text=True, env=dict(os.environ, CACHESIM_BIN=binary))
        if done.returncode != 2 or "expected 12" not in done.stderr or os.path.exists(bad):
            failures.append(f"a ncu page short of launches: exit {done.returncode}, {done.stderr.strip()!r}")
    for f in failures:
        print("wide_strips_report_test:", f)
    return 1 if failures else 0


if __name__ == "__main__":
    sys.exit(main())
