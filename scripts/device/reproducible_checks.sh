#!/usr/bin/env bash
# Runs on the GPU machine for issue 20 (reproducible_sum):
#   bash scripts/device/reproducible_checks.sh BIN_DIR OUT_DIR [PARTS]
# BIN_DIR holds reducescope and tests/rs_gpu_tests built for the GPU without GUI and charts. PARTS (default
# "tests bench san"): the GPU tests; `bench --track modern --type float32` at 2^20 .. 2^30, every block
# size (reproducible_sum against cub::DeviceReduce::Sum, in the same run); compute-sanitizer memcheck,
# racecheck and synccheck on reproducible_sum at odd N. Writes OUT_DIR/*.txt, *.csv and summary.txt.
set -u
B=${1:?BIN_DIR}; OUT=${2:?OUT_DIR}; PARTS=${3:-tests bench san}
mkdir -p "$OUT"
S=$OUT/summary.txt
export PATH=$PATH:/usr/local/cuda/bin
echo "== $(date -u +%FT%TZ) $(nvidia-smi -L | head -1)" | tee -a "$S"
if [[ " $PARTS " == *" tests "* ]]; then
  "$B/tests/rs_gpu_tests" > "$OUT/gpu-tests.txt" 2>&1; echo "gpu tests exit $?: $(grep -E '^\[  (PASSED|FAILED) ' "$OUT/gpu-tests.txt" | tr '\n' ' ')" | tee -a "$S"
fi
if [[ " $PARTS " == *" bench "* ]]; then
  for e in 20 22 24 26 28 30; do
    "$B/reducescope" bench --track modern --type float32 --n "2^$e" --block-size all --csv "$OUT/bench-float-2e$e.csv" \
      > "$OUT/bench-float-2e$e.txt" 2>&1
    echo "bench 2^$e exit $?" | tee -a "$S"
  done
fi
if [[ " $PARTS " == *" san "* ]]; then
  for tool in memcheck racecheck synccheck; do
    for bs in 32 256 1024; do
      compute-sanitizer --tool $tool --error-exitcode 9 "$B/reducescope" run --track modern --kernel reproducible_sum \
        --type float32 --block-size $bs --n 1000003 > "$OUT/san-$tool-$bs.txt" 2>&1
      echo "$tool bs $bs exit $? $(grep -h 'ERROR SUMMARY\|RACECHECK SUMMARY' "$OUT/san-$tool-$bs.txt" | head -1)" | tee -a "$S"
    done
  done
fi
