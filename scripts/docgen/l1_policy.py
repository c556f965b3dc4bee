"""Which lines the L1 keeps (l1policyprobe)."""

from docgen.common import H200, note, read_csv


L1_POLICY = H200 + "/l1policy/l1policyprobe.csv"


def l1_policy_shares():
    """(carveout, program, size, half, phase) -> the share of the phase's loads that hit."""
    return {(r["carveout"], r["program"], int(r["size"]), r["half"], r["phase"]): int(r["hits"]) / int(r["visits"])
            for r in read_csv(L1_POLICY)}


def gen_l1_policy_cyclic():
    share = l1_policy_shares()
    out = ["| lines (KiB) | random lines, pass 2 / 4 | in address order, pass 2 / 4 | in address order, "
           "the default carve-out, pass 2 / 4 |",
           "|---:|---:|---:|---:|"]
    for n in (512, 1024, 1280, 1536, 1792, 1920, 2048, 2304, 2560, 3072, 4096):
        cells = ["{:.2f} / {:.2f}".format(share[(c, prog, n, "", "pass2")], share[(c, prog, n, "", "pass4")])
                 for c, prog in (("max_l1", "cyclic"), ("max_l1", "cyclic_seq"), ("default", "cyclic_seq"))]
        out.append("| {} ({}) | {} |".format(n, n * 128 // 1024, " | ".join(cells)))
    return note("from `{}`, written by `scripts/device_latency.sh l1policy` (apps/gpubench/l1policyprobe.cu: one "
                "thread loading N lines of 128 B four times over, a load under 160 cycles counted a hit; the largest "
                "carve-out unless said; the share of the loads of passes 2 and 4 that hit)".format(L1_POLICY)) + \
        "\n" + "\n".join(out) + "\n"


def gen_l1_policy_strides():
    share = l1_policy_shares()
    strides = (8, 32, 128, 3, 36, 40, 48)
    out = ["| lines | " + " | ".join("stride {}".format(k) for k in strides) + " | random lines (three draws) |",
           "|---:|" + "---:|" * (len(strides) + 1)]
    for n in (512, 1024, 1536, 1792):
        cells = ["{:.2f}".format(share[("max_l1", "cyclic_stride{}".format(k), n, "", "pass4")]) for k in strides]
        draws = [share.get(("max_l1", prog, n, "", "pass4")) for prog in ("cyclic", "cyclic_draw2", "cyclic_draw3")]
        cells.append(" / ".join("{:.2f}".format(d) for d in draws if d is not None))
        out.append("| {} | {} |".format(n, " | ".join(cells)))
    recency = ["| lines A (then A/2 others) | the half of A read again: hits | the half read once: hits |",
               "|---:|---:|---:|"]
    for k in (512, 768, 1024):
        recency.append("| {} | {:.2f} | {:.2f} |".format(
            k, share[("max_l1", "recency", k, "old", "old")], share[("max_l1", "recency", k, "new", "new")]))
    return note("from `{}` (the largest carve-out; pass 4 of the cyclic programs, strides in lines; the recency "
                "programs' last phase)".format(L1_POLICY)) + "\n" + "\n".join(out) + "\n\n" + "\n".join(recency) + "\n"


L1_FIT = H200 + "/l1policy/l1_fit.csv"


def gen_l1_policy_fit():
    rows = read_csv(L1_FIT)
    best = min(float(r["all"]) for r in rows)
    out = ["| sets x ways (lines) | index | random lines | address order, power-of-two strides | other strides "
           "| all |",
           "|---|---|---:|---:|---:|---:|"]
    for r in rows:
        cell = "**{}**".format(r["all"]) if float(r["all"]) == best else r["all"]
        out.append("| {} x {} ({}) | {} | {} | {} | {} | {} |".format(
            r["sets"], r["ways"], r["lines"], r["index"], r["random"], r["power_of_two"], r["other_strides"], cell))
    return note("from `{}`, written by `scripts/l1_policy_fit.py` (LRU caches of the given sets and ways replaying "
                "the probe's cyclic programs; mean \\|hit share error\\| of pass 4 against the chip's, largest "
                "carve-out; `mod`: line mod sets, `fold`: the line's higher bit fields folded onto the low ones (`--l1-index fold`), "
                "`mult`: a multiplicative hash)".format(L1_FIT)) + "\n" + "\n".join(out) + "\n"
