"""Every launch of a set, the wave probes and what an SM's blocks do wave by wave."""

import csv
import gzip
import os

from docgen.common import H200, L1R, L2R, M, ROOT, S, note, num, read_csv
from docgen.sets import OTHER, l1_error, report_path


def grid_label(width, height):
    return "{}²".format(width) if width == height else "{}x{}".format(width, height)


def gen_set_rows(gpu, set_name, kernel):
    """Every launch of one set's file, per schedule: the chip's L1 and L2 hit rates and the
    presets' errors in points."""
    path = report_path(gpu, set_name, kernel)
    rows = read_csv(path)
    key = lambda r: (r["width"], r["height"], r["stencil_w"], r["stencil_h"], r["depth"], r["block"], r["variant"])
    groups = {}
    for r in rows:
        groups.setdefault(key(r), {})[r["schedule"]] = r
    schedules = list(next(iter(groups.values())))
    out = ["| launch | | " + " | ".join("`{}`".format(s) for s in schedules) + " |",
           "|---|---|" + "---:|" * len(schedules)]
    for (width, height, box_w, box_h, depth, block, variant), by in groups.items():
        size = grid_label(width, height)
        what = "d" + depth if kernel == "matmul" else "{}x{}".format(box_w, box_h)
        name = "{} {} b{} {}".format(size, what, block, variant or "index64")
        for rate, label in ((L1R, "L1"), (L2R, "L2")):
            out.append("| {} | the chip's {} % | ".format(name if rate == L1R else "", label) + " | ".join(
                "{:.1f}".format(float(by[s][M + rate])) if s in by else "" for s in schedules) + " |")
            out.append("| | the presets' error | " + " | ".join(
                "{:+.1f}".format(float(by[s][S + rate]) - float(by[s][M + rate])) if s in by else ""
                for s in schedules) + " |")
            if rate == L1R:  # the hits that need the SM's blocks in step
                out.append("| | of the model's L1, from other blocks | " + " | ".join(
                    "{:.1f}".format(float(by[s][OTHER])) if s in by else "" for s in schedules) + " |")
    return (note("`{}`, written by `scripts/fidelity_report.sh {}:{}:{}`: the chip's hit rates, then the "
                 "model's error in points; under the L1, the points of the model's L1 rate from sectors "
                 "another block on the SM brought".format(path, gpu, set_name, kernel)) + "\n" + "\n".join(out) + "\n")


WAVES = H200 + "/waves"
WAVE_THREADS = 132 * 2048  # a wave of these kernels: the H200's SMs, each holding 2048 threads


def waves_compare(label, stem, jobs=2):
    """The compare run behind a probe table: its joined CSV, and the command that wrote it from
    WAVES/STEM_matmul.csv (its report beside it, as STEM_compare.txt)."""
    out = "{}/{}_compare".format(WAVES, stem)
    return out + ".csv", ("cachesim compare --preset h200 --measured {}={}/{}_matmul.csv --jobs {} --threads 1 --out "
                          "{}.csv > {}.txt".format(label, WAVES, stem, jobs, out, out))


def waves_table(label, stem, schedules, part, variants=("index64", "index32"), jobs=2):
    """The chip's L1 and the presets' error per compilation, block and schedule, one column per
    launch size, in the order of their waves (compare's joined CSV of one depth)."""
    compare_csv, command = waves_compare(label, stem, jobs)
    rows = read_csv(compare_csv)
    blocks = sorted({int(r["block"]) for r in rows})
    sizes = sorted({(int(r["width"]), int(r["height"])) for r in rows}, key=lambda wh: wh[0] * wh[1])
    out = ["| compilation | schedule | | " + " | ".join(
        "{}x{} ({:.1f} waves)".format(w, h, w * h / WAVE_THREADS) for w, h in sizes) + " |",
        "|---|---|---|" + "---:|" * len(sizes)]
    for variant in variants:
        for block in blocks:
            for schedule in schedules:
                by = {(int(r["width"]), int(r["height"])): r for r in rows
                      if (r["variant"] or "index64") == variant and r["schedule"] == schedule and int(r["block"]) == block}
                if not by:
                    continue
                label = variant if len(blocks) == 1 else "{}, block {}".format(variant, block)
                out.append("| {} | `{}` | the chip's L1 % | ".format(label, schedule) + " | ".join(
                    "{:.1f}".format(float(by[wh][M + L1R])) for wh in sizes) + " |")
                out.append("| | | the presets' error | " + " | ".join("{:+.1f}".format(l1_error(by[wh])) for wh in sizes)
                           + " |")
    depth = rows[0]["depth"]
    what = "block {}".format(blocks[0]) if len(blocks) == 1 else "blocks " + " and ".join(map(str, blocks))
    return (note("`{}`, written by `{}` from `scripts/device_heldout.sh {}` (the matmul at depth {}, {}, on "
                 "the H200); the chip's L1 hit rate, then the model's error in points".format(
                     compare_csv, command, part, depth, what)) + "\n" + "\n".join(out) + "\n")


def gen_waves_probe():
    """The wave probes: the chip's L1 and the presets' error against the number of waves."""
    return waves_table("waves", "waves_probe", ("column:128", "linear", "column:32"), "waves", jobs=16)


def gen_waves_probe_unroll1():
    """The wave probes of the unrolled-once loop."""
    return waves_table("waves_unroll1", "waves_probe_unroll1", ("column:128", "linear", "column:32"), "waves_unroll1",
                       ("unroll1",))


def gen_waves_strip():
    """The strip probes: one 128-column strip, from half a wave to eight."""
    return waves_table("strips", "waves_strip", ("column:128", "column:32"), "strips")


def gen_waves_strip_blocks():
    """The strip probes' unrolled-once loop, and every compilation at block 256."""
    return waves_table("strip_blocks", "waves_strip_blocks", ("column:128",), "strip_blocks",
                       ("unroll1", "index64", "index32"))


def gen_waves_strip_depth():
    """The strip probes' column:128 at two and four waves against the loop's length (depth 1024
    from the strip probes themselves)."""
    depth_csv, command = waves_compare("strip_depths", "waves_strip_depth")
    strip_csv, _ = waves_compare("strips", "waves_strip")
    rows = [r for r in read_csv(depth_csv) + read_csv(strip_csv) if r["schedule"] == "column:128"]
    by = {((r["variant"] or "index64"), int(r["height"]), int(r["depth"])): r for r in rows}
    waves_of = lambda h: 128 * h // WAVE_THREADS  # the strip is 128 wide
    heights = sorted({h for _, h, _ in by if 128 * h in (2 * WAVE_THREADS, 4 * WAVE_THREADS)})
    depths = sorted({d for v, h, d in by if h in heights})
    out = ["| compilation | launch | | " + " | ".join("depth {}".format(d) for d in depths) + " |",
           "|---|---|---|" + "---:|" * len(depths)]
    for variant in ("index64", "index32"):
        for h in heights:
            cells = [by.get((variant, h, d)) for d in depths]
            out.append("| {} | 128x{} ({} waves) | the chip's L1 % | ".format(variant, h, waves_of(h)) + " | ".join(
                "{:.1f}".format(float(r[M + L1R])) if r else "" for r in cells) + " |")
            out.append("| | | the presets' error | " + " | ".join(
                "{:+.1f}".format(l1_error(r)) if r else "" for r in cells) + " |")
    return (note("`{}`, written by `{}` from `scripts/device_heldout.sh strip_depths`, and depth 1024 from `{}` (the "
                 "matmul one 128-column strip wide, block 128, `column:128`, on the H200); the chip's L1 hit rate, "
                 "then the model's error in points".format(depth_csv, command, strip_csv)) + "\n" + "\n".join(out) + "\n")


def gen_wave_sync():
    """Whether an SM's blocks start together, from the placed launches' warp times."""
    rows = read_csv(WAVES + "/wave_sync.csv")
    out = ["| launch | schedule | blocks | median run µs | start bunch of the median block | progress spread "
           "| L1 %, placed launch | L1 %, its warp times replayed | L1 %, profiled launch |",
           "|---|---|---:|---:|---:|---:|---:|---:|---:|"]
    for r in rows:
        out.append("| {} d{} b{} | `{}` | {} | {} | {:g} | {} | {} | {} | {} |".format(
            grid_label(r["width"], r["height"]), r["depth"], r["block_size"], r["schedule"], r["blocks"], r["median_run_us"],
            float(r["median_start_bunch"]), r["progress_spread"], r["l1_placed"], r["l1_replay"] or "–",
            r["l1_profiled"]))
    return (note("`{0}/wave_sync.csv`, written by `scripts/wave_sync_report.py --times {0}/waves_SIZE_SCHEDULE.csv.gz "
                 "... --ncu {0}/waves_ncu.csv --replay --out {0}/wave_sync.csv` from `scripts/device_progress.sh "
                 "waves` (index64; the replay: `cachesim simulate --preset h200 --carveout-rule occupancy --warp-times`)".format(WAVES))
            + "\n" + "\n".join(out) + "\n")


WAVE_GROUPS_CMD = ("scripts/wave_groups_report.py --chip {0}/wave_ends_index32.csv.gz --chip {0}/wave_ends_unroll1.csv.gz "
                   "--compilation index32 --compilation unroll1 --ncu {0}/wave_ends_ncu.csv --rows {0}/wave_ends_rows.csv "
                   "--model 'preset=--carveout-rule occupancy' --model 'cycles=--carveout-rule occupancy --timing cycles --warp-scheduler gto --issue-cycles auto' "
                   "--model 'cycles_dram=--carveout-rule occupancy --timing cycles --warp-scheduler gto --issue-cycles auto --lat-dram 691' "
                   "--jobs 16 --out {0}/wave_groups.csv".format(WAVES))
WAVE_GROUP_SOURCES = [  # (source in the CSV, column label)
    ("chip", "the chip"),
    ("preset", "the presets (rounds)"),
    ("cycles", "cycle timing, every L1 miss 291 cycles"),
    ("cycles_dram", "the same, first reads 691 (DRAM)"),
]


def group_cell(r, last):
    """One source's cell of wave_groups_report.py's row r: the L1 % (a chip's end-stamped launch in
    brackets) · first group · later blocks alone · later group · the figure `last`."""
    l1 = "{:.1f}".format(float(r["l1"]))
    if r["l1_stamped"]:
        l1 += " ({:.1f})".format(float(r["l1_stamped"]))
    return " · ".join([l1, r["first_group"]] + [r[c] or "–" for c in ("later_alone", "later_group", last)])


def gen_wave_groups():
    """How an SM's blocks end together, wave after wave: the chip's end-stamped launches and the models."""
    rows = read_csv(WAVES + "/wave_groups.csv")
    launches = {}
    for r in rows:
        key = (r["compilation"], r["width"], r["height"], r["depth"], r["block_size"], r["schedule"])
        launches.setdefault(key, {})[r["source"]] = r
    out = ["| launch | schedule | " + " | ".join(label for _, label in WAVE_GROUP_SOURCES) + " |",
           "|---|---|" + "---|" * len(WAVE_GROUP_SOURCES)]
    for (compilation, width, height, depth, block, schedule), by in launches.items():
        cells = [group_cell(by[source], "wave2_spread") for source, _ in WAVE_GROUP_SOURCES]
        out.append("| {} {} d{} b{} | `{}` | {} |".format(compilation, grid_label(width, height), depth, block, schedule,
                                                          " | ".join(cells)))
    return (note("`{}/wave_groups.csv`, written by `{}` from `scripts/device_progress.sh wave_ends` (gpubench "
                 "`--warp-ends`, launch 0). Each cell: the L1 hit rate % (the chip's profiled launch, and in brackets "
                 "the end-stamped one whose ends these are) · the blocks of an SM's first group · the share of the "
                 "later waves' blocks that end alone · the group of the median later block · the spread of the second wave's "
                 "run times (standard deviation over median)".format(WAVES, WAVE_GROUPS_CMD))
            + "\n" + "\n".join(out) + "\n")


BLOCK_STARTS = "tests/data/h200/block_starts"
BLOCK_STARTS_CMD = ("scripts/block_starts_report.py {0}/placement_stencil3x3.csv.gz {0}/placement_stencil9x9.csv.gz "
                    "--out {0}/block_starts.csv".format(BLOCK_STARTS))


def gen_block_starts():
    """When the chip starts consecutive blocks, after the first wave (gpubench --placement)."""
    out = ["| launch | schedule | launch # | later blocks a µs | gap between consecutive blocks' starts, ns: "
           "p25 / median / p75 / p90 | the same SM / TPC | a block's run, ns: p10 / median / p90 |",
           "|---|---|---:|---:|---|---:|---:|"]
    for r in read_csv(BLOCK_STARTS + "/block_starts.csv"):
        out.append("| {} {}x{} b{} | `{}` | {} | {} | {} / {} / {} / {} | {} / {} | {} / {} / {} |".format(
            r["kernel"], r["stencil_w"], r["stencil_h"], r["block_size"], r["schedule"], r["launch"],
            r["later_blocks_per_us"], r["gap_p25"], r["gap_p50"], r["gap_p75"], r["gap_p90"], r["same_sm"],
            r["same_tpc"], num(r["run_p10"]), num(r["run_p50"]), num(r["run_p90"])))
    return (note("`{}/block_starts.csv`, written by `{}` from `scripts/device_progress.sh block_starts` (gpubench "
                 "`--placement` of the 4096² stencils at block 128: per block its SM and when its thread 0 started "
                 "and its last warp ended, `%globaltimer`, whose readings come in steps of 32 ns); the blocks after "
                 "the first wave (132 SMs x 16)".format(BLOCK_STARTS, BLOCK_STARTS_CMD))
            + "\n" + "\n".join(out) + "\n")


REFILL_GROUPS_CMD = ("scripts/wave_groups_report.py --chip {0}/refill_ends_unroll1.csv.gz "
                     "--chip {0}/wave_ends_unroll1.csv.gz --compilation unroll1 --ncu {0}/refill_ends_ncu.csv "
                     "--rows {0}/refill_ends_rows.csv --ncu {0}/wave_ends_ncu.csv --rows {0}/wave_ends_rows.csv "
                     "--model 'preset=--carveout-rule occupancy' --jobs 2 --out {0}/refill_groups.csv".format(WAVES))


def gen_refill_groups():
    """Which blocks an SM receives together: the chip's refill runs beside the presets'."""
    launches = {}
    for r in read_csv(WAVES + "/refill_groups.csv"):
        key = (r["width"], r["height"], r["depth"], r["block_size"], r["schedule"])
        launches.setdefault(key, {})[r["source"]] = r
    out = ["| launch | schedule | the chip's L1 % | the presets' error | later blocks received in runs: the chip "
           "| the presets | later group: the chip | the presets | later blocks ending alone: the chip | the presets |",
           "|---|---|---:|---:|---:|---:|---:|---:|---:|---:|"]
    for (width, height, depth, block, schedule), by in launches.items():
        chip, model = by["chip"], by["preset"]
        out.append("| {} d{} b{} | `{}` | {:.1f} ({:.1f}) | {:+.1f} | {} | {} | {} | {} | {} | {} |".format(
            grid_label(width, height), depth, block, schedule, float(chip["l1"]), float(chip["l1_stamped"]),
            float(model["l1"]) - float(chip["l1"]), chip["later_runs"], model["later_runs"], chip["later_group"],
            model["later_group"], chip["later_alone"], model["later_alone"]))
    return (note("`{}/refill_groups.csv`, written by `{}` from `scripts/device_progress.sh refill_ends` and "
                 "`wave_ends` (the unrolled-once matmul, gpubench `--warp-ends`, launch 0). The chip's L1: the profiled launch, in "
                 "brackets the end-stamped one whose ends these are; the presets' error against the profiled one. "
                 "Received in runs: the share of the later waves' blocks for which one of the launch's next 4 "
                 "blocks went to the same SM (about 0.03 where blocks are spread at random over 132 SMs)"
                 .format(WAVES, REFILL_GROUPS_CMD))
            + "\n" + "\n".join(out) + "\n")


BLOCK_SIZES = H200 + "/block_sizes"


def probe_table(name, column, label):
    """The probe NAME (scripts/device_heldout.sh NAME, BLOCK_SIZES/NAME_matmul.csv) through compare: per
    compilation and schedule the chip's L1 and the presets' error, one column per value of COLUMN(row),
    in order, headed LABEL(value)."""
    out_csv = "{}/{}_compare.csv".format(BLOCK_SIZES, name)
    command = ("cachesim compare --preset h200 --measured {1}={0}/{1}_matmul.csv --jobs 2 --threads 1 --out {2} > "
               "{0}/{1}_compare.txt".format(BLOCK_SIZES, name, out_csv))
    rows = read_csv(out_csv)
    keys = sorted({column(r) for r in rows})
    variants = [v for v in ("index32", "index64") if any((r["variant"] or "index64") == v for r in rows)]
    out = ["| compilation | schedule | | " + " | ".join(label(k) for k in keys) + " |",
           "|---|---|---|" + "---:|" * len(keys)]
    for variant in variants:
        for schedule in ("column:128", "linear", "column:32"):
            by = {column(r): r for r in rows if (r["variant"] or "index64") == variant and r["schedule"] == schedule}
            out.append("| {} | `{}` | the chip's L1 % | ".format(variant, schedule) + " | ".join(
                "{:.1f}".format(float(by[k][M + L1R])) for k in keys) + " |")
            out.append("| | | the presets' error | " + " | ".join("{:+.1f}".format(l1_error(by[k])) for k in keys) + " |")
    return (note("`{}`, written by `{}` from `scripts/device_heldout.sh {}` (the matmul on the H200, in no set); "
                 "the chip's L1 hit rate, then the model's error in points".format(out_csv, command, name))
            + "\n" + "\n".join(out) + "\n")


def gen_block_sizes():
    """The block-size probe: one grid and depth, so the same waves, at four block sizes."""
    return probe_table("block_sizes", lambda r: (int(r["block"]), r["width"], r["height"], r["depth"]),
                       lambda k: "{1}x{2}, depth {3}, block {0}".format(*k))


def gen_widths():
    """The width probe: at each depth one number of threads and block, at several widths."""
    return probe_table("widths", lambda r: (int(r["depth"]), int(r["width"]), int(r["height"])),
                       lambda k: "{1}x{2}, depth {0} ({3} strips, {4:.2f} waves)".format(
                           *k, k[1] // 128, k[1] * k[2] / WAVE_THREADS))


WIDTH_GROUP_RUNS = [  # (device_progress.sh part and file stem, compilation, summary CSV)
    ("width_ends", "index32", "width_groups.csv"),
    ("width_ends64", "index64", "width_groups64.csv"),
]
WIDTH_GROUPS_CMD = ("scripts/wave_groups_report.py --chip {0}/{1}_{2}.csv.gz --compilation {2} "
                    "--ncu {0}/{1}_ncu.csv --rows {0}/{1}_rows.csv --model 'preset=' "
                    "--model 'miss_wait=--miss-wait-turns 0.2' "
                    "--model 'cycles=--timing cycles --warp-scheduler gto --issue-cycles auto' "
                    "--jobs 2 --out {0}/{3}")
WIDTH_GROUP_SOURCES = [  # (source in the CSV, column label)
    ("chip", "the chip"),
    ("preset", "the presets"),
    ("miss_wait", "the presets with `--miss-wait-turns 0.2`"),
    ("cycles", "cycle timing (gto, the loop's issue cost)"),
]
FIRST_WAVE_BLOCKS = 16  # an SM's blocks of 128 threads in the first wave (2,048 threads an SM)


def gen_width_groups():
    """The width probes' warp ends: which of an SM's later blocks start together and read one strip."""
    launches = {}
    for _, compilation, csv_name in WIDTH_GROUP_RUNS:
        for r in read_csv(BLOCK_SIZES + "/" + csv_name):
            key = (compilation, r["schedule"], int(r["depth"]), int(r["width"]), int(r["height"]))
            launches.setdefault(key, {})[r["source"]] = r
    out = ["| compilation | schedule | launch (block 128) | strips | first-wave blocks a strip | "
           + " | ".join(label for _, label in WIDTH_GROUP_SOURCES) + " |",
           "|---|---|---|---:|---:|" + "---|" * len(WIDTH_GROUP_SOURCES)]
    order = [c for _, c, _ in WIDTH_GROUP_RUNS]
    for (compilation, schedule, depth, width, height), by in sorted(
            launches.items(), key=lambda kv: (order.index(kv[0][0]), kv[0][1] != "column:128", kv[0][2], kv[0][3])):
        cells = [group_cell(by[source], "later_partners") for source, _ in WIDTH_GROUP_SOURCES]
        per_strip = min(FIRST_WAVE_BLOCKS, height / 132)
        out.append("| {} | `{}` | {} d{} | {} | {:.1f} | {} |".format(
            compilation, schedule, grid_label(width, height), depth, width // 128, per_strip, " | ".join(cells)))
    commands = "; ".join("`{}` from `scripts/device_progress.sh {}`".format(
        WIDTH_GROUPS_CMD.format(BLOCK_SIZES, part, compilation, csv_name), part)
        for part, compilation, csv_name in WIDTH_GROUP_RUNS)
    return (note("{} (gpubench `--warp-ends`, launch 0; in no set). Each cell: the L1 hit rate % (the chip's "
                 "profiled launch, and in brackets the end-stamped one whose ends these are) · the blocks of an SM's "
                 "first group · the share of the later waves' blocks that end alone · the group of the median later "
                 "block · the share of the later blocks beside which another block of the SM reading the same 128 "
                 "columns of B started (within 2% of a median later run). First-wave blocks a strip: an SM's first "
                 "16 blocks lie 132 rows of C apart".format(commands))
            + "\n" + "\n".join(out) + "\n")


WIDTH_WARM_CMD = ("scripts/wave_groups_report.py --chip {0}/width_ends_index32.csv.gz --compilation index32 "
                  "--ncu {0}/width_ends_ncu.csv --rows {0}/width_ends_rows.csv "
                  "--model 'warm_group=--warp-age-warm-group 6 --warp-age-dram-blocks first-wave' --jobs 2 "
                  "--out {0}/width_groups_warm.csv")
WIDTH_DRAM_CMD = ("scripts/wave_groups_report.py --chip {0}/width_ends_index32.csv.gz --compilation index32 "
                  "--ncu {0}/width_ends_ncu.csv --rows {0}/width_ends_rows.csv "
                  "--model 'first_reads=--warp-age-warm-group 6 --warp-age-dram-blocks first-reads' --jobs 2 "
                  "--out {0}/width_groups_dram.csv")
WIDTH_RANK_CMD = ("scripts/wave_groups_report.py --chip {0}/width_ends_index32.csv.gz --compilation index32 "
                  "--ncu {0}/width_ends_ncu.csv --rows {0}/width_ends_rows.csv "
                  "--model 'block_rank=--warp-age-warm-group 6 --warp-age-rank block' --jobs 2 "
                  "--out {0}/width_groups_block_rank.csv")


def width_rows(name, source):
    """(schedule, depth, width, height) -> the row of `source` in BLOCK_SIZES/name."""
    return {(r["schedule"], int(r["depth"]), int(r["width"]), int(r["height"])): r
            for r in read_csv(BLOCK_SIZES + "/" + name) if r["source"] == source}


def gen_width_warm():
    """The 32-bit width probes with the warm group (6, weight 0.591 from the knee probe started warm)
    for the blocks that read from the L2, by either rule for which those are, beside the presets:
    the L1 and how many later blocks end alone."""
    chip = width_rows("width_groups_warm.csv", "chip")
    models = (("the presets", width_rows("width_groups.csv", "preset")),
              ("warm group, first wave", width_rows("width_groups_warm.csv", "warm_group")),
              ("warm group, first reads", width_rows("width_groups_dram.csv", "first_reads")),
              ("the same, one rank a block", width_rows("width_groups_block_rank.csv", "block_rank")))
    out = ["| schedule | launch (block 128) | the chip: L1 % · later blocks alone | "
           + " | ".join("{}: L1 error · alone".format(label) for label, _ in models) + " |",
           "|---|---|---|" + "---|" * len(models)]
    errors = {label: [] for label, _ in models}
    for key in sorted(chip, key=lambda k: (k[0] != "linear", k[1], k[2])):
        schedule, depth, width, height = key
        cells = []
        for label, table in models:
            error = float(table[key]["l1"]) - float(chip[key]["l1"])
            errors[label].append(abs(error))
            cells.append("{:+.1f} · {}".format(error, table[key]["later_alone"]))
        out.append("| `{}` | {} d{} | {:.1f} · {} | {} |".format(
            schedule, grid_label(width, height), depth, float(chip[key]["l1"]), chip[key]["later_alone"],
            " | ".join(cells)))
    summary = "; ".join("{}: mean \\|L1 error\\| {:.2f}, {} of {} within 3 points, {} beyond 6".format(
        label[0].upper() + label[1:], sum(e) / len(e), sum(x <= 3 for x in e), len(e), sum(x > 6 for x in e))
        for label, e in errors.items())
    return (note("`{0}/width_groups_warm.csv`, written by `{1}`, `{0}/width_groups_dram.csv`, by `{2}`, and "
                 "`{0}/width_groups_block_rank.csv`, by `{3}`, beside the presets' rows of `{0}/width_groups.csv` "
                 "(the chip's width_ends launches, in no set). Errors against the chip's profiled launch; alone: the "
                 "share of the later waves' blocks that end alone (wave_groups_report.py). {4}"
                 .format(BLOCK_SIZES, WIDTH_WARM_CMD.format(BLOCK_SIZES), WIDTH_DRAM_CMD.format(BLOCK_SIZES),
                         WIDTH_RANK_CMD.format(BLOCK_SIZES), summary))
            + "\n" + "\n".join(out) + "\n")


def warp_ends_by_block(path, key_fields):
    """Per launch (the values of key_fields) of a --warp-ends file: per block, its warps' ends (ns)."""
    launches = {}
    with gzip.open(os.path.join(ROOT, path), "rt") as f:
        for r in csv.DictReader(f):
            launches.setdefault(tuple(r[k] for k in key_fields), {}).setdefault(int(r["block"]), []).append(
                int(r["end_ns"]))
    return launches


def block_end_ties(path, key_fields, wave):
    """Per launch (the values of key_fields) of a --warp-ends file: per wave of `wave` blocks in launch
    order, the share of blocks whose end (their last warp's %globaltimer reading) at least 8 of the
    launch's blocks share."""
    ends = {key: {block: max(warps) for block, warps in blocks.items()}
            for key, blocks in warp_ends_by_block(path, key_fields).items()}
    shares = {}
    for key, launch in ends.items():
        readings = {}
        for end in launch.values():
            readings[end] = readings.get(end, 0) + 1
        shares[key] = [sum(readings[launch[b]] >= 8 for b in range(first, min(len(launch), first + wave)))
                       / (min(len(launch), first + wave) - first) for first in range(0, len(launch), wave)]
    return shares


TIES_NOTE = ("a block ends with its last warp; per wave in launch order, the share of blocks whose end reading "
             "(`%globaltimer`, steps of 32 ns) at least 8 of the launch's blocks share")


def gen_width_ties():
    """The chip's GPU-wide ties at the width layouts, per wave of 132 x 16 blocks."""
    path = BLOCK_SIZES + "/width_ends_index32.csv.gz"
    shares = block_end_ties(path, ("schedule", "depth", "width", "height"), 132 * 16)
    out = ["| launch (block 128) | B's column strips | `column:128`: share of each wave's blocks in ties of 8 or more "
           "| `linear`: the same |", "|---|---:|---|---|"]
    for depth, width, height in sorted({k[1:] for k in shares}, key=lambda k: (int(k[0]), int(k[1]))):
        cells = [" ".join("{:.2f}".format(x) for x in shares[(schedule, depth, width, height)])
                 for schedule in ("column:128", "linear")]
        out.append("| {} d{} | {} | {} |".format(grid_label(int(width), int(height)), depth, int(width) // 128,
                                                 " | ".join(cells)))
    return (note("`{}` (`scripts/device_progress.sh width_ends`: gpubench `--warp-ends`, the 32-bit build): {} (waves "
                 "of 132 x 16 blocks)".format(path, TIES_NOTE))
            + "\n" + "\n".join(out) + "\n")


TILE_ENDS = H200 + "/tile_ends"
TILE_WAVE = 132 * 21  # the tile probe's blocks a wave: 21 blocks of 96 threads on each of 132 SMs
TILE_GROUPS_CMD = ("scripts/wave_groups_report.py --chip {0}/tile_ends_index32.csv.gz --compilation index32 "
                   "--ncu {0}/tile_ends_ncu.csv --rows {0}/tile_ends_rows.csv --model 'preset=' "
                   "--model 'first_reads=--warp-age-warm-group 6' "
                   "--model 'block_rank=--warp-age-warm-group 6 --warp-age-rank block' --jobs 2 "
                   "--out {0}/tile_groups.csv")
TILE_MODELS = (("preset", "the presets"), ("first_reads", "warm group, first reads"),
               ("block_rank", "the same, one rank a block"))


def gen_tile_ends():
    """The 32-bit 1280^3 matmul at block 96: the chip's ties per wave and L1 beside the presets' and
    the warm group's by first reads."""
    shares = block_end_ties(TILE_ENDS + "/tile_ends_index32.csv.gz", ("schedule",), TILE_WAVE)
    rows = {(r["schedule"], r["source"]): r for r in read_csv(TILE_ENDS + "/tile_groups.csv")}
    out = ["| schedule | the chip: ties per wave | L1 % · later blocks alone | "
           + " | ".join("{}: L1 error · alone".format(label) for _, label in TILE_MODELS) + " |",
           "|---|---|---|" + "---|" * len(TILE_MODELS)]
    for (schedule,) in shares:
        chip = rows[(schedule, "chip")]
        cells = ["{:+.1f} · {}".format(float(rows[(schedule, s)]["l1"]) - float(chip["l1"]),
                                       rows[(schedule, s)]["later_alone"]) for s, _ in TILE_MODELS]
        out.append("| `{}` | {} | {:.1f} · {} | {} |".format(
            schedule, " ".join("{:.2f}".format(x) for x in shares[(schedule,)]), float(chip["l1"]),
            chip["later_alone"], " | ".join(cells)))
    return (note("`{0}/tile_ends_index32.csv.gz` (`scripts/device_progress.sh tile_ends`; in no set): {1} (waves of "
                 "132 x 21 blocks); L1 and later blocks ending alone from `{0}/tile_groups.csv`, written by `{2}` "
                 "(errors against the chip's profiled launch)".format(TILE_ENDS, TIES_NOTE, TILE_GROUPS_CMD.format(TILE_ENDS)))
            + "\n" + "\n".join(out) + "\n")


PROGRESS_WIDTHS = H200 + "/progress_widths"
PROGRESS_REPLAY_CMD = ("scripts/progress_replay_report.py --dir {0} --ncu {0}/progress_widths_ncu.csv "
                       "--rows {0}/progress_widths_rows.csv --out {0}/progress_replay.csv --jobs 2")


def gen_progress_replay():
    """progressprobe's 32-bit matmul at the width layouts: the chip's L1 beside the model replaying its pace."""
    out = ["| launch (block 128) | schedule | the chip: L1 % (start and end only) | replayed, every sample: L1 % "
           "(error) | replayed, start and end only: L1 % (error) | progress spread |",
           "|---|---|---:|---:|---:|---:|"]
    for r in read_csv(PROGRESS_WIDTHS + "/progress_replay.csv"):
        chip = float(r["l1_sampled"])
        out.append("| {} d{} | `{}` | {} ({}) | {} ({:+.1f}) | {} ({:+.1f}) | {} |".format(
            grid_label(int(r["width"]), int(r["height"])), r["depth"], r["schedule"], r["l1_sampled"],
            r["l1_start_end"], r["replay_samples"], float(r["replay_samples"]) - chip, r["replay_start_end"],
            float(r["replay_start_end"]) - chip, r["progress_spread"]))
    return (note("`{0}/progress_replay.csv`, written by `{1}` from `scripts/device_progress.sh progress_widths` "
                 "(progressprobe `--index32 1`, a sample every 64 k, one launch each; in no set). The chip's L1: "
                 "Nsight Compute on the sampled launch (in brackets, the same with start and end samples only); "
                 "replayed: `cachesim simulate --preset h200 --warp-times` (the preset as it is), each "
                 "warp's requests between its samples, or spread evenly from its first to its last; errors "
                 "against the sampled launch. Progress spread: at tenths 2..8 of the launch, on each SM, the "
                 "most and the least advanced resident warp's share of its loop done, the difference's median "
                 "over SMs and instants".format(PROGRESS_WIDTHS, PROGRESS_REPLAY_CMD.format(PROGRESS_WIDTHS)))
            + "\n" + "\n".join(out) + "\n")


def gen_tile_warp_spread():
    """The chip's blocks of 96 threads (3 warps on 4 schedulers): how far apart a block's warps end."""
    path = TILE_ENDS + "/tile_ends_index32.csv.gz"
    out = ["| schedule (1280³ d1280 b96, index32) | blocks | a block's time (µs) | a block's warps: last end less "
           "first, median (µs) | 75th percentile | 90th percentile |", "|---|---:|---:|---:|---:|---:|"]
    for (schedule,), blocks in warp_ends_by_block(path, ("schedule",)).items():
        spreads = sorted(max(ends) - min(ends) for ends in blocks.values())
        waves = len(blocks) / TILE_WAVE
        block_time = max(max(ends) for ends in blocks.values()) / waves
        cells = ["{:.1f} ({:.0%})".format(spreads[int(q * len(spreads))] / 1e3, spreads[int(q * len(spreads))] / block_time)
                 for q in (0.5, 0.75, 0.9)]
        out.append("| `{}` | {:,} | {:.0f} | {} |".format(schedule, len(blocks), block_time / 1e3, " | ".join(cells)))
    return (note("`{}` (`scripts/device_progress.sh tile_ends`; in no set): per block, its last warp's end less its "
                 "first's (`%globaltimer`, steps of 32 ns), and in brackets as a share of a block's time (the "
                 "launch's last end over its waves of 132 x 21 blocks)".format(path))
            + "\n" + "\n".join(out) + "\n")


BLOCK_SIZES_RANK_CMD = ("cachesim compare --preset h200 --measured block_sizes={0}/block_sizes_matmul.csv "
                        "--where variant=index32 --gpu warp-age-warm-group=6{1} --jobs 2 --threads 1 "
                        "--out {0}/block_sizes_compare_{2}.csv > {0}/block_sizes_compare_{2}.txt")


# The models run on the 32-bit probes in no set: (label, source name in the report files, the width
# probes' file, the tile probe's file, the block-size probe's compare file).
RANK_PROBE_MODELS = (
    ("the presets", "preset", "width_groups.csv", "tile_groups.csv", "block_sizes_compare.csv"),
    ("warm group, first reads", "first_reads", "width_groups_dram.csv", "tile_groups.csv",
     "block_sizes_compare_first_reads.csv"),
    ("the same, one rank a block", "block_rank", "width_groups_block_rank.csv", "tile_groups.csv",
     "block_sizes_compare_block_rank.csv"))
STEP_PROBE_MODELS = RANK_PROBE_MODELS[2:] + tuple(
    ("with the warm step {}".format(step), "step" + step[2:], "width_groups_warm_step.csv", "tile_groups_warm_step.csv",
     "block_sizes_compare_warm_step_{}.csv".format(step)) for step in ("0.94", "0.97"))


def probe_errors(models):
    """probe label -> [per model: L1 error per launch]: the 32-bit probes in no set (width ends,
    tile ends, block sizes) under each of `models` (RANK_PROBE_MODELS' rows)."""
    width_chip = width_rows("width_groups.csv", "chip")
    tile_chip = {r["schedule"]: float(r["l1"]) for r in read_csv(TILE_ENDS + "/tile_groups.csv") if r["source"] == "chip"}
    probes = {"the 20 width probes (block 128)": [], "the 6 tile probes (1280³, block 96)": [],
              "the 12 32-bit block-size probes (blocks 128-384)": []}
    width, tile, sizes = probes.values()
    for _, source, width_file, tile_file, sizes_file in models:
        rows = width_rows(width_file, source)
        width.append([float(rows[k]["l1"]) - float(width_chip[k]["l1"]) for k in width_chip])
        tiles = {r["schedule"]: float(r["l1"]) for r in read_csv(TILE_ENDS + "/" + tile_file) if r["source"] == source}
        tile.append([tiles[s] - tile_chip[s] for s in tile_chip])
        sizes.append([float(r["l1_hit_rate_error_pp"]) for r in read_csv(BLOCK_SIZES + "/" + sizes_file)
                      if r["variant"] == "index32"])
    probes["all"] = [sum((by[i] for by in probes.values()), []) for i in range(len(models))]
    return probes


def probe_errors_table(models):
    """The models' mean |L1 error|, launches within 3 and beyond 6 points, per probe and over all."""
    out = ["| probes | " + " | ".join("{}: mean \\|L1 error\\| · within 3 · beyond 6".format(m[0]) for m in models)
           + " |", "|---|" + "---:|" * len(models)]
    for label, by in probe_errors(models).items():
        cells = []
        for errors in ([abs(e) for e in model] for model in by):
            cells.append("{:.2f} · {} · {}".format(sum(errors) / len(errors), sum(e <= 3 for e in errors),
                                                     sum(e > 6 for e in errors)))
        out.append("| {} | {} |".format(label, " | ".join(cells)))
    return "\n".join(out) + "\n"


def gen_rank_probes():
    """model-studies.md: the three models on the 32-bit probes in no set, per probe and over all."""
    commands = "; ".join("`{}`".format(BLOCK_SIZES_RANK_CMD.format(BLOCK_SIZES, extra, name))
                         for extra, name in (("", "first_reads"), (" --gpu warp-age-rank=block", "block_rank")))
    return (note("the width probes' rows of `{0}/width_groups.csv`, `width_groups_dram.csv` and "
                 "`width_groups_block_rank.csv` (the width-warm table's commands), the tile probe's of "
                 "`{1}/tile_groups.csv` (the tile-ends table's), and the block-size probe's 32-bit rows of "
                 "`{0}/block_sizes_compare.csv` (the presets) and of the files written by {2}; errors against "
                 "the chip's profiled launch, in points".format(BLOCK_SIZES, TILE_ENDS, commands))
            + "\n" + probe_errors_table(RANK_PROBE_MODELS))


def gen_step_probes():
    """model-studies.md: one rank a block with and without the warm step, at both measured values, on
    the 32-bit probes in no set."""
    commands = "; ".join("`{}`".format(BLOCK_SIZES_RANK_CMD.format(
        BLOCK_SIZES, " --gpu warp-age-rank=block --gpu warp-age-warm-step=" + step, "warm_step_" + step))
        for step in ("0.94", "0.97"))
    return (note("the width probes' rows of `{0}/width_groups_block_rank.csv` and `width_groups_warm_step.csv`, "
                 "the tile probe's of `{1}/tile_groups.csv` and `tile_groups_warm_step.csv` (their commands in "
                 "the folders' README.md), and the block-size probe's 32-bit rows of "
                 "`{0}/block_sizes_compare_block_rank.csv` and of the files written by {2}; errors against the "
                 "chip's profiled launch, in points".format(BLOCK_SIZES, TILE_ENDS, commands))
            + "\n" + probe_errors_table(STEP_PROBE_MODELS))


TILE_PROGRESS = H200 + "/tile_progress"
TILE_REPLAY_CMD = ("scripts/progress_replay_report.py --dir {0} --ncu {0}/tile_progress_ncu.csv "
                   "--rows {0}/tile_progress_rows.csv --schedules tiled:32x32,column:16,linear --block 96 "
                   "--out {0}/tile_replay.csv --jobs 2")


BLOCK_GAPS_SOURCES = (("chip", "the chip"), ("preset", "the presets"), ("block_rank", "warm group, one rank a block"),
                      ("warm_step", "the same with the warm step 0.94"))
BLOCK_GAPS_CMD = ("scripts/block_gaps_report.py --out {0}/block_gaps.csv --jobs 2 --model 'preset=' "
                  "--model 'block_rank=--warp-age-warm-group 6 --warp-age-rank block' "
                  "--model 'warm_step=--warp-age-warm-group 6 --warp-age-rank block --warp-age-warm-step 0.94' "
                  "--model 'miss_wait=--miss-wait-turns 1' "
                  "--model 'cycles=--timing cycles --warp-scheduler gto --load-gates burst' "
                  "{0}/progress_1280x1280_d1280_index32_tiled-32x32_96.csv.gz "
                  "{0}/progress_1280x1280_d1280_index32_column-16_96.csv.gz "
                  "{0}/progress_1280x1280_d1280_index32_linear_96.csv.gz {1}/progress_*.csv.gz")


def gen_block_gaps():
    """model-studies.md: how far a block's warps part over the loop, the chip's (progressprobe) beside
    the model's (--warp-progress) for the tile and width progress probes."""
    rows = {}
    for r in read_csv(TILE_PROGRESS + "/block_gaps.csv"):
        rows.setdefault((r["width"], r["height"], r["depth"], r["block_size"], r["schedule"]), {})[r["source"]] = r
    out = ["| launch | " + " | ".join(label for _, label in BLOCK_GAPS_SOURCES) + " |",
           "|---|" + "---|" * len(BLOCK_GAPS_SOURCES)]
    for (width, height, depth, block, schedule), by in rows.items():
        size = "{}²".format(width) if width == height else "{}x{}".format(width, height)
        cells = ["{} · {} · {:.0%} · {}".format(by[s]["widest_median"], by[s]["widest_p90"],
                                                float(by[s]["widest_over_128"]), by[s]["mean_median"])
                 for s, _ in BLOCK_GAPS_SOURCES]
        out.append("| `{}` {} d{} b{} | {} |".format(schedule, size, depth, block, " | ".join(cells)))
    return (note("`{0}/block_gaps.csv`, written by `{1}` from `scripts/device_progress.sh tile_progress` and "
                 "`progress_widths` (progressprobe `--index32 1`, a sample every 64 steps; in no set) and "
                 "`cachesim simulate --warp-progress` of the same launches. Each cell, over the blocks, in steps "
                 "of the loop: the median of each block's widest gap between its warps at any sample · its 90th "
                 "percentile · the share of blocks more than 128 steps apart · the median of each block's mean "
                 "gap over the samples".format(TILE_PROGRESS, BLOCK_GAPS_CMD.format(TILE_PROGRESS, H200 + "/progress_widths")))
            + "\n" + "\n".join(out) + "\n")


BLOCK_REJOIN_SOURCES = (("chip", "the chip"), ("preset", "the presets"), ("miss_wait", "a missed turn after a miss"),
                        ("cycles", "cycle timing"))


def gen_block_rejoin():
    """model-studies.md: whether a block's warps that part come together again by the loop's end, the
    chip's beside the presets', a missed turn's and cycle timing's (block_gaps.csv)."""
    rows = {}
    for r in read_csv(TILE_PROGRESS + "/block_gaps.csv"):
        rows.setdefault((r["width"], r["height"], r["depth"], r["block_size"], r["schedule"]), {})[r["source"]] = r
    out = ["| launch | " + " | ".join(label for _, label in BLOCK_REJOIN_SOURCES) + " |",
           "|---|" + "---|" * len(BLOCK_REJOIN_SOURCES)]
    for (width, height, depth, block, schedule), by in rows.items():
        size = "{}²".format(width) if width == height else "{}x{}".format(width, height)
        cells = ["{:.0%} · {} · {}".format(float(by[s]["parted"]),
                                          "{:.0%}".format(float(by[s]["rejoined"])) if by[s]["rejoined"] else "–",
                                          by[s]["end_median"]) for s, _ in BLOCK_REJOIN_SOURCES]
        out.append("| `{}` {} d{} b{} | {} |".format(schedule, size, depth, block, " | ".join(cells)))
    return (note("`{0}/block_gaps.csv`, the same file and command as the table above. Each cell, over the "
                 "blocks: the share whose warps lie more than 64 steps apart at some sample · of those, the share "
                 "less than 16 steps apart at the loop's end (– where none parted) · the median gap at the "
                 "loop's end, in steps".format(TILE_PROGRESS)) + "\n" + "\n".join(out) + "\n")


def gen_tile_progress():
    """progressprobe's 32-bit matmul at the tile probe's launch: how far apart a block's warps run
    in the middle of the loop, and the model replaying that pace."""
    out = ["| schedule (1280³ d1280 b96) | the chip: L1 % (start and end only) | replayed, every sample: L1 % "
           "(error) | a block's warps apart, most steps over the loop: median | 90th percentile | blocks more "
           "than 128 steps apart |", "|---|---:|---:|---:|---:|---:|"]
    for r in read_csv(TILE_PROGRESS + "/tile_replay.csv"):
        chip = float(r["l1_sampled"])
        out.append("| `{}` | {} ({}) | {} ({:+.1f}) | {} | {} | {:.0%} |".format(
            r["schedule"], r["l1_sampled"], r["l1_start_end"], r["replay_samples"], float(r["replay_samples"]) - chip,
            r["block_lag_median"], r["block_lag_p90"], float(r["blocks_lag_over_128"])))
    return (note("`{0}/tile_replay.csv`, written by `{1}` from `scripts/device_progress.sh tile_progress` "
                 "(progressprobe `--index32 1`, a `%globaltimer` sample every 64 steps by lane 0 of every warp; "
                 "one launch each; in no set). Steps apart: at each sample, the block's latest warp's time less "
                 "its earliest's, over the block's mean time a step".format(TILE_PROGRESS, TILE_REPLAY_CMD.format(TILE_PROGRESS)))
            + "\n" + "\n".join(out) + "\n")
