#!/usr/bin/env bash
# The binary tracer on a GPU machine (issue 28, docs/binary-trace.md): attaches to examples/two_reductions.cu
# (a plain CUDA program with its own main(), built here with nvcc -lineinfo), times the program alone and
# traced, traces both kernels, a build without line info, the error cases, and a shipped kernel through
# `reducescope run` beside its source-probe trace. Usage: bash scripts/device/binary_trace.sh BUILD_DIR
# (with reducescope, libreducescope_inject.so and rs_bt_patches.fatbin). Writes $OUT/binary-trace.tgz.
set -u
B=$(cd "${1:?build dir}" && pwd)
R=$B/reducescope
export PATH=/usr/local/cuda/bin:$PATH
W=$(mktemp -d)
mkdir -p "$W/keep"
nvcc -lineinfo -arch=sm_90 -o "$W/two_reductions" examples/two_reductions.cu
nvcc -arch=sm_90 -o "$W/two_reductions_noline" examples/two_reductions.cu
nvidia-smi --query-gpu=name,driver_version --format=csv,noheader | tee "$W/gpu.txt"
TIMEFORMAT='%R'
{
  echo "# seconds, N = 2^24, block 0 of reduce_strided's first launch traced"
  echo "# alone | trace (whole command) | program attached (as the command prints it)"
  for i in 1 2 3 4 5 6 7 8 9 10 11; do
    a=$( { time "$W/two_reductions" 16777216 > /dev/null; } 2>&1 )
    t=$( { time timeout 120 "$R" trace --quiet --kernel reduce_strided --out "$W/s.rstrace" -- "$W/two_reductions" 16777216 > "$W/t.txt"; } 2>&1 )
    ta=$(grep -o "ran [0-9.]* s with" "$W/t.txt" | cut -d" " -f2)
    echo "$a $t $ta"
  done
} | tee "$W/overhead.txt"
cd "$W"
RS_BT_KEEP=$W/keep timeout 120 "$R" trace --kernel reduce_strided --out strided.rstrace -- ./two_reductions 1048576 > strided.txt; echo "strided rc=$?"
RS_BT_KEEP=$W/keep timeout 120 "$R" trace --kernel reduce_shuffle --out shuffle.rstrace -- ./two_reductions 1048576 > shuffle.txt; echo "shuffle rc=$?"
RS_BT_KEEP=$W/keep timeout 120 "$R" trace --kernel reduce_strided --out strided_noline.rstrace -- ./two_reductions_noline 1048576 > noline.txt; echo "noline rc=$?"
timeout 60 "$R" trace --kernel nosuch --out x.rstrace -- ./two_reductions 4096 > nomatch.txt 2>&1; echo "nomatch rc=$?" | tee -a nomatch.txt
timeout 60 "$R" trace --kernel reduce_shuffle --block 5000 --out x.rstrace -- ./two_reductions 4096 > badblock.txt 2>&1; echo "badblock rc=$?" | tee -a badblock.txt
timeout 60 "$R" trace --kernel reduce_shuffle --launch 2 --out x.rstrace -- ./two_reductions 4096 > launch2.txt 2>&1; echo "launch2 rc=$?" | tee -a launch2.txt
for k in reduce1 reduce2; do
  RS_BT_KEEP=$W/keep timeout 120 "$R" trace --quiet --kernel "rs::$k<rs::NullProbe>" --out "$k-binary.rstrace" -- "$R" run --kernel $k --block-size 256 --n 65536 > "$k-binary.txt" 2>&1; echo "$k binary rc=$?"
  timeout 120 "$R" trace --quiet --kernel $k --block-size 256 --n 65536 --out "$k-probe.rstrace" > "$k-probe.txt" 2>&1; echo "$k probe rc=$?"
done
head -30 strided.txt; head -12 nomatch.txt; cat badblock.txt launch2.txt; head -14 reduce1-binary.txt
tar czf "$OUT/binary-trace.tgz" -C "$W" .
