#!/usr/bin/env bash
# Fresh machine -> all tests: install dependencies, build, run every CTest test.
set -euo pipefail
cd "$(dirname "$0")/.."
scripts/setup.sh
scripts/build.sh
cd build
ctest --output-on-failure -j "$(nproc)" "$@"
