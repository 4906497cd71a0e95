#!/usr/bin/env bash
# verify --binary on the pitfalls traced as compiled (pitfall_no_volatile, pitfall_no_syncwarp: their shared memory
# is a raw extern __shared__ array, so the source probe records none; their sums are wrong on purpose, so
# `reducescope run` exits 1), at 64 and 256 threads, and on reduce1 and sum_shuffle as before. Each prints its
# table and exit status. Usage: bash scripts/device/verify_pitfalls.sh BUILD_DIR (reducescope,
# libreducescope_inject.so, rs_bt_patches.fatbin there). Writes $OUT/verify-pitfalls.txt.
set -u
B=$(cd "${1:?build dir}" && pwd)
R=$B/reducescope
export PATH=/usr/local/cuda/bin:$PATH
{
  nvidia-smi --query-gpu=name,driver_version --format=csv,noheader
  for kb in pitfall_no_volatile:64 pitfall_no_volatile:256 pitfall_no_syncwarp:64 pitfall_no_syncwarp:256 \
            reduce1:256 sum_shuffle:256; do
    k=${kb%%:*}; bs=${kb##*:}
    timeout 300 "$R" verify --binary --kernel "$k" --block-size "$bs"
    echo "exit status $? ($k, $bs threads)"
    echo
  done
} 2>&1 | tee "${OUT:-.}/verify-pitfalls.txt"
