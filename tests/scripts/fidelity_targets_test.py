#!/usr/bin/env python3
"""scripts/docgen/targets.py's verdicts and the counts under them, on rows made up by hand.

A group of three stencil schedules and one of three matmul schedules (one block size, one
compilation), measured against simulated:
- stencil a: L1 50 / 52 (+2), L2 80 / 86 (+6); b: L1 60 / 51 (-9), L2 70 / 72 (+2);
  c: L1 40 / 43 (+3), L2 60 / 64.9 (+4.9). Within 3 at L1: a and c (3.0 counts); beyond 6: b;
  L2 within 5: b and c. The chip's best by L1 is b (60), the model's a (52): the chip loses
  60 - 50 = 10 points, a miss; by L2 the chip's best a (80) is also the model's (86): a hit.
- matmul d: L1 90 / 90.5, L2 99 / 97; e: L1 89.5 / 91, L2 98.5 / 99.6; f: L1 70 / 70, L2 99.4 / 99.
  L1 all within 3, none beyond 6. By L1 the chip's best is d (90), the model's e (91): the chip
  loses 0.5, within 1 point; by L2 the chip's best f (99.4), the model's e (99.6): the chip loses
  0.9, within 1 point.
- requests equal in every row; sectors equal but in row e.
So: 6 runs, 5 within 3 (a, c, d, e, f), 1 beyond 6, stencil L2 within 5: 2 of 3, all L2 within 5: 5 of 6, best
by L1 1 of 2 groups, by L2 2 of 2, requests exact 6, sectors exact 5.

The thresholds (90% and 95% of launches; none beyond 6; every group) at their edges: 9 of 10 is
90% and meets it, 8 of 10 does not; 19 of 20 is 95%, 18 of 20 is not."""
import os
import sys

ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
sys.path.insert(0, os.path.join(ROOT, "scripts"))

from docgen.common import L1Q, L1R, L1S, L2R, M, S  # noqa: E402
from docgen.sets import target_counts  # noqa: E402
from docgen.targets import TARGETS, verdict  # noqa: E402


def row(kernel, schedule, l1, l2, sectors_equal=True):
    r = {"kernel": kernel, "schedule": schedule, "width": "64", "height": "64", "stencil_w": "3", "stencil_h": "3",
         "depth": "0", "block": "128", "variant": "index64"}
    r[M + L1R], r[S + L1R] = str(l1[0]), str(l1[1])
    r[M + L2R], r[S + L2R] = str(l2[0]), str(l2[1])
    r[M + L1Q] = r[S + L1Q] = "1000"
    r[M + L1S], r[S + L1S] = "4000", "4000" if sectors_equal else "4001"
    return r


def check(name, got, want):
    if got != want:
        print("FAIL {}: got {!r}, want {!r}".format(name, got, want))
        return 1
    return 0


def target(set_name, text):
    return next(t for t in TARGETS if t[2] == set_name and t[0] == text)


def counts(runs, **kw):
    c = {"runs": runs, "l1_3": 0, "l1_6": 0, "l2_5_stencil": 0, "stencil": 0, "l2_5": 0, "best": [0, 0, 0],
         "requests": runs, "sectors": runs}
    c.update(kw)
    return c


def main():
    rows = [row("stencil", "a", (50, 52), (80, 86)), row("stencil", "b", (60, 51), (70, 72)),
            row("stencil", "c", (40, 43), (60, 64.9)),
            row("matmul", "d", (90, 90.5), (99, 97)), row("matmul", "e", (89.5, 91), (98.5, 99.6), sectors_equal=False),
            row("matmul", "f", (70, 70), (99.4, 99))]
    for r in rows[3:]:
        r["stencil_w"] = r["stencil_h"] = "0"
        r["depth"] = "64"
    c = target_counts(rows)
    failures = 0
    for key, want in (("runs", 6), ("l1_3", 5), ("l1_6", 1), ("l2_5_stencil", 2), ("stencil", 3), ("l2_5", 5),
                      ("best", [2, 1, 2]), ("requests", 6), ("sectors", 5)):
        failures += check("counts " + key, c[key], want)

    within3 = target("heldout", "L1 hit rate within 3 points")
    failures += check("held-out 9 of 10 within 3", within3[4](counts(10, l1_3=9)), True)
    failures += check("held-out 8 of 10 within 3", within3[4](counts(10, l1_3=8)), False)
    beyond6 = target("heldout", "L1 hit rate beyond 6 points")
    failures += check("held-out none beyond 6", beyond6[4](counts(10, l1_6=0)), True)
    failures += check("held-out one beyond 6", beyond6[4](counts(10, l1_6=1)), False)
    stencil = target("heldout", "L2 hit rate within 5 points, stencils")
    failures += check("stencil 9 of 10", stencil[4](counts(12, stencil=10, l2_5_stencil=9)), True)
    failures += check("stencil 8 of 10", stencil[4](counts(12, stencil=10, l2_5_stencil=8)), False)
    best_l2 = target("heldout", "best schedule by L2: the chip's best or within 1 point of it")
    failures += check("best L2 every group", best_l2[4](counts(9, best=[3, 1, 3])), True)
    failures += check("best L2 one group off", best_l2[4](counts(9, best=[3, 3, 2])), False)
    failures += check("best L2 figure", best_l2[3](counts(9, best=[3, 3, 2])), "2/3")
    training = target("training", "L1 hit rate within 3 points")
    failures += check("training 19 of 20", training[4](counts(20, l1_3=19)), True)
    failures += check("training 18 of 20", training[4](counts(20, l1_3=18)), False)
    failures += check("training figure", training[3](counts(20, l1_3=19)), "19/20 (95%)")

    failures += check("verdict both", verdict([("h200", True), ("h100", True)]), "met")
    failures += check("verdict one", verdict([("h200", False), ("h100", True)]), "met on the h100 only")
    failures += check("verdict none", verdict([("h200", False), ("h100", False)]), "not met")
    print("fidelity_targets_test: {} failure(s)".format(failures))
    return 1 if failures else 0


if __name__ == "__main__":
    sys.exit(main())
