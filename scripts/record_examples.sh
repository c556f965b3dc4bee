#!/usr/bin/env bash
# Records on the host the trace of every row of a gpubench --examples CSV (its `example` and
# `trace` columns; the trace path is relative to the CSV), skipping traces already there, with
# record_kernel_host ($RECORD_BIN, else build/examples/record_kernel_host). Host and GPU recordings
# of a launch are byte-identical; with SHA256 (scripts/device_examples.sh's
# examples_traces.sha256, the GPU's recordings) every trace is checked against it.
# Usage: scripts/record_examples.sh EXAMPLES.csv [TRACES.sha256]
set -euo pipefail
cd "$(dirname "$0")/.."
csv=${1:?usage: scripts/record_examples.sh EXAMPLES.csv [TRACES.sha256]}
sums=${2:-}
bin=${RECORD_BIN:-build/examples/record_kernel_host}
[ -x "$bin" ] || { echo "record_examples: no record_kernel_host at $bin (build it, or set RECORD_BIN)" >&2; exit 2; }
[ -r "$csv" ] || { echo "record_examples: cannot read $csv" >&2; exit 2; }
dir=$(dirname "$csv")
python3 - "$csv" <<'PY' | while read -r example trace; do
import csv, sys
rows = list(csv.DictReader(open(sys.argv[1], newline="")))
if not rows or "trace" not in rows[0] or "example" not in rows[0]:
    sys.exit("record_examples: %s has no example and trace columns (gpubench --examples writes them)" % sys.argv[1])
for r in rows:
    if r["trace"]:
        print(r["example"], r["trace"])
PY
  if [ -e "$dir/$trace" ]; then
    echo "record_examples: $dir/$trace is there"
    continue
  fi
  mkdir -p "$(dirname "$dir/$trace")"
  "$bin" example "$example" "$dir/$trace"
done
if [ -n "$sums" ]; then
  abs_sums=$(cd "$(dirname "$sums")" && pwd)/$(basename "$sums")
  (cd "$dir" && sha256sum -c "$abs_sums")
fi
