#!/usr/bin/env python3
"""scripts/one_warp_blocks_report.py on warp times made up by hand, with a stand-in for cachesim.

Every launch of both files gets the same five one-warp blocks (their columns of B as `linear` at
block 32 reads them: block b reads the 32 columns from 32 (b mod 32)):
  block 0   SM 0, 0-200   columns 0   the first wave (starts within 10% of the median run, 120)
  block 32  SM 0, 0-200   columns 0   the first wave
  block 64  SM 0, 200-300 columns 0   later: overlaps block 96 (blocks 0 and 32 end as it starts)
  block 96  SM 0, 202-300 columns 0   later: overlaps block 64, which started 2 earlier (2/98)
  block 1   SM 0, 210-330 columns 1   later: no block of its columns beside it
so for `linear` at block 32 a later block overlaps 2/3 sharers on average, 2 of 3 end within 1%
of the median run (1.2) of a sharer, the one start gap is 0.020 (its own 90th percentile), and
the first wave runs 200 against the later blocks' median 100: 2.00, and a later block's run is
100 ns: 0.1 µs. The stand-in's model writes
the same blocks as its warp progress, so the model's figures are the same.
The stand-in answers a replay with 10 x block / 32 + 1 for `linear` (11) and the model's own run
with 50 + block / 32 (51); the ncu page gives launch i 50 + i %: the profiled 50.0 and the placed
51.0 for the first launch. A ncu page whose first launch is not the profiled one is refused
without output."""
import csv
import gzip
import os
import subprocess
import sys
import tempfile

from stand_in import write_stand_in

ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
SCRIPT = os.path.join(ROOT, "scripts", "one_warp_blocks_report.py")
SECTORS = "l1tex__t_sectors_pipe_lsu_mem_global_op_ld.sum"
HITS = "l1tex__t_sectors_pipe_lsu_mem_global_op_ld_lookup_hit.sum"
L1 = "l1tex__t_sector_pipe_lsu_mem_global_op_ld_hit_rate.pct"
SPANS = [(0, 0, 0, 200), (32, 0, 0, 200), (64, 0, 200, 300), (96, 0, 202, 300), (1, 0, 210, 330)]
STAND_IN = """#!/usr/bin/env python3
import json, sys
args = sys.argv[1:]
block = int(args[args.index("--block") + 1])
if "--warp-times" in args:
    l1 = 10 * block / 32 + (1 if args[args.index("--schedule") + 1] == "linear" else 2)
else:
    l1 = 50 + block / 32
    with open(args[args.index("--warp-progress") + 1], "w") as f:
        f.write("block,warp,sm,slot,r0,end_round\\n")
        for b, sm, start, end in %r:
            f.write(f"{b},0,{sm},0,{start},{end}\\n")
print(json.dumps({"ncu": {"%s": l1}}))
""" % (SPANS, L1)


def write_inputs(directory, kernels):
    for schedule in ("linear", "column-512"):
        with gzip.open(os.path.join(directory, f"warps_{schedule}.csv.gz"), "wt") as f:
            f.write("kernel,width,height,stencil_w,stencil_h,depth,schedule,block_size,launch,block,warp,sm,slot,"
                    "start_ns,end_ns\n")
            for block_size in (32, 64, 128):
                for b, sm, start, end in SPANS:
                    f.write(f"matmul,1024,1024,0,0,1024,{schedule.replace('-', ':')},{block_size},0,{b},0,{sm},0,"
                            f"{start},{end}\n")
    with open(os.path.join(directory, "one_warp_blocks_ncu.csv"), "w") as f:
        f.write(f'"ID","Kernel Name","{SECTORS}","{HITS}"\n')
        for i, kernel in enumerate(kernels):
            f.write(f'"{i}","void matmul_kernel<{kernel}, 0>(MatmulArgs)","1,000","{500 + 10 * i}"\n')


def run(directory, out, binary):
    return subprocess.run([sys.executable, SCRIPT, "--dir", directory, "--out", out], capture_output=True,
                          text=True, env=dict(os.environ, CACHESIM_BIN=binary))


def main():
    failures = []
    with tempfile.TemporaryDirectory() as tmp:
        binary = os.path.join(tmp, "cachesim")
        write_stand_in(binary, STAND_IN)
        good = os.path.join(tmp, "good")
        os.mkdir(good)
        write_inputs(good, ["ProfiledLaunch", "PlacedLaunch"] * 6)
        out = os.path.join(tmp, "out.csv")
        done = run(good, out, binary)
        if done.returncode != 0:
            print(done.stderr)
            return 1
        row = {(r["schedule"], r["block"]): r for r in csv.DictReader(open(out))}[("linear", "32")]
        expected = {"profiled_l1": "50.00", "placed_l1": "51.00", "replay_l1": "11.00", "model_l1": "51.00",
                    "chip_sharers": "0.67", "model_sharers": "0.67", "chip_start_gap_p90": "0.020",
                    "model_start_gap_p90": "0.020", "chip_ends_together": "0.667", "model_ends_together": "0.667",
                    "chip_first_wave_run": "2.00", "chip_later_run_us": "0.1"}
        failures += [f"{k}: got {row[k]}, expected {v}" for k, v in expected.items() if row[k] != v]

        swapped = os.path.join(tmp, "swapped")
        os.mkdir(swapped)
        write_inputs(swapped, ["PlacedLaunch", "ProfiledLaunch"] * 6)
        bad = os.path.join(tmp, "bad.csv")
        done = run(swapped, bad, binary)
        if done.returncode != 2 or "not a profiled and a placed launch" not in done.stderr or os.path.exists(bad):
            failures.append(f"a ncu page placed first: exit {done.returncode}, {done.stderr.strip()!r}")
    for f in failures:
        print("one_warp_blocks_report_test:", f)
    return 1 if failures else 0


if __name__ == "__main__":
    sys.exit(main())
