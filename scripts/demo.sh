#!/usr/bin/env bash
# Fresh machine -> the main job: install dependencies, build, run the built-in default
# (the thesis's Table 3.1 scenario).
set -euo pipefail
cd "$(dirname "$0")/.."
scripts/setup.sh
scripts/build.sh
build/apps/cachesim/cachesim simulate "$@"
