#!/usr/bin/env python3
"""scripts/wave_groups_report.py on warp ends made up by hand. Blocks of 1024 threads, so 2
resident per SM; two warps a block, the block ending with its later warp. A 2% gap of the SM's
first end (1000 ns) is 20 ns.
  SM 0 ends at 1000, 1000 | 2000, 2010 | 3000: groups of 2, 2 and 1.
  SM 1 ends at 1000 | 1100 | 1500 | 2500, 2510: groups of 1, 1, 1 and 2.
First groups 2 and 1: the median (the upper one of two) is 2. The later blocks (all but each SM's
first 2 ends) are in groups of 2, 2, 1 (SM 0) and 1, 2, 2 (SM 1): 2 of 6 end alone (0.33), and
the median block's group is 2. Each SM's blocks 2 and 3 (in launch order) are its second wave,
starting at its first and second ends: SM 0's run 2000 - 1000 and 2010 - 1000, SM 1's 1500 - 1000
and 2500 - 1100, so runs of 1000, 1010, 500 and 1400: median 1005, standard deviation 319.4, a
spread of 0.32. Blocks are numbered in file order, SM 0's 0-4 and SM 1's 5-9, so the later
blocks are 2, 3, 4 and 7, 8, 9: among the 4 blocks after each, 2, 3, 7 and 8 have one on their
own SM, 4 (followed by SM 1's 5-8) and 9 (the last) none: 4 of 6 in runs (0.67). The ncu page
gives the profiled launch 800 of 1,000 sectors hit (80%) and the end-stamped one 900 (90%).
A later block starts at the end that freed its slot: SM 0's blocks 2, 3, 4 at 1000, 1000, 2000,
SM 1's 7, 8, 9 at 1000, 1100, 1500; their runs 1000, 1010, 1000, 500, 1400, 1010 have the median
1005, so starts 20.1 apart or less are together: only blocks 2 and 3 start beside another block
of their SM (2 of 6, 0.33). In the naive order at width 1024 every block of 1024 threads reads
the same 128 columns of B (its first thread's column is 0), so both of those have a partner
(0.33). The same ends at 1280x8 under column:128 give each block its own 128-column strip (a
strip of 8 rows is 1,024 threads): 0.33 start beside another block, none beside a partner. An
order the figure does not map (tiled:32x32) leaves both empty.
With two --ncu/--rows pairs for the same configuration, the one whose variant column names the
file's compilation gives the rates (a 32-bit pair at 80/90% beside an unrolled-once one at 60/70%).
--ncu without --rows, and a page whose launches are not a profiled and an end-stamped one per
configuration, are refused without output."""
import csv
import os
import subprocess
import sys
import tempfile

ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
SCRIPT = os.path.join(ROOT, "scripts", "wave_groups_report.py")
HEADER = "kernel,width,height,stencil_w,stencil_h,depth,schedule,block_size,launch,block,warp,sm,slot,end_ns\n"
SECTORS = "l1tex__t_sectors_pipe_lsu_mem_global_op_ld.sum"
HITS = "l1tex__t_sectors_pipe_lsu_mem_global_op_ld_lookup_hit.sum"
ENDS = {0: [1000, 1000, 2000, 2010, 3000], 1: [1000, 1100, 1500, 2500, 2510]}


def write_ends(path, config="matmul,1024,10,0,0,64,linear,1024"):
    with open(path, "w") as f:
        f.write(HEADER)
        block = 0
        for sm, ends in ENDS.items():
            for end in ends:
                for warp in range(2):  # the block ends with its later warp
                    f.write(f"{config},0,{block},{warp},{sm},{warp},{end - 5 * (1 - warp)}\n")
                block += 1


def write_ncu(path, kernels):
    with open(path, "w") as f:
        f.write(f'"ID","Kernel Name","{SECTORS}","{HITS}"\n')
        for i, (name, hits) in enumerate(kernels):
            f.write(f'"{i}","void matmul_kernel<{name}, 0>(MatmulArgs)","1,000","{hits}"\n')


def run(*args):
    return subprocess.run([sys.executable, SCRIPT, *args], capture_output=True, text=True)


def main():
    failures = []
    with tempfile.TemporaryDirectory() as tmp:
        ends, ncu, rows, out = (os.path.join(tmp, n) for n in ("ends.csv", "ncu.csv", "rows.csv", "out.csv"))
        write_ends(ends)
        write_ncu(ncu, [("ProfiledLaunch", "800"), ("EndStampedLaunch", "900")])
        with open(rows, "w") as f:
            f.write("kernel,width,height,depth,schedule,block\nmatmul,1024,10,64,linear,1024\n")
        done = run("--chip", ends, "--ncu", ncu, "--rows", rows, "--out", out)
        if done.returncode != 0:
            print(done.stderr)
            return 1
        row = next(csv.DictReader(open(out)))
        checks = [("source", "chip"), ("compilation", "index32"), ("l1", "80.00"), ("l1_stamped", "90.00"),
                  ("first_group", "2"), ("later_alone", "0.33"), ("later_group", "2"), ("wave2_spread", "0.32"),
                  ("later_runs", "0.67"), ("later_partners", "0.33"), ("later_bunched", "0.33")]
        failures += [f"{k}: got {row[k]}, expected {v}" for k, v in checks if row[k] != v]

        for schedule, size, expected in [("column:128", "1280,8", ("0.00", "0.33")), ("tiled:32x32", "1024,10", ("", ""))]:
            other_ends = os.path.join(tmp, "ends_other.csv")
            write_ends(other_ends, f"matmul,{size},0,0,64,{schedule},1024")
            done = run("--chip", other_ends, "--out", out)
            row = next(csv.DictReader(open(out))) if done.returncode == 0 else {}
            got = (row.get("later_partners"), row.get("later_bunched"))
            if got != expected:
                failures.append(f"{schedule}: exit {done.returncode}, partners / bunched {got}, expected {expected}")

        other_ncu, other_rows = os.path.join(tmp, "ncu1.csv"), os.path.join(tmp, "rows1.csv")
        write_ncu(other_ncu, [("ProfiledLaunch", "600"), ("EndStampedLaunch", "700")])
        with open(other_rows, "w") as f:
            f.write("kernel,width,height,depth,schedule,block,variant\nmatmul,1024,10,64,linear,1024,unroll1\n")
        with open(rows, "w") as f:
            f.write("kernel,width,height,depth,schedule,block,variant\nmatmul,1024,10,64,linear,1024,index32\n")
        done = run("--chip", ends, "--ncu", ncu, "--rows", rows, "--ncu", other_ncu, "--rows", other_rows, "--out", out)
        row = next(csv.DictReader(open(out))) if done.returncode == 0 else {}
        if (row.get("l1"), row.get("l1_stamped")) != ("80.00", "90.00"):
            failures.append(f"two pairs: exit {done.returncode}, l1 {row.get('l1')} / {row.get('l1_stamped')}")

        bad = os.path.join(tmp, "bad.csv")
        for args, message in [(["--ncu", ncu], "they go in pairs"),
                              (["--ncu", ncu, "--rows", rows], "a profiled and an end-stamped one")]:
            if "--rows" in args:
                write_ncu(ncu, [("EndStampedLaunch", "900"), ("ProfiledLaunch", "800")])  # the wrong order
            done = run("--chip", ends, *args, "--out", bad)
            if done.returncode != 2 or message not in done.stderr or os.path.exists(bad):
                failures.append(f"{args}: exit {done.returncode}, {done.stderr.strip()!r}")
    for f in failures:
        print("wave_groups_report_test:", f)
    return 1 if failures else 0


if __name__ == "__main__":
    sys.exit(main())
