#!/usr/bin/env bash
# Why the bits differ (issue 30, item 2; docs/float-traces.md): the float atomic kernels' block 0 traced in two runs
# of the same float32 input, the second kept beside the first in a copy of the bundled session
# (`record --add --type float32 --two-runs`), and what `show` says of them. Usage: bash scripts/device/two_runs.sh
# BUILD_DIR. Writes $OUT/two-runs.tgz and $OUT/h100-tracks.rssession.
set -u
B=$(cd "${1:?build dir}" && pwd)
R=$B/reducescope
W=$(mktemp -d)
nvidia-smi --query-gpu=name,driver_version --format=csv,noheader | tee "$W/gpu.txt"
cp assets/sessions/h100-tracks.rssession "$W/s.rssession"
for k in sum_atomic pitfall_float_atomic; do
  timeout 300 "$R" record --add --type float32 --kernel $k --block-size 256 --two-runs --out "$W/s.rssession" \
    > "$W/record-$k.txt" 2>&1; echo "record $k rc=$?" | tee -a "$W/record-$k.txt"
  cat "$W/record-$k.txt"
done
"$R" show "$W/s.rssession" > "$W/show.txt" 2>&1
grep -B1 -A3 "another run" "$W/show.txt" | tee "$W/two-runs.txt"
cp "$W/s.rssession" "$OUT/h100-tracks.rssession"
rm -f "$W/s.rssession"
tar czf "$OUT/two-runs.tgz" -C "$W" .
