"""The depth and knee probes: what limits a compiled loop and how its warps part."""

import csv
import functools
import gzip
import os
from issue_cost_table import busiest_unit, loop_limit, unit_costs  # scripts/, beside this package

from docgen.common import H200, L1H, L1R, L1S, M, ROOT, S, ncu_number, note, read_csv
from docgen.sets import l1_error, l1_error_counts, mean_l1_error, report_label, target_counts
from docgen.timing_fits import DRIFT_PROBE, ISSUE_COST, h200_parameters, presets_age_weight


DEPTH_PROBE = H200 + "/depth_probe"
DEPTH_MODELS = [  # (file stem under */compare, row label)
    ("preset", "the presets"),
    ("no_age_weight", "no age weight"),
    ("first_form", "every older warp weighing 0.95"),
    ("cycles_gto", "cycle timing (gto, issue cost)"),
    ("cycles_gto_lat650", "the same, L1 miss 650 cycles"),
]


def gen_depth_probe():
    """The 32-bit build's L1 as its loop grows: the index32 compilation probes (depth 768) and the
    depth probes, the chip against each model."""
    weight = presets_age_weight()
    launch = lambda r: (int(r["width"]), int(r["height"]), int(r["depth"]))
    sources = []
    runs = {}
    for stem, label in DEPTH_MODELS:
        rows = []
        for path in ("{}/compare/{}.csv".format(DRIFT_PROBE, stem), "{}/compare/{}.csv".format(DEPTH_PROBE, stem)):
            rows += [r for r in read_csv(path) if r["variant"] == "index32"]
            sources.append(path)
        runs[label] = {(launch(r), r["schedule"], r["block"]): r for r in rows}
    first = runs[DEPTH_MODELS[0][1]]
    launches = sorted({k[0] for k in first}, key=lambda l: (l[0] * l[1] != 768 * 768, l[2]))
    shown = ["linear", "column:64", "column:128"]
    out = ["| schedule | block | | " + " | ".join("{}x{} d{}".format(*l) for l in launches) + " |",
           "|---|---:|---|" + "---:|" * len(launches)]
    for schedule in shown:
        for block in ("128", "256"):
            out.append("| `{}` | {} | the chip's L1 % | ".format(schedule, block) + " | ".join(
                "{:.1f}".format(float(first[(l, schedule, block)][M + L1R])) for l in launches) + " |")
            for _, label in DEPTH_MODELS:
                out.append("| | | {} | ".format(label) + " | ".join(
                    "{:+.1f}".format(l1_error(runs[label][(l, schedule, block)])) for l in launches) + " |")
    summary = []
    for _, label in DEPTH_MODELS:
        errors = [l1_error(r) for r in runs[label].values()]
        summary.append("{}: {}".format(label, l1_error_counts(errors)))
    return (note("from {}: the chip's index32 rows of `scripts/device_heldout.sh drift` and `depth`, the model's "
                 "from `scripts/drift_probe_report.sh preset no_age_weight first_form cycles_gto cycles_gto_lat650` (the presets: "
                 "a group of 12, warp age weight {} for this loop; no age weight: `--gpu warp-age-weight=1`; every older "
                 "warp weighing 0.95: `--gpu warp-age-group=1 --gpu warp-age-weight=0.95`; cycle timing: `--gpu timing=cycles "
                 "--gpu warp-scheduler=gto --gpu issue-cycles=auto`, and with `--gpu lat-l1-miss=650`); the model's L1 error in points; `column:32` and "
                 "`tiled:32x32` are in the files and the summary".format(
                     ", ".join("`{}`".format(p) for p in sources), weight))
            + "\n" + "\n".join(out) + "\n\n" + "\n".join("- " + line for line in summary) + "\n")


KNEE_PROBES = [  # (file stem under ISSUE_COST, width, row label)
    ("knee", 128, "every block the same lines of B"),
    ("knee_spread", 128 * 132, "each column of blocks its own lines"),
]
KNEE_SIZES = [1, 2, 3, 4, 6, 8, 12, 16]  # warps per scheduler
KNEE_DEPTH = 3072
KNEE_REQUESTS = 2 * KNEE_DEPTH  # per warp: A and B each k
KNEE_LAT650 = ISSUE_COST + "/knee_cycles_lat650.csv"


def knee_warps(r):
    """Warps per scheduler of a knee launch: its 128-thread blocks over the 132 SMs."""
    return int(r["width"]) * int(r["height"]) // int(r["block"]) // 132


def knee_chip(stem):
    """The chip's knee launches of ISSUE_COST/STEM.csv (ncu) and rows_STEM.csv (their
    configurations, in the same order): {(compilation, warps per scheduler): (cycles, L1 hit %)}."""
    ncu_path, rows_path = "{}/{}.csv".format(ISSUE_COST, stem), "{}/rows_{}.csv".format(ISSUE_COST, stem)
    chip = {}
    for n, g in zip(read_csv(ncu_path), read_csv(rows_path)):
        if int(n["Grid Size"].strip("()").split(",")[0]) * int(g["block"]) != int(g["width"]) * int(g["height"]):
            raise SystemExit("make_docs: {} and {} are not in the same order".format(ncu_path, rows_path))
        chip[(g["variant"], knee_warps(g))] = (ncu_number(n["gpc__cycles_elapsed.max"]), ncu_number(n[L1R]))
    return chip


def knee_model(path):
    """Cycle timing's knee launches from a `cachesim sweep` CSV: the same keys, (cycles, L1 hit %)."""
    return {(r["compilation"], knee_warps(r)): (float(r["rounds"]), float(r[L1R])) for r in read_csv(path)}


def knee_sweep_command(width, out):
    rows = (lambda m: 132 * m * 128 // width)
    return ("cachesim sweep --model gpu --preset h200 --workload matmul --size {} --depth {} --block 128 "
            "--schedule linear --compilation index64,index32 --timing cycles --warp-scheduler gto "
            "--issue-cycles auto -o {}".format(",".join("{}x{}".format(width, rows(m)) for m in KNEE_SIZES),
                                                KNEE_DEPTH, out))


def gen_knee():
    """Launch cycles of the matmul with 1..16 warps on each scheduler, one wave, both compilations,
    on the chip and under cycle timing."""
    out = ["| probe | compilation | | " + " | ".join(str(w) for w in KNEE_SIZES) + " |",
           "|---|---|---|" + "---:|" * len(KNEE_SIZES)]
    sources, commands = [], []
    for stem, width, label in KNEE_PROBES:
        model_path = "{}/{}_cycles.csv".format(ISSUE_COST, stem)
        sources += ["{}/{}.csv".format(ISSUE_COST, stem), "{}/rows_{}.csv".format(ISSUE_COST, stem), model_path]
        commands.append(knee_sweep_command(width, model_path))
        chip, model = knee_chip(stem), knee_model(model_path)
        for variant in ("index64", "index32"):
            for source, runs in (("the chip", chip), ("cycle timing", model)):
                cycles = lambda w: runs[(variant, w)][0]
                first = "| {} | {} | {}: cycles, relative to one warp | ".format(
                    label if variant == "index64" and source == "the chip" else "", variant, source)
                out.append(first + " | ".join("{:.2f}".format(cycles(w) / cycles(1)) for w in KNEE_SIZES) + " |")
                out.append("| | | {}: scheduler cycles per request | ".format(source) + " | ".join(
                    "{:.1f}".format(cycles(w) / (KNEE_REQUESTS * w)) for w in KNEE_SIZES) + " |")
    return (note("from {}, written by `scripts/device_issue_cost.sh knee` (Nsight Compute, the matmul with depth 3072, "
                 "block 128 and 132 x m blocks: m warps on each scheduler of every SM, one wave; width 128, one block "
                 "a row, or width 128 x 132, a row of 132 blocks; a scheduler's cycles per request are the launch's "
                 "cycles over the requests each scheduler issued) and, for cycle timing, {} (the launch's length in "
                 "cycles)".format(", ".join("`{}`".format(p) for p in sources),
                                  " and ".join("`{}`".format(c) for c in commands)))
            + "\n" + "\n".join(out) + "\n")


def gen_knee_latency():
    """The knee probe (every block the same lines of B) on the chip and under cycle timing with the
    measured near-L2 latency and with the latency that matches the chip's lone warp."""
    runs = [knee_chip("knee"), knee_model(ISSUE_COST + "/knee_cycles.csv"), knee_model(KNEE_LAT650)]
    out = ["| compilation | | the chip | cycle timing, L1 miss 291 cycles | cycle timing, L1 miss 650 cycles |",
           "|---|---|---:|---:|---:|"]
    for variant in ("index64", "index32"):
        out.append("| {} | scheduler cycles per request, one warp | ".format(variant) + " | ".join(
            "{:.1f}".format(r[(variant, 1)][0] / KNEE_REQUESTS) for r in runs) + " |")
        out.append("| | cycles at 8 / 12 / 16 warps, relative to one | " + " | ".join(
            " / ".join("{:.2f}".format(r[(variant, w)][0] / r[(variant, 1)][0]) for w in (8, 12, 16)) for r in runs)
            + " |")
        out.append("| | L1 hit % at 16 warps | " + " | ".join("{:.1f}".format(r[(variant, 16)][1]) for r in runs)
                   + " |")
    return (note("from `{}/knee.csv` (the chip, the first layout of the knee probe above), `{}/knee_cycles.csv` "
                 "and `{}`, the latter written by the same `cachesim sweep` with `--lat-l1-miss 650`".format(
                     ISSUE_COST, ISSUE_COST, KNEE_LAT650))
            + "\n" + "\n".join(out) + "\n")


KNEE_ENDS = ISSUE_COST + "/knee_ends"
KNEE_ENDS_MODELS = [("cycles_gto", "cycle timing, L1 miss 291 cycles"),
                    ("cycles_gto_lat650", "cycle timing, L1 miss 650 cycles"),
                    ("cycles_gto_lat650_turns", "the same, the chip's first wave")]
KNEE_ENDS_RUNS = [KNEE_ENDS, ISSUE_COST + "/knee_ends_more"]  # two device runs, each its ncu and rows files
KNEE_ENDS_CMD = ("scripts/warp_ends_report.py --chip {0}_index32.csv.gz --chip {1}_index32.csv.gz "
                 "--model 'cycles_gto=--carveout-rule occupancy --warp-scheduler gto "
                 "--issue-cycles auto' --model 'cycles_gto_lat650=--carveout-rule occupancy --warp-scheduler gto --issue-cycles auto "
                 "--lat-l1-miss 650' --model 'cycles_gto_lat650_turns=--carveout-rule occupancy --warp-scheduler gto --issue-cycles auto "
                 "--lat-l1-miss 650 --cta-order floorplan-turns --seed 4' --rounds 'rounds_preset=--carveout-rule occupancy' --rounds "
                 "'rounds_first_form=--carveout-rule occupancy --warp-age-group 1 --warp-age-weight 0.95' --rounds "
                 "'rounds_no_weight=--carveout-rule occupancy --warp-age-weight 1' --jobs 16 --out {0}_summary.csv".format(*KNEE_ENDS_RUNS))


def knee_ends_chip_l1():
    """The chip's L1 hit % of the warp-ends launches, {(variant, width, height, depth, schedule, block):
    (measured kernel, end-stamped kernel)}, from the ncu rows (a profiled then an end-stamped launch
    per configuration, in the order of the rows file)."""
    rate = lambda n: 100 * ncu_number(n[L1H]) / ncu_number(n[L1S])
    l1 = {}
    for run in KNEE_ENDS_RUNS:
        ncu, rows = read_csv(run + "_ncu.csv"), read_csv(run + "_rows.csv")
        if len(ncu) != 2 * len(rows):
            raise SystemExit("make_docs: {}_ncu.csv has {} rows for {} configurations".format(run, len(ncu), len(rows)))
        for i, g in enumerate(rows):
            profiled, stamped = ncu[2 * i], ncu[2 * i + 1]
            if "ProfiledLaunch" not in profiled["Kernel Name"] or "EndStampedLaunch" not in stamped["Kernel Name"]:
                raise SystemExit("make_docs: {}_ncu.csv is not in the order of its rows file".format(run))
            key = (g["variant"], g["width"], g["height"], g["depth"], g["schedule"], g["block"])
            l1[key] = (rate(profiled), rate(stamped))
    return l1


def knee_ends_summary():
    """The rows of KNEE_ENDS_summary.csv, [((width, height, depth, schedule, block), {source: row})]
    in the tables' order (by size, schedule, block)."""
    summary = {}
    for r in read_csv(KNEE_ENDS + "_summary.csv"):
        summary.setdefault((r["width"], r["height"], r["depth"], r["schedule"], r["block_size"]), {})[r["source"]] = r
    return sorted(summary.items(), key=lambda item: (int(item[0][0]), int(item[0][1]), item[0][3], int(item[0][4])))


def gen_knee_ends():
    """Which blocks end together on the chip and under cycle timing (the 32-bit build)."""
    l1 = knee_ends_chip_l1()
    summary = knee_ends_summary()
    groups = lambda r: "{} / {} / {:.2f}".format(r["first_group"], r["groups"], float(r["last_over_first"]))
    out = ["| launch (index32, depth 3072) | the chip: L1 % | the chip: blocks ending first / groups / last end "
           "over first | " + " | ".join("{}: L1 % | {}: the same".format(label, label)
                                        for _, label in KNEE_ENDS_MODELS) + " |",
           "|---|---:|---:|" + "---:|---:|" * len(KNEE_ENDS_MODELS)]
    for key, by_source in summary:
        width, height, depth, schedule, block = key
        measured, stamped = l1[("index32", width, height, depth, schedule, block)]
        cells = ["{}x{} {} b{}".format(width, height, schedule, block), "{:.1f} ({:.1f})".format(measured, stamped),
                 groups(by_source["chip"])]
        for name, _ in KNEE_ENDS_MODELS:
            cells += ["{:.1f}".format(float(by_source[name]["l1"])), groups(by_source[name])]
        out.append("| " + " | ".join(cells) + " |")
    return (note("from `{0}_index32.csv.gz` and `{1}_index32.csv.gz` (`scripts/device_progress.sh knee_ends`, the "
                 "second with `KNEE_SIZES=128x1320,128x1716,128x1848,128x1980,16896x10,16896x13,16896x14,16896x15 "
                 "DEPTH_SIZES=1536x768 VARIANTS=index32`: gpubench `--warp-ends`, launch 0), their `_ncu.csv` and "
                 "`_rows.csv` (the L1 hit rate of the measured kernel and, in brackets, of the end-stamped one whose "
                 "warp ends are summarised), and `{0}_summary.csv`, written by `{2}` (per SM the blocks sorted by "
                 "when their last warp ended, a new group wherever two ends in a row lie more than 2% of the first "
                 "apart; medians over the SMs)".format(*KNEE_ENDS_RUNS, KNEE_ENDS_CMD))
            + "\n" + "\n".join(out) + "\n")


WARP_AGE_MEASURE = ISSUE_COST + "/warp_age_measure.csv"
WARP_AGE_MEASURE_CMD = ("scripts/warp_age_measure.py --sms 132 --chip {0}_index32.csv.gz --chip {1}_index32.csv.gz "
                        "--launch 128x1848 --launch 128x1980 --launch 128x2112 --out {2}".format(
                            *KNEE_ENDS_RUNS, WARP_AGE_MEASURE))


def gen_warp_age_measure():
    """The group and the stragglers' paces from the chip's warp ends, and the W that gives them."""
    rows = read_csv(WARP_AGE_MEASURE)
    paces = [f for f in rows[0] if f.startswith("pace_")]
    out = ["| launch (index32, depth 3072, one wave) | warps a scheduler | SMs | blocks ending together (median) | "
           "stragglers | " + " | ".join("pace of straggler {}".format(p[len("pace_"):]) for p in paces) + " |",
           "|---|---:|---:|---:|---:|" + "---:|" * len(paces)]
    for r in rows:
        if r["launch"] == "all":
            cells = ["all, and W^i for the fitted W = {}".format(r["weight"]), "", r["sms"], r["group"], r["stragglers"]]
        else:
            width_height, launch = r["launch"].split("#")
            cells = ["{} `linear` b128, launch {}".format(width_height, launch), r["warps_per_scheduler"], r["sms"],
                     r["group"], r["stragglers"]]
        out.append("| " + " | ".join(cells + [r[p] for p in paces]) + " |")
    return (note("from `{}`, written by `{}` (per SM the blocks of the chip's warp ends sorted by their end, the "
                 "group cut where an end lies more than 2% of the first later; a straggler's pace p = 2 - T/T_g from "
                 "its end T and the group's T_g; W the least-squares fit of log p_i = i log W)".format(
                     WARP_AGE_MEASURE, WARP_AGE_MEASURE_CMD))
            + "\n" + "\n".join(out) + "\n")


WARP_AGE_WARM = "tests/data/h200/issue_cost/warp_age_measure_warm_{}.csv"


def measured_launches(path):
    """The per-launch rows of a scripts/warp_age_measure.py output (not its summary row `all`), each
    as (WxH, launch index, row)."""
    for r in read_csv(path):
        if r["launch"] != "all":
            width_height, launch = r["launch"].split("#")
            yield width_height, launch, r


def gen_warp_age_warm():
    """fidelity-shared-memory.md: the group and the first stragglers' paces of the knee launches started with a warm L2."""
    out = ["| compilation | launch (depth 3072, one wave, warm L2) | warps a scheduler | blocks ending together "
           "(median) | stragglers | pace of straggler 1 | 2 | 3 | 4 |",
           "|---|---|---:|---:|---:|---:|---:|---:|---:|"]
    for variant in ("index32", "index64"):
        for width_height, launch, r in measured_launches(WARP_AGE_WARM.format(variant)):
            paces = [r.get("pace_{}".format(i), "") for i in range(1, 5)]
            out.append("| {} | {} `linear` b128, launch {} | {} | {} | {} | {} |".format(
                variant, width_height, launch, r["warps_per_scheduler"], r["group"], r["stragglers"],
                " | ".join(paces)))
    return note("from `{}` and the index64 file beside it, written by `scripts/warp_age_measure.py --sms 132 --chip "
                "tests/data/h200/issue_cost/knee_ends_warm_V.csv.gz --launch 128x1584 --launch 128x2112 --out ...` "
                "from `scripts/device_progress.sh knee_ends_warm` (gpubench `--warp-ends --warm-l2`, two launches "
                "each); the group cut and the paces as for the cold launches in \"Loops bound by their "
                "instructions\"".format(WARP_AGE_WARM.format("index32"))) + \
        "\n" + "\n".join(out) + "\n"


WARP_AGE_WARM_ORDERS = "tests/data/h200/issue_cost/warp_age_measure_warm_orders_{}.csv"


def gen_warp_age_warm_orders():
    """model-studies.md: the warm knee launch at 16 warps a scheduler in three orders: the group and the
    first stragglers' paces."""
    out = ["| order (128x2112, depth 3072, one wave, warm L2, index32) | launch | blocks ending together (median) "
           "| stragglers | pace of straggler 1 | 2 | 3 | 4 | 5 | 6 |", "|---|---:|---:|---:|---:|---:|---:|---:|---:|---:|"]
    for order in ("linear", "tiled-32x32", "column-32"):
        for _, launch, r in measured_launches(WARP_AGE_WARM_ORDERS.format(order)):
            out.append("| `{}` | {} | {} | {} | {} |".format(order.replace("-", ":", 1), launch, r["group"],
                                                             r["stragglers"],
                                                             " | ".join(r["pace_{}".format(i)] for i in range(1, 7))))
    return note("from `{}` for S = linear, tiled-32x32 and column-32, written by `scripts/warp_age_measure.py --sms 132 "
                "--chip tests/data/h200/issue_cost/knee_ends_warm_orders_S.csv.gz --launch 128x2112 --out ...` from "
                "`scripts/device_progress.sh knee_ends_warm_orders` (gpubench `--warp-ends --warm-l2`, two launches "
                "each; in no set); the group cut and the paces as for the knee launches in \"Loops bound by their "
                "instructions\"".format(WARP_AGE_WARM_ORDERS.format("S"))) + \
        "\n" + "\n".join(out) + "\n"


LOOP_DIR = "tests/data/h200/loop"
LOOP_FILES = ["loop_training_stencil.csv", "loop_training_matmul.csv", "loop_heldout_stencil.csv",
              "loop_heldout_matmul.csv"]
LOOP_CMD = "scripts/device_heldout.sh loop"
LOOP_COMPARE_CMD = "scripts/loop_counters_report.sh --jobs 31"
ISSUE_COST_TABLE = ISSUE_COST + "/issue_cost.csv"


def loop_name(kernel, box_w, box_h):
    return "matmul" if kernel == "matmul" else "stencil {}x{}".format(box_w, box_h)


def gen_loop_limits():
    """model-studies.md: each compiled loop's limit read launch by launch from its own counters, against
    the probes' table the presets read."""
    table = {(loop_name(r["kernel"], r["stencil_w"], r["stencil_h"]), r["variant"]): r for r in read_csv(ISSUE_COST_TABLE)}
    launches = {}
    for name in LOOP_FILES:
        for r in read_csv(os.path.join(LOOP_DIR, name)):
            cost = unit_costs(r, float(r["l1tex__t_requests_pipe_lsu_mem_global_op_ld.sum"]))
            busiest = busiest_unit(cost)
            key = (loop_name(r["kernel"], r["stencil_w"], r["stencil_h"]), r["variant"])
            launches.setdefault(key, []).append((r["schedule"], busiest, cost[busiest]))
    out = ["| loop | compilation | the table: limit, cycles a request | launches | same limit | cycles a request, "
           "every order but Morton | the Morton order |",
           "|---|---|---|---:|---:|---|---|"]
    for key in sorted(launches, key=lambda k: (k[0] != "matmul", k[0], k[1])):
        t = table[key]
        rows = launches[key]
        same = sum(loop_limit(b) == loop_limit(t["busiest"]) for _, b, _ in rows)
        others = [c for s, _, c in rows if s != "morton"]
        morton = sorted({"{} {:.1f}".format(b, c) for s, b, c in rows if s == "morton"})
        out.append("| {} | {} | {} {} | {} | {} | {:.2f}-{:.2f} | {} |".format(
            key[0], key[1], t["busiest"], t["cycles_per_request"], len(rows), same, min(others), max(others),
            ", ".join(morton)))
    return (note("from `{}` (the probe launches at the naive order, `scripts/issue_cost_table.py`) and the launches "
                 "of `{}` (`{}`: the training and held-out configurations with gpubench `--metrics ...,loop`, one "
                 "profiled launch each); a loop's limit is the busiest of the issue port and the pipes per load "
                 "request, `issue` or a pipe (`alu`, `fmaheavy`)".format(
                     ISSUE_COST_TABLE, "`, `".join(os.path.join(LOOP_DIR, f) for f in LOOP_FILES), LOOP_CMD))
            + "\n" + "\n".join(out) + "\n")


def gen_loop_counters_compare():
    """model-studies.md: the launches of gen_loop_limits through compare with their own counters and
    with the table's, and the 32-bit and unrolled-once matmuls without their variant."""
    out = ["| rows | simulated with | runs | L1 within 3 | L1 beyond 6 | mean \\|L1 error\\| | L2 within 5, stencil "
           "| largest change of a row's L1 (points) |",
           "|---|---|---:|---:|---:|---:|---:|---:|"]
    used = []
    for own, table, what in (("own", "table", ("their own counters", "the table (`--ignore-loop-counters`)")),
                             ("unnamed_own", "unnamed_table", ("their own counters", "neither: the table's 64-bit loop"))):
        paths = [os.path.join(LOOP_DIR, "compare", m + ".csv") for m in (own, table)]
        used += paths
        by_model = [read_csv(p) for p in paths]
        labels = []
        for r in by_model[0]:
            if report_label(r["set"], r["variant"]) not in labels:
                labels.append(report_label(r["set"], r["variant"]))
        for label in labels:
            pair = [[r for r in rows if report_label(r["set"], r["variant"]) == label] for rows in by_model]
            change = max(abs(float(a[S + L1R]) - float(b[S + L1R])) for a, b in zip(*pair))
            for rows, how in zip(pair, what):
                c = target_counts(rows)
                out.append("| {} | {} | {} | {}/{} | {} | {:.2f} | {}/{} | {} |".format(
                    label, how, c["runs"], c["l1_3"], c["runs"], c["l1_6"], mean_l1_error(rows), c["l2_5_stencil"],
                    c["stencil"], "{:.2f}".format(change) if how == what[0] else ""))
    return (note("from `cachesim compare`'s joined CSVs {}, written by `{}` (the launches of the table above, and "
                 "the held-out 32-bit and unrolled-once matmuls with their `variant` emptied, as a kernel compiled "
                 "in a way the table does not know; the rows whose L2 hits exceed their lookups left out)".format(
                     ", ".join("`{}`".format(p) for p in used), LOOP_COMPARE_CMD))
            + "\n" + "\n".join(out) + "\n")


def gen_loop_o1():
    """model-studies.md: gpubench built with ptxas at -O1, a compilation the table does not know, with its
    own counters and the table's burst or its own SASS's."""
    runs = [("o1", "the table's, by the variant")] + [
        ("o1_burst8_" + v, "its SASS's (`--gpu issue-burst=8`)") for v in ("index64", "index32")]
    out = ["| compilation (ptxas -O1) | limit by its counters | burst | runs | L1 within 3 | L1 beyond 6 | "
           "mean \\|L1 error\\| | the naive order's L1 error (points) |",
           "|---|---|---|---:|---:|---:|---:|---|"]
    used = []
    for model, burst in runs:
        path = os.path.join(LOOP_DIR, "compare", model + ".csv")
        used.append(path)
        rows = read_csv(path)
        for variant in ("index64", "index32", "unroll1"):
            members = [r for r in rows if r["variant"] == variant]
            if not members:
                continue
            pipes = sum(loop_limit(r["measured:loop_busiest"]) == "pipe" for r in members)
            limit = "pipe" if pipes == len(members) else "issue" if pipes == 0 else "pipe in {} of {}".format(
                pipes, len(members))
            naive = [r for r in members if r["schedule"] == "linear"]
            naive.sort(key=lambda r: (-int(r["width"]), int(r["block"])))
            c = target_counts(members)
            out.append("| {} | {} | {}: {} | {} | {}/{} | {} | {:.2f} | {} |".format(
                variant, limit,
                2 if variant == "unroll1" else 8 if model != "o1" else 32, burst, c["runs"], c["l1_3"], c["runs"],
                c["l1_6"], mean_l1_error(members), ", ".join("{}² b{} {:+.1f}".format(r["width"], r["block"], l1_error(r))
                                                             for r in naive)))
    return (note("from `cachesim compare`'s joined CSVs {}, written by `{}` on `{}` (`scripts/device_heldout.sh "
                 "loop_o1`: gpubench built with `-Xptxas -O1`, the held-out 1024² matmul at depth 512 and block 128 "
                 "and the 768³ compilation probes at blocks 128 and 256, one profiled launch each; its loads in "
                 "`{}`)".format(", ".join("`{}`".format(p) for p in used), LOOP_COMPARE_CMD,
                                os.path.join(LOOP_DIR, "loop_o1_matmul.csv"), os.path.join(LOOP_DIR, "sass_loads_o1.txt")))
            + "\n" + "\n".join(out) + "\n")


@functools.lru_cache(maxsize=None)
def depth_probe_warp_ends():
    """The chip's warp ends of the depth probe's launches of several waves (768x768 and 1536x768,
    launch 0): {(width, height, depth, schedule, block size): {sm: {block: [its warps' ends]}}}."""
    ends = {}
    for run in KNEE_ENDS_RUNS:
        with gzip.open(os.path.join(ROOT, run + "_index32.csv.gz"), "rt") as f:
            for r in csv.DictReader(f):
                if r["launch"] != "0" or r["width"] not in ("768", "1536") or r["height"] != "768":
                    continue
                key = (r["width"], r["height"], r["depth"], r["schedule"], r["block_size"])
                sm = ends.setdefault(key, {}).setdefault(int(r["sm"]), {})
                sm.setdefault(int(r["block"]), []).append(int(r["end_ns"]))
    return ends


def depth_probe_order(key):
    """The tables' order of the depth probe's launches: by width, the naive order first, by block."""
    return int(key[0]), key[3] != "linear", int(key[4])


DEPTH_PROBE_ENDS_SOURCE = ("`{}_index32.csv.gz` and `{}_index32.csv.gz` (`scripts/device_progress.sh knee_ends`: "
                           "gpubench `--warp-ends`, launch 0".format(*KNEE_ENDS_RUNS))


OPCODE_MIX = ISSUE_COST + "/opcode_mix.csv"
OPCODE_COUNTERS = ISSUE_COST + "/opcode_counters.csv"


def heavy_only_cycles(opcode, count):
    """The fma pipe's heavy-half-only cycles of `count` executions of `opcode`: integer multiplies,
    4 cycles when wide or high, else 2 (NVIDIA's pipe classes; the H200's counters: fidelity.md)."""
    name, *modifiers = opcode.split(".")
    if name not in ("IMAD", "IMUL", "IDP"):
        return 0
    return count * (4 if "WIDE" in modifiers or "HI" in modifiers else 2)


def gen_recorded_loop():
    """model-studies.md: each probe loop's limit from its executed instructions (what a traceg holds)
    against its counters."""
    heavy_only = {}
    for r in read_csv(OPCODE_MIX):
        heavy_only[r["launch"]] = heavy_only.get(r["launch"], 0) + heavy_only_cycles(r["opcode"], int(r["warp_instructions"]))
    out = ["| loop | compilation | build | the counters: limit, cycles a request | the instructions: limit, cycles a "
           "request | the heavy half's cycles a request: the chip, the even split |",
           "|---|---|---|---|---|---|"]
    agree = 0
    for r in read_csv(OPCODE_COUNTERS):
        req = float(r["load_requests"])
        fma = float(r["fmaheavy_cycles"]) + float(r["fmalite_cycles"])
        measured = {"issue": float(r["warp_instructions"]) / req, "alu": float(r["alu_cycles"]) / req,
                    "fmaheavy": float(r["fmaheavy_cycles"]) / req, "fmalite": float(r["fmalite_cycles"]) / req,
                    "fma": fma / 2 / req}
        split = max(heavy_only[r["launch"]], fma / 2) / req
        recorded = {"issue": measured["issue"], "alu": measured["alu"], "fmaheavy": split}
        m, rec = busiest_unit(measured), busiest_unit(recorded)
        agree += loop_limit(m) == loop_limit(rec)
        out.append("| {} | {} | {} | {} {:.2f} | {} {:.2f}{} | {:.2f}, {:.2f} |".format(
            r["kernel"] + (" " + r["box"] if r["box"] else ""), r["variant"], r["build"], m, measured[m], rec,
            recorded[rec], "" if loop_limit(m) == loop_limit(rec) else " (differs)", measured["fmaheavy"], split))
    return (note("from `{}` and `{}` (`scripts/device_issue_cost.sh opcodes`, `scripts/opcode_mix.py`: the probe "
                 "launches of the issue-cost table, each launch's executed instructions PC by PC from Nsight "
                 "Compute's source page, beside its counters). The counters' limit is the busiest of the issue port "
                 "and the pipes per load request; the instructions' takes the issue port and the ALU as counted (the "
                 "opcode table gives both exactly) and the heavy half as the larger of its integer multiplies and half "
                 "the fma pipe's cycles. Same limit (issue port or a pipe): {} of {}".format(
                     OPCODE_COUNTERS, OPCODE_MIX, agree, len(out) - 2))
            + "\n" + "\n".join(out) + "\n")


def gen_block_warp_ends():
    """How closely a block's warps end together on the chip, blocks left behind included."""
    ends = depth_probe_warp_ends()
    out = ["| launch (index32) | blocks | a block's warps: last end less first, median | 90th percentile | largest |",
           "|---|---:|---:|---:|---:|"]
    pick = lambda xs, q: xs[min(len(xs) - 1, int(q * len(xs)))]
    for key in sorted(ends, key=depth_probe_order):
        blocks = [(max(e) - min(e), max(e)) for sm in ends[key].values() for e in sm.values()]
        spread = sorted(d for d, _ in blocks)
        share = sorted(d / end for d, end in blocks)
        out.append("| {}x{} d{} `{}` b{} | {:,} | {:.1f} µs ({:.2f}% of its end) | {:.1f} µs ({:.2f}%) | {:.1f} µs |".format(
            *key, len(blocks), pick(spread, 0.5) / 1e3, 100 * pick(share, 0.5), pick(spread, 0.9) / 1e3,
            100 * pick(share, 0.9), spread[-1] / 1e3))
    return (note("from {}; the depth probe's launches of several waves)".format(DEPTH_PROBE_ENDS_SOURCE))
            + "\n" + "\n".join(out) + "\n")


def gen_next_wave_groups():
    """On the chip, how many of an SM's blocks end together in the first wave and among the blocks
    that take the first wave's group's slots (the depth probe's launches of several waves)."""
    from warp_ends_report import group_cuts  # scripts/, beside this file
    ends = depth_probe_warp_ends()
    presets_group = int(h200_parameters()["warp_age_group"])  # warps a scheduler
    out = ["| launch (index32) | blocks an SM holds | first wave: blocks ending together (median over SMs) | "
           "the blocks taking their places: ending together | the presets' group, in blocks |",
           "|---|---:|---:|---:|---:|"]
    median = lambda xs: sorted(xs)[len(xs) // 2]
    for key in sorted(ends, key=depth_probe_order):
        block = int(key[4])
        resident = min(16, 2048 // block)  # the 32-bit matmul's blocks an SM holds (threads, 32 blocks)
        first_groups, next_groups = [], []
        for sm in ends[key].values():
            blocks = {b: max(e) for b, e in sm.items()}  # a block ends with its last warp
            ids = sorted(blocks)
            first = sorted(blocks[b] for b in ids[:resident])
            group = (group_cuts(first) or [len(first)])[0]
            following = sorted(blocks[b] for b in ids[resident:resident + group])
            if len(following) < group:
                continue
            gap = 0.02 * first[0]  # the first wave's cut, as group_cuts makes it
            together = next((i for i in range(1, group) if following[i] - following[i - 1] > gap), group)
            first_groups.append(group)
            next_groups.append(together)
        out.append("| {}x{} d{} `{}` b{} | {} | {} | {} | {} |".format(
            *key, resident, median(first_groups), median(next_groups), presets_group * 128 // block))
    return (note("from {}): per SM the first wave is its blocks of lowest index, cut into groups as "
                 "`scripts/warp_ends_report.py` does (an end more than 2% of the first end after the one before); "
                 "the blocks taking the first group's places are the next as many by index, cut the same "
                 "way".format(DEPTH_PROBE_ENDS_SOURCE))
            + "\n" + "\n".join(out) + "\n")


KNEE_ROUNDS_MODELS = [("rounds_preset", "the presets (a group of 12, W 0.863)"),
                      ("rounds_first_form", "every older warp weighing 0.95"),
                      ("rounds_no_weight", "no age weight")]


def gen_knee_rounds():
    """The rounds' L1 on the warp-ends launches beside the chip's."""
    l1 = knee_ends_chip_l1()
    summary = knee_ends_summary()
    out = ["| launch (index32, depth 3072) | the chip: L1 % | " + " | ".join(label for _, label in KNEE_ROUNDS_MODELS)
           + " |", "|---|---:|" + "---:|" * len(KNEE_ROUNDS_MODELS)]
    errors = {name: [] for name, _ in KNEE_ROUNDS_MODELS}
    for key, by_source in summary:
        width, height, depth, schedule, block = key
        measured, stamped = l1[("index32", width, height, depth, schedule, block)]
        cells = ["{}x{} {} b{}".format(width, height, schedule, block), "{:.1f} ({:.1f})".format(measured, stamped)]
        for name, _ in KNEE_ROUNDS_MODELS:
            model = float(by_source[name]["l1"])
            errors[name].append(model - measured)
            cells.append("{:.1f} ({:+.1f})".format(model, model - measured))
        out.append("| " + " | ".join(cells) + " |")
    summary_lines = ["{}: against the measured kernel, {}".format(label, l1_error_counts(errors[name]))
                     for name, label in KNEE_ROUNDS_MODELS]
    return (note("from the `rounds_*` rows of `{0}_summary.csv` (`scripts/warp_ends_report.py ... --rounds "
                 "'rounds_preset=--carveout-rule occupancy' --rounds 'rounds_first_form=--carveout-rule occupancy "
                 "--warp-age-group 1 --warp-age-weight 0.95' --rounds 'rounds_no_weight=--carveout-rule occupancy "
                 "--warp-age-weight 1'`, the command of the table above) and the chip's L1 as "
                 "there (the measured kernel, the end-stamped one in brackets); the model's L1 %, its error against "
                 "the measured kernel in brackets".format(KNEE_ENDS))
            + "\n" + "\n".join(out) + "\n\n" + "\n".join("- " + l for l in summary_lines) + "\n")
