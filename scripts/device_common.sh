# Shared by the device scripts (sourced; expects $OUT with a logs/ folder).

# accepted_metrics GPUBENCH METRIC...: prints, comma separated, the metrics CUPTI accepts on this
# chip, each tried alone on a tiny launch; rejected ones are logged and reported.
accepted_metrics() {
  local bin=$1 m metrics=""
  shift
  for m in "$@"; do
    if timeout 60 "$bin" --counters cupti --metrics "$m" --kernel stencil --size 256x256 --stencil 3x3 \
         --schedules linear --blocks 256 --profile-reps 1 --reps 1 --out "$OUT/logs/try.csv" \
         >>"$OUT/logs/metric_check.log" 2>&1; then
      metrics="${metrics:+$metrics,}$m"
    else
      echo "rejected: $m" | tee -a "$OUT/logs/metric_check.log" >&2
    fi
  done
  echo "$metrics"
}

# fidelity_sweep GPUBENCH METRICS NAME: the 81 fidelity configurations (9x9 and 3x3 stencils on
# 4096x4096, the 1024 matmul; nine schedules; blocks 128/256/1024), one profiled launch per metric
# group, into $OUT/NAME_stencil.csv and $OUT/NAME_matmul.csv.
fidelity_sweep() {
  local bin=$1 metrics=$2 name=$3
  local schedules=linear,column:8,column:16,column:32,column:64,column:128,zigzag:32,tiled:32x32,morton
  echo "== stencil sweep"
  timeout 240 "$bin" --counters cupti --metrics "$metrics" --profile-reps 1 --out "$OUT/${name}_stencil.csv" \
    --kernel stencil --size 4096x4096 --stencil 9x9,3x3 --schedules "$schedules" --blocks 128,256,1024 \
    2>"$OUT/logs/${name}_stencil.log"
  echo "rc=$?"; tail -2 "$OUT/logs/${name}_stencil.log"
  echo "== matmul sweep"
  timeout 150 "$bin" --counters cupti --metrics "$metrics" --profile-reps 1 --out "$OUT/${name}_matmul.csv" \
    --kernel matmul --size 1024x1024 --schedules "$schedules" --blocks 128,256,1024 \
    2>"$OUT/logs/${name}_matmul.log"
  echo "rc=$?"; tail -2 "$OUT/logs/${name}_matmul.log"
}

# ncu_raw_rows LOG OUT: from ncu's --csv --page raw output in LOG (logs, perhaps several runs
# appended), the header line and the launch rows into OUT.
ncu_raw_rows() {
  { grep -h '^"ID"' "$1" | head -1; grep -h '^"[0-9]' "$1"; } >"$2"
  wc -l "$2"
}

# pack_logs: $OUT/logs into $OUT/logs.tar.gz (files come back one by one), and what is left.
pack_logs() {
  tar -C "$OUT" -czf "$OUT/logs.tar.gz" logs && rm -rf "$OUT/logs"
  ls -la "$OUT"
}
