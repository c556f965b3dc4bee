#!/usr/bin/env bash
# Robustness run (CI, after scripts/test.sh): the whole test suite built with AddressSanitizer +
# UndefinedBehaviorSanitizer (build-asan, g++), then a short bounded libFuzzer run for every
# trace reader (build-fuzz, clang; also under ASan+UBSan). Any sanitizer report fails the run.
# Usage: scripts/test_sanitizers.sh [--no-fuzz]
set -euo pipefail
cd "$(dirname "$0")/.."
scripts/setup.sh
jobs="$(nproc)"
export ASAN_OPTIONS="abort_on_error=1:detect_leaks=1:strict_string_checks=1"
export UBSAN_OPTIONS="print_stacktrace=1:halt_on_error=1"

# -O1 -g1: quick to compile on CI's two cores, fast enough to run, still precise stack traces.
cmake -S . -B build-asan -DCMAKE_BUILD_TYPE=None -DCMAKE_CXX_FLAGS="-O1 -g1" -DCACHESIM_SANITIZE=ON \
  -DCACHESIM_BUILD_BENCHMARKS=OFF >/dev/null
cmake --build build-asan -j "$jobs" --target cachesim_tests
# Leaks are checked everywhere except in the GUI tests: OpenGL drivers leak at exit inside
# dlopen'ed modules LeakSanitizer cannot attribute (the MPI test turns it off for mpirun likewise).
# The long model runs (label `slow`: the H200 comparisons, measured warp orders) repeat code the
# fast tests reach, at ASan's 3-5x cost: the GUI tests are the only slow ones run here.
(cd build-asan && ctest --output-on-failure -j "$jobs" -LE 'slow|gui')
(cd build-asan && ASAN_OPTIONS="$ASAN_OPTIONS:detect_leaks=0" ctest --output-on-failure -j "$jobs" -L gui)

if [ "${1:-}" != "--no-fuzz" ]; then
  cmake -S . -B build-fuzz -DCMAKE_BUILD_TYPE=None -DCMAKE_CXX_FLAGS="-O1 -g1" -DCMAKE_CXX_COMPILER=clang++ \
    -DCACHESIM_FUZZ=ON -DCACHESIM_SANITIZE=ON -DCACHESIM_BUILD_BENCHMARKS=OFF >/dev/null
  cmake --build build-fuzz -j "$jobs" --target cachesim_fuzz_targets
  (cd build-fuzz && ctest --output-on-failure -j "$jobs" -R '^fuzz_')
fi
