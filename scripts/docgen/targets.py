"""The GPU model's fidelity targets, each with what it asks for and what each chip's sets give."""

import os

from docgen.common import ROOT, note
from docgen.sets import ALL_REPORT_SETS, REPORT_CMD, REPORT_GPUS, gpu_has_set, overview_rows, target_counts
from docgen.thesis_warm import THESIS_QUOTES, THESIS_SWEEP, thesis_quotes, thesis_sweep_rows


def share(hits, total):
    return "{}/{} ({:.0f}%)".format(hits, total, 100.0 * hits / total) if total else "none measured"


# (target, what it asks for, set, figure(counts) -> text, met(counts) -> bool)
TARGETS = [
    ("L1 hit rate within 3 points", "at least 90% of launches", "heldout",
     lambda c: share(c["l1_3"], c["runs"]), lambda c: c["l1_3"] >= 0.9 * c["runs"]),
    ("L1 hit rate beyond 6 points", "no launch", "heldout",
     lambda c: str(c["l1_6"]), lambda c: c["l1_6"] == 0),
    ("L2 hit rate within 5 points, stencils", "at least 90% of stencil launches", "heldout",
     lambda c: share(c["l2_5_stencil"], c["stencil"]), lambda c: c["l2_5_stencil"] >= 0.9 * c["stencil"]),
    ("best schedule by L1: the chip's best or within 1 point of it", "every group", "heldout",
     lambda c: "{}/{}".format(c["best"][1], c["best"][0]), lambda c: c["best"][1] == c["best"][0]),
    ("best schedule by L2: the chip's best or within 1 point of it", "every group", "heldout",
     lambda c: "{}/{}".format(c["best"][2], c["best"][0]), lambda c: c["best"][2] == c["best"][0]),
    ("L1 hit rate within 3 points", "at least 95% of launches", "training",
     lambda c: share(c["l1_3"], c["runs"]), lambda c: c["l1_3"] >= 0.95 * c["runs"]),
    ("L2 hit rate within 5 points", "at least 90% of launches", "training",
     lambda c: share(c["l2_5"], c["runs"]), lambda c: c["l2_5"] >= 0.9 * c["runs"]),
]
SET_LABELS = {"heldout": "held-out", "training": "training"}


def verdict(met_by_gpu):
    met = [gpu for gpu, ok in met_by_gpu if ok]
    if len(met) == len(met_by_gpu):
        return "met"
    return "met on the {} only".format(", ".join(met)) if met else "not met"


def gen_fidelity_targets():
    """fidelity.md: every target with each chip's figure and whether it is met."""
    out = ["| set | target | asked | " + " | ".join(REPORT_GPUS) + " | verdict |",
           "|---|---|---|" + "---:|" * len(REPORT_GPUS) + "---|"]
    used = []
    counts = {}  # (gpu, set) -> target_counts of the set's rows, for every set the chip was measured on
    for gpu in REPORT_GPUS:
        for set_name in ALL_REPORT_SETS:
            if not gpu_has_set(gpu, set_name):
                continue
            rows, paths = overview_rows(gpu, set_name)
            used += paths
            if rows:
                counts[gpu, set_name] = target_counts(rows)
    for target, asked, set_name, figure, met in TARGETS:
        cells, met_by_gpu = [], []
        for gpu in REPORT_GPUS:
            c = counts.get((gpu, set_name))
            cells.append(figure(c) if c else "none measured")
            met_by_gpu.append((gpu, bool(c) and met(c)))
        out.append("| {} | {} | {} | {} | {} |".format(SET_LABELS[set_name], target, asked, " | ".join(cells),
                                                       verdict(met_by_gpu)))
    # Counts over every set each chip was measured on.
    cells, met_by_gpu = [], []
    for gpu in REPORT_GPUS:
        measured = [c for (g, _), c in counts.items() if g == gpu]
        exact = sum(min(c["requests"], c["sectors"]) for c in measured)
        runs = sum(c["runs"] for c in measured)
        cells.append("{}/{}".format(exact, runs))
        met_by_gpu.append((gpu, runs > 0 and exact == runs))
    out.append("| every set | request and sector counts equal to the chip's | every launch | {} | {} |".format(
        " | ".join(cells), verdict(met_by_gpu)))
    # The thesis's RTX 2080 Super, against the rtx2080s preset.
    if os.path.exists(os.path.join(ROOT, THESIS_SWEEP)):
        sweep = thesis_sweep_rows(thesis_quotes())
        within = [str(block) for block, _, _, _, ok in sweep if ok]
        figure = ("within at block {}".format(", ".join(within)) if within
                  else "within at none of its {} block sizes".format(len(sweep)))
        out.append("| the thesis's RTX 2080 Super | its naive and `column:32` 1024³ matmul through the rtx2080s "
                   "preset: L1 within 3 points, L2 within 5 | at its block size (not given) | {} | {}: {} |".format(
                       " | ".join(["—"] * len(REPORT_GPUS)), "met" if within else "not met", figure))
        used += [THESIS_QUOTES, THESIS_SWEEP]
    return note("from `cachesim compare`'s joined CSVs and the thesis sweep: {}, written by `{}` and "
                "`scripts/fidelity_report.sh rtx2080s`; the held-out and training sets as README's overview takes "
                "them (the matmul's hit rates over 21 launches where measured so), the H100's training set being "
                "the H200's training configurations, nothing fitted on that chip".format(
                    ", ".join("`{}`".format(p) for p in used), REPORT_CMD)) + "\n" + "\n".join(out) + "\n"
