#!/usr/bin/env python3
"""The cachesim commands the pace reports build (wave_sync_report.simulate_l1 and replay,
progress_replay_report.replay_launch), run by the real cachesim ($CACHESIM_BIN): the script tests
beside this one use stand-ins, which accept options the real program refuses. One launch small
enough to work by hand: the matmul of 32x2 at depth 4, blocks of one warp, so block y is row y of
C. Per step k a warp loads A[y][k] (one sector: the row's 4 floats share it, so 1 miss then 3
hits) and B's row k (4 sectors, none read before by that warp): 20 sectors a warp, 40 in all.
- Replayed with both warps on SM 0 over the same interval (progressprobe's samples), warp 1 finds
  every sector warp 0 just brought: 3 + 20 = 23 hits, 57.5%.
- In the h200 preset's own order the two blocks go to SMs 0 and 1 (its floorplan's first two),
  which share nothing: 3 + 3 = 6 hits, 15%."""
import os
import sys
import tempfile

sys.path.insert(0, os.path.join(os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__)))),
                                "scripts"))
from progress_replay_report import replay_launch  # noqa: E402
from wave_sync_report import replay, simulate_l1  # noqa: E402

LAUNCH = {"kernel": "matmul", "width": 32, "height": 2, "depth": 4, "block_size": 32, "schedule": "linear"}


def main():
    binary = os.environ.get("CACHESIM_BIN")
    if not binary or not os.access(binary, os.X_OK):
        sys.exit("replay_commands_test: set CACHESIM_BIN to the cachesim binary")
    failures = []

    def check(what, got, expected):
        if abs(got - expected) > 1e-9:
            failures.append(f"{what}: {got}, expected {expected}")

    with tempfile.TemporaryDirectory() as tmp:
        samples = os.path.join(tmp, "progress.csv")
        with open(samples, "w") as f:
            f.write("launch,block,warp,sm,slot,t0,t2,t4\n0,0,0,0,0,0,45,90\n0,1,0,0,1,0,45,90\n")
        check("wave_sync_report.replay", replay(binary, samples, LAUNCH), 57.5)
        check("progress_replay_report.replay_launch", replay_launch(binary, (32, 2, 4), "linear", 32, samples), 57.5)
        # as wide_strips_report.model_pace asks for the model's own pace
        pace = os.path.join(tmp, "pace.csv")
        check("simulate_l1, the model's own pace",
              simulate_l1(binary, "h200", LAUNCH, ["--warp-progress", pace, "--warp-progress-every", str(1 << 30)]),
              15.0)
        with open(pace) as f:
            sms = sorted(line.split(",")[2] for line in f.readlines()[1:])
        # the preset's first wave starts with the turn of SMs 124-131, before the first row
        if sms != ["124", "125"]:
            failures.append(f"the model's blocks ran on SMs {sms}, expected 124 and 125")
    if failures:
        sys.exit("replay_commands_test:\n  " + "\n  ".join(failures))
    print("replay_commands_test: ok")


if __name__ == "__main__":
    main()
