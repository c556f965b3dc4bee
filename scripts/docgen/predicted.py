"""A set whose predictions were committed before it was measured: that `cachesim compare` simulates
exactly the committed predictions, the held-out targets on it, and the 32-bit naive order against
the error claimed for it before the measurement."""

from docgen.common import L1Q, L1R, L1S, L2R, M, S, note, read_csv
from docgen.sets import BEST_WITHIN_POINTS, report_path, schedule_groups, schedule_pick, target_counts



def predicted_path(set_name):
    return "tests/data/h200/{}_predicted.csv".format(set_name)


def predicted_reports(set_name):
    """The set's compare reports: its stencils, and its matmul with the hit rates over 21 launches."""
    return [(set_name, "stencil"), (set_name + "-21", "matmul")]


# the predictions' columns, as compare's joined CSV names the simulated ones
PREDICTED_COLUMNS = {L1R: "l1tex__t_sector_pipe_lsu_mem_global_op_ld_hit_rate.pct",
                     L2R: "lts__t_sector_op_read_hit_rate.pct",
                     L1Q: "l1tex__t_requests_pipe_lsu_mem_global_op_ld.sum",
                     L1S: "l1tex__t_sectors_pipe_lsu_mem_global_op_ld.sum"}
KEY = ("width", "height", "stencil_w", "stencil_h", "block", "schedule")


def launch_key(r, kernel, depth, variant):
    return (kernel, depth if kernel == "matmul" else "0", variant or "index64") + tuple(r[k] for k in KEY)


def matching(predicted, simulated):
    """Whether a committed prediction and compare's simulated figure agree: the rates to the 1e-4
    points compare writes them to, the counts exactly."""
    return abs(float(predicted) - float(simulated)) <= 1e-4


def prediction_check(predicted_rows, rows):
    """(predicted launches not among compare's rows, compare's rows not predicted, rows whose
    simulated figures differ from their prediction)."""
    predicted = {launch_key(r, r["workload"], r["depth"], r["compilation"]): r for r in predicted_rows}
    unmatched = differing = 0
    for r in rows:
        p = predicted.pop(launch_key(r, r["kernel"], r["depth"], r["variant"]), None)
        if p is None:
            unmatched += 1
        elif not all(matching(p[column], r[S + rate]) for rate, column in PREDICTED_COLUMNS.items()):
            differing += 1
    return len(predicted), unmatched, differing


def predicted_set_rows(set_name):
    """(compare's rows of the set, the report files they come from)."""
    rows, used = [], []
    for report_set, kernel in predicted_reports(set_name):
        path = report_path("h200", report_set, kernel)
        used.append(path)
        rows += read_csv(path)
    return rows, used


def gen_predicted(set_name):
    """fidelity.md: a fresh set against its committed predictions."""
    rows, used = predicted_set_rows(set_name)
    not_measured, unmatched, differing = prediction_check(read_csv(predicted_path(set_name)), rows)
    c = target_counts(rows)
    groups = schedule_groups(rows)
    l1_loss = max(schedule_pick(members, L1R)[2] for members in groups)
    l2_loss = max(schedule_pick(members, L2R)[2] for members in groups)
    out = ["| what | launches |", "|---|---:|",
           "| measured | {} |".format(c["runs"]),
           "| predicted and not measured | {} |".format(not_measured),
           "| measured and not predicted | {} |".format(unmatched),
           "| compare's figures other than the predictions | {} |".format(differing),
           "| request and sector counts equal to the chip's | {} |".format(min(c["requests"], c["sectors"])),
           "| L1 hit rate within 3 points | {} ({:.0f}%) |".format(c["l1_3"], 100.0 * c["l1_3"] / c["runs"]),
           "| L1 hit rate beyond 6 points | {} |".format(c["l1_6"]),
           "| L2 hit rate within 5 points, stencils | {} of {} |".format(c["l2_5_stencil"], c["stencil"]),
           "| groups whose best schedule by L1 is within {:g} point of the chip's best | {} of {} (at most {:.2f} below) |".format(
               BEST_WITHIN_POINTS, c["best"][1], c["best"][0], l1_loss),
           "| groups whose best schedule by L2 is within {:g} point of the chip's best | {} of {} (at most {:.2f} below) |".format(
               BEST_WITHIN_POINTS, c["best"][2], c["best"][0], l2_loss)]
    return (note("`{}` (`scripts/predict_set.sh {}`, committed before the set was measured) against `cachesim compare`'s "
                "joined CSVs {}, written by `scripts/fidelity_report.sh {}` "
                "(the matmul's hit rates over 21 launches); a prediction and compare's figure agree when the rates "
                "are within 1e-4 points and the counts equal".format(
                    predicted_path(set_name), set_name, ", ".join("`{}`".format(p) for p in used),
                    " ".join("h200:{}:{}".format(s, k) for s, k in predicted_reports(set_name))))
            + "\n" + "\n".join(out) + "\n")


# The claims the 32-bit naive order was held to, written with each set's predictions: the error
# claimed by whether SHARE_POINTS or more of the model's L1 rate come from other blocks. The fourth
# fresh set's came from the sets measured before it; the naive-order probes' from every set with it.
SHARE_POINTS = 10.0
CLAIMED_ERRORS = {"fresh4": {True: (3.0, 9.0), False: (-3.0, 3.0)},
                  "naive32": {True: (3.0, 11.0), False: (-3.0, 3.0)}}
SHARE_COLUMN = "l1_hit_rate_other_block.pct"
# Probe sets, in no set: compare's joined CSV of the launches and how it was written.
PROBE_REPORTS = {"naive32": ("tests/data/h100/naive32/compare_preset.csv",
                             "an H100's L1 over 21 launches (`scripts/device_heldout.sh naive32_matmul,"
                             "naive32_matmul_rates21`), held against the h100 preset, whose L1 rates for them are the "
                             "predictions': `cachesim compare --preset h100 --measured "
                             "tests/data/h100/naive32/naive32-21_matmul.csv`")}


def naive_claims(predicted_rows, rows, claimed):
    """The 32-bit naive matmul launches of a set whose predictions carry the share from other
    blocks: (key, share, simulated L1, measured L1 or None, (low, high), held or None)."""
    measured = {launch_key(r, r["kernel"], r["depth"], r["variant"]): r for r in rows}
    out = []
    for p in predicted_rows:
        if p["workload"] != "matmul" or p["compilation"] != "index32" or p["schedule"] != "linear":
            continue
        key = launch_key(p, p["workload"], p["depth"], p["compilation"])
        share = float(p[SHARE_COLUMN])
        low, high = claimed[share >= SHARE_POINTS]
        simulated = float(p[PREDICTED_COLUMNS[L1R]])
        m = measured.get(key)
        chip = float(m[M + L1R]) if m else None
        held = None if chip is None else low <= simulated - chip <= high
        out.append((key, share, simulated, chip, (low, high), held))
    return out


def gen_naive_claims(set_name):
    """fidelity.md: the 32-bit naive order of a set against the error claimed before it was measured."""
    if set_name in PROBE_REPORTS:
        path, how = PROBE_REPORTS[set_name]
        rows, used, chip = read_csv(path), [path], how
    else:
        rows, used = predicted_set_rows(set_name)
        chip = "the chip's L1 over 21 launches in " + ", ".join("`{}`".format(p) for p in used)
    claimed = CLAIMED_ERRORS[set_name]
    out = ["| launch (index32, `linear`) | points from other blocks (predicted) | the model's L1 % | the chip's L1 % "
           "| the model less the chip | claimed | held |", "|---|---:|---:|---:|---:|---|---|"]
    for key, share, simulated, measured, (low, high), held in naive_claims(read_csv(predicted_path(set_name)), rows,
                                                                            claimed):
        _, depth, _, width, height, _, _, block, _ = key
        out.append("| {}x{}, depth {}, block {} | {:.1f} | {:.1f} | {} | {} | {:+g} to {:+g} | {} |".format(
            width, height, depth, block, share, simulated, "—" if measured is None else "{:.1f}".format(measured),
            "—" if measured is None else "{:+.1f}".format(simulated - measured), low, high,
            "not measured" if held is None else ("yes" if held else "no")))
    return (note("the 32-bit naive-order launches of `{}` (`scripts/predict_set.sh --hit-sources {}`, committed before "
                 "the set was measured, with the points of the model's L1 rate from other blocks) against "
                 "{}; the claim, written with the predictions: {:g} points or more from other "
                 "blocks, the model {:+g} to {:+g} points from the chip, otherwise {:+g} to {:+g}".format(
                     predicted_path(set_name), set_name, chip, SHARE_POINTS, *claimed[True], *claimed[False]))
            + "\n" + "\n".join(out) + "\n")
