#!/usr/bin/env python3
"""Why the GPU model's L1 is too low at blocks of one warp: gpubench's 1024^3 matmul at blocks of
32, 64 and 128 threads (scripts/device_progress.sh one_warp_blocks), its recorded warp times
replayed by the model's caches, and how an SM's blocks that read the same columns of B meet, on
the chip and in the model's rounds.

  scripts/one_warp_blocks_report.py --dir DIR --out FILE.csv [--preset NAME] [--jobs N]

DIR holds warps_<schedule>.csv.gz (gpubench --warp-times: the configuration columns, then launch,
block, warp, sm, slot, start_ns, end_ns; blocks 32, 64 and 128 in one file) for `linear` and
`column:512`, and one_warp_blocks_ncu.csv (Nsight Compute's raw page: per schedule and block, in
that order, the profiled launch, then the placed one whose warp times the file holds). Per launch:
  profiled_l1, placed_l1       the chip's L1 hit % of gpubench's measured kernel and of the
                               variant that records the warp times;
  replay_l1                    the preset's caches replaying the recorded warp times (cachesim
                               simulate --warp-times, the file's first launch);
  model_l1                     the preset in its own rounds;
  chip_sharers, model_sharers  of the blocks that start after the first wave, how many blocks of
                               their SM reading the same columns of B overlap them in time, on
                               average (wide_strips_report.py's figures, as its other two:)
  chip_start_gap_p90, model_start_gap_p90, chip_ends_together, model_ends_together;
  chip_first_wave_run          the first wave's median run over the later blocks' (the chip);
  chip_later_run_us            the later blocks' median run in µs (the chip): a warp's, at block 32.
The binary is $CACHESIM_BIN, else build/apps/cachesim/cachesim.
"""
import os
import statistics
from concurrent.futures import ThreadPoolExecutor

from wave_sync_report import ncu_l1_launches, read_launch
from warp_ends_report import fail  # one error exit for the scripts beside this file
from wide_strips_report import FIRST_WAVE, SIZE, model_pace, pace_details, report_arguments, simulate, write_rows

SCHEDULES = ("linear", "column:512")
BLOCKS = (32, 64, 128)


def strip_width(schedule):
    """The strip width whose columns the schedule walks (linear: the whole row)."""
    return SIZE if schedule == "linear" else int(schedule.split(":")[1])


def later_runs(spans):
    """The run times (ns) of the blocks started after the first wave."""
    runs = [end - start for _, start, end in spans.values()]
    median = statistics.median(runs)
    first = min(start for _, start, _ in spans.values())
    late = [end - start for _, start, end in spans.values() if start - first >= FIRST_WAVE * median]
    if not late:
        fail("a launch of one wave: no block starts after the first")
    return late


def first_wave_run(spans):
    """The first wave's median run time over the later blocks'."""
    runs = [end - start for _, start, end in spans.values()]
    median = statistics.median(runs)
    first = min(start for _, start, _ in spans.values())
    early = [end - start for _, start, end in spans.values() if start - first < FIRST_WAVE * median]
    late = [end - start for _, start, end in spans.values() if start - first >= FIRST_WAVE * median]
    if not early or not late:
        fail("a launch of one wave: no block starts after the first")
    return statistics.median(early) / statistics.median(late)


def main():
    args, binary = report_arguments(__doc__)
    launches = [(s, b) for s in SCHEDULES for b in BLOCKS]
    ncu = ncu_l1_launches(os.path.join(args.dir, "one_warp_blocks_ncu.csv"))
    if len(ncu) != 2 * len(launches):
        fail(f"{args.dir}/one_warp_blocks_ncu.csv: {len(ncu)} launches, expected {2 * len(launches)}")
    paths = {s: os.path.join(args.dir, f"warps_{s.replace(':', '-')}.csv.gz") for s in SCHEDULES}
    recorded = {(s, b): read_launch(paths[s], b)[1] for s, b in launches}
    with ThreadPoolExecutor(max_workers=max(1, args.jobs)) as pool:
        replays = {(s, b): pool.submit(simulate, binary, args.preset, s, b, ["--warp-times", paths[s]])
                   for s, b in launches}
        models = {(s, b): pool.submit(model_pace, binary, args.preset, s, b) for s, b in launches}
        out = []
        for i, (s, b) in enumerate(launches):
            (profiled_name, profiled), (placed_name, placed) = ncu[2 * i], ncu[2 * i + 1]
            if "ProfiledLaunch" not in profiled_name or "PlacedLaunch" not in placed_name:
                fail(f"{args.dir}/one_warp_blocks_ncu.csv: launches {2 * i} and {2 * i + 1} are not a profiled "
                     f"and a placed launch")
            chip = pace_details(recorded[(s, b)], b, strip_width(s))
            model_l1, spans = models[(s, b)].result()
            model = pace_details(spans, b, strip_width(s))
            out.append({"schedule": s, "block": b, "profiled_l1": f"{profiled:.2f}", "placed_l1": f"{placed:.2f}",
                        "replay_l1": f"{replays[(s, b)].result():.2f}", "model_l1": f"{model_l1:.2f}",
                        "chip_sharers": f"{chip['sharers']:.2f}", "model_sharers": f"{model['sharers']:.2f}",
                        "chip_start_gap_p90": f"{chip['start_gap_p90']:.3f}",
                        "model_start_gap_p90": f"{model['start_gap_p90']:.3f}",
                        "chip_ends_together": f"{chip['ends_together']:.3f}",
                        "model_ends_together": f"{model['ends_together']:.3f}",
                        "chip_first_wave_run": f"{first_wave_run(recorded[(s, b)]):.2f}",
                        "chip_later_run_us": f"{statistics.median(later_runs(recorded[(s, b)])) / 1000:.1f}"})
    write_rows(args.out, out)


if __name__ == "__main__":
    main()
