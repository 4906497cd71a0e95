#!/usr/bin/env bash
# Sets everything up, builds, and opens the ReduceScope window. Arguments go to reducescope,
# e.g. scripts/run.sh --kernel reduce2 --block-size 128, or scripts/run.sh bench.
set -euo pipefail
cd "$(dirname "$0")/.."
bash scripts/setup.sh
bash scripts/build.sh build
exec ./build/reducescope "$@"
