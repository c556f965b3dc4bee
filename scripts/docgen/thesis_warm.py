"""The rtx2080s preset against the thesis, and the L2's start."""

import os

from docgen.common import H200, L1R, L2R, L2T, L2TH, ROOT, note, read_csv
from docgen.sets import l1_error_counts


THESIS_QUOTES = "tests/data/rtx2080s/thesis_quotes.csv"
THESIS_SWEEP = "tests/data/rtx2080s/thesis_sweep.csv"


def thesis_quotes():
    """The thesis's RTX 2080 Super figures, per schedule."""
    return {r["schedule"]: r for r in read_csv(THESIS_QUOTES)}


def thesis_sweep_rows(quotes):
    """Per block size of the rtx2080s preset's sweep with every quoted schedule: (block, L1 rates,
    L2 rates of the L1s' lookups, L2→L1 GB, whether every schedule is within the targets: L1 3
    points and L2 5 of the thesis's)."""
    schedules = list(quotes)
    sim = {}
    for r in read_csv(THESIS_SWEEP):
        sim.setdefault(int(r["block"]), {})[r["schedule"]] = r
    rows = []
    for block in sorted(sim):
        by = sim[block]
        if not all(s in by for s in schedules):
            continue
        l1 = [float(by[s][L1R]) for s in schedules]
        l2 = [100.0 * float(by[s][L2TH]) / float(by[s][L2T]) for s in schedules]
        gb = [32.0 * float(by[s][L2T]) / 1e9 for s in schedules]
        ok = all(abs(v - float(quotes[s]["l1_hit_rate_pct"])) <= 3 for v, s in zip(l1, schedules)) and \
            all(abs(v - float(quotes[s]["l2_hit_rate_pct"])) <= 5 for v, s in zip(l2, schedules))
        rows.append((block, l1, l2, gb, ok))
    return rows


def gen_rtx2080s_thesis():
    quotes = thesis_quotes()
    schedules = list(quotes)
    out = ["| source | block | " + " | ".join("L1 hit % {}".format(s) for s in schedules) + " | "
           + " | ".join("L2 hit % {}".format(s) for s in schedules) + " | "
           + " | ".join("L2→L1 GB {}".format(s) for s in schedules) + " |",
           "|---|---:|" + "---:|" * (3 * len(schedules))]
    out.append("| thesis (RTX 2080 Super) | | " + " | ".join(quotes[s]["l1_hit_rate_pct"] for s in schedules) + " | "
               + " | ".join(quotes[s]["l2_hit_rate_pct"] for s in schedules) + " | "
               + " | ".join(quotes[s]["l2_to_l1_gb"] for s in schedules) + " |")
    # By hand: a 128-thread block whose four warps share L1 lines with each other but with no other
    # block. Per warp and k: one 32 B sector of A (all lanes one element; 8 floats a sector, so a
    # miss every 8th k) and four sectors of B (32 consecutive floats). linear: the block is 128
    # columns of one row, A's sector is the block's (1/8 miss per k), B's 16 sectors all miss;
    # column:32: four rows of the same 32 columns, each warp misses its own A sector every 8th k
    # (4/8), B's 4 sectors are the block's (4 misses). 20 sectors a block per k.
    n, depth, block = 1024, 1024, 128
    blocks = n * n // block
    misses = {"linear": 16 + 1 / 8, "column:32": 4 + 4 / 8}
    if set(misses) == set(schedules):
        out.append("| by hand: no L1 line shared between blocks | {} | ".format(block) + " | ".join(
            "{:.2f}".format(100 * (1 - misses[s] / 20)) for s in schedules) + " | " + " | ".join(
            "" for _ in schedules) + " | " + " | ".join(
            "{:.2f} ({:.2f} GiB)".format(misses[s] * 32 * blocks * depth / 1e9, misses[s] * 32 * blocks * depth / 2**30)
            for s in schedules) + " |")
    if not os.path.exists(os.path.join(ROOT, THESIS_SWEEP)):
        return (note("`{}` is not yet in the repository: run `scripts/fidelity_report.sh rtx2080s`".format(THESIS_SWEEP))
                + "\n" + "\n".join(out) + "\n")
    sweep = thesis_sweep_rows(quotes)
    for block, l1, l2, gb, _ in sweep:
        out.append("| rtx2080s preset | {} | ".format(block) + " | ".join("{:.2f}".format(v) for v in l1) + " | "
                   + " | ".join("{:.2f}".format(v) for v in l2) + " | " + " | ".join("{:.2f}".format(v) for v in gb) + " |")
    within = [str(block) for block, _, _, _, ok in sweep if ok]
    return (note("the thesis's numbers from `{}`, the preset's from `{}`, written by `scripts/fidelity_report.sh "
                 "rtx2080s` (`cachesim sweep --model gpu --preset rtx2080s --workload matmul --size 1024x1024 "
                 "--depth 1024 --schedule linear,column:32 --block 32,64,128,256,512,1024`); L2 is the rate of the "
                 "L1s' lookups, L2→L1 their sectors x 32 B. Block sizes at which both schedules are within the "
                 "targets (L1 3 points, L2 5): {}".format(THESIS_QUOTES, THESIS_SWEEP, ", ".join(within) or "none"))
            + "\n" + "\n".join(out) + "\n")


WARM_L2 = H200 + "/warm_l2"
WARM_MODELS = [("preset", "the presets"), ("cycles_cold", "cycle timing, first reads from DRAM"),
               ("cycles_warm", "cycle timing, every miss an L2 hit")]


def warm_chip_l1(stem, key, keep=lambda r: True):
    """The chip's L1 hit rate per launch (key(row)) of `WARM_L2/STEM_cold.csv` and `_warm.csv`:
    {"cold": {...}, "warm": {...}}."""
    return {start: {key(r): float(r[L1R]) for r in read_csv("{}/{}_{}.csv".format(WARM_L2, stem, start)) if keep(r)}
            for start in ("cold", "warm")}


def gen_warm_l2():
    """The same launches with a cold L2 and with their arrays in it: the chip's L1 against the
    presets (one prediction for both starts) and cycle timing with and without a DRAM wait."""
    key = lambda r: (r["variant"] or "index64", int(r["width"]), int(r["height"]), int(r["depth"]), r["schedule"],
                     int(r["block"]))
    chip = warm_chip_l1("warm_probe", key)
    model = {}
    for stem, _ in WARM_MODELS:
        model[stem] = {}
        for r in read_csv("{}/compare/{}.csv".format(WARM_L2, stem)):
            model[stem][(r["set"],) + key(r)] = float(r["simulated:" + L1R])
    order = {"index64": 0, "index32": 1, "unroll1": 2}
    schedules = ["linear", "column:32", "column:64", "column:128", "tiled:32x32"]
    configs = sorted(chip["cold"], key=lambda k: (order[k[0]], k[1] * k[2] != 768 * 768, k[2], schedules.index(k[4]), k[5]))

    def predicted(stem, start, k):  # the model's L1 for the launch; the presets' is the same for both starts
        starts = (start,) if stem != "preset" else ("cold", "warm")
        for s in starts:
            if (s,) + k in model[stem]:
                return model[stem][(s,) + k]
        return None

    cell = lambda v: "—" if v is None else "{:.1f}".format(v)
    out = ["| compilation | launch | schedule | block | the chip, cold L2 | the chip, warm L2 | the presets (both) | "
           "cycle timing, cold (DRAM wait) | cycle timing, warm |",
           "|---|---|---|---:|---:|---:|---:|---:|---:|"]
    errors = {(stem, start): [] for stem, _ in WARM_MODELS for start in ("cold", "warm")}
    for k in configs:
        variant, width, height, depth, schedule, block = k
        preset = predicted("preset", "cold", k)
        cold, warm = predicted("cycles_cold", "cold", k), predicted("cycles_warm", "warm", k)
        out.append("| {} | {}x{} d{} | `{}` | {} | {:.1f} | {:.1f} | {} | {} | {} |".format(
            variant, width, height, depth, schedule, block,
            chip["cold"][k], chip["warm"][k], cell(preset), cell(cold), cell(warm)))
        for start in ("cold", "warm"):
            if preset is not None:
                errors[("preset", start)].append(preset - chip[start][k])
        if cold is not None:
            errors[("cycles_cold", "cold")].append(cold - chip["cold"][k])
        if warm is not None:
            errors[("cycles_warm", "warm")].append(warm - chip["warm"][k])
    summary = []
    for stem, label in WARM_MODELS:
        for start in ("cold", "warm"):
            e = errors[(stem, start)]
            if e:
                summary.append("{} against the {} L2: {}".format(label, start, l1_error_counts(e)))
    drops = [chip["warm"][k] - chip["cold"][k] for k in configs]
    return (note("from `{0}/warm_probe_cold.csv` and `{0}/warm_probe_warm.csv` (`scripts/device_heldout.sh warm`: the "
                 "same launches on the H200 with the L2 flushed and with their arrays in it, gpubench `--warm-l2`) and "
                 "`{0}/compare/{{preset,cycles_cold,cycles_warm}}.csv`, written by `scripts/warm_l2_report.sh` (the "
                 "presets; `--gpu timing=cycles --gpu warp-scheduler=gto --gpu issue-cycles=auto --gpu lat-dram=691` "
                 "for cycle timing, every row with the L2 start it was measured with); the L1 hit rate in %, — where compare left the row out (its L2 "
                 "counters contradict each other)".format(WARM_L2))
            + "\n" + "\n".join(out) + "\n\n"
            + "- the chip, warm less cold: {:+.1f} to {:+.1f} points\n".format(min(drops), max(drops))
            + "\n".join("- " + line for line in summary) + "\n")


def gen_warm_l2_training():
    """The training matmul cold and warm on the chip, beside the presets' one prediction and cycle
    timing's two (with and without a DRAM wait)."""
    key = lambda r: (r["schedule"], int(r["block"]))
    chip = warm_chip_l1("warm_training", key, lambda r: r["kernel"] == "matmul")

    def model(stem):
        return {key(r): float(r["simulated:" + L1R]) for r in read_csv("{}/compare/{}.csv".format(WARM_L2, stem))
                if r["kernel"] == "matmul"}

    preset, cycles = model("training"), {"cold": model("training_cycles_cold"), "warm": model("training_cycles_warm")}
    schedules = ["linear", "column:8", "column:16", "column:32", "column:64", "column:128", "zigzag:32",
                 "tiled:32x32", "morton"]
    cell = lambda table, k: "—" if k not in table else "{:.1f}".format(table[k])
    out = ["| schedule | block | the chip, cold L2 | the chip, warm L2 | the presets (both) | cycle timing, cold "
           "(DRAM wait) | cycle timing, warm |", "|---|---:|---:|---:|---:|---:|---:|"]
    errors = {("the presets", "cold"): [], ("the presets", "warm"): [], ("cycle timing", "cold"): [],
              ("cycle timing", "warm"): []}
    for s in schedules:
        for b in (128, 256, 1024):
            k = (s, b)
            out.append("| `{}` | {} | {:.1f} | {:.1f} | {} | {} | {} |".format(
                s, b, chip["cold"][k], chip["warm"][k], cell(preset, k), cell(cycles["cold"], k),
                cell(cycles["warm"], k)))
            for start in ("cold", "warm"):
                if k in preset:
                    errors[("the presets", start)].append(preset[k] - chip[start][k])
                if k in cycles[start]:
                    errors[("cycle timing", start)].append(cycles[start][k] - chip[start][k])
    summary = ["{} against the {} L2: {}".format(label, start, l1_error_counts(e))
               for (label, start), e in errors.items() if e]
    return (note("from `{0}/warm_training_cold.csv` and `{0}/warm_training_warm.csv` (`scripts/device_heldout.sh "
                 "warm_training`: the training set's 1024³ matmul on the H200 with the L2 flushed and with its arrays "
                 "in it) and `{0}/compare/{{training,training_cycles_cold,training_cycles_warm}}.csv` "
                 "(`scripts/warm_l2_report.sh`: the presets, one L1 prediction for both starts; cycle timing with "
                 "`--gpu lat-dram=691`, every row with the L2 start it was measured with); the L1 hit rate in %".format(WARM_L2))
            + "\n" + "\n".join(out) + "\n\n" + "\n".join("- " + line for line in summary) + "\n")

def gen_warm_l2_counts():
    """The presets' L2 hit rate and DRAM reads on the warm probes and the training launches, each row
    simulated with the L2 start it was measured with (compare's --l2-start per row)."""
    out = ["| launches | L2 start | rows | L2 within 5 points | mean \\|L2 error\\| | DRAM read, the chip (MB) | "
           "DRAM read, the model (MB) |", "|---|---|---:|---:|---:|---:|---:|"]
    for stem, label in (("preset", "warm probes (768² matmul, strips)"), ("training", "training (1024³ matmul, 3x3 stencil)")):
        rows = read_csv("{}/compare/{}.csv".format(WARM_L2, stem))
        for start in ("cold", "warm"):
            mine = [r for r in rows if r["set"].split()[0] == start]
            errors = [float(r["simulated:" + L2R]) - float(r["measured:" + L2R]) for r in mine]
            dram = lambda side: sum(float(r[side + ":dram__bytes_read.sum"]) for r in mine) / 1e6
            out.append("| {} | {} | {} | {}/{} | {:.2f} | {:.1f} | {:.1f} |".format(
                label, start, len(mine), sum(abs(e) <= 5 for e in errors), len(errors),
                sum(abs(e) for e in errors) / len(errors), dram("measured"), dram("simulated")))
    return (note("from `{0}/compare/preset.csv` and `{0}/compare/training.csv`, written by `scripts/warm_l2_report.sh "
                 "preset training` (`cachesim compare --preset h200`, every row simulated with its own `l2_start`); the "
                 "L2 rate over all L2 read lookups, DRAM reads summed over the rows".format(WARM_L2))
            + "\n" + "\n".join(out) + "\n")


THESIS_SWEEP_COMPARE = H200 + "/thesis_compare_{}.csv"


def gen_thesis_sweep(kernel):
    """The thesis's sweep of column widths and block sizes, measured on the H200 (one profiled
    launch a row) and held against the h200 preset: per schedule and block, the chip's L1 hit rate
    and the preset's error in points."""
    path = THESIS_SWEEP_COMPARE.format(kernel)
    rows = read_csv(path)
    blocks = sorted({int(r["block"]) for r in rows})
    schedules = list(dict.fromkeys(r["schedule"] for r in rows))
    cell = {(r["schedule"], int(r["block"])): r for r in rows}
    out = ["| schedule | " + " | ".join("block {}".format(b) for b in blocks) + " |",
           "|---|" + "---:|" * len(blocks)]
    errors = []
    for s in schedules:
        line = []
        for b in blocks:
            r = cell.get((s, b))
            if r is None:
                line.append("")
                continue
            error = float(r["simulated:" + L1R]) - float(r["measured:" + L1R])
            errors.append(error)
            line.append("{:.1f} ({:+.1f})".format(float(r["measured:" + L1R]), error))
        out.append("| `{}` | ".format(s) + " | ".join(line) + " |")
    within = sum(abs(e) <= 3 for e in errors)
    beyond = sum(abs(e) > 6 for e in errors)
    source = "tests/data/h200/thesis_{}.csv".format(kernel)
    return (note("`{}`, written by `cachesim compare --preset h200 --measured {} --skip-invalid-rows --plot none "
                 "--out {}` (rows whose L2 counted more hits than lookups by over 10% left out): the chip's L1 hit "
                 "rate, one profiled launch, and in brackets the preset's error in points. L1 within 3 points in "
                 "{} of {} launches, beyond 6 in {}".format(path, source, path, within, len(errors), beyond))
            + "\n" + "\n".join(out) + "\n")


WIDE_STRIPS = "tests/data/h100/wide_strips/wide_strips_report.csv"


def gen_wide_strips():
    """Strips of 128, 256 and 512 columns on the H100: the chip's L1 hit rate, progressprobe's, the
    h100 preset's caches replaying the probe's recorded pace under each width, the preset in its
    own rounds, and how far apart an SM's blocks that read the same columns start."""
    rows = read_csv(WIDE_STRIPS)
    widths = [k[len("replay_"):] for k in rows[0] if k.startswith("replay_")]
    out = ["| launch | chip (gpubench) | probe (ncu) | " + " | ".join("probe's pace read as `{}`".format(w) for w in widths)
           + " | preset, own rounds | start gap p90: chip / preset |",
           "|---|---:|---:|" + "---:|" * len(widths) + "---:|---|"]
    for r in rows:
        own = "replay_" + r["schedule"]
        cells = ["**{:.1f}**".format(float(r["replay_" + w])) if "replay_" + w == own else "{:.1f}".format(float(r["replay_" + w]))
                 for w in widths]
        out.append("| `{}`, block {} | {:.1f} | {:.1f} | {} | {:.1f} | {:.2f} / {:.2f} |".format(
            r["schedule"], r["block"], float(r["chip_l1"]), float(r["probe_l1"]), " | ".join(cells),
            float(r["model_l1"]), float(r["chip_start_gap_p90"]), float(r["model_start_gap_p90"])))
    return (note("`{}`, written by `scripts/wide_strips_report.py --dir tests/data/h100/wide_strips --out {} --jobs 2` "
                 "from `scripts/device_progress.sh wide_strips` (an H100): L1 hit rates in %; the probe's pace replayed "
                 "with the launch's own width in bold; the start gap is, per block started after the first wave, how long "
                 "after the latest block of its SM reading the same columns it started, over its run time".format(
                     WIDE_STRIPS, WIDE_STRIPS))
            + "\n" + "\n".join(out) + "\n")


ONE_WARP_BLOCKS = "tests/data/h100/one_warp_blocks/one_warp_blocks_report.csv"


def gen_one_warp_blocks():
    """gpubench's matmul at blocks of 32, 64 and 128 threads on the H100: the chip's L1 hit rates,
    the h100 preset's caches replaying the recorded warp times, the preset in its own rounds, and
    how an SM's blocks that read the same columns of B meet after the first wave."""
    rows = read_csv(ONE_WARP_BLOCKS)
    out = ["| launch | chip | chip, recording variant | its warp times replayed | preset, own rounds "
           "| sharers beside a later block: chip / preset | its start gap p90: chip / preset "
           "| ends with a sharer: chip / preset | a later block's run on the chip, µs |",
           "|---|---:|---:|---:|---:|---|---|---|---:|"]
    for r in rows:
        out.append("| `{}`, block {} | {:.1f} | {:.1f} | {:.1f} | {:.1f} | {:.1f} / {:.1f} | {:.2f} / {:.2f} | {:.0f}% / {:.0f}% | {:.1f} |".format(
            r["schedule"], r["block"], float(r["profiled_l1"]), float(r["placed_l1"]), float(r["replay_l1"]),
            float(r["model_l1"]), float(r["chip_sharers"]), float(r["model_sharers"]), float(r["chip_start_gap_p90"]),
            float(r["model_start_gap_p90"]), 100 * float(r["chip_ends_together"]), 100 * float(r["model_ends_together"]),
            float(r["chip_later_run_us"])))
    return (note("`{}`, written by `scripts/one_warp_blocks_report.py --dir tests/data/h100/one_warp_blocks --out {} "
                 "--jobs 2` from `scripts/device_progress.sh one_warp_blocks` (an H100): L1 hit rates in %; the "
                 "sharers of a block started after the first wave are the blocks of its SM that read its columns of "
                 "B and overlap it in time; its start gap, how long after the latest of them it started, over its run "
                 "time; it ends with a sharer when one ends within 1% of the median run of it; a later block's run is the "
                 "median of the blocks started after the first wave (the recording variant)".format(
                     ONE_WARP_BLOCKS, ONE_WARP_BLOCKS))
            + "\n" + "\n".join(out) + "\n")
