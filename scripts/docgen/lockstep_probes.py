"""The lock-step probes: the presets' predictions, committed before the launches were measured, and
the h100 preset with and without its lock step against the H100 that measured them."""

from docgen.common import L1R, M, S, note, read_csv
from docgen.sets import l1_error_counts

# Each probe set: its predictions (committed before the measurement), the H100's directory and file.
PROBE_SETS = {
    "lockstep": ("tests/data/h200/lockstep_predicted.csv", "tests/data/h100/lockstep", "lockstep_matmul.csv"),
    "lockstep2": ("tests/data/h200/lockstep2_predicted.csv", "tests/data/h100/lockstep2", "lockstep2_matmul.csv"),
}
SCHEDULES = ["linear", "column:8", "column:16", "column:32", "column:64", "column:128", "zigzag:32", "tiled:32x32",
             "morton"]
PREDICTED_L1 = "l1tex__t_sector_pipe_lsu_mem_global_op_ld_hit_rate.pct"


def launch(r, compilation):
    """A launch's group (everything but its schedule; no two groups differ in shared memory alone)."""
    return (r["width"], r["height"], r["depth"], r["block"], compilation or "index64")


def joined(path):
    """compare's joined rows by (group, schedule)."""
    return {(launch(r, r["variant"]), r["schedule"]): r for r in read_csv(path)}


def group_name(g, smem):
    width, height, depth, block, compilation = g
    size = "{}²".format(width) if width == height else "{}x{}".format(width, height)
    shared = ", {:,} B shared".format(int(smem)) if smem != "0" else ""
    return "{} d{} b{} {}{}".format(size, depth, block, compilation, shared)


def gen_lockstep_probes(probe_set="lockstep"):
    """model-studies.md: every launch of a lock-step probe set, the chip's L1 and each model's error."""
    predicted_path, directory, measured_file = PROBE_SETS[probe_set]
    measured_path = directory + "/" + measured_file
    preset_path, drift_path = directory + "/compare_preset.csv", directory + "/compare_drift.csv"
    predicted = {(launch(r, r["compilation"]), r["schedule"]): float(r[PREDICTED_L1]) for r in read_csv(predicted_path)}
    # the shared memory a block of each group (compare's joined CSV does not carry it)
    smem = {launch(r, r["variant"]): r["smem_per_block"] for r in read_csv(measured_path)}
    preset, drift = joined(preset_path), joined(drift_path)
    groups = list(dict.fromkeys(g for g, _ in preset))
    out = ["| launch | | " + " | ".join("`{}`".format(s) for s in SCHEDULES) + " |",
           "|---|---|" + "---:|" * len(SCHEDULES)]
    kinds = ("in lock step as predicted", "in lock step by the count timed after the prediction",
             "with rates drawn")
    errors = {kind: {"prediction": [], "preset": [], "drift": []} for kind in kinds}
    for g in groups:
        # in lock step where the run differs from the same preset's with its rates drawn; predicted
        # with the rates drawn (a count since raised) where the committed prediction is that drawn run
        # to 0.2 points at every schedule
        in_lockstep = any(preset[(g, s)][S + L1R] != drift[(g, s)][S + L1R] for s in SCHEDULES)
        predicted_drawn = all(abs(predicted[(g, s)] - float(drift[(g, s)][S + L1R])) <= 0.2 for s in SCHEDULES)
        kind = kinds[1 if predicted_drawn else 0] if in_lockstep else kinds[2]
        chip = {s: float(preset[(g, s)][M + L1R]) for s in SCHEDULES}
        cells = {"the chip's L1 %": ["{:.1f}".format(chip[s]) for s in SCHEDULES]}
        for model, label, values in (
                ("prediction", "the h200 preset's prediction (committed)", {s: predicted[(g, s)] for s in SCHEDULES}),
                ("preset", "the h100 preset" + (" (lock step)" if in_lockstep else ""),
                 {s: float(preset[(g, s)][S + L1R]) for s in SCHEDULES}),
                ("drift", "the h100 preset, `--lockstep-warps 0`", {s: float(drift[(g, s)][S + L1R]) for s in SCHEDULES})):
            diffs = [values[s] - chip[s] for s in SCHEDULES]
            errors[kind][model] += diffs
            cells[label] = ["{:+.1f}".format(d) for d in diffs]
        for i, (label, row) in enumerate(cells.items()):
            out.append("| {} | {} | {} |".format(group_name(g, smem[g]) if i == 0 else "", label, " | ".join(row)))
    out.append("")
    for kind, models in errors.items():
        for model, label in (("prediction", "the h200 preset's predictions"), ("preset", "the h100 preset"),
                             ("drift", "the h100 preset with `--lockstep-warps 0`")):
            if models[model]:
                out.append("- the {} launches {}, {}: {}".format(len(models[model]), kind, label,
                                                              l1_error_counts(models[model])))
    lock = errors[kinds[0]]
    held = (sum(abs(e) <= 3 for e in lock["preset"]) >= sum(abs(e) <= 3 for e in lock["drift"])
            and sum(map(abs, lock["preset"])) < sum(map(abs, lock["drift"])))
    out.append("- the rule written before the measurement (over the launches in lock step as predicted, at least "
               "as many within 3 points as with `--lockstep-warps 0` and a lower mean |error|): {}".format(
                   "held" if held else "failed"))
    return (note("`{}` (the predictions, `scripts/predict_set.sh {}`, committed before the measurement), "
                 "`{}` (an H100, `scripts/device_heldout.sh {}_matmul`) and `cachesim compare`'s joined CSVs "
                 "`{}` and `{}` (`cachesim compare --preset h100 --gpu cta-order=floorplan --measured {}`, the "
                 "first wave by the slot cycle, the second with `--gpu lockstep-warps=0` too): each launch's L1 "
                 "hit rate on the chip and each model's error in points; a "
                 "launch runs in lock step where the h100 preset's run differs from the run with "
                 "`--lockstep-warps 0`, predicted so unless the committed prediction is the run with "
                 "`--lockstep-warps 0` to 0.2 points".format(
                     predicted_path, probe_set, measured_path, probe_set, preset_path, drift_path, measured_path))
            + "\n" + "\n".join(out) + "\n")


KNEE_FINE = "tests/data/h100/issue_cost/knee_timed_fine_warm.csv"
KNEE_COARSE = "tests/data/h200/issue_cost/knee_timed_warm.csv"
KNEE_LIMIT = 1.1  # the most a count's launch may take, in lone warps' times, to count as kept at pace


def knee_times(path):
    """A timed knee file: compilation -> warps a scheduler -> ms (the launch 128 x 132m: m a scheduler)."""
    times = {}
    for r in read_csv(path):
        times.setdefault(r["variant"], {})[int(r["height"]) // 132] = float(r["time_ms"])
    return {v: dict(sorted(by_m.items())) for v, by_m in times.items()}


def knee_ratios(path):
    """compilation -> warps a scheduler -> the launch's time over the lone warp's."""
    return {v: {m: t / by_m[1] for m, t in by_m.items()} for v, by_m in knee_times(path).items()}


def kept_at_pace(ratios):
    """The rule: the largest m for which the launch at m, and at every smaller m, took at most 1.1 lone warps."""
    count = 0
    for m, ratio in ratios.items():
        if ratio > KNEE_LIMIT:
            break
        count = m
    return count


def gen_knee_timed_fine():
    """model-studies.md: the warm knee at every count to 12 (H100) beside the H200's coarser run, and each count."""
    fine, coarse = knee_ratios(KNEE_FINE), knee_ratios(KNEE_COARSE)
    counts = sorted(next(iter(fine.values())))[1:]
    out = ["| compilation | GPU | " + " | ".join(str(m) for m in counts) + " | warps kept at pace |",
           "|---|---|" + "---:|" * (len(counts) + 1)]
    for variant in ("index64", "index32", "unroll1"):
        for gpu, ratios in (("H100", fine), ("H200", coarse)):
            if variant not in ratios:
                continue
            r = ratios[variant]
            out.append("| {} | {} | {} | {} |".format(variant, gpu, " | ".join(
                "{:.2f}".format(r[m]) if m in r else "" for m in counts), kept_at_pace(r)))
    return (note("`{}` (an H100, `KNEE_WARPS=\"1 2 3 4 5 6 7 8 9 10 11 12 16\" KNEE_VARIANTS=index64,index32,unroll1 "
                 "scripts/device_issue_cost.sh knee_timed`) and `{}` (the H200): the matmul 128 x 132m at depth 3072, "
                 "block 128, m warps on every scheduler, one wave, its arrays in the L2; each launch's time (the median "
                 "of 11) over the lone warp's, and the largest m at which it and every smaller m took at most {} "
                 "times".format(KNEE_FINE, KNEE_COARSE, KNEE_LIMIT))
            + "\n" + "\n".join(out) + "\n")
