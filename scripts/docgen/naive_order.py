"""The naive matmul's L1 error outside the training set, by compilation and by the share of the
model's hits that another block brought: where the presets keep its sharers together too long."""

from docgen.common import L1R, M, note, read_csv
from docgen.predicted import PROBE_REPORTS, SHARE_POINTS
from docgen.sets import ALL_REPORT_SETS, OTHER, REPORT_CMD, REPORT_GPUS, gpu_has_set, l1_error, overview_rows

SHARE_BUCKETS = [(0, 10), (10, 20), (20, 100)]  # points of the model's L1 rate from other blocks


def naive_rows(gpu):
    """The naive matmul's launches of every set of GPU but training, and the files they came from."""
    rows, used = [], []
    for set_name in ALL_REPORT_SETS:
        if set_name == "training" or not gpu_has_set(gpu, set_name):
            continue
        found, paths = overview_rows(gpu, set_name)
        used += [p for p in paths if "matmul" in p]
        rows += [r for r in found if r["kernel"] == "matmul" and r["schedule"] == "linear"]
    return rows, used


def bucket_label(lo, hi):
    return "{}–{}".format(lo, hi) if hi < 100 else "{} or more".format(lo)


def error_groups(rows):
    """Per compilation and share bucket with launches: (compilation, bucket label, launches, mean
    error, lowest, highest, launches within 3 points)."""
    groups = []
    for variant in ("index64", "index32", "unroll1"):
        for lo, hi in SHARE_BUCKETS:
            errors = [l1_error(r) for r in rows if (r["variant"] or "index64") == variant and lo <= float(r[OTHER]) < hi]
            if errors:
                groups.append((variant, bucket_label(lo, hi), len(errors), sum(errors) / len(errors), min(errors),
                               max(errors), sum(abs(e) <= 3 for e in errors)))
    return groups


def gen_naive_order_errors():
    """fidelity.md: the naive order's L1 error per chip, compilation and share from other blocks."""
    out = ["| GPU | compilation | from other blocks (points) | launches | mean error | range | within 3 points |",
           "|---|---|---|---:|---:|---|---:|"]
    used = []
    for gpu in REPORT_GPUS:
        rows, paths = naive_rows(gpu)
        used += paths
        for variant, label, n, mean, low, high, within in error_groups(rows):
            out.append("| {} | {} | {} | {} | {:+.1f} | {:+.1f} to {:+.1f} | {} |".format(
                gpu, variant, label, n, mean, low, high, within))
    return note("from `cachesim compare`'s joined CSVs {}, written by `{}`: the naive order's launches of every "
                "set but training (the matmul's hit rates over 21 launches), its error the model's L1 rate less "
                "the chip's, in points".format(", ".join("`{}`".format(p) for p in used), REPORT_CMD)) + "\n" + \
        "\n".join(out) + "\n"


# The 32-bit naive-order probes, in no set (docs/fidelity.md, "The 32-bit naive order, probed"):
# compare's joined CSV of an H100's launches against the h100 preset.
NAIVE32_PROBES = PROBE_REPORTS["naive32"][0]


def naive32_probes():
    """The probes' rows of compare's joined CSV by (width, height, depth, block)."""
    return {(r["width"], r["height"], r["depth"], r["block"]): r for r in read_csv(NAIVE32_PROBES)}


def naive32_rows():
    """Every measured 32-bit naive-order launch but training's, both chips, sets and probes: (rows,
    the files they came from)."""
    rows, used = [], []
    for gpu in REPORT_GPUS:
        found, paths = naive_rows(gpu)
        used += paths
        rows += [r for r in found if r["variant"] == "index32"]
    probes = [r for r in read_csv(NAIVE32_PROBES) if r["variant"] == "index32" and r["schedule"] == "linear"]
    return rows + probes, used + [NAIVE32_PROBES]


def naive32_summary(rows, share_points=SHARE_POINTS):
    """By whether share_points or more of the model's L1 come from other blocks (True first):
    (launches, within 3 points, beyond 6 points, lowest error, highest error)."""
    out = []
    for resting in (True, False):
        errors = [l1_error(r) for r in rows if (float(r[OTHER]) >= share_points) == resting]
        out.append((resting, len(errors), sum(abs(e) <= 3 for e in errors), sum(abs(e) > 6 for e in errors),
                    min(errors), max(errors)))
    return out


def gen_naive32_summary():
    """fidelity.md: the 32-bit naive order over every measured launch but training's."""
    rows, used = naive32_rows()
    out = ["| of the model's L1, from other blocks | launches | within 3 points | beyond 6 points | the model less the chip |",
           "|---|---:|---:|---:|---|"]
    for resting, n, within, beyond, low, high in naive32_summary(rows):
        out.append("| {} | {} | {} | {} | {:+.1f} to {:+.1f} |".format(
            "{:g} points or more".format(SHARE_POINTS) if resting else "under {:g} points".format(SHARE_POINTS),
            n, within, beyond, low, high))
    return note("from `cachesim compare`'s joined CSVs {}, the sets' written by `{}` (the matmul's hit rates over 21 "
                "launches; each chip against its preset), the probes' by `cachesim compare --preset h100 --measured "
                "tests/data/h100/naive32/naive32-21_matmul.csv`: every measured launch of the 32-bit build's naive "
                "order but training's, on both chips".format(", ".join("`{}`".format(p) for p in used), REPORT_CMD)) \
        + "\n" + "\n".join(out) + "\n"


NAIVE32_GROUPS = "tests/data/h100/naive32/naive32_groups.csv"
NAIVE32_GROUPS_CMD = ("scripts/wave_groups_report.py --chip tests/data/h100/naive32/naive32_ends_SIZE.csv.gz (each of the "
                      "eight) --compilation index32 --ncu tests/data/h100/naive32/naive32_ends_ncu.csv --rows "
                      "tests/data/h100/naive32/naive32_ends_rows.csv --model 'preset=' --jobs 2 --out " + NAIVE32_GROUPS)
# The same with one rate a block kept for its whole run, at the spread of the chip's run times (an
# exploration on these launches, not a choice).
NAIVE32_BLOCK_RATE = "tests/data/h100/naive32/naive32_groups_block_rate.csv"
NAIVE32_BLOCK_RATE_OPTIONS = "--warp-rate-scope block --warp-rate-redraw 0 --warp-rate-spread 0.3"


def gen_naive32_groups():
    """fidelity.md: how the probes' blocks end together on the chip and in the model, beside the model's error."""
    errors = {key: (float(r[OTHER]), l1_error(r)) for key, r in naive32_probes().items()}
    by = {}
    for path in (NAIVE32_GROUPS, NAIVE32_BLOCK_RATE):
        for r in read_csv(path):
            by.setdefault((r["width"], r["height"], r["depth"], r["block_size"]), {})[r["source"]] = r
    out = ["| launch (index32, `linear`) | from other blocks | the model less the chip | first group: chip / model "
           "| later blocks alone | later group | second-wave runs' spread | a rate a block: L1 error · later alone "
           "· group · spread |",
           "|---|---:|---:|---|---|---|---|---|"]
    for key in sorted(by, key=lambda k: errors[k][0], reverse=True):
        chip, model, block_rate = by[key]["chip"], by[key]["preset"], by[key]["blockfix30"]
        share, error = errors[key]
        out.append("| {}x{}, depth {}, block {} | {:.1f} | {:+.1f} | {} | {} | {} | {} | {:+.1f} · {} · {} · {} |".format(
            *key, share, error, *("{} / {}".format(chip[c], model[c])
                                  for c in ("first_group", "later_alone", "later_group", "wave2_spread")),
            error + float(block_rate["l1"]) - float(model["l1"]),
            *(block_rate[c] for c in ("later_alone", "later_group", "wave2_spread"))))
    return (note("`{}` from `scripts/device_progress.sh naive32_ends` (an H100: gpubench `--warp-ends`, launch 0, "
                "beside the h200 preset's rounds, whose L1 rates for these launches are the h100 preset's), and the "
                "errors of `{}`; the last column the same command with `--model 'blockfix30={}'` into `{}`. Per SM "
                "the blocks sorted by their end and cut where two ends lie more than 2% of the first end apart: the "
                "first group (median over SMs); of the later waves' blocks the share that ends alone and the group "
                "of the median one; the second wave's run times' standard deviation over their median".format(
                    NAIVE32_GROUPS_CMD, NAIVE32_PROBES, NAIVE32_BLOCK_RATE_OPTIONS, NAIVE32_BLOCK_RATE))
            + "\n" + "\n".join(out) + "\n")


NAIVE32_PROGRESS_BLOCKS = (128, 64, 96, 320)  # scripts/device_progress.sh naive32_progress: a folder a block size
NAIVE32_PROGRESS = "tests/data/h100/naive32/progress_b{}"
NAIVE32_REPLAY_CMD = ("scripts/progress_replay_report.py --dir {0} --ncu {0}/naive32_progress_b{1}_ncu.csv --rows "
                      "{0}/naive32_progress_b{1}_rows.csv --out {0}/progress_replay.csv --jobs 2 --schedules linear "
                      "--block {1}")


def gen_naive32_replay():
    """fidelity.md: the probes' own pace (progressprobe) replayed by the model's caches."""
    model = naive32_probes()
    out = ["| launch (index32, `linear`) | gpubench's L1 on the chip | the model less the chip | progressprobe's L1: "
           "sampled · start and end | its pace replayed: every sample · start and end | progress spread |",
           "|---|---:|---:|---|---|---:|"]
    commands = []
    for block in NAIVE32_PROGRESS_BLOCKS:
        folder = NAIVE32_PROGRESS.format(block)
        commands.append("`{}`".format(NAIVE32_REPLAY_CMD.format(folder, block)))
        for r in read_csv(folder + "/progress_replay.csv"):
            m = model[(r["width"], r["height"], r["depth"], r["block_size"])]
            out.append("| {}x{}, depth {}, block {} | {:.1f} | {:+.1f} | {} · {} | {} · {} | {} |".format(
                r["width"], r["height"], r["depth"], r["block_size"], float(m[M + L1R]), l1_error(m),
                r["l1_sampled"], r["l1_start_end"], r["replay_samples"], r["replay_start_end"], r["progress_spread"]))
    return (note("{} from `scripts/device_progress.sh naive32_progress` (an H100: progressprobe's 32-bit loads, a "
                 "sample of each warp's clock every 64 steps, one launch, and Nsight Compute's L1 of the same launch "
                 "sampled and with start and end only), beside gpubench's kernel and the model's error from `{}`: "
                 "L1 hit rates in %; the replay is the h200 preset's caches fed the recorded pace (`cachesim simulate "
                 "--warp-times`), whose L1 rates for these launches are the h100 preset's; the progress spread, at "
                 "tenths 2 to 8 of the launch, the median over SMs of how far apart the most and the least advanced "
                 "resident warps are, in loops".format("; ".join(commands), NAIVE32_PROBES))
            + "\n" + "\n".join(out) + "\n")


NAIVE32_SHARER_ENDS = "tests/data/h100/naive32/sharer_ends.csv"
NAIVE32_SHARER_ENDS_CMD = ("scripts/sharer_ends_report.py --out tests/data/h100/naive32/sharer_ends.csv --jobs 2 "
                           "tests/data/h100/naive32/naive32_ends_*.csv.gz")


def gen_naive32_sharer_ends():
    """fidelity.md: whether an SM's first-wave blocks that read the same lines of B end together."""
    by = {}
    for r in read_csv(NAIVE32_SHARER_ENDS):
        by.setdefault((r["width"], r["height"], r["depth"], r["block_size"]), {})[r["source"]] = r
    cell = lambda r: "{} · {} \\| {} · {}".format(*(r[c] or "—" for c in ("sharers_median", "sharers_p90",
                                                                          "others_median", "others_p90")))
    out = ["| launch (index32, `linear`) | the chip's pairs: sharing \\| other | the chip | the slot cycle "
           "| the presets (the turns) |", "|---|---|---|---|---|"]
    for key, sources in by.items():
        chip = sources["chip"]
        out.append("| {}x{}, depth {}, block {} | {} \\| {} | {} | {} | {} |".format(
            *key, chip["sharer_pairs"], chip["other_pairs"], cell(chip), cell(sources["slot"]),
            cell(sources["preset"])))
    return (note("`{}`, written by `{}` from `scripts/device_progress.sh naive32_ends` (an H100: gpubench "
                 "`--warp-ends`, launch 0) and `cachesim simulate --preset h100 --warp-ends` of the same launches, "
                 "every model from the starting row the chip's first wave was placed from (its `--seed`). Over "
                 "the first-wave blocks of each SM, pairs that read a column of B in common (sharing) and the "
                 "others: how far apart their ends lie, in steps of the loop: median · 90th percentile, "
                 "sharing \\| other".format(NAIVE32_SHARER_ENDS, NAIVE32_SHARER_ENDS_CMD))
            + "\n" + "\n".join(out) + "\n")
