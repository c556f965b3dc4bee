"""The matmul's best schedule by L2 rate, with the chip's request coalescing put into the model's
lookups: whether the coalescing the model lacks is what puts its L2 pick off."""

from docgen.common import L2R, M, S, note
from docgen.sets import (ALL_REPORT_SETS, BEST_WITHIN_POINTS, REPORT_CMD, REPORT_GPUS, gpu_has_set,
                         overview_rows, schedule_groups, schedule_pick, set_label)

L1_SECTORS = "l1tex__t_sectors_pipe_lsu_mem_global_op_ld.sum"
L1_HITS = "l1tex__t_sectors_pipe_lsu_mem_global_op_ld_lookup_hit.sum"
L2_LOOKUPS = "lts__t_sectors_srcunit_tex_op_read.sum"
L2_HITS = "lts__t_sectors_srcunit_tex_op_read_lookup_hit.sum"


def coalesced(r, side):
    """Sectors the L1s missed that never reached an L2 lookup: what the request coalescer merged
    (Nsight Compute's lrc coalescing counter equals this within 160 sectors on the H200)."""
    f = lambda k: float(r[side + k])
    return max(0.0, f(L1_SECTORS) - f(L1_HITS) - f(L2_LOOKUPS))


def rate_with_chip_coalescing(r):
    """The model's L2 hit rate with as many of its lookups merged as the chip merged beyond what the
    model already merges, each taken from its hits (a merged request finds its sector on the way)."""
    extra = max(0.0, coalesced(r, M) - coalesced(r, S))
    lookups = float(r[S + L2_LOOKUPS]) - extra
    hits = float(r[S + L2_HITS]) - extra
    return 100.0 * hits / lookups if lookups > 0 else 0.0


def matmul_groups(rows):
    return schedule_groups([r for r in rows if r["kernel"] == "matmul"])


def pick_counts(groups):
    """(groups, the model's pick within BEST_WITHIN_POINTS of the chip's best, the same with the
    chip's coalescing, groups whose pick the coalescing changes)."""
    chip = lambda r: float(r[M + L2R])
    within = within_merged = changed = 0
    for members in groups:
        pick, best, loss = schedule_pick(members, L2R)
        merged = max(members, key=rate_with_chip_coalescing)
        within += loss <= BEST_WITHIN_POINTS
        within_merged += chip(best) - chip(merged) <= BEST_WITHIN_POINTS
        changed += merged["schedule"] != pick["schedule"]
    return len(groups), within, within_merged, changed


def gen_l2_pick_coalescing():
    """fidelity.md: per chip and set, the matmul groups' L2 pick as the model makes it and with the
    chip's request coalescing put into the model's lookups."""
    out = ["| GPU | set | matmul groups | the model's pick within 1 point of the chip's best | "
           "with the chip's coalescing | picks the coalescing changes |",
           "|---|---|---:|---:|---:|---:|"]
    used = []
    for gpu in REPORT_GPUS:
        for set_name in ALL_REPORT_SETS:
            if not gpu_has_set(gpu, set_name):
                continue
            rows, paths = overview_rows(gpu, set_name)
            groups = matmul_groups(rows)
            if not groups:
                continue
            used += [p for p in paths if "matmul" in p]
            out.append("| {} | {} | {} | {} | {} | {} |".format(gpu, set_label(gpu, set_name), *pick_counts(groups)))
    return note("from `cachesim compare`'s joined CSVs {}, written by `{}` (the matmul's hit rates over 21 "
                "launches where measured so; the counts those rows carry). The chip's coalescing: the sectors its "
                "L1s missed less its L2 lookups; the model's rate with it: that many more of its lookups merged, "
                "beyond the ones it merges itself, each taken from its hits".format(
                    ", ".join("`{}`".format(p) for p in used), REPORT_CMD)) + "\n" + "\n".join(out) + "\n"
