#!/usr/bin/env bash
# Issue 39 on the GPU machine: a lesson on a plain kernel file. NVIDIA's blog's blockReduceSum
# (tests/fixtures/user/styles/block_reduce_sum.cu, plain CUDA: traced as compiled by the binary tracer) recorded with
# `record --kernel-file`; `show --lesson yours` lists the questions the bundled lesson "yours" asks of it with the GPU's
# answers; the page of that session; and the window on the live kernel file in Predict mode and in class mode
# (headless, EGL on the GPU), each with the question before step 1.
# Usage (from the repository root): bash scripts/device/lesson_yours.sh BINDIR LIBDIR OUT_DIR
set -u
B=${1:?BINDIR}; L=${2:?LIBDIR}; O=${3:?OUT_DIR}
R=$B/reducescope
export LD_LIBRARY_PATH=$L${LD_LIBRARY_PATH:+:$LD_LIBRARY_PATH}  # the window build's libraries (cairo, GL), for the CLI too
f=tests/fixtures/user/styles/block_reduce_sum.cu
mkdir -p "$O"
ini=$O/window.ini
printf '[ReduceScope][Settings]\nWindow=0,0,1280,720\nUiScale=1.00\n' >"$ini"
{
  echo "== $(date -u +%FT%TZ) $(nvidia-smi --query-gpu=name,driver_version --format=csv,noheader)"
  echo "== record --kernel-file $f --block-size 256"
  "$R" record --kernel-file "$f" --block-size 256 --out "$O/yours.rssession" 2>&1 | tail -8
  echo "exit ${PIPESTATUS[0]}"
  echo "== show --lesson yours"
  "$R" show "$O/yours.rssession" --lesson yours 2>&1 | sed -n '/^lesson yours/,$p'
  echo "== export --html"
  "$R" export "$O/yours.rssession" --html "$O/yours.html" 2>&1 | head -3
  for mode in "" "--class-mode"; do
    echo "== window --kernel-file $f --block-size 256 --lesson yours $mode --step 1 (headless)"
    REDUCESCOPE_CONFIG=$ini timeout 180 bash scripts/device/headless_run.sh "$L" -- "$R" --headless --kernel-file "$f" \
      --block-size 256 --lesson yours $mode --step 1 \
      --screenshot "$O/window-yours${mode:+-class}-1280x720.png" 2>&1 | grep -E "^(headless|screenshot|yours|predict|tracer)"
  done
} 2>&1 | tee "$O/lesson-yours.txt"
