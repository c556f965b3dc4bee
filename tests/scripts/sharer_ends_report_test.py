#!/usr/bin/env python3
"""scripts/sharer_ends_report.py's pair figures on a first wave made up by hand.

A naive-order launch 640 wide at depth 102 in blocks of 64: 10 blocks across, so block b reads the
columns (64 b .. 64 b + 63) mod 640, and the first wave is 132 x 32 = 4,224 blocks. Block b is on
SM b mod 132, the k-th of its SM for k = b div 132 (0..31). Blocks k and k' of one SM are 132 (k'
- k) apart, and 132 x 64 (k' - k) is a multiple of 640 only where k' - k is a multiple of 5: they
share columns exactly when k = k' mod 5. Each block ends at 1,000 + 10 c ns, c = k mod 5, so
sharers end together.

Per SM the classes c = 0..4 hold 7, 7, 6, 6, 6 blocks: sharing pairs 2 x 21 + 3 x 15 = 87, others
496 - 87 = 409; over 132 SMs 11,484 and 53,988. Other pairs by |c - c'|: 1: 49 + 42 + 36 + 36 =
163, 2: 42 + 42 + 36 = 120, 3: 42 + 42 = 84, 4: 42. The median first-wave end: each SM's 16th and
17th of 32 are class 2, 1,020 ns, so a step is 1,020 / 102 = 10 ns and a class apart is a step.
Others' median: 163 of 409 pairs are 1 step apart, 283 within 2, so 2 steps; their 90th percentile
(nearest rank below): 367 of 409 (89.7%) are within 3 steps, so 4. Sharers: 0 and 0.

A block's end is its latest warp's (block_ends); an SM with no sharing pair leaves the sharers'
figures empty; a first wave with a block missing is no answer (None)."""
import os
import sys

ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
sys.path.insert(0, os.path.join(ROOT, "scripts"))

from sharer_ends_report import block_ends, end_gaps  # noqa: E402


def main():
    launch = {"width": 640, "height": 0, "depth": 102, "block_size": 64}
    blocks = {b: (b % 132, 1000.0 + 10 * ((b // 132) % 5)) for b in range(132 * 32)}
    s = end_gaps(blocks, launch)
    assert s == {"sharer_pairs": 11484, "sharers_median": 0.0, "sharers_p90": 0.0, "other_pairs": 53988,
                 "others_median": 2.0, "others_p90": 4.0}, s

    # a block ends with its last warp; its SM is any warp's
    assert block_ends([("7", "3", "10"), ("7", "3", "25.5"), ("8", "4", "9")]) == {7: (3, 25.5), 8: (4, 9.0)}

    # 7 blocks across, blocks 132 apart on an SM: 132 k is a multiple of 7 only from k = 7, so an SM
    # of 6 blocks (block 320) has no sharing pair; its figures are empty, not an error
    launch7 = {"width": 2240, "height": 0, "depth": 100, "block_size": 320}
    s7 = end_gaps({b: (b % 132, 1000.0) for b in range(132 * 6)}, launch7)
    assert (s7["sharer_pairs"], s7["sharers_median"], s7["sharers_p90"], s7["other_pairs"]) == (0, None, None, 132 * 15), s7

    del blocks[100]
    assert end_gaps(blocks, launch) is None
    print("sharer_ends_report: ok")


if __name__ == "__main__":
    main()
