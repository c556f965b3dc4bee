#!/usr/bin/env python3
"""scripts/wave_sync_report.py on warp times made up by hand. Three SMs, blocks of 4 warps, every
block running 1000 ns: SM 0 runs two waves of 4 blocks that start together (at 0 and at 1000);
SMs 1 and 2 each start 4 blocks one by one, 250 ns apart. So the 16 blocks start in bunches of 4
(8 blocks) and of 1 (8 blocks): the median block's bunch is 2.5. The launch ends at 2000; at
400, 600, ..., 1600 the spread of the resident blocks' progress is 0 on SM 0 (7 instants) and
0.25, 0.5, 0.75, 0.5, 0.5, 0.25 on SMs 1 and 2 (at 1600 one block is left there: no spread), so
the median of the 19 spreads is 0.25. The ncu page gives the profiled launch 800 of 1,000 sectors
hit (80%) and the two placed ones 90% and 92% (91% their mean). A ncu page with fewer launches than
warp-times files is refused without output."""
import csv
import os
import subprocess
import sys
import tempfile

ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
SCRIPT = os.path.join(ROOT, "scripts", "wave_sync_report.py")
HEADER = "kernel,width,height,stencil_w,stencil_h,depth,schedule,block_size,launch,block,warp,sm,slot,start_ns,end_ns\n"
SECTORS = "l1tex__t_sectors_pipe_lsu_mem_global_op_ld.sum"
HITS = "l1tex__t_sectors_pipe_lsu_mem_global_op_ld_lookup_hit.sum"


def block_starts():
    """(block, SM, start) for every block; each runs 1000 ns."""
    starts = [(b, 0, 0) for b in range(4)] + [(b, 0, 1000) for b in range(4, 8)]
    for sm in (1, 2):
        starts += [(4 + 4 * sm + j, sm, 250 * j) for j in range(4)]
    return starts


def write_times(path):
    with open(path, "w") as f:
        f.write(HEADER)
        for block, sm, start in block_starts():
            for warp in range(4):  # the block spans its first warp's start to its last warp's end
                f.write(f"matmul,512,128,0,0,64,column:128,128,0,{block},{warp},{sm},{warp},"
                        f"{start + warp},{start + 1000 - (3 - warp)}\n")


def write_ncu(path, launches):
    with open(path, "w") as f:
        f.write(f'"ID","Kernel Name","{SECTORS}","{HITS}"\n')
        for i, (name, hits) in enumerate(launches):
            f.write(f'"{i}","void matmul_kernel<{name}, 0>(MatmulArgs)","1,000","{hits}"\n')


def main():
    failures = []
    with tempfile.TemporaryDirectory() as tmp:
        times, ncu, out = (os.path.join(tmp, n) for n in ("times.csv", "ncu.csv", "out.csv"))
        write_times(times)
        write_ncu(ncu, [("ProfiledLaunch", "800"), ("PlacedLaunch", "900"), ("PlacedLaunch", "920")])
        done = subprocess.run([sys.executable, SCRIPT, "--times", times, "--ncu", ncu, "--out", out],
                              capture_output=True, text=True)
        if done.returncode != 0:
            print(done.stderr)
            return 1
        row = next(csv.DictReader(open(out)))
        checks = [("blocks", "16"), ("median_run_us", "1.0"), ("median_start_bunch", "2.5"),
                  ("progress_spread", "0.25"), ("l1_profiled", "80.00"), ("l1_placed", "91.00"),
                  ("schedule", "column:128")]
        failures += [f"{k}: got {row[k]}, expected {v}" for k, v in checks if row[k] != v]

        write_ncu(ncu, [("PlacedLaunch", "900")])  # no profiled launch for the file
        bad = os.path.join(tmp, "bad.csv")
        done = subprocess.run([sys.executable, SCRIPT, "--times", times, "--ncu", ncu, "--out", bad],
                              capture_output=True, text=True)
        if done.returncode != 2 or "profiled launches" not in done.stderr or os.path.exists(bad):
            failures.append(f"a ncu page short of launches: exit {done.returncode}, {done.stderr.strip()!r}")
    for f in failures:
        print("wave_sync_report_test:", f)
    return 1 if failures else 0


if __name__ == "__main__":
    sys.exit(main())
