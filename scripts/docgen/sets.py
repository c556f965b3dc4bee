"""Per set: training, held-out and fresh, on the H200 and the H100 (scripts/fidelity_report.sh)."""

import os
import re

from docgen.common import L1Q, L1R, L1S, L2R, M, ROOT, S, note, read_csv


REPORT_GPUS = ["h200", "h100"]
REPORT_SETS = ["training", "heldout"]
FRESH_SETS = ["fresh", "fresh2", "fresh3", "fresh4"]  # the H200 only
ALL_REPORT_SETS = REPORT_SETS + FRESH_SETS
# the sets the studies' alternative models were run on: every set measured before the third fresh one
STUDY_SETS = REPORT_SETS + ["fresh", "fresh2"]
# the matmul sets again with their hit rates over 21 profiled launches, as the H200's training
# matmul's (scripts/merge_profile_runs.py, the rates from SET_matmul_rates21.csv): per chip, each
# set measured over fewer launches (3 on the H200, 1 on the H100) and its 21-launch set
RATES21_SETS = {"h200": {"heldout": "heldout21", "fresh": "fresh-21", "fresh2": "fresh2-21", "fresh3": "fresh3-21",
                         "fresh4": "fresh4-21"},
                "h100": {"training": "training21", "heldout": "heldout21"}}
RATES21_NAMES = list(dict.fromkeys(sets[base] for base in ALL_REPORT_SETS for sets in RATES21_SETS.values()
                                   if base in sets))  # in the order of the sets they measure again
SET_KERNELS = {name: ["matmul"] for name in RATES21_NAMES}


def gpu_has_set(gpu, set_name):
    """Whether GPU was measured on the set: the fresh sets on the H200 only, the sets over 21
    launches where RATES21_SETS has them."""
    if set_name in RATES21_NAMES:
        return set_name in RATES21_SETS[gpu].values()
    return gpu == "h200" or set_name not in FRESH_SETS
REPORT_KERNELS = ["stencil", "matmul"]
REPORT_CMD = "scripts/fidelity_report.sh --by-row --jobs 16"


CYCLES_DIR = "tests/data/cycles_gto"
CYCLES_CMD = ("scripts/fidelity_report.sh --jobs 16 --gpu carveout-rule=occupancy --gpu timing=cycles --gpu warp-scheduler=gto "
              "--gpu load-gates=burst --out tests/data/cycles_gto h200 h100 rtx2080s")
TURNS_DIR = "tests/data/first_wave_turns"
TURNS_CMD = ("scripts/fidelity_report.sh --jobs 16 --gpu carveout-rule=occupancy --gpu cta-order=floorplan-turns --gpu miss-wait-turns=0 --out tests/data/first_wave_turns "
             "h200 h100")
L1_FOLD_DIR = "tests/data/l1_four_way_fold"
L1_FOLD_CMD = ("scripts/fidelity_report.sh --by-row --jobs 32 --gpu carveout-rule=occupancy --gpu l1-ways=4 --gpu l1-index=fold "
               "--out tests/data/l1_four_way_fold h200 h100")
CYCLES_NO_LRC_DIR = "tests/data/cycles_issue_no_lrc"
CYCLES_NO_LRC_CMD = ("scripts/fidelity_report.sh --by-row --jobs 32 --gpu carveout-rule=occupancy --gpu timing=cycles --gpu warp-scheduler=gto "
                     "--gpu load-gates=burst --gpu issue-cycles=auto --gpu lrc-hit-cycles=0 --gpu lrc-miss-cycles=0 "
                     "--out tests/data/cycles_issue_no_lrc h200 h100")
CYCLES_SASS_TPC_DIR = "tests/data/cycles_gto_sass_tpc"
CYCLES_SASS_TPC_CMD = ("scripts/fidelity_report.sh --by-row --work DIR --jobs 16 --gpu carveout-rule=occupancy --gpu timing=cycles "
                       "--gpu warp-scheduler=gto --gpu load-gates=sass --gpu l2-coalesce-among=tpc "
                       "--out tests/data/cycles_gto_sass_tpc h200 h100")
LOCKSTEP_DIR = "tests/data/lockstep_wait"
LOCKSTEP_OPTIONS = "--gpu warp-rate-spread=0 --gpu block-start-skip=10 --gpu miss-wait-turns=1"
LOCKSTEP_CMD = ("scripts/fidelity_report.sh --by-row --work DIR --jobs 16 " + LOCKSTEP_OPTIONS
                + " --out tests/data/lockstep_wait h200 h100")
BLOCK_RATES_DIR = "tests/data/block_rates"
BLOCK_RATES_OPTIONS = "--gpu warp-rate-scope=block --gpu block-start-skip=4 --gpu warp-rate-spread=0.15"
BLOCK_RATES_CMD = ("scripts/fidelity_report.sh --by-row --work DIR --jobs 16 " + BLOCK_RATES_OPTIONS
                   + " --out tests/data/block_rates h200 h100")
FIXED_DIR = "tests/data/fixed_rate"
FIXED_CMD = ("scripts/fidelity_report.sh --jobs 16 --gpu carveout-rule=occupancy --gpu warp-rate-redraw=0 --gpu warp-rate-spread=0.05 "
             "--gpu block-start-skip=1 --gpu warp-age-weight=1 --gpu miss-wait-turns=0 --out tests/data/fixed_rate h200 h100")


def report_path(gpu, set_name, kernel, base="tests/data"):
    return "{}/{}/fidelity_report_{}_{}.csv".format(base, gpu, set_name, kernel)


def l1_error(r):
    """The model's L1 hit rate less the chip's, in points, from a row of compare's joined CSV."""
    return float(r[S + L1R]) - float(r[M + L1R])


def mean_l1_error(rows):
    """The mean |L1 error| over rows of compare's joined CSV."""
    return sum(abs(l1_error(r)) for r in rows) / len(rows)


def l1_error_counts(errors):
    """The L1 target counts over a list of model-minus-chip errors in points, as the probe tables'
    summaries write them."""
    return "L1 within 3 points {}/{}, beyond 6 {}, mean |error| {:.2f}".format(
        sum(abs(e) <= 3 for e in errors), len(errors), sum(abs(e) > 6 for e in errors),
        sum(abs(e) for e in errors) / len(errors))


BEST_WITHIN_POINTS = 1.0  # the target: the model's best schedule within this of the chip's best


def schedule_pick(members, rate):
    """The model's best schedule of a group of compare's joined rows by `rate` (the highest simulated
    rate), the chip's best, and how many points the chip loses running the model's pick."""
    pick = max(members, key=lambda r: float(r[S + rate]))
    best = max(members, key=lambda r: float(r[M + rate]))
    return pick, best, float(best[M + rate]) - float(pick[M + rate])


def schedule_groups(rows):
    """The rows of compare's joined CSV that differ only in their schedule, each group of 3 or more
    schedules (those whose best schedule the targets ask for), in the order they first appear."""
    groups = {}
    for r in rows:
        key = tuple(r[k] for k in ("kernel", "width", "height", "stencil_w", "stencil_h", "depth", "block", "variant"))
        groups.setdefault(key, []).append(r)
    return [members for members in groups.values() if len(members) >= 3]


def target_counts(rows):
    """The fidelity targets over rows of compare's joined CSV, as cachesim compare counts them."""
    f = lambda r, k: float(r[k])
    l1_err = [abs(f(r, S + L1R) - f(r, M + L1R)) for r in rows]
    stencil = [r for r in rows if r["kernel"] == "stencil"]
    best = [0, 0, 0]  # groups of >= 3 schedules, L1 pick within 1 point, L2 pick within 1 point
    for members in schedule_groups(rows):
        best[0] += 1
        for i, rate in ((1, L1R), (2, L2R)):
            best[i] += schedule_pick(members, rate)[2] <= BEST_WITHIN_POINTS
    return {
        "runs": len(rows),
        "l1_3": sum(e <= 3 for e in l1_err),
        "l1_6": sum(e > 6 for e in l1_err),
        "l2_5_stencil": sum(abs(f(r, S + L2R) - f(r, M + L2R)) <= 5 for r in stencil),
        "stencil": len(stencil),
        "l2_5": sum(abs(f(r, S + L2R) - f(r, M + L2R)) <= 5 for r in rows),
        "best": best,
        "requests": sum(f(r, S + L1Q) == f(r, M + L1Q) for r in rows),
        "sectors": sum(f(r, S + L1S) == f(r, M + L1S) for r in rows),
    }


def report_label(set_name, variant):
    return set_name + ("" if variant in ("", "index64") else ", " + variant)


def gen_fidelity_sets(base="tests/data", command=REPORT_CMD, sets=REPORT_SETS, gpus=REPORT_GPUS):
    out = ["| GPU | set | runs | L1 within 3 | L1 beyond 6 | mean \\|L1 error\\| | L2 within 5, stencil "
           "| L2 within 5, matmul | best schedule within 1 (L1 / L2) | requests exact | sectors exact |",
           "|---|---|---:|---:|---:|---:|---:|---:|---:|---:|---:|"]
    used, missing = [], []
    for gpu in gpus:
        by_label = {}
        for set_name in sets:
            for kernel in SET_KERNELS.get(set_name, REPORT_KERNELS):
                if not gpu_has_set(gpu, set_name):
                    continue
                path = report_path(gpu, set_name, kernel, base)
                if not os.path.exists(os.path.join(ROOT, path)):
                    missing.append(path)
                    continue
                used.append(path)
                for r in read_csv(path):
                    by_label.setdefault(report_label(r["set"], r["variant"]), []).append(r)
        for label, rows in by_label.items():
            c = target_counts(rows)
            matmul = c["runs"] - c["stencil"]
            out.append("| {} | {} | {} | {}/{} | {} | {:.2f} | {}/{} | {}/{} | {}/{} / {}/{} | {}/{} | {}/{} |".format(
                gpu, label, c["runs"], c["l1_3"], c["runs"], c["l1_6"], mean_l1_error(rows), c["l2_5_stencil"], c["stencil"],
                c["l2_5"] - c["l2_5_stencil"], matmul, c["best"][1], c["best"][0], c["best"][2], c["best"][0],
                c["requests"], c["runs"], c["sectors"], c["runs"]))
    text = note("from `cachesim compare`'s joined CSVs {}, written by `{}` (the targets: L1 within 3 points and "
                "none beyond 6; L2 within 5 on stencil launches; the best schedule of each group of 3 or more "
                "schedules the chip's best or within 1 point; request and sector counts exact)".format(
                    ", ".join("`{}`".format(p) for p in used) or "(none yet)", command))
    left_out = []
    for path in used:
        with open(os.path.join(ROOT, path[:-len(".csv")] + ".txt")) as f:
            left_out += [l.strip() for l in f if re.match(r"^  \S+:\d+: ", l)]
    if left_out:
        text += note("rows left out, their counters contradicting each other: " + "; ".join(
            "`{}`".format(l) for l in left_out))
    if missing:
        text += note("not yet in the repository, so not in the table: {}".format(
            ", ".join("`{}`".format(p) for p in missing)))
    return text + "\n" + "\n".join(out) + "\n"


# Model runs of the sets' launches whose loops take the age weight: (folder, command, label).
DRAM_BLOCKS_RUN = ("tests/data/dram_blocks", "scripts/dram_blocks_sets.sh --jobs 2", "the warm group by first reads")
BLOCK_RANK_RUN = ("tests/data/dram_blocks_block_rank",
                  "scripts/dram_blocks_sets.sh --jobs 2 --gpu warp-age-rank=block --out tests/data/dram_blocks_block_rank",
                  "the same with one rank a block")
WARM_STEP_RUN = ("tests/data/dram_blocks_warm_step",
                 "scripts/dram_blocks_sets.sh --jobs 2 --gpu warp-age-rank=block --gpu warp-age-warm-step=0.94 "
                 "--out tests/data/dram_blocks_warm_step", "with the warm step 0.94 as well")
# (GPU, set, kernel, compilation): the launches whose loops take the age weight
DRAM_BLOCKS_PARTS = [
    ("h200", "heldout", "stencil", "index32"), ("h200", "heldout", "stencil", "unroll1"),
    ("h200", "heldout21", "matmul", "index32"), ("h200", "fresh", "stencil", "index32"),
    ("h200", "fresh-21", "matmul", "index32"), ("h200", "fresh2", "stencil", "index32"),
    ("h200", "fresh2", "stencil", "unroll1"), ("h200", "fresh2-21", "matmul", "index32"),
    ("h100", "heldout", "stencil", "index32"), ("h100", "heldout", "stencil", "unroll1"),
    ("h100", "heldout", "matmul", "index32")]


def gen_dram_blocks_sets(model_runs=(DRAM_BLOCKS_RUN,)):
    """model-studies.md: model runs (DRAM_BLOCKS_RUN and the like) on every set's launches whose loops
    take the age weight, beside the presets' rows of the same launches."""
    out = ["| GPU | set | kernel, compilation | runs | L1 within 3 | L1 beyond 6 | mean \\|L1 error\\| | "
           "best schedule within 1 by L1 | by L2 |", "|---|---|---|---:|---:|---:|---:|---:|---:|"]
    used = []
    for gpu, set_name, kernel, variant in DRAM_BLOCKS_PARTS:
        paths = ["{}/{}/{}_{}_{}.csv".format(folder, gpu, set_name, kernel, variant) for folder, _, _ in model_runs]
        if not all(os.path.exists(os.path.join(ROOT, p)) for p in paths):
            continue
        used += paths
        models = [read_csv(p) for p in paths]
        keys = {r["line"] for r in models[0]}
        runs = [[r for r in read_csv(report_path(gpu, set_name, kernel)) if r["line"] in keys]] + models
        counts = [target_counts(rows) for rows in runs]
        means = " / ".join("{:.2f}".format(mean_l1_error(rows)) for rows in runs)
        joined = lambda pick: " / ".join(str(pick(c)) for c in counts)
        out.append("| {} | {} | {}, {} | {} | {} | {} | {} | {} of {} | {} of {} |".format(
            gpu, set_name, kernel, variant, counts[0]["runs"], joined(lambda c: c["l1_3"]), joined(lambda c: c["l1_6"]),
            means, joined(lambda c: c["best"][1]), counts[0]["best"][0], joined(lambda c: c["best"][2]),
            counts[0]["best"][0]))
    commands = " and ".join("`{}`".format(command) for _, command, _ in model_runs)
    cells = " / ".join(["the presets"] + [label for _, _, label in model_runs])
    return (note("{} (cachesim compare's joined CSVs `{}`), each beside the presets' rows of the same launches in "
                 "`tests/data/GPU/fidelity_report_SET_KERNEL.csv`; each cell: {}".format(
                     commands, "`, `".join(used) or "(none yet)", cells))
            + "\n" + "\n".join(out) + "\n")


SET_NAMES = {"training": "training (the fit's own rows)", "heldout": "held-out", "fresh": "fresh",
             "fresh2": "second fresh", "fresh3": "third fresh", "fresh4": "fourth fresh"}
H100_SET_NAMES = {"training": "the H200's training configurations"}  # nothing is fitted on the H100


def set_label(gpu, set_name):
    """A set's name in the tables: on the H100 the training configurations are fitted on nothing."""
    return SET_NAMES[set_name] if gpu == "h200" else H100_SET_NAMES.get(set_name, SET_NAMES[set_name])


def gen_rates21_groups(set_names, gpu="h200"):
    """fidelity.md: each matmul group's best schedule by L2 in the given sets of GPU, the chip's
    rates over the set's own launches (3 on the H200, 1 on the H100) and over 21 side by side."""
    sets = [(report_path(gpu, name, "matmul"), report_path(gpu, RATES21_SETS[gpu][name], "matmul"))
            for name in set_names]
    few = 3 if gpu == "h200" else 1  # profiled launches of the first measurement
    several = len(set_names) > 1  # then a first column says which set a row is of
    out = [("| set " if several else "") + "| compilation | launch | the model's L2 pick | "
           "{0} launch{1}: the chip's best | the pick | 21 launches: the chip's best | the pick (its range) | "
           "within 1 point ({0} / 21) |".format(few, "es" if few > 1 else ""),
           ("|---" if several else "") + "|---|---|---|---|---:|---|---:|---|"]
    for set_name, paths in zip(set_names, sets):
        runs = []
        for path in paths:
            groups = {}
            for r in read_csv(path):
                key = (r["variant"] or "index64", r["width"], r["height"], r["depth"], r["block"])
                groups.setdefault(key, []).append(r)
            runs.append(groups)
        for key in runs[0]:
            variant, width, height, depth, block = key
            cells, verdicts = [], []
            for groups, with_range in zip(runs, (False, True)):
                pick, best, loss = schedule_pick(groups[key], L2R)  # both runs simulate alike: the same pick
                cells.append("`{}` {:.2f}".format(best["schedule"], float(best[M + L2R])))
                picked = "{:.2f}".format(float(pick[M + L2R]))
                if with_range:
                    picked += " ({:.1f}–{:.1f})".format(float(pick[M + "l2_hit_rate.pct:min"]),
                                                        float(pick[M + "l2_hit_rate.pct:max"]))
                cells.append(picked)
                verdicts.append("yes" if loss <= BEST_WITHIN_POINTS else "no, {:.2f} below".format(loss))
            row = "| {} | {}x{}, depth {}, block {} | `{}` | {} | {} |".format(
                variant, width, height, depth, block, pick["schedule"], " | ".join(cells), " / ".join(verdicts))
            label = set_label(gpu, set_name)
            out.append(("| {} ".format(label) if several else "") + row)
    merges = "; ".join("`scripts/merge_profile_runs.py tests/data/{0}/{1}_matmul.csv tests/data/{0}/{1}_matmul_rates21.csv "
                       "--out tests/data/{0}/{2}_matmul.csv`".format(gpu, name, RATES21_SETS[gpu][name])
                       for name in set_names)
    return note("from `cachesim compare`'s joined CSVs {}, written by `scripts/fidelity_report.sh` (the "
                "21-launch sets' measured rates from {}; the simulated rates are the same in both); the chip's "
                "L2 rates above 100% are shown as compare caps them".format(
                    ", ".join("`{}`".format(p) for pair in sets for p in pair), merges)) + "\n" + "\n".join(out) + "\n"


def overview_paths(gpu, set_name):
    """The report files of one set in README's table: the matmul with its hit rates over 21
    profiled launches where it was measured so (as the H200's training matmul is)."""
    kernels = {k: set_name for k in REPORT_KERNELS}
    if set_name in RATES21_SETS[gpu]:
        kernels["matmul"] = RATES21_SETS[gpu][set_name]
    return [report_path(gpu, s, k) for k, s in kernels.items()]


def overview_rows(gpu, set_name):
    """The rows of one set of GPU as README's table takes them (overview_paths), and the files
    among those paths that exist."""
    rows, used = [], []
    for path in overview_paths(gpu, set_name):
        if os.path.exists(os.path.join(ROOT, path)):
            used.append(path)
            rows += read_csv(path)
    return rows, used


OTHER = S + "l1_hit_rate_other_block.pct"  # points of the simulated L1 rate from another block
OTHER_BUCKETS = [(0, 1), (1, 5), (5, 10), (10, 20), (20, 40), (40, 100)]


def gen_hit_sources():
    """gpu-model.md: the training matmul at block 128, each schedule's hits from other blocks."""
    path = report_path("h200", "training", "matmul")
    out = ["| schedule | the chip's L1 % | the model's L1 % | of which from another block (points) | error (points) |",
           "|---|---:|---:|---:|---:|"]
    for r in read_csv(path):
        if r["block"] != "128":
            continue
        out.append("| `{}` | {:.1f} | {:.1f} | {:.1f} | {:+.1f} |".format(
            r["schedule"], float(r[M + L1R]), float(r[S + L1R]), float(r[OTHER]), l1_error(r)))
    return note("`{}`, written by `scripts/fidelity_report.sh` (`cachesim compare --preset h200`: the 1024³ "
                "matmul at block 128, the training set)".format(path)) + "\n" + "\n".join(out) + "\n"


def gen_hit_sources_errors():
    """fidelity.md: the L1 error of every launch of both chips by the points of its simulated
    L1 rate that come from another block."""
    groups = [("h200", "training (the fit's own rows)", lambda r: r["set"] == "training"),
              ("h200", "held-out and the fresh sets", lambda r: r["set"] != "training"),
              ("h100", "every set (nothing fitted on this chip)", lambda r: True)]
    out = ["| GPU | set | from another block (points) | launches | L1 within 3 points | L1 beyond 6 | "
           "mean \\|L1 error\\| | error range (points) |",
           "|---|---|---|---:|---:|---:|---:|---|"]
    used = []
    for gpu, label, keep in groups:
        rows = []
        for set_name in ALL_REPORT_SETS:
            for path in overview_paths(gpu, set_name):  # the matmul over 21 launches
                if not os.path.exists(os.path.join(ROOT, path)):
                    continue
                if path not in used:
                    used.append(path)
                rows += [r for r in read_csv(path) if keep(r)]
        for lo, hi in OTHER_BUCKETS:
            members = [r for r in rows if lo <= float(r[OTHER]) < hi or (hi == 100 and float(r[OTHER]) >= hi)]
            if not members:
                continue
            errors = [l1_error(r) for r in members]
            out.append("| {} | {} | {}{} | {} | {} | {} | {:.2f} | {:+.1f} to {:+.1f} |".format(
                gpu, label, lo, "–{}".format(hi) if hi < 100 else " or more", len(members),
                sum(abs(e) <= 3 for e in errors), sum(abs(e) > 6 for e in errors),
                sum(abs(e) for e in errors) / len(errors), min(errors), max(errors)))
    return note("from `cachesim compare`'s joined CSVs {}, written by `scripts/fidelity_report.sh` (each "
                "launch simulated with its chip's preset, every matmul with its hit rates over 21 launches; `simulated:l1_hit_rate_other_block.pct` is the "
                "points of the simulated L1 hit rate from sectors another block on the SM brought)".format(
                    ", ".join("`{}`".format(p) for p in used))) + "\n" + "\n".join(out) + "\n"


LATENCIES_RUNS = [
    ("every latency", "tests/data/cycles_latencies", "--gpu lat-dram=691 --gpu lat-l2-far=460"),
    ("DRAM wait alone", "tests/data/cycles_dram", "--gpu lat-dram=691"),
    ("without the far half and DRAM", CYCLES_NO_LRC_DIR, ""),
    ("the presets", "tests/data", None),
]
LATENCIES_ROWS = [("training", "", "training matmul"), ("heldout", "index64", "held-out matmul, index64"),
                  ("heldout", "index32", "held-out matmul, index32"), ("heldout", "unroll1", "held-out matmul, unroll1"),
                  ("fresh", "index64", "fresh matmul, index64"), ("fresh", "index32", "fresh matmul, index32"),
                  ("fresh2", "index64", "second fresh matmul, index64")]


def gen_cycles_latencies():
    """model-studies.md: cycle timing's latencies on the H200's matmul sets, against the presets."""
    header = "| set | " + " | ".join(label for label, _, _ in LATENCIES_RUNS) + " |"
    out = [header, "|---" * (len(LATENCIES_RUNS) + 1) + "|"]
    used = []
    for set_name, variant, label in LATENCIES_ROWS:
        cells = []
        for _, base, _ in LATENCIES_RUNS:
            path = report_path("h200", set_name, "matmul", base)
            if path not in used:
                used.append(path)
            rows = [r for r in read_csv(path) if r["variant"] in ((variant, "") if variant == "index64" else (variant,))]
            errors = [abs(l1_error(r)) for r in rows]
            cells.append("{}/{}, {}, {:.2f}".format(sum(e <= 3 for e in errors), len(errors), sum(e > 6 for e in errors),
                                                    sum(errors) / len(errors)))
        out.append("| {} | {} |".format(label, " | ".join(cells)))
    base_cmd = ("scripts/fidelity_report.sh --by-row --jobs 32 --gpu carveout-rule=occupancy --gpu timing=cycles "
                "--gpu warp-scheduler=gto --gpu load-gates=burst --gpu issue-cycles=auto --gpu lrc-hit-cycles=0 --gpu "
                "lrc-miss-cycles=0")
    commands = "; ".join("{}: `{} {}--out {} h200`".format(label, base_cmd, extra + " " if extra else "", base)
                         for label, base, extra in LATENCIES_RUNS if extra is not None)
    return note("L1 within 3 points / beyond 6 / mean \\|error\\| of the H200's matmul launches, from `cachesim "
                "compare`'s joined CSVs {}; cycle timing with greedy then oldest, one wait per burst, the measured "
                "issue cost and no L2 request coalescer, nothing fitted, with the occupancy rule's carve-out (the "
                "presets with the driver's): {}".format(
                    ", ".join("`{}`".format(p) for p in used), commands)) + "\n" + "\n".join(out) + "\n"


def gen_fidelity_overview():
    """README's one table: every set of each chip, all compilations together."""
    out = ["| GPU | set | launches | L1 within 3 points | L1 beyond 6 | mean \\|L1 error\\| | "
           "L2 within 5, stencils | best schedule within 1 point (L1) |",
           "|---|---|---:|---:|---:|---:|---:|---:|"]
    used = []
    for gpu in REPORT_GPUS:
        for set_name in ALL_REPORT_SETS:
            rows, paths = overview_rows(gpu, set_name)
            used += paths
            if not rows:
                continue
            c = target_counts(rows)
            mean = sum(abs(float(r[S + L1R]) - float(r[M + L1R])) for r in rows) / len(rows)
            name, notes = SET_NAMES[set_name], []
            if gpu != "h200" and set_name == "training":
                name, notes = "the H200's training configurations", ["nothing fitted on this chip"]
            if set_name in RATES21_SETS[gpu]:
                notes.append("the matmul's hit rates over 21 launches, as the H200's training matmul's")
            if notes:
                name += " ({})".format("; ".join(notes))
            out.append("| {} | {} | {} | {}/{} ({:.0f}%) | {} | {:.2f} | {}/{} | {}/{} |".format(
                gpu, name, c["runs"], c["l1_3"], c["runs"], 100.0 * c["l1_3"] / c["runs"], c["l1_6"], mean,
                c["l2_5_stencil"], c["stencil"], c["best"][1], c["best"][0]))
    return note("from `cachesim compare`'s joined CSVs {}, written by `{}`; every compilation of a set "
                "together (per compilation: [docs/fidelity.md](docs/fidelity.md#per-set-training-and-held-out-on-the-h200-and-the-h100))".format(
                    ", ".join("`{}`".format(p) for p in used), REPORT_CMD)) + "\n" + "\n".join(out) + "\n"
