"""Cycle timing's issue cost and the presets' fitted and measured timing values."""

import json
import os
import re
from issue_cost_table import ncu_rows  # scripts/, beside this package

from docgen.common import H200, L1R, L2R, M, ROOT, S, ncu_number, note, num, read_csv, run
from docgen.sets import REPORT_CMD, l1_error, mean_l1_error, report_path, target_counts


ISSUE_COST = H200 + "/issue_cost"
COMPILATIONS = ["index64", "index32", "unroll1"]


def gen_issue_cost_loops():
    path = ISSUE_COST + "/issue_cost.csv"
    rows = read_csv(path)
    loops = {}
    for r in rows:
        box = "matmul" if r["kernel"] == "matmul" else "stencil {}x{}".format(r["stencil_w"], r["stencil_h"])
        loops.setdefault(box, {})[r["variant"]] = r
    out = ["| loop | " + " | ".join(COMPILATIONS) + " |", "|---|" + "---:|" * len(COMPILATIONS)]
    for box, by in loops.items():
        out.append("| {} | {} |".format(box, " | ".join(
            "{} ({})".format(by[v]["cycles_per_request"], by[v]["busiest"]) for v in COMPILATIONS)))
    return note("from `{}`, written by `scripts/issue_cost_table.py {}` from `scripts/device_issue_cost.sh probe`'s "
                "Nsight Compute counters (cycles of a warp scheduler per global load request, and what limits it: "
                "the issue port or a pipe)".format(path, ISSUE_COST)) + "\n" + "\n".join(out) + "\n"


def gen_issue_cost_states():
    stall = "smsp__average_warps_issue_stalled_{}_per_issue_active.ratio"
    out = ["| launch | schedule | compilation | L1 hit % | cycles | issue slots used | waiting on memory "
           "| pipe throttle | dispatch stall |",
           "|---|---|---|---:|---:|---:|---:|---:|---:|"]
    sources = []
    for size in ("1536", "1024"):
        states = ISSUE_COST + "/warp_states_{}.csv".format(size)
        configs = ISSUE_COST + "/rows_warp_states_{}.csv".format(size)
        sources += [states, configs]
        for launch, config in zip(ncu_rows(os.path.join(ROOT, states)), read_csv(configs)):
            value = lambda k: ncu_number(launch[k])
            out.append("| {}³ d{} b{} | {} | {} | {:.1f} | {} | {:.0f}% | {:.1f} | {:.1f} | {:.1f} |".format(
                config["width"], config["depth"], config["block"], config["schedule"], config["variant"],
                value("l1tex__t_sector_pipe_lsu_mem_global_op_ld_hit_rate.pct"),
                num(value("gpc__cycles_elapsed.max")),
                value("smsp__issue_active.avg.pct_of_peak_sustained_active"),
                value(stall.format("long_scoreboard")), value(stall.format("math_pipe_throttle")),
                value(stall.format("dispatch_stall"))))
    return note("from {}, written by `scripts/device_issue_cost.sh states` (Nsight Compute: the share of a "
                "scheduler's cycles it issued; then, per instruction issued, the warps waiting on a global load "
                "(long scoreboard), on a busy pipe (math pipe throttle) and held at dispatch)".format(
                    ", ".join("`{}`".format(p) for p in sources))) + "\n" + "\n".join(out) + "\n"


ISSUE_COST_RUNS = [  # (file stem under ISSUE_COST/compare, scheduler, where a warp waits, L1-miss port)
    ("gto_burst", "greedy then oldest", "after its burst", "none"),
    ("gto_sass", "greedy then oldest", "at the SASS's load gates", "none"),
    ("gto_sass_bw", "greedy then oldest", "at the SASS's load gates", "0.6"),
    ("lrr_sass", "loose round robin", "at the SASS's load gates", "none"),
]
ISSUE_COST_SETS = [("training_matmul", "training matmul"), ("training_stencil", "training stencil"),
                   ("heldout_matmul_index64", "held-out matmul, index64"),
                   ("heldout_matmul_index32", "held-out matmul, index32"),
                   ("heldout_matmul_unroll1", "held-out matmul, unroll1")]


def gen_issue_cost_runs():
    out = ["| scheduler | a warp waits | L1-miss port | set | runs | L1 within 3 | L1 beyond 6 | mean \\|L1 error\\| "
           "| L2 within 5 | naive (linear) L1 error | `column:128` L1 error |",
           "|---|---|---|---|---:|---:|---:|---:|---:|---|---|"]
    used = []
    for stem, scheduler, waits, port in ISSUE_COST_RUNS:
        for name, label in ISSUE_COST_SETS:
            path = "{}/compare/{}_{}.csv".format(ISSUE_COST, stem, name)
            if not os.path.exists(os.path.join(ROOT, path)):
                continue
            used.append(path)
            rows = read_csv(path)
            c = target_counts(rows)
            pick = lambda schedule: ", ".join("{:+.1f}".format(l1_error(r)) for r in rows
                                              if r["schedule"] == schedule) if "matmul" in name else ""
            out.append("| {} | {} | {} | {} | {} | {}/{} | {} | {:.2f} | {}/{} | {} | {} |".format(
                scheduler, waits, port, label, c["runs"], c["l1_3"], c["runs"], c["l1_6"],
                mean_l1_error(rows), c["l2_5"], c["runs"], pick("linear"),
                pick("column:128")))
    return note("from `cachesim compare`'s joined CSVs {} (`cachesim compare --preset h200 --gpu timing=cycles "
                "--gpu issue-cycles=auto --gpu issue-burst=auto --gpu compilation=V --gpu carveout-rule=occupancy`, with `--gpu "
                "warp-scheduler=gto`, `--gpu load-gates=burst` and `--gpu l1-miss-bandwidth=0.6` as the row says, on "
                "the H200's measured rows of the set and compilation V)".format(
                    ", ".join("`{}`".format(p) for p in used))) + "\n" + "\n".join(out) + "\n"


def h200_parameters():
    """The h200 preset's parameters as `cachesim simulate` reports them (a tiny launch)."""
    return json.loads(run(["simulate", "--model", "gpu", "--preset", "h200", "--size", "64x64",
                           "--format", "json"]))["parameters"]


DRIFT_PROBE = H200 + "/drift_probe"
DRIFT_MODELS = [  # (file stem under DRIFT_PROBE/compare, column label; None: the preset's values)
    ("preset", None),
    ("redraw_0.3", "skip 1, redraw 0.3"),
    ("fixed_0.05", "skip 1, fixed rates 0.05"),
    ("redraw_0.6", "skip 1, redraw 0.6"),
    ("redraw_1.0", "skip 1, redraw 1.0"),
    ("cycles_gto", "cycles, gto"),
]


def gen_drift_probe():
    preset = h200_parameters()
    preset_label = "preset (skip {}, redraw {})".format(preset["block_start_skip"], preset["warp_rate_spread"])
    runs = [(label or preset_label, {(r["variant"], r["schedule"], r["block"]): r
                                     for r in read_csv("{}/compare/{}.csv".format(DRIFT_PROBE, stem))})
            for stem, label in DRIFT_MODELS]
    measured = read_csv(DRIFT_PROBE + "/drift_probe_matmul.csv")
    out = ["| compilation | schedule | block | H200 L1 % | " + " | ".join(label for label, _ in runs) + " |",
           "|---|---|---:|---:|" + "---:|" * len(runs)]
    within = {label: {} for label, _ in runs}
    for m in measured:
        key = (m["variant"], m["schedule"], m["block"])
        errors = []
        for label, rows in runs:
            r = rows[key]
            e = l1_error(r)
            errors.append("{:+.1f}".format(e))
            counts = within[label].setdefault(m["variant"], [0, 0])
            counts[0] += abs(e) <= 3
            counts[1] += 1
        out.append("| {} | {} | {} | {:.1f} | {} |".format(key[0], key[1], key[2], float(m[L1R]), " | ".join(errors)))
    variants = list(dict.fromkeys(m["variant"] for m in measured))
    out.append("| within 3 points ({}) | | | | {} |".format(
        " / ".join(variants),
        " | ".join(" / ".join("{}".format(within[label][v][0]) for v in variants) for label, _ in runs)))
    sources = [DRIFT_PROBE + "/drift_probe_matmul.csv"] + \
        ["{}/compare/{}.csv".format(DRIFT_PROBE, stem) for stem, _ in DRIFT_MODELS]
    return (note("from {}: the H200's rows from `scripts/device_heldout.sh drift`, the model's from "
                 "`scripts/drift_probe_report.sh` (`cachesim compare --preset h200` with the options of "
                 "each column, each row simulated with its own compilation); the model's L1 error in points".format(
                     ", ".join("`{}`".format(p) for p in sources)))
            + "\n" + "\n".join(out) + "\n")


def gen_heldout_index64_summary():
    """fidelity.md: the h200 preset on the held-out launches compiled as the training set (index64),
    per kernel, from the joined CSVs."""
    out = ["| kernel | launches | mean \\|L1 error\\| | worst \\|L1 error\\| | L1 within 3 | mean \\|L2 error\\| "
           "| worst \\|L2 error\\| | L2 within 5 | best schedule the chip's best or within 1 point (L1 / L2) |",
           "|---|---:|---:|---:|---:|---:|---:|---:|---:|"]
    used = []
    for kernel in ("stencil", "matmul"):
        path = report_path("h200", "heldout", kernel)
        used.append(path)
        rows = [r for r in read_csv(path) if r["variant"] in ("", "index64")]
        l1 = [abs(l1_error(r)) for r in rows]
        l2 = [abs(float(r[S + L2R]) - float(r[M + L2R])) for r in rows]
        c = target_counts(rows)
        out.append("| {} | {} | {:.2f} | {:.2f} | {}/{} | {:.2f} | {:.2f} | {}/{} | {}/{} / {}/{} |".format(
            kernel, len(rows), mean_l1_error(rows), max(l1), c["l1_3"], len(rows), sum(l2) / len(l2), max(l2),
            c["l2_5"], len(rows), c["best"][1], c["best"][0], c["best"][2], c["best"][0]))
    return (note("the index64 rows of {}, written by `{}`; errors in points; the best schedule over each group "
                 "of 3 or more schedules".format(", ".join("`{}`".format(p) for p in used), REPORT_CMD))
            + "\n" + "\n".join(out) + "\n")


def grid_row(cells, bold):
    """A row of a fitted grid's table, every cell in bold for the pair chosen."""
    mark = "**" if bold else ""
    return "| " + " | ".join(mark + str(c) + mark for c in cells) + " |"


def gen_training_grid(base, pattern, options, columns, command):
    """model-studies.md: a pair of parameters tried over a grid on the H200's training set, the pair
    chosen in bold (base/grid/NAME for the others, base/h200 for the chosen pair's rows). pattern:
    a folder name's two values; options: the chosen pair as --gpu options, matched by the same
    two keys; columns: the two values' headings."""
    name = re.compile(pattern + "$")
    keys = re.findall(r"--gpu ([a-z-]+)=[A-Z](?![\w.])", command)  # the two the grid varies
    chosen = tuple(re.search(r"--gpu {}=([0-9.]+)".format(k), options).group(1) for k in keys)
    grid = {m.groups(): "{}/grid/{}".format(base, m.group(0)) for m in
            (name.match(d) for d in os.listdir(os.path.join(ROOT, base, "grid"))) if m}
    grid[chosen] = base + "/h200"
    out = ["| {} | {} | training matmul: L1 within 3 | beyond 6 | mean \\|L1 error\\| "
           "| training stencils: L1 within 3 | L2 within 5 |".format(*columns), "|---:|---:|---:|---:|---:|---:|---:|"]
    for pair in sorted(grid, key=lambda k: tuple(float(x) for x in k)):
        matmul = read_csv(grid[pair] + "/fidelity_report_training_matmul.csv")
        stencil = read_csv(grid[pair] + "/fidelity_report_training_stencil.csv")
        m, t = target_counts(matmul), target_counts(stencil)
        out.append(grid_row([*pair, "{}/{}".format(m["l1_3"], m["runs"]), m["l1_6"],
                             "{:.2f}".format(mean_l1_error(matmul)), "{}/{}".format(t["l1_3"], t["runs"]),
                             "{}/{}".format(t["l2_5_stencil"], t["stencil"])], pair == chosen))
    return (note("from `{0}/grid/*/fidelity_report_training_{{stencil,matmul}}.csv` and, for the pair in bold, "
                 "`{0}/h200`, written by `{1} --out DIR h200:training:stencil h200:training:matmul` (the H200's "
                 "training set only)".format(base, command)) + "\n" + "\n".join(out) + "\n")


START_SKIP_FIT = H200 + "/start_skip_fit"


def gen_start_skip_fit():
    pattern = re.compile(r"train_s(\d+)_([0-9.]+)\.csv$")
    pairs = sorted((int(m.group(1)), m.group(2)) for m in
                   (pattern.match(f) for f in os.listdir(os.path.join(ROOT, START_SKIP_FIT))) if m)
    preset = h200_parameters()
    chosen = (int(preset["block_start_skip"]), preset["warp_rate_spread"])

    out = ["| block start skip | rate spread | training matmul: L1 within 3 | beyond 6 | mean \\|L1 error\\| "
           "| index64 probes: L1 within 3 | mean \\|L1 error\\| | fit set (37 rows): mean \\|L1 error\\| |",
           "|---:|---:|---:|---:|---:|---:|---:|---:|"]
    for skip, spread in pairs:
        train = read_csv("{}/train_s{}_{}.csv".format(START_SKIP_FIT, skip, spread))
        probe = read_csv("{}/probe_s{}_{}.csv".format(START_SKIP_FIT, skip, spread))
        t, p = target_counts(train), target_counts(probe)
        out.append(grid_row([skip, spread, "{}/{}".format(t["l1_3"], t["runs"]), t["l1_6"],
                             "{:.2f}".format(mean_l1_error(train)), "{}/{}".format(p["l1_3"], p["runs"]),
                             "{:.2f}".format(mean_l1_error(probe)), "{:.2f}".format(mean_l1_error(train + probe))],
                            (skip, spread) == chosen))
    return (note("from `{}/{{train,probe}}_sJ_S.csv`, written by `scripts/start_skip_fit.sh` (`cachesim compare "
                 "--preset h200 --gpu block-start-skip=J --gpu warp-rate-spread=S` on "
                 "`tests/data/h200/fidelity_matmul_spread21.csv` and rows 1-10 of "
                 "`tests/data/h200/drift_probe/drift_probe_matmul.csv`); in bold the preset's pair".format(START_SKIP_FIT))
            + "\n" + "\n".join(out) + "\n")


AGE_WEIGHT_SWEEP = H200 + "/age_weight_sweep"


def presets_age_weight():
    """The warp age weight the h200 preset applies to the loop it was fitted on (the 32-bit matmul)."""
    applied = json.loads(run(["simulate", "--model", "gpu", "--preset", "h200", "--workload", "matmul", "--size",
                              "64x64", "--depth", "64", "--compilation", "index32", "--format", "json"]))
    return applied["parameters"]["warp_age_weight"]


def gen_age_weight_sweep():
    pattern = re.compile(r"probe_w([0-9.]+)\.csv$")
    weights = sorted((m.group(1) for m in (pattern.match(f) for f in os.listdir(os.path.join(ROOT, AGE_WEIGHT_SWEEP)))
                      if m), key=float)
    chosen = float(presets_age_weight())
    moved = [("linear", 128), ("linear", 256), ("column:128", 128), ("column:128", 256)]
    out = ["| warp age weight | " + " | ".join("`{}` b{}".format(s, b) for s, b in moved)
           + " | other schedules: worst \\|L1 error\\| | L1 within 3 | beyond 6 | mean \\|L1 error\\| |",
           "|---:|" + "---:|" * (len(moved) + 4)]
    for w in weights:
        rows = read_csv("{}/probe_w{}.csv".format(AGE_WEIGHT_SWEEP, w))
        err = {(r["schedule"], int(r["block"])): l1_error(r) for r in rows}
        others = [abs(e) for key, e in err.items() if key not in moved]
        counts = target_counts(rows)
        cells = ["{:+.1f}".format(err[key]) for key in moved] + [
            "{:.1f}".format(max(others)), "{}/{}".format(counts["l1_3"], counts["runs"]), str(counts["l1_6"]),
            "{:.2f}".format(mean_l1_error(rows))]
        mark = "**" if abs(float(w) - chosen) < 1e-9 else ""
        out.append("| {m}{}{m} | ".format(w, m=mark) + " | ".join(mark + c + mark for c in cells) + " |")
    return (note("from `{}/probe_wW.csv`, written by `scripts/age_weight_sweep.sh` (`cachesim compare --preset h200 "
                 "--gpu warp-age-weight=W` on rows 11-20 of `tests/data/h200/drift_probe/drift_probe_matmul.csv`, "
                 "the index32 768^3 compilation probes, the presets' group of 12 kept); the model's L1 error in points; "
                 "in bold the weight the presets give loops a pipe limits, measured from the chip's warp "
                 "ends".format(AGE_WEIGHT_SWEEP))
            + "\n" + "\n".join(out) + "\n")


NO_AGE_DIR = "tests/data/no_age_weight"
NO_AGE_CMD = ("scripts/fidelity_report.sh --jobs 16 --gpu carveout-rule=occupancy --gpu warp-age-weight=1 --gpu miss-wait-turns=0 --out tests/data/no_age_weight "
              "h200:heldout:matmul h100:heldout:matmul h200:fresh:matmul h200:fresh:stencil")
# The files the presets' warp age weight is checked on: (GPU, set, kernel).
AGE_WEIGHT_CHECKS = [("h200", "heldout", "matmul"), ("h100", "heldout", "matmul"), ("h200", "fresh", "matmul"),
                     ("h200", "fresh", "stencil")]


def gen_age_weight_sets():
    out = ["| GPU | set | kernel | compilation | runs | no weight: L1 within 3 | beyond 6 | mean \\|L1 error\\| "
           "| L2 within 5 | the presets: L1 within 3 | beyond 6 | mean \\|L1 error\\| | L2 within 5 |",
           "|---|---|---|---|---:|---:|---:|---:|---:|---:|---:|---:|---:|"]
    used = []
    for gpu, set_name, kernel in AGE_WEIGHT_CHECKS:
        paths = [report_path(gpu, set_name, kernel, NO_AGE_DIR), report_path(gpu, set_name, kernel)]
        used += paths
        plain, preset = (read_csv(p) for p in paths)
        for variant in ("index32", "index64"):
            if not any(r["variant"] == variant for r in preset) or (set_name == "heldout" and variant == "index64"):
                continue  # the weight is 1 for index64: the held-out rows are the per-set table's
            cells = []
            for rows in (plain, preset):
                rows = [r for r in rows if r["variant"] == variant]
                c = target_counts(rows)
                cells += ["{}/{}".format(c["l1_3"], c["runs"]), str(c["l1_6"]), "{:.2f}".format(mean_l1_error(rows)),
                          "{}/{}".format(c["l2_5"], c["runs"])]
            out.append("| {} | {} | {} | {} | {} | ".format(gpu, set_name, kernel, variant, c["runs"])
                       + " | ".join(cells) + " |")
    return (note("the index32 rows (and the fresh index64 ones) of {}, the first of each pair written by `{}`, the "
                 "others by `scripts/fidelity_report.sh` (the presets: weight {} for the index32 loops, which a "
                 "pipe limits, 1 for index64)".format(
                     ", ".join("`{}`".format(p) for p in used), NO_AGE_CMD, presets_age_weight()))
            + "\n" + "\n".join(out) + "\n")


def gen_age_weight_fresh_rows():
    weight = presets_age_weight()
    schedules = None
    out = []
    plain = read_csv(report_path("h200", "fresh", "matmul", NO_AGE_DIR))
    preset = read_csv(report_path("h200", "fresh", "matmul"))
    key = lambda r: (r["width"], r["depth"], r["block"], r["variant"])
    groups = []
    for r in preset:
        if r["variant"] == "index32" and key(r) not in groups:
            groups.append(key(r))
    for g in groups:
        rows = {r["schedule"]: r for r in preset if key(r) == g}
        base = {r["schedule"]: r for r in plain if key(r) == g}
        if schedules is None:
            schedules = list(rows)
            out = ["| launch (index32) | model | " + " | ".join("`{}`".format(s) for s in schedules) + " |",
                   "|---|---|" + "---:|" * len(schedules)]
        width, depth, block, _ = g
        name = "{}² d{} b{}".format(width, depth, block)
        out.append("| {} | the chip's L1 % | ".format(name) + " | ".join(
            "{:.1f}".format(float(rows[s][M + L1R])) for s in schedules) + " |")
        for label, src in (("no weight", base), ("the presets ({})".format(weight), rows)):
            out.append("| | {} | ".format(label) + " | ".join("{:+.1f}".format(l1_error(src[s])) for s in schedules)
                       + " |")
    return (note("`{}` and `{}`: the chip's L1 hit rate, then the model's error in points".format(
        report_path("h200", "fresh", "matmul", NO_AGE_DIR), report_path("h200", "fresh", "matmul")))
            + "\n" + "\n".join(out) + "\n")
