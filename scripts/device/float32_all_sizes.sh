#!/usr/bin/env bash
# Float32 traces at every block size (issue 30, item 1): every kernel that takes float32, block 0 on the float32 input
# of the bundled session's pattern, at 32, 64, 128, 512 and 1024 threads (256 is there already, with sum_atomic's and
# pitfall_float_atomic's second runs, which this leaves alone), added to a copy of the bundled session.
# Usage: bash scripts/device/float32_all_sizes.sh BUILD_DIR. Writes $OUT/h100-tracks.rssession and $OUT/float32-all.txt.
set -u
B=$(cd "${1:?build dir}" && pwd)
R=$B/reducescope
W=$(mktemp -d)
cp assets/sessions/h100-tracks.rssession "$W/s.rssession"
TIMEFORMAT='%R s'
{ time timeout 500 "$R" record --add --type float32 --block-size 32,64,128,512,1024 --out "$W/s.rssession"; } \
  > "$W/float32-all.txt" 2>&1
echo "record rc=$?" | tee -a "$W/float32-all.txt"
cat "$W/float32-all.txt"
ls -la "$W/s.rssession"
cp "$W/s.rssession" "$OUT/h100-tracks.rssession"
cp "$W/float32-all.txt" "$OUT/"
