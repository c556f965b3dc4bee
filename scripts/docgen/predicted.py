"""A set whose predictions were committed before it was measured: that `cachesim compare` simulates
exactly the committed predictions, and the held-out targets on it."""

from docgen.common import L1Q, L1R, L1S, L2R, S, note, read_csv
from docgen.sets import BEST_WITHIN_POINTS, report_path, schedule_groups, schedule_pick, target_counts

FRESH3_PREDICTED = "tests/data/h200/fresh3_predicted.csv"
FRESH3_REPORTS = [("fresh3", "stencil"), ("fresh3-21", "matmul")]
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


def gen_fresh3_predicted():
    """fidelity.md: the third fresh set against its committed predictions."""
    rows, used = [], []
    for set_name, kernel in FRESH3_REPORTS:
        path = report_path("h200", set_name, kernel)
        used.append(path)
        rows += read_csv(path)
    not_measured, unmatched, differing = prediction_check(read_csv(FRESH3_PREDICTED), rows)
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
    return note("`{}` (`scripts/predict_set.sh fresh3`, committed before the set was measured) against `cachesim compare`'s "
                "joined CSVs {}, written by `scripts/fidelity_report.sh h200:fresh3:stencil h200:fresh3-21:matmul` "
                "(the matmul's hit rates over 21 launches); a prediction and compare's figure agree when the rates "
                "are within 1e-4 points and the counts equal".format(
                    FRESH3_PREDICTED, ", ".join("`{}`".format(p) for p in used))) + "\n" + "\n".join(out) + "\n"
