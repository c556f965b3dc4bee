"""Where the first wave goes: the first-wave placement probes, predicted with the slot cycle and
with the measured turns before they were measured, against the chip."""

from docgen.common import L1R, M, note, read_csv
from docgen.naive_order import NAIVE32_PROBES, naive32_probes
from docgen.predicted import launch_key, predicted_path
from docgen.sets import OTHER, l1_error

PLACEMENT_TURNS = "tests/data/h200/placement_predicted_turns.csv"
PLACEMENT_CHIP = "tests/data/h100/placement/compare_turns.csv"
PLACEMENT_CHIP_CMD = ("cachesim compare --preset h100 --measured tests/data/h100/placement/placement-21_matmul.csv "
                      "--gpu cta-order=floorplan-turns")
# the claim written with the predictions: where the two differ by this much, the chip is nearer the turns
DIFFER_POINTS = 3.0
WITHIN_POINTS, BEYOND_POINTS = 3.0, 6.0
L1_PREDICTED = "l1tex__t_sector_pipe_lsu_mem_global_op_ld_hit_rate.pct"


def placement_rows():
    """Per probe launch, in the predictions' order: (key, slot cycle's L1, turns' L1, chip's L1 or None)."""
    slot = read_csv(predicted_path("placement"))
    turns = {launch_key(r, r["workload"], r["depth"], r["compilation"]): float(r[L1_PREDICTED])
             for r in read_csv(PLACEMENT_TURNS)}
    chip = {launch_key(r, r["kernel"], r["depth"], r["variant"]): float(r[M + L1R]) for r in read_csv(PLACEMENT_CHIP)}
    out = []
    for r in slot:
        key = launch_key(r, r["workload"], r["depth"], r["compilation"])
        out.append((key, float(r[L1_PREDICTED]), turns[key], chip.get(key)))
    return out


def placement_counts(rows):
    """The claim's counts: (launches differing by DIFFER_POINTS or more, of them nearer the turns), and
    per prediction (slot cycle, turns) the launches within WITHIN_POINTS and beyond BEYOND_POINTS."""
    measured = [(s, t, c) for _, s, t, c in rows if c is not None]
    differ = [(s, t, c) for s, t, c in measured if abs(s - t) >= DIFFER_POINTS]
    nearer = sum(abs(t - c) < abs(s - c) for s, t, c in differ)
    errors = ([s - c for s, _, c in measured], [t - c for _, t, c in measured])  # slot cycle's, turns'
    within = tuple(sum(abs(e) <= WITHIN_POINTS for e in each) for each in errors)
    beyond = tuple(sum(abs(e) > BEYOND_POINTS for e in each) for each in errors)
    return len(measured), len(differ), nearer, within, beyond


def gen_placement_claims():
    """fidelity.md: the placement probes, both predictions against the chip, and the claim's counts."""
    rows = placement_rows()
    out = ["| launch | order | the slot cycle (`floorplan`) | the measured turns (`floorplan-turns`) | the chip's L1 % "
           "| slot cycle less the chip | turns less the chip | nearer the chip |", "|---|---|---:|---:|---:|---:|---:|---|"]
    for key, slot, turns, chip in rows:
        _, depth, compilation, width, height, _, _, block, schedule = key
        differ = abs(slot - turns) >= DIFFER_POINTS
        if chip is None:
            verdict = "not measured"
        else:
            verdict = "the turns" if abs(turns - chip) < abs(slot - chip) else "the slot cycle"
            verdict = "**{}**".format(verdict) if differ else verdict
        out.append("| {}x{}, depth {}, block {}, {} | `{}` | {:.1f} | {:.1f} | {} | {} | {} | {} |".format(
            width, height, depth, block, compilation, schedule, slot, turns,
            "—" if chip is None else "{:.1f}".format(chip), "—" if chip is None else "{:+.1f}".format(slot - chip),
            "—" if chip is None else "{:+.1f}".format(turns - chip), verdict))
    measured, differ, nearer, within, beyond = placement_counts(rows)
    out.append("| {} launches | | within {:g} points: {} | {} | | beyond {:g}: {} | {} | of the {} differing by {:g} "
               "or more: the turns {} |".format(measured, WITHIN_POINTS, within[0], within[1], BEYOND_POINTS,
                                                beyond[0], beyond[1], differ, DIFFER_POINTS, nearer))
    return (note("`{}` (`scripts/predict_set.sh --hit-sources placement`, the presets with the slot cycle) and `{}` "
                 "(the same with `--gpu cta-order=floorplan-turns`), both committed before the probes were measured, "
                 "against an H100's L1 over 21 launches (`scripts/device_heldout.sh placement_matmul,"
                 "placement_matmul_rates21`, `{}`: `{}`), whose L1 rates for these launches are the predictions'; "
                 "in bold the launches where the two predictions differ by {:g} points or more, where the claim "
                 "written with them put the chip nearer the turns".format(
                     predicted_path("placement"), PLACEMENT_TURNS, PLACEMENT_CHIP, PLACEMENT_CHIP_CMD, DIFFER_POINTS))
            + "\n" + "\n".join(out) + "\n")


NAIVE32_SLOT = "tests/data/h100/naive32/compare_slot.csv"
NAIVE32_SLOT_CMD = ("cachesim compare --preset h100 --measured tests/data/h100/naive32/naive32-21_matmul.csv "
                    "--gpu cta-order=floorplan")


def gen_naive32_turns():
    """fidelity.md: the 32-bit naive-order probes with the slot cycle and with the measured turns."""
    turns = naive32_probes()
    slot = {(r["width"], r["height"], r["depth"], r["block"]): r for r in read_csv(NAIVE32_SLOT)}
    out = ["| launch (index32, `linear`) | blocks across | the chip's L1 % | the slot cycle less the chip "
           "(from other blocks) | the turns less the chip (from other blocks) |", "|---|---:|---:|---|---|"]
    for key in sorted(slot, key=lambda k: -abs(l1_error(slot[k]))):
        width, height, depth, block = key
        s, t = slot[key], turns[key]
        out.append("| {}x{}, depth {}, block {} | {:g} | {:.1f} | {:+.1f} ({:.1f}) | {:+.1f} ({:.1f}) |".format(
            width, height, depth, block, int(width) / int(block), float(s[M + L1R]), l1_error(s), float(s[OTHER]),
            l1_error(t), float(t[OTHER])))
    return (note("`{}` (`{}`, the slot cycle) and `{}` (the presets, their first wave the measured turns): the "
                 "32-bit naive-order probes on an H100 over 21 launches; blocks across is the output's width over "
                 "the block; in brackets the points of the model's L1 rate from sectors another block of the SM "
                 "brought".format(NAIVE32_SLOT, NAIVE32_SLOT_CMD, NAIVE32_PROBES))
            + "\n" + "\n".join(out) + "\n")
