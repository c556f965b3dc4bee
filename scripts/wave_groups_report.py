#!/usr/bin/env python3
"""How an SM's blocks end together wave after wave: the chip's warp ends (gpubench --warp-ends)
beside the GPU model's (cachesim simulate --warp-ends, in rounds or under cycle timing).

A block ends when its last warp does. On each SM the blocks are sorted by their end and cut into
groups wherever two ends in a row lie more than 2% of the SM's first end apart: blocks that keep
in step end together, a block that runs alone ends alone. Per launch and source:
  first_group   the blocks of the SM's first group (median over SMs): how many of the first
                wave's blocks keep together;
  later_alone   of the blocks of the later waves (all but the first `resident` ends of each SM),
                the share that ends alone;
  later_group   the group size of the median such block (a block-weighted median);
  wave2_spread  how much the run times of the second wave's blocks differ: an SM receives its
                blocks in launch order, the first `resident` at the start and each later one
                when one of its blocks ends, so its (resident + j)-th block starts at its j-th
                end; over all SMs' second-wave blocks, the standard deviation of their run times
                over their median;
  later_runs    of the later waves' blocks, the share for which one of the launch's next
                REFILL_RUN blocks went to the same SM: an SM whose blocks end at once receives
                blocks in runs of the launch order (with blocks spread at random over the SMs,
                about REFILL_RUN / SMs);
  later_partners  of the later waves' blocks, the share that another block of the same SM reading
                the same 128 columns of B (linear and column:W orders) started within PARTNER_WINDOW
                of a median later run of: blocks that start together and read the same lines can
                share them in the L1 (a block's start: the end that freed its slot, as above);
  later_bunched the same for another block of the SM of any columns: how many later blocks start
                beside another, whichever lines it reads.
A launch of one wave has no later blocks: its later columns stay empty.

  scripts/wave_groups_report.py --chip ENDS.csv.gz [--chip ...] [--compilation C ...] --out SUMMARY.csv
                                [--ncu RAW.csv --rows ROWS.csv ...] [--model NAME='cachesim options' ...]
                                [--jobs N]

Every configuration of the chip's files (their launch 0) is summarised; each --model runs
`cachesim simulate --model gpu --preset h200 --warp-ends` on it with the options given (the
workload's own and its file's compilation added; `--timing cycles` among the options for cycle
timing) and is summarised the same way, with its L1 hit rate. --compilation: one for every
--chip file, in order, or one for all (default index32). --ncu and --rows, in pairs: the Nsight
Compute raw page of the same configurations, a profiled and an end-stamped launch each, in the order of the
rows file's configurations; the chip's rows then have the profiled launch's L1 hit rate and,
as l1_stamped, the end-stamped one's (whose warp ends the files hold). Blocks resident per SM: 2048 threads over
the block size, at most 32 (gpubench's kernels are limited by threads). The cachesim binary is
$CACHESIM_BIN, else build/apps/cachesim/cachesim.
"""
import argparse
import concurrent.futures
import csv
import json
import os
import shlex
import statistics
import subprocess
import tempfile
from collections import defaultdict

# one definition of the blocks that end together, of a warp-ends file and of a ncu page's L1 rates
# (scripts/, beside this file)
from warp_ends_report import block_ends, block_ends_per_sm, fail, group_cuts, read_chip
from wave_sync_report import ncu_l1_launches

CONFIG = ("width", "height", "depth", "schedule", "block_size")
THREADS_PER_SM, BLOCKS_PER_SM = 2048, 32
REFILL_RUN = 4  # the next blocks of the launch that later_runs looks at
PARTNER_WINDOW = 0.02  # starts this share of a median later run apart count as together
B_PIECE = 128  # columns of B that later_partners compares: one 128-column strip, four warps' lines


def resident_blocks(block_size):
    return min(BLOCKS_PER_SM, THREADS_PER_SM // int(block_size))


def summarise(ends, resident):
    """ends: (sm, block, end) per warp -> (first group, later alone share or None, later group or None)."""
    per_sm = block_ends_per_sm(ends)
    if not per_sm:
        fail("no warp ends to summarise")
    firsts, later_sizes = [], []
    for sm_ends in per_sm.values():
        bounds = [0] + group_cuts(sm_ends) + [len(sm_ends)]
        groups = list(zip(bounds, bounds[1:]))
        firsts.append(groups[0][1] - groups[0][0])
        for first, past in groups:
            later_sizes += [past - first] * max(0, past - max(first, resident))
    firsts.sort()
    first = firsts[len(firsts) // 2]
    if not later_sizes:
        return first, None, None
    alone = sum(1 for s in later_sizes if s == 1) / len(later_sizes)
    return first, alone, sorted(later_sizes)[len(later_sizes) // 2]


def received_blocks(ends, resident):
    """ends: (sm, block, end) per warp -> per SM its blocks in launch order (the order it received
    them) as (block, start, end): the first `resident` start at 0, the (resident + j)-th at the
    SM's j-th end, which freed its slot."""
    per_sm = defaultdict(list)
    for (sm, block), end in block_ends(ends).items():
        per_sm[sm].append((block, end))
    received = {}
    for sm, blocks in per_sm.items():
        blocks.sort()
        sorted_ends = sorted(end for _, end in blocks)
        received[sm] = [(block, 0 if j < resident else sorted_ends[j - resident], end)
                        for j, (block, end) in enumerate(blocks)]
    return received


def second_wave_spread(ends, resident):
    """ends: (sm, block, end) per warp -> the second wave's run-time spread, or None without one."""
    runs = [end - start for blocks in received_blocks(ends, resident).values()
            for _, start, end in blocks[resident:2 * resident]]
    if len(runs) < 2:
        return None
    return statistics.pstdev(runs) / statistics.median(runs)


def later_runs(ends, resident):
    """ends: (sm, block, end) per warp -> the share of later blocks with one of the next REFILL_RUN
    blocks on the same SM, or None without later blocks."""
    per_sm = defaultdict(list)
    for (sm, block) in block_ends(ends):
        per_sm[sm].append(block)
    sm_of, later = {}, []
    for sm, blocks in per_sm.items():
        blocks.sort()  # launch order: the first `resident` are the first wave's
        for j, block in enumerate(blocks):
            sm_of[block] = sm
            if j >= resident:
                later.append(block)
    if not later:
        return None
    together = sum(1 for b in later if any(sm_of.get(b + d) == sm_of[b] for d in range(1, REFILL_RUN + 1)))
    return together / len(later)


def b_piece(config, block):
    """The 128-column piece of B that `block`'s first thread reads (its output column // B_PIECE),
    or None for an order this does not map (linear and column:W only)."""
    width, height, _, schedule, block_size = config
    width, height, t = int(width), int(height), block * int(block_size)
    if schedule == "linear":
        return (t % width) // B_PIECE
    kind, _, w = schedule.partition(":")
    if kind != "column" or not w.isdigit():
        return None
    w = int(w)
    strip = t // (w * height)
    return (strip * w + (t % (w * height)) % w) // B_PIECE


def later_partners(ends, resident, config):
    """ends: (sm, block, end) per warp -> (share of later blocks with a same-columns block of their
    SM started within PARTNER_WINDOW of a median later run, the same for a block of any columns),
    or (None, None) without later blocks or for an order b_piece does not map."""
    if b_piece(config, 0) is None:
        return None, None
    received = received_blocks(ends, resident)
    runs = [end - start for blocks in received.values() for _, start, end in blocks[resident:]]
    if not runs:
        return None, None
    window = PARTNER_WINDOW * statistics.median(runs)
    same = together = 0
    for blocks in received.values():
        for block, start, _ in blocks[resident:]:
            near = [b for b, s, _ in blocks if b != block and abs(s - start) <= window]
            together += bool(near)
            same += any(b_piece(config, b) == b_piece(config, block) for b in near)
    return same / len(runs), together / len(runs)


def ncu_rates(ncu_path, rows_path):
    """Per (configuration, compilation) of the rows file: (profiled L1 %, end-stamped L1 %). The
    compilation is the rows' variant column, or None for a file without one."""
    launches = ncu_l1_launches(ncu_path)
    try:
        with open(rows_path) as f:
            configs = [(tuple(r[c if c != "block_size" else "block"] for c in CONFIG), r.get("variant"))
                       for r in csv.DictReader(f)]
    except (OSError, KeyError) as e:
        fail(f"{rows_path}: {e}")
    rates = [rate for _, rate in launches]
    kinds = ["ProfiledLaunch" in kernel for kernel, _ in launches]
    if len(launches) != 2 * len(configs) or kinds != [True, False] * len(configs):
        fail(f"{ncu_path}: {len(launches)} launches, expected a profiled and an end-stamped one for each of the "
             f"{len(configs)} configurations of {rows_path}")
    return {c: (rates[2 * i], rates[2 * i + 1]) for i, c in enumerate(configs)}


def run_model(binary, options, config, compilation):
    """-> (L1 hit %, (sm, block, end) per warp)."""
    width, height, depth, schedule, block = config
    with tempfile.TemporaryDirectory() as tmp:
        ends_path = os.path.join(tmp, "ends.csv")
        cmd = [binary, "simulate", "--model", "gpu", "--preset", "h200", "--workload", "matmul",
               "--size", f"{width}x{height}", "--depth", depth, "--block", block, "--schedule", schedule,
               "--compilation", compilation, *shlex.split(options), "--threads", "1",
               "--warp-ends", ends_path, "--format", "json"]
        done = subprocess.run(cmd, capture_output=True, text=True)
        if done.returncode != 0:
            fail(f"{' '.join(cmd)} failed: {done.stderr.strip()}")
        l1 = json.loads(done.stdout)["ncu"]["l1tex__t_sector_pipe_lsu_mem_global_op_ld_hit_rate.pct"]
        with open(ends_path) as f:
            reader = csv.DictReader(f)
            unit = next(c for c in reader.fieldnames if c.startswith("end_"))
            ends = [(int(r["sm"]), int(r["block"]), int(r[unit])) for r in reader]
    return l1, ends


def figures(ends, resident, config):
    first, alone, later = summarise(ends, resident)
    spread = second_wave_spread(ends, resident)
    runs = later_runs(ends, resident)
    partners, bunched = later_partners(ends, resident, config)
    return {"later_partners": "" if partners is None else f"{partners:.2f}",
            "later_bunched": "" if bunched is None else f"{bunched:.2f}",
            "first_group": first, "later_alone": "" if alone is None else f"{alone:.2f}",
            "later_group": "" if later is None else later, "wave2_spread": "" if spread is None else f"{spread:.2f}",
            "later_runs": "" if runs is None else f"{runs:.2f}"}


def main():
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--chip", required=True, action="append", help="gpubench --warp-ends CSV (.gz allowed)")
    parser.add_argument("--model", action="append", default=[], metavar="NAME=OPTIONS")
    parser.add_argument("--compilation", action="append", default=[])
    parser.add_argument("--ncu", action="append", default=[],
                        help="Nsight Compute raw page of the chip's configurations (one per --rows)")
    parser.add_argument("--rows", action="append", default=[], help="the configurations of the --ncu launches, in order")
    parser.add_argument("--jobs", type=int, default=1)
    parser.add_argument("--out", required=True)
    args = parser.parse_args()
    binary = os.environ.get("CACHESIM_BIN", "build/apps/cachesim/cachesim")
    models = []
    for m in args.model:
        name, sep, options = m.partition("=")
        if not sep or not name:
            fail(f"--model {m}: expected NAME=OPTIONS")
        models.append((name, options))
    if args.jobs < 1:
        fail(f"--jobs {args.jobs}: at least 1")
    if models and not os.access(binary, os.X_OK):
        fail(f"no cachesim binary at {binary} (build with scripts/build.sh, or set CACHESIM_BIN)")

    compilations = args.compilation or ["index32"]
    if len(compilations) == 1:
        compilations *= len(args.chip)
    if len(compilations) != len(args.chip):
        fail(f"{len(compilations)} --compilation for {len(args.chip)} --chip files: give one, or one per file")
    if len(args.ncu) != len(args.rows):
        fail(f"{len(args.ncu)} --ncu for {len(args.rows)} --rows: they go in pairs")
    rates = {}
    for ncu_path, rows_path in zip(args.ncu, args.rows):
        for key, pair in ncu_rates(ncu_path, rows_path).items():
            if key in rates:
                fail(f"{rows_path}: {key[0]} ({key[1] or 'no variant'}) is in an earlier --rows file too")
            rates[key] = pair

    launches, compilation_of = {}, {}
    for path, compilation in zip(args.chip, compilations):
        for config, ends in read_chip(path, 0).items():
            if config in launches:
                fail(f"{path}: {config} is in an earlier --chip file too")
            launches[config] = ends
            compilation_of[config] = compilation
    with concurrent.futures.ThreadPoolExecutor(args.jobs) as pool:
        runs = {(config, name): pool.submit(run_model, binary, options, config, compilation_of[config])
                for config in launches for name, options in models}
        rows = []
        for config, ends in launches.items():
            resident = resident_blocks(config[-1])
            base = dict(zip(CONFIG, config), compilation=compilation_of[config])
            profiled, stamped = rates.get((config, compilation_of[config]), rates.get((config, None), (None, None)))
            rows.append(dict(base, source="chip", l1="" if profiled is None else f"{profiled:.2f}",
                             l1_stamped="" if stamped is None else f"{stamped:.2f}", **figures(ends, resident, config)))
            for name, _ in models:
                l1, model_ends = runs[(config, name)].result()
                rows.append(dict(base, source=name, l1=f"{l1:.2f}", l1_stamped="", **figures(model_ends, resident, config)))
    tmp = args.out + ".tmp"
    with open(tmp, "w", newline="") as f:
        writer = csv.DictWriter(f, fieldnames=list(CONFIG) + ["compilation", "source", "l1", "l1_stamped",
                                                                "first_group", "later_alone", "later_group",
                                                                "wave2_spread", "later_runs", "later_partners",
                                                                "later_bunched"],
                                lineterminator="\n")
        writer.writeheader()
        writer.writerows(rows)
    os.replace(tmp, args.out)


if __name__ == "__main__":
    main()
