#!/usr/bin/env bash
# Runs on a GPU machine for issue 20 (the bits view):
#   bash scripts/device/bits_view.sh BIN_DIR OUT_DIR [SESSION]
# `reducescope bits` at 2^24 (20 runs at each block size; into a copy of SESSION when one is given) and at
# 2^20 and 2^26 + 3; OUT_DIR/bits-*.txt. Run on the H100 and on an H200: reproducible_sum's pattern must be
# the same on both.
set -u
B=${1:?BIN_DIR}; OUT=${2:?OUT_DIR}; SES=${3:-}
mkdir -p "$OUT"
gpu=$(nvidia-smi --query-gpu=name --format=csv,noheader | head -1 | tr ' ' '_')
if [ -n "$SES" ]; then
  cp "$SES" "$OUT/session.rssession"
  "$B/reducescope" bits --out "$OUT/session.rssession" > "$OUT/bits-$gpu-2e24.txt" 2>&1; echo "bits 2^24 exit $?"
else
  "$B/reducescope" bits > "$OUT/bits-$gpu-2e24.txt" 2>&1; echo "bits 2^24 exit $?"
fi
"$B/reducescope" bits --n 2^20 > "$OUT/bits-$gpu-2e20.txt" 2>&1; echo "bits 2^20 exit $?"
"$B/reducescope" bits --n 67108867 --runs 5 > "$OUT/bits-$gpu-2e26p3.txt" 2>&1; echo "bits 2^26+3 exit $?"
grep -h "^reproducible_sum\|^CUB" "$OUT"/bits-*.txt
