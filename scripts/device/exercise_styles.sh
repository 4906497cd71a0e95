#!/usr/bin/env bash
# Issue 40 on the GPU machine: the kernel files of tests/fixtures/user/styles/ under `check`, and the shuffle
# exercise's verdict on each (the right styles pass, wrong_shuffle_then_tree fails with its reason), with the time
# each check took. Usage (from the repository root): bash scripts/device/exercise_styles.sh REDUCESCOPE OUT_DIR
set -u
R=${1:?REDUCESCOPE}; O=${2:?OUT_DIR}
mkdir -p "$O"
{
  echo "== $(date -u +%FT%TZ) $(nvidia-smi --query-gpu=name,driver_version --format=csv,noheader)"
  for f in tests/fixtures/user/styles/*.cu kernels/user/solutions/shuffle.cu; do
    echo "== check $f --exercise shuffle"
    start=$(date +%s%N)
    "$R" check "$f" --exercise shuffle 2>&1 | tail -6
    echo "exit ${PIPESTATUS[0]}, $(( ($(date +%s%N) - start) / 1000000 )) ms"
  done
} 2>&1 | tee "$O/exercise-styles.txt"
