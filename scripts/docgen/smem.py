"""The L1 beside shared memory: the carve-out, the shared-memory probes, the probes in no set."""

import functools
import os
import tempfile

from docgen.common import H200, L1R, M, ncu_number, note, num, read_csv, run
from docgen.lockstep_probes import knee_times
from docgen.sets import BLOCK_RATES_DIR, BLOCK_RATES_OPTIONS, l1_error, l1_error_counts
from docgen.waves import WAVES


SMEM = "tests/data/h200/smem"
SMEM_SIZES = ["0", "5120", "11264"]
SMEM_MODELS = [("preset_rule", "the preset, occupancy rule"), ("preset", "the preset"),
               ("per_warp", "a rate per warp, skip 8"), ("cycles_gto", "cycles, gto"), ("cycles_no_lrc", "cycles, issue cost, no coalescer"),
               ("lockstep_wait", "lock step, a missed turn"), ("block_rates", "one rate per block")]
# The carve-out probes: Nsight Compute's launch attributes of gpubench launches, the driver's choice
# in launch__shared_mem_config_size.
CARVEOUT_FILES = [("carveout.csv", "the grid the rule was read from (matmul, 32 registers)"),
                  ("carveout_check_matmul.csv", "check: the matmul at other block sizes and shared memory"),
                  ("carveout_check_stencil.csv", "check: the stencil (40 registers: fewer resident blocks)"),
                  ("carveout_check_repeat.csv", "check: launches of the grid again, after the others"),
                  ("carveout_edges_none.csv", "edges: every block size without shared memory"),
                  ("carveout_edges_large.csv", "edges: blocks of 800 to 1,024 threads with shared memory")]


# scripts/smem_probe_report.sh runs every model but the presets with the slot cycle's first wave.
SLOT_NOTE = "; every model but the presets places the first wave by the slot cycle (`--gpu cta-order=floorplan`)"


def smem_carveouts():
    """The driver's carve-out per smem_per_block, from Nsight Compute's launch attributes."""
    return {str(int(ncu_number(r["launch__shared_mem_per_block_dynamic"]))): r for r in read_csv(SMEM + "/smem_carveout.csv")}


_l1_tables = {}


def model_l1_kib(block, smem, regs=0, rule=None):
    """The L1 (KiB) the h200 preset leaves at a block size, shared memory and registers a thread
    (its own carve-out rule, or `rule`): from one `cachesim sweep` over every block size and
    shared memory the carve-out probes hold, per registers and rule."""
    key = (regs, rule)
    if key not in _l1_tables:
        blocks = sorted({b for name, _ in CARVEOUT_FILES for b, _, _ in carveout_launches(name)} | {128})
        smems = sorted({s for name, _ in CARVEOUT_FILES for _, s, _ in carveout_launches(name)}
                       | {int(x) for x in smem_carveouts()})
        with tempfile.TemporaryDirectory() as tmp:
            out = os.path.join(tmp, "l1.csv")
            args = ["sweep", "--model", "gpu", "--preset", "h200", "--workload", "matmul", "--size", "128x128",
                    "--depth", "8", "--block", ",".join(map(str, blocks)), "--smem-per-block", ",".join(map(str, smems)),
                    "--regs-per-thread", str(regs), "--out", out]
            if rule:
                args += ["--carveout-rule", rule]
            run(args)
            _l1_tables[key] = {(int(r["block"]), int(r["smem_per_block_bytes"])): int(r["l1_size"]) // 1024
                               for r in read_csv(out)}
    return _l1_tables[key][(int(block), int(smem))]


def gen_smem_carveout():
    """fidelity-shared-memory.md: the carve-out the driver took for each shared memory, against the model's rules."""
    out = ["| dynamic shared memory per block | blocks an SM | the driver's carve-out | its L1 | the preset's carve-out "
           "| its L1 | the occupancy rule's carve-out | its L1 |",
           "|---:|---:|---:|---:|---:|---:|---:|---:|"]
    for smem, r in sorted(smem_carveouts().items(), key=lambda kv: int(kv[0])):
        blocks = int(min(ncu_number(r["launch__occupancy_limit_warps"]), ncu_number(r["launch__occupancy_limit_shared_mem"])))
        chip = int(ncu_number(r["launch__shared_mem_config_size"])) // 1024
        preset, occupancy = model_l1_kib(128, smem), model_l1_kib(128, smem, rule="occupancy")
        out.append("| {} | {} | {} KiB | {} KiB | {} KiB | {} KiB | {} KiB | {} KiB |".format(
            num(smem), blocks, chip, 256 - chip, 256 - preset, preset, 256 - occupancy, occupancy))
    return (note("the driver's from `{}/smem_carveout.csv` (Nsight Compute's `launch__shared_mem_config_size` and "
                 "occupancy limits of gpubench's 1024³ matmul at block 128, `scripts/device_heldout.sh smem`), the "
                 "model's from `cachesim simulate --preset h200 --workload matmul --size 128x128 --depth 8 --block 128 "
                 "--smem-per-block B --format csv` (its `l1_size` of the 256 KiB, the carve-out the rest), with "
                 "`--carveout-rule occupancy` for the last two columns".format(SMEM)) + "\n" + "\n".join(out) + "\n")


@functools.lru_cache(maxsize=None)
def carveout_launches(name):
    """(block, shared memory, registers a thread) -> the driver's carve-out (KiB), from one probe file
    (read once; the callers only read the dict)."""
    cells = {}
    for r in read_csv(SMEM + "/" + name):
        key = (int(ncu_number(r["launch__block_size"])), int(ncu_number(r["launch__shared_mem_per_block_dynamic"])),
               int(ncu_number(r["launch__registers_per_thread"])))
        cells[key] = int(ncu_number(r["launch__shared_mem_config_size"])) // 1024
    return cells


def gen_carveout_grid():
    """fidelity-shared-memory.md: the driver's carve-out at every block size and shared memory of the grid, and the occupancy rule's."""
    cells = {(s, b): c for (b, s, _), c in carveout_launches("carveout.csv").items()}
    blocks = sorted({b for _, b in cells})
    out = ["| dynamic shared memory a block | " + " | ".join(str(b) for b in blocks) + " |",
           "|---:|" + "---:|" * len(blocks)]
    preset_same = occupancy_same = 0
    for smem in sorted({s for s, _ in cells}):
        row = []
        for b in blocks:
            chip = cells[(smem, b)]
            preset, occupancy = 256 - model_l1_kib(b, smem, 32), 256 - model_l1_kib(b, smem, 32, "occupancy")
            preset_same += chip == preset
            occupancy_same += chip == occupancy
            row.append(str(chip) if chip == occupancy else "{} ({})".format(chip, occupancy))
        out.append("| {} | {} |".format(num(smem), " | ".join(row)))
    return (note("the carve-out in KiB the driver took for gpubench's matmul (32 registers a thread), from Nsight "
                 "Compute's `launch__shared_mem_config_size` in `{}/carveout.csv` (`scripts/device_heldout.sh "
                 "carveout`), by threads a block (columns); in brackets where the occupancy rule takes another "
                 "(`cachesim simulate --preset h200 --block T --smem-per-block B --regs-per-thread 32 --carveout-rule "
                 "occupancy`: 256 KiB less its `l1_size`): the same in {} of {}; the h200 preset's own rule takes the "
                 "driver's in {} of {}".format(SMEM, occupancy_same, len(cells), preset_same, len(cells)))
            + "\n" + "\n".join(out) + "\n")


def gen_carveout_check():
    """fidelity-shared-memory.md: every carve-out probe file, the launches where the preset's rule and the occupancy rule take the driver's."""
    out = ["| launches | file | blocks (threads) | shared memory a block (B) | registers a thread | the preset's rule "
           "takes the driver's | the occupancy rule does | where the preset's rule does not: block, shared memory, the "
           "driver's carve-out (the rule's) |",
           "|---|---|---|---|---:|---:|---:|---|"]
    totals = [0, 0, 0]
    for name, label in CARVEOUT_FILES:
        cells = carveout_launches(name)
        misses, occupancy_same = [], 0
        for (b, smem, regs), chip in sorted(cells.items()):
            preset = 256 - model_l1_kib(b, smem, regs)
            occupancy_same += chip == 256 - model_l1_kib(b, smem, regs, "occupancy")
            if preset != chip:
                misses.append("{}, {}: {} ({})".format(b, num(smem), chip, preset))
        blocks = sorted({b for b, _, _ in cells})
        smems = sorted({s for _, s, _ in cells})
        regs = sorted({r for _, _, r in cells})
        span = lambda v: "{} to {} ({} values)".format(num(v[0]), num(v[-1]), len(v)) if len(v) > 3 else ", ".join(num(x) for x in v)
        out.append("| {} | `{}` | {} | {} | {} | {}/{} | {}/{} | {} |".format(
            label, name, span(blocks), span(smems), ", ".join(str(r) for r in regs), len(cells) - len(misses),
            len(cells), occupancy_same, len(cells), "; ".join(misses)))
        totals[0] += len(cells) - len(misses)
        totals[1] += occupancy_same
        totals[2] += len(cells)
    out.append("| all | | | | | {0}/{2} | {1}/{2} | |".format(*totals))
    return (note("the carve-out the H200's driver took, Nsight Compute's `launch__shared_mem_config_size` in "
                 "`{}/FILE` (`scripts/device_heldout.sh carveout`, `carveout_check` and `carveout_edges`), against "
                 "`cachesim simulate --preset h200 --block T --smem-per-block B --regs-per-thread R` (256 KiB less its "
                 "`l1_size`), and the same with `--carveout-rule occupancy`".format(SMEM)) + "\n" + "\n".join(out) + "\n")


SMEM_PROBES = {  # probe: its measured file, block size and shared memory per block
    "matmul": ("smem_matmul.csv", 128, ["0", "5120", "11264"]),
    "stencil": ("smem_stencil.csv", 128, ["0", "5120", "11264"]),
    "matmul256": ("smem256_matmul.csv", 256, ["0", "11264", "16384", "24576"]),
}


def driver_l1_kib(block, smem):
    """The L1 (KiB) the driver's carve-out left, from the carve-out probe."""
    for (b, s, _), carveout in carveout_launches("carveout.csv").items():
        if b == block and s == int(smem):
            return 256 - carveout
    raise SystemExit("make_docs: no carve-out measured for block {}, {} bytes".format(block, smem))


# The probes in no set that one rate per block is held against (scripts/probe_sets_report.sh): the
# label, the presets' joined CSV and the block-rate run's file in BLOCK_RATES_DIR/probes; the
# compilation probes without their index64 rows, on which the presets' skip and spread were fitted.
BLOCK_RATES_PROBES = [
    ("the compilation probes, index32 and unroll1 (768³)", H200 + "/drift_probe/compare/preset.csv", "compilation"),
    ("the depth probes (index32)", H200 + "/depth_probe/compare/preset.csv", "depth"),
    ("the warm-L2 probes, cold and warm", H200 + "/warm_l2/compare/preset.csv", "warm"),
    ("the wave probes", WAVES + "/waves_probe_compare.csv", "waves"),
    ("the wave probes, unroll1", WAVES + "/waves_probe_unroll1_compare.csv", "waves_unroll1"),
    ("the strip probes", WAVES + "/waves_strip_compare.csv", "strip"),
    ("the strip probes, blocks", WAVES + "/waves_strip_blocks_compare.csv", "strip_blocks"),
    ("the example kernels", H200 + "/examples_compare.csv", "examples"),
]
BLOCK_RATES_PROBES_CMD = ("scripts/probe_sets_report.sh " + BLOCK_RATES_OPTIONS + " --out tests/data/block_rates/probes")


def paired_l1_errors(presets_csv, other_csv, keep=lambda r: True):
    """The presets' and another model's L1 errors on the rows both joined CSVs have (by set and line)."""
    other = {(r.get("set", ""), r["line"]): r for r in read_csv(other_csv)}
    pairs = [(l1_error(r), l1_error(other[(r.get("set", ""), r["line"])]))
             for r in read_csv(presets_csv) if keep(r) and (r.get("set", ""), r["line"]) in other]
    return [a for a, _ in pairs], [b for _, b in pairs]


def gen_block_rates_probes():
    """model-studies.md: the presets against one rate per block on every probe in no set."""
    def cells(errors):
        return "{}/{} | {} | {:.2f}".format(sum(abs(e) <= 3 for e in errors), len(errors),
                                            sum(abs(e) > 6 for e in errors), sum(abs(e) for e in errors) / len(errors))
    out = ["| probe | launches | the presets: L1 within 3 | beyond 6 | mean \\|L1 error\\| "
           "| one rate per block: L1 within 3 | beyond 6 | mean \\|L1 error\\| |",
           "|---|---:|---:|---:|---:|---:|---:|---:|"]
    blind = ([], [])
    for label, presets_csv, stem in BLOCK_RATES_PROBES:
        other_csv = "{}/probes/{}.csv".format(BLOCK_RATES_DIR, stem)
        keep = (lambda r: r["variant"] != "index64") if stem == "compilation" else (lambda r: True)
        a, b = paired_l1_errors(presets_csv, other_csv, keep)
        blind[0].extend(a)
        blind[1].extend(b)
        out.append("| {} | {} | {} | {} |".format(label, len(a), cells(a), cells(b)))
    out.append("| **every probe above** | {} | {} | {} |".format(len(blind[0]), cells(blind[0]), cells(blind[1])))
    return note("from the joined CSVs of `{}` (one rate per block) in `{}/probes` beside the presets' reports of "
                "the same probes ({}); the compilation probes' index64 rows, on which the presets' skip and spread "
                "were fitted, left out".format(
                    BLOCK_RATES_PROBES_CMD, BLOCK_RATES_DIR,
                    ", ".join("`{}`".format(presets_csv) for _, presets_csv, _ in BLOCK_RATES_PROBES))) + \
        "\n" + "\n".join(out) + "\n"


# The second shared-memory set (scripts/device_heldout.sh smem2): its probes for
# scripts/smem_probe_report.sh, and their shared memory per block.
SMEM2_PROBES = [("smem2", "smem2_matmul.csv", ["6144", "8192", "11264", "16384"]),
                ("smem2_stencil", "smem2_stencil.csv", ["11264"])]


def smem2_errors():
    """Per row of the second shared-memory set: (row of the per-warp form's joined CSV, its shared memory
    per block, the L1 error with a rate per warp, the presets' (one rate per block, each of these
    launches' L1 being below 224 KiB)), in the order of the measured files."""
    out = []
    for probe, _, sizes in SMEM2_PROBES:
        for smem in sizes:
            presets_csv = "{}/compare/preset_{}_{}.csv".format(SMEM, probe, smem)
            a = read_csv(presets_csv.replace("/preset_", "/per_warp_"))
            b = {r["line"]: r for r in read_csv(presets_csv)}
            out += [(r, smem, l1_error(r), l1_error(b[r["line"]])) for r in a]
    return sorted(out, key=lambda t: (t[0]["kernel"], int(t[0]["line"])))


def gen_smem2():
    """fidelity-shared-memory.md: the second shared-memory set, the chip's L1 and the two forms' errors."""
    out = ["| launch | compilation | shared memory a block (the chip's L1) | schedule | the chip's L1 % "
           "| a rate per warp, skip 8 | the presets: one rate per block, skip 4 |",
           "|---|---|---|---|---:|---:|---:|"]
    rows = smem2_errors()
    for r, smem, a, b in rows:
        shape = ("{}³".format(r["width"]) if r["width"] == r["height"] == r["depth"] else
                 "{}² d{}".format(r["width"], r["depth"])) if r["kernel"] == "matmul" else \
            "{}x{} on {}²".format(r["stencil_w"], r["stencil_h"], r["width"])
        out.append("| {} {} b{} | {} | {} B ({} KiB) | `{}` | {:.1f} | {:+.1f} | {:+.1f} |".format(
            r["kernel"], shape, r["block"], r["variant"], num(smem), driver_l1_kib(int(r["block"]), smem),
            r["schedule"], float(r[M + L1R]), a, b))
    out.append("")
    for kernel in ("matmul", "stencil"):
        for label, i in (("a rate per warp", 2), ("the presets (one rate per block)", 3)):
            out.append("- {}, {}: {}".format(kernel, label, l1_error_counts([t[i] for t in rows if t[0]["kernel"] == kernel])))
    return note("`scripts/smem_probe_report.sh --model per_warp --model preset smem2 smem2_stencil` (its "
                "`per_warp` and `preset` runs in `{}/compare`) on `{}/smem2_matmul.csv` and "
                "`smem2_stencil.csv`, measured by `scripts/device_heldout.sh smem2`; the chip's L1 from "
                "`carveout.csv`; the model's L1 error in points".format(SMEM, SMEM) + SLOT_NOTE) + \
        "\n" + "\n".join(out) + "\n"


# The small L1 over many waves (scripts/device_heldout.sh smem_waves): its launches' heights and
# the models of scripts/smem_probe_report.sh beside the chip.
SMEM_WAVES_HEIGHTS = ["256", "1056", "4224", "8448"]
SMEM_WAVES_MODELS = [("preset", "the presets (one rate per block, skip 4)"),
                     ("per_warp", "a rate per warp, skip 8"),
                     ("lockstep", "lock step (no rate spread, no start skip)")]


def smem_waves_summary(totals, models=None):
    """The summary lines under a table of `models` (SMEM_WAVES_MODELS): each model's L1 target counts."""
    return [""] + ["- {}: {}".format(label, l1_error_counts(totals[stem]))
                   for stem, label in (models or SMEM_WAVES_MODELS)]


def gen_smem_waves():
    """fidelity-shared-memory.md: a 60 KiB L1 over 1 to 32 waves, the chip's L1 and each model's error per height."""
    smem_of_block = {"128": "11264", "256": "24064"}
    runs = {(stem, block): {(r["variant"], r["height"], r["schedule"]): l1_error(r)
                            for r in read_csv("{}/compare/{}_smem_waves_{}.csv".format(SMEM, stem, smem))}
            for stem, _ in SMEM_WAVES_MODELS for block, smem in smem_of_block.items()}
    measured = read_csv("{}/smem_waves_matmul.csv".format(SMEM))
    waves = {h: 1024 * int(h) / 128 / (132 * 16) for h in SMEM_WAVES_HEIGHTS}
    out = ["| compilation | block (blocks an SM) | schedule | | " +
           " | ".join("1024x{} ({:.0f} wave{})".format(h, waves[h], "" if round(waves[h]) == 1 else "s")
                      for h in SMEM_WAVES_HEIGHTS) + " |",
           "|---|---|---|---|" + "---:|" * len(SMEM_WAVES_HEIGHTS)]
    chip = {(r["variant"], r["block"], r["height"], r["schedule"]): float(r[L1R]) for r in measured}
    totals = {stem: [] for stem, _ in SMEM_WAVES_MODELS}
    for variant in ("index64", "index32"):
        for block in ("128", "256"):
            for schedule in ("linear", "column:32", "column:128", "tiled:32x32"):
                out.append("| {} | {} ({}) | `{}` | the chip's L1 % | ".format(
                    variant, block, 2048 // int(block), schedule) + " | ".join(
                    "{:.1f}".format(chip[(variant, block, h, schedule)]) for h in SMEM_WAVES_HEIGHTS) + " |")
                for stem, label in SMEM_WAVES_MODELS:
                    errors = [runs[(stem, block)][(variant, h, schedule)] for h in SMEM_WAVES_HEIGHTS]
                    totals[stem] += errors
                    out.append("| | | | {}: error | ".format(label) + " | ".join("{:+.1f}".format(e) for e in errors) + " |")
    out += smem_waves_summary(totals)
    return note("`scripts/smem_probe_report.sh --model preset --model per_warp --model lockstep smem_waves` (its "
                "runs in `{0}/compare`) on `{0}/smem_waves_matmul.csv`, measured by `scripts/device_heldout.sh "
                "smem_waves` (the matmul 1024 wide at depth 1024; block 128 with 11,264 bytes of shared memory a "
                "block, block 256 with 24,064: an L1 of 60 KiB both, by `smem_waves_carveout.csv`); the chip's L1 "
                "hit rate, then each model's error in points".format(SMEM) + SLOT_NOTE) + "\n" + "\n".join(out) + "\n"


# At eight blocks an SM the presets run the 64-bit loop in lock step (8 warps a scheduler, which its
# scheduler keeps at a lone warp's pace) and draw the 32-bit loop's rates.
EIGHT_BLOCKS_MODELS = [("preset", "the presets (64-bit: lock step; 32-bit: one rate per block, skip 4)")] + SMEM_WAVES_MODELS[1:]


def gen_eight_blocks():
    """fidelity-shared-memory.md: the thesis's matmul with eight blocks an SM on the H200, the chip's L1 and each model's error."""
    runs = {stem: {(r["variant"], r["height"], r["schedule"]): l1_error(r)
                   for r in read_csv("{}/compare/{}_eight_blocks_27648.csv".format(SMEM, stem))}
            for stem, _ in EIGHT_BLOCKS_MODELS}
    out = ["| compilation | launch | schedule | the chip's L1 % | " +
           " | ".join(label + ": error" for _, label in EIGHT_BLOCKS_MODELS) + " |",
           "|---|---|---|---:|" + "---:|" * len(EIGHT_BLOCKS_MODELS)]
    totals = {stem: [] for stem, _ in EIGHT_BLOCKS_MODELS}
    for r in read_csv("{}/eight_blocks_matmul.csv".format(SMEM)):
        key = (r["variant"], r["height"], r["schedule"])
        waves = int(r["width"]) * int(r["height"]) / int(r["block"]) / (132 * 8)
        cells = []
        for stem, _ in EIGHT_BLOCKS_MODELS:
            if key not in runs[stem]:  # compare left the row out: its L2 counters contradict each other
                cells.append("left out")
                continue
            totals[stem].append(runs[stem][key])
            cells.append("{:+.1f}".format(runs[stem][key]))
        out.append("| {} | {}x{} d{} b{} ({:.1f} waves) | `{}` | {:.1f} | {} |".format(
            r["variant"], r["width"], r["height"], r["depth"], r["block"], waves, r["schedule"], float(r[L1R]),
            " | ".join(cells)))
    out += smem_waves_summary(totals, EIGHT_BLOCKS_MODELS)
    return note("`scripts/smem_probe_report.sh --model preset --model per_warp --model lockstep eight_blocks` (its "
                "runs in `{0}/compare`) on `{0}/eight_blocks_matmul.csv`, measured by `scripts/device_heldout.sh "
                "eight_blocks` (block 128 with 27,648 bytes of shared memory a block: eight blocks an SM and an L1 of "
                "28 KiB, by `eight_blocks_carveout.csv`); the chip's L1 hit rate, then each model's error in "
                "points; \"left out\": compare leaves out a row whose L2 counters contradict each other (more L2 "
                "hits than lookups)".format(SMEM) + SLOT_NOTE) + "\n" + "\n".join(out) + "\n"


KNEE_TIMED_WARPS = [1, 2, 3, 4, 6, 8, 12, 16]


def gen_knee_timed():
    """fidelity-shared-memory.md: the knee's first layout timed cold and with a warm L2, each time over the lone warp's."""
    times = {start: knee_times("tests/data/h200/issue_cost/knee_timed_{}.csv".format(start)) for start in ("cold", "warm")}
    out = ["| compilation | the launch's start | a lone warp (1 a scheduler), µs | " +
           " | ".join("{} warps".format(m) for m in KNEE_TIMED_WARPS[1:]) + " |",
           "|---|---|---:|" + "---:|" * (len(KNEE_TIMED_WARPS) - 1)]
    for variant in ("index64", "index32"):
        for start, label in (("cold", "cold L2 (data from DRAM)"), ("warm", "warm L2 (data in the L2)")):
            by_m = times[start][variant]
            out.append("| {} | {} | {:.0f} | ".format(variant, label, by_m[1] * 1000) + " | ".join(
                "{:.2f}".format(by_m[m] / by_m[1]) for m in KNEE_TIMED_WARPS[1:]) + " |")
    return note("`tests/data/h200/issue_cost/knee_timed_cold.csv` and `knee_timed_warm.csv`, written by "
                "`scripts/device_issue_cost.sh knee_timed` (gpubench's CUDA-event time, the median of 11 launches, of "
                "the matmul 128 x 132m, depth 3072, block 128: m warps on each scheduler of every SM, one wave); each "
                "launch's time over the lone warp's") + "\n" + "\n".join(out) + "\n"


def gen_smem_probe(probe):
    """fidelity-shared-memory.md: a shared-memory probe, the chip's L1 and each model's error, per shared memory."""
    measured, block, sizes = SMEM_PROBES[probe]
    out = ["| compilation | schedule | shared memory (the chip's L1) | the chip's L1 % | " +
           " | ".join(label for _, label in SMEM_MODELS) + " | of the preset's L1, from other blocks |",
           "|---|---|---|---:|" + "---:|" * len(SMEM_MODELS) + "---:|"]
    totals = {stem: [] for stem, _ in SMEM_MODELS}
    variants = sorted({r["variant"] for r in read_csv("{}/{}".format(SMEM, measured))})
    for variant in variants:
        for smem in sizes:
            rows = {stem: [r for r in read_csv("{}/compare/{}_{}_{}.csv".format(SMEM, stem, probe, smem))
                           if r["variant"] == variant] for stem, _ in SMEM_MODELS}
            for i, r in enumerate(rows["preset"]):
                cells = []
                for stem, _ in SMEM_MODELS:
                    other = rows[stem][i]
                    assert other["schedule"] == r["schedule"]
                    cells.append("{:+.1f}".format(l1_error(other)))
                    totals[stem].append(l1_error(other))
                out.append("| {} | `{}` | {} B ({} KiB) | {:.1f} | {} | {:.1f} |".format(
                    variant, r["schedule"], num(smem), driver_l1_kib(block, smem), float(r[M + L1R]), " | ".join(cells),
                    float(r["simulated:l1_hit_rate_other_block.pct"])))
    out.append("| all | | | | " + " | ".join("{}/{} within 3, {} beyond 6, {:.2f}".format(
        sum(abs(e) <= 3 for e in errs), len(errs), sum(abs(e) > 6 for e in errs), sum(abs(e) for e in errs) / len(errs))
        for errs in (totals[stem] for stem, _ in SMEM_MODELS)) + " | |")
    return (note("block {2}: the chip's L1 hit rate and each model's error in points, from `cachesim compare`'s joined "
                 "CSVs `{0}/compare/MODEL_{1}_B.csv`, written by `scripts/smem_probe_report.sh {1}` from `{0}/{3}` "
                 "(gpubench `--smem-per-block B`, `scripts/device_heldout.sh {4}`); every model but the first takes the "
                 "driver's carve-out in each of these launches (`{0}/carveout.csv`), the first the occupancy rule's "
                 "(`--gpu carveout-rule=occupancy`); nothing fitted on these rows (the last two models' pairs were "
                 "chosen on the training set)".format(
                     SMEM, probe, block, measured, "smem256" if block == 256 else "smem") + SLOT_NOTE)
            + "\n" + "\n".join(out) + "\n")
