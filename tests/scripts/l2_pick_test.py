#!/usr/bin/env python3
"""scripts/docgen/l2_pick.py's L2 pick with the chip's request coalescing, on rows made up by hand.

One matmul group of three schedules (sectors the L1 read 10,000 in each):
- A: chip L1 hits 4,000 (6,000 missed), L2 lookups 5,000, so 1,000 merged; its L2 rate 98.0.
  Model: L1 hits 4,000, L2 lookups 6,000 (none merged), hits 5,940: 99.0. With the chip's
  1,000 merged taken from its lookups and hits: 4,940 / 5,000 = 98.8.
- B: chip L1 hits 9,000 (1,000 missed), lookups 400, so 600 merged; rate 99.5. Model: lookups
  1,000, hits 995: 99.5; with the chip's coalescing 395 / 400 = 98.75.
- C: chip L1 hits 8,000 (2,000 missed), lookups 2,000, none merged; rate 97.0. Model: lookups
  1,900 (100 merged, more than the chip), hits 1,862: 98.0; nothing more to merge: 98.0.
The model picks B (99.5), the chip's best: within a point. With the chip's coalescing it picks A
(98.8), where the chip loses 99.5 - 98.0 = 1.5 points: not within, and the pick changed.
A group of two schedules and a stencil row are left out: one group counted.
So pick_counts gives (1 group, 1 within, 0 within with the coalescing, 1 changed)."""
import os
import sys

ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
sys.path.insert(0, os.path.join(ROOT, "scripts"))

from docgen.common import L2R, M, S  # noqa: E402
from docgen.l2_pick import (L1_HITS, L1_SECTORS, L2_HITS, L2_LOOKUPS, coalesced, matmul_groups,  # noqa: E402
                            pick_counts, rate_with_chip_coalescing)


def row(schedule, chip, model, kernel="matmul", block="128"):
    """chip: (L1 hits, L2 lookups, L2 rate); model: (L1 hits, L2 lookups, L2 hits)."""
    r = {"kernel": kernel, "schedule": schedule, "width": "1024", "height": "1024", "stencil_w": "0", "stencil_h": "0",
         "depth": "512", "block": block, "variant": "index64"}
    r[M + L1_SECTORS] = r[S + L1_SECTORS] = "10000"
    r[M + L1_HITS], r[M + L2_LOOKUPS], r[M + L2R] = (str(v) for v in chip)
    r[S + L1_HITS], r[S + L2_LOOKUPS], r[S + L2_HITS] = (str(v) for v in model)
    r[S + L2R] = str(100.0 * model[2] / model[1])
    return r


def check(name, got, want, tolerance=None):
    ok = abs(got - want) <= tolerance if tolerance is not None else got == want
    if not ok:
        print("FAIL {}: got {!r}, want {!r}".format(name, got, want))
        return 1
    return 0


def main():
    a = row("A", (4000, 5000, 98.0), (4000, 6000, 5940))
    b = row("B", (9000, 400, 99.5), (9000, 1000, 995))
    c = row("C", (8000, 2000, 97.0), (8000, 1900, 1862))
    failures = 0
    failures += check("chip merged, A", coalesced(a, M), 1000.0)
    failures += check("model merged, C", coalesced(c, S), 100.0)
    failures += check("rate with the chip's coalescing, A", rate_with_chip_coalescing(a), 98.8, 1e-9)
    failures += check("rate with the chip's coalescing, B", rate_with_chip_coalescing(b), 98.75, 1e-9)
    failures += check("rate with the chip's coalescing, C", rate_with_chip_coalescing(c), 98.0, 1e-9)
    others = [row("A", (4000, 5000, 98.0), (4000, 6000, 5940), block="256"),
              row("B", (9000, 400, 99.5), (9000, 1000, 995), block="256"),
              row("A", (4000, 5000, 98.0), (4000, 6000, 5940), kernel="stencil")]
    groups = matmul_groups([a, b, c] + others)
    failures += check("groups of three or more matmul schedules", len(groups), 1)
    failures += check("pick counts", pick_counts(groups), (1, 1, 0, 1))
    print("l2_pick_test: {}".format("FAILED" if failures else "ok"))
    return 1 if failures else 0


if __name__ == "__main__":
    sys.exit(main())
