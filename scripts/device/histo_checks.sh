#!/usr/bin/env bash
# Runs on the GPU machine for issue 20 (histo_warp):
#   bash scripts/device/histo_checks.sh BIN_DIR OUT_DIR
# The GPU tests, then `reducescope histogram` at 2^26 bytes on the text, uniform and skewed inputs at 256,
# 512 and 1024 threads (every histogram kernel against cub::DeviceHistogram, bin by bin against the CPU),
# and compute-sanitizer memcheck and racecheck on histo_warp. OUT_DIR/*.txt, *.csv.
set -u
B=${1:?BIN_DIR}; OUT=${2:?OUT_DIR}
mkdir -p "$OUT"
export PATH=$PATH:/usr/local/cuda/bin
"$B/tests/rs_gpu_tests" > "$OUT/gpu-tests.txt" 2>&1; echo "gpu tests exit $?: $(grep -E '^\[  (PASSED|FAILED) ' "$OUT/gpu-tests.txt" | tr '\n' ' ' | cut -c1-300)"
for bs in 256 512 1024; do
  "$B/reducescope" histogram --block-size $bs --csv "$OUT/histogram-2e26-bs$bs.csv" > "$OUT/histogram-2e26-bs$bs.txt" 2>&1
  echo "histogram bs $bs exit $?"
done
for in in text skewed; do
  for tool in memcheck racecheck; do
    compute-sanitizer --tool $tool --error-exitcode 9 "$B/reducescope" histogram --kernel histo_warp --input $in \
      --n 1000003 > "$OUT/san-$tool-$in.txt" 2>&1
    echo "$tool $in exit $? $(grep -h 'ERROR SUMMARY\|RACECHECK SUMMARY' "$OUT/san-$tool-$in.txt" | head -1)"
  done
done
grep -h "^== \|^histo_private\|^histo_warp\|^cub::" "$OUT"/histogram-2e26-bs*.txt
