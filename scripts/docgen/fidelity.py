"""The training set's comparison, the H200's data and the example kernels."""

import os
import re

from docgen.common import DRAM, H200, L1H, L1Q, L1R, L1S, L2R, L2T, L2TH, M, ROOT, S, note, num, read_csv, run


COMPARE_CMD = ("cachesim compare --measured tests/data/h200/fidelity_stencil_spread.csv "
               "--measured tests/data/h200/fidelity_matmul_spread21.csv --preset h200 "
               "--out tests/data/h200/compare.csv --plot tests/data/h200/compare.png > tests/data/h200/compare.txt")


def gen_compare_summary():
    with open(os.path.join(ROOT, H200, "compare.txt")) as f:
        text = f.read().splitlines()
    start = next(i for i, l in enumerate(text) if re.match(r"^\d+ runs?:", l))
    summary = [l for l in text[start:] if l.strip()]
    return (note("the summary of `tests/data/h200/compare.txt`, written by `{}` (`scripts/make_docs.sh --all` re-runs it)".format(COMPARE_CMD))
            + "\n```\n" + "\n".join(summary) + "\n```\n")


def workload_label(r):
    if r["kernel"] == "stencil":
        return "stencil {}x{} {}x{}".format(r["width"], r["height"], r["stencil_w"], r["stencil_h"])
    return "matmul {}x{} d{}".format(r["width"], r["height"], r["depth"])


def compare_rows():
    return read_csv(H200 + "/compare.csv")


def gen_fidelity_table():
    out = ["| workload | schedule | block | L1 sim | L1 H200 | diff | L2 sim | L2 H200 | diff | L2 tex sim | L2 tex H200 "
           "| L2 sectors sim/H200 | coalesced M sim | H200 |",
           "|---|---|---|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|"]
    for r in compare_rows():
        f = lambda k: float(r[k])
        l1s, l1m, l2s, l2m = f(S + L1R), f(M + L1R), f(S + L2R), f(M + L2R)
        tex_s = 100 * f(S + L2TH) / f(S + L2T)
        tex_m = 100 * f(M + L2TH) / f(M + L2T)
        # L1 sector misses that made no L2 lookup (they joined another SM's identical request)
        co_s = f(S + L1S) - f(S + L1H) - f(S + L2T)
        co_m = f(M + L1S) - f(M + L1H) - f(M + L2T)
        out.append("| {} | {} | {} | {:.2f} | {:.2f} | {:+.2f} | {:.2f} | {:.2f} | {:+.2f} | {:.2f} | {:.2f} | {:.2f} | {:.2f} | {:.2f} |".format(
            workload_label(r), r["schedule"], r["block"], l1s, l1m, l1s - l1m, l2s, l2m, l2s - l2m, tex_s, tex_m,
            f(S + L2T) / f(M + L2T), co_s / 1e6, co_m / 1e6))
    return (note("from `tests/data/h200/compare.csv`, written by `{}` (`scripts/make_docs.sh --all` re-runs it); "
                 "coalesced = L1 sector misses less L2 tex reads".format(COMPARE_CMD)) + "\n" + "\n".join(out) + "\n")


def pair_agreement(a, b):
    same = pairs = 0
    for i in range(len(a)):
        for j in range(i + 1, len(a)):
            pairs += 1
            da, db = a[i] - a[j], b[i] - b[j]
            if (abs(da) < 0.25 and abs(db) < 0.25) or da * db > 0:
                same += 1
    return same / pairs if pairs else 1.0


def gen_fidelity_ranking():
    groups = {}
    for r in compare_rows():
        g = groups.setdefault("{}, block {}".format(workload_label(r), r["block"]), ([], [], [], []))
        for lst, key in zip(g, (S + L1R, M + L1R, S + L2R, M + L2R)):
            lst.append(float(r[key]))
    out = ["| workload, block | schedules | L1 ranking: pairs in the same order | L2 ranking |", "|---|---:|---:|---:|"]
    for name in sorted(groups):
        l1s, l1m, l2s, l2m = groups[name]
        out.append("| {} | {} | {:.0f}% | {:.0f}% |".format(name, len(l1s), 100 * pair_agreement(l1s, l1m),
                                                           100 * pair_agreement(l2s, l2m)))
    return (note("from `tests/data/h200/compare.csv`: pairs of schedules ordered the same way by simulated and "
                 "measured hit rate, ties within 0.25 points counting as agreement")
            + "\n" + "\n".join(out) + "\n")


# --- the H200 data -----------------------------------------------------------------------------

HW_L1 = L1R
HW_L2 = "lts__t_sector_op_read_hit_rate.pct"
BLOCKS = ["128", "256", "1024"]


def by_config(rows):
    d = {}
    order = []
    for r in rows:
        wl = ("stencil {}x{} 4096²".format(r["stencil_w"], r["stencil_h"]) if r["kernel"] == "stencil"
              else "matmul 1024³")
        key = (wl, r["schedule"])
        if key not in d:
            order.append(key)
        d.setdefault(key, {})[r["block"]] = r
    return order, d


def triple(by, fmt, fn):
    return " / ".join(fmt.format(fn(by[b])) for b in BLOCKS)


def gen_h200_medians():
    files = [H200 + "/fidelity_stencil.csv", H200 + "/fidelity_matmul.csv"]
    order, d = by_config(read_csv(files[0]) + read_csv(files[1]))
    out = ["| workload | schedule | L1 hit % b128 / b256 / b1024 | L2 read hit % b128 / b256 / b1024 | time ms b128 / b256 / b1024 |",
           "| --- | --- | --- | --- | --- |"]
    for key in order:
        by = d[key]
        out.append("| {} | {} | {} | {} | {} |".format(
            key[0], key[1], triple(by, "{:.1f}", lambda r: float(r[HW_L1])),
            triple(by, "{:.1f}", lambda r: float(r[HW_L2])), triple(by, "{:.3f}", lambda r: float(r["time_ms"]))))
    return note("from `{}` and `{}` (medians of 3 profiled launches)".format(*files)) + "\n" + "\n".join(out) + "\n"


def gen_h200_spread():
    files = [H200 + "/fidelity_stencil_spread.csv", H200 + "/fidelity_matmul_spread.csv"]
    order, d = by_config(read_csv(files[0]) + read_csv(files[1]))
    out = ["| workload | schedule | L1 spread pp b128 / b256 / b1024 | L2 spread pp b128 / b256 / b1024 "
           "| L2 hits/lookups % (medians) b128 / b256 / b1024 |",
           "| --- | --- | --- | --- | --- |"]
    spread = lambda m: (lambda r: float(r[m + ":max"]) - float(r[m + ":min"]))
    for key in order:
        by = d[key]
        out.append("| {} | {} | {} | {} | {} |".format(
            key[0].replace(" 4096²", "").replace(" 1024³", ""), key[1], triple(by, "{:.2f}", spread(HW_L1)),
            triple(by, "{:.2f}", spread(HW_L2)), triple(by, "{:.1f}", lambda r: 100 * float(r[L2TH]) / float(r[L2T]))))
    return (note("from `{}` and `{}`: max − min over the 7 profiled launches, and the ratio of the two counters' medians".format(*files))
            + "\n" + "\n".join(out) + "\n")


def gen_parameters():
    args = ["simulate", "--preset", "h200", "--explain"]
    return (note("`cachesim {}`".format(" ".join(args)))
            + "\n```\n" + run(args).rstrip("\n") + "\n```\n")


# --- the example kernels (gpubench --examples), from their committed compare output ------------

EXAMPLES_CMD = ("scripts/make_docs.sh --examples: scripts/record_examples.sh tests/data/h200/examples.csv, then "
                "cachesim compare --measured tests/data/h200/examples.csv --out tests/data/h200/examples_compare.csv")


def example_label(r):
    k, w, h, d = r["kernel"], r["width"], r["height"], r["depth"]
    if k == "gemm":
        return "gemm {}x{}x{}".format(h, w, d)
    if k == "stencil3d":
        return "stencil3d {}x{}x{}".format(w, h, d)
    if k == "spmv":
        return "spmv {} rows, {} nonzeros".format(num(h), num(d))
    return "{} {}x{}".format(k, w, h)


def pair(measured, simulated):
    """A count measured on the chip beside the model's: one number when they are equal."""
    m, s = int(float(measured)), int(float(simulated))
    return "{} (equal)".format(num(m)) if m == s else "{} / {}".format(num(m), num(s))


def examples_table(path):
    """The table of a compare output of example rows (path: the joined CSV)."""
    out = ["| launch | block order | block | time ms | L1 requests H200 / sim | L1 sectors H200 / sim | L1 hit H200 | sim "
           "| L2 hit H200 | sim | DRAM MB H200 | sim |",
           "|---|---|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|"]
    for r in read_csv(path):
        f = lambda k: float(r[k])
        out.append("| {} | {} | {} | {} | {} | {} | {:.2f} | {:.2f} | {:.2f} | {:.2f} | {:.1f} | {:.1f} |".format(
            example_label(r), r["schedule"], r["block"], "{:.3f}".format(f("time_ms")) if r["time_ms"] else "",
            pair(r[M + L1Q], r[S + L1Q]), pair(r[M + L1S], r[S + L1S]), f(M + L1R), f(S + L1R), f(M + L2R), f(S + L2R),
            f(M + DRAM) / 1e6, f(S + DRAM) / 1e6))
    return "\n".join(out) + "\n"


def gen_examples_table():
    path = H200 + "/examples_compare.csv"
    if not os.path.exists(os.path.join(ROOT, path)):
        return note("no H200 measurements of the example kernels are committed yet (`scripts/device_examples.sh` "
                    "measures them; `scripts/make_docs.sh --examples` then compares them here)")
    return (note("from `tests/data/h200/examples_compare.csv`, written by `{}`".format(EXAMPLES_CMD)) + "\n"
            + examples_table(path))
