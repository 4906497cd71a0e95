#!/usr/bin/env bash
# Issue 40 on the GPU machine with the carried CLI build (.carry/cli.tar.xz): a class of five for the shuffle exercise,
# a right file and four that go wrong (tests/fixtures/user/): a kernel that hangs at once (hang_loop.cu), one that
# hangs only at large N, after its traces have begun beside the sums (hang_large_n.cu), an out-of-bounds read and a
# trap. Each gets its line and a zero and the batch goes on; afterwards no traced `reducescope run` is left running.
# Then hang_large_n.cu under `check` by itself, timed. The logs go to $OUT.
set -u
mkdir -p /tmp/h && tar -C /tmp/h -xJf .carry/cli.tar.xz && export PATH=/usr/local/cuda/bin:$PATH LD_LIBRARY_PATH=/tmp/h/lib
R=/tmp/h/bin/reducescope
O=${OUT:-/tmp/out}; mkdir -p "$O"
rm -rf /tmp/fc /tmp/fg && mkdir -p /tmp/fc
cp tests/fixtures/user/corpus/shuffle/right_tree_then_xor.cu /tmp/fc/good.cu
for f in hang_loop hang_large_n out_of_bounds trap; do cp tests/fixtures/user/$f.cu /tmp/fc/; done
{
  date -u +%FT%TZ; nvidia-smi --query-gpu=name,driver_version --format=csv,noheader
  "$R" grade /tmp/fc --exercise shuffle --out /tmp/fg --gpus 0
  echo "exit $?"
  cut -d, -f1-4 /tmp/fg/class.csv
  sleep 1
  left=$(pgrep -f "reducescope run" | wc -l)
  echo "traced runs still running after the grade: $left"
  echo "== check hang_large_n.cu by itself"
  s=$(date +%s.%N)
  "$R" check /tmp/fc/hang_large_n.cu --exercise shuffle 2>&1 | tail -4
  echo "exit ${PIPESTATUS[0]}, $(awk "BEGIN{printf \"%.1f\", $(date +%s.%N) - $s}") s"
  sleep 1
  echo "traced runs still running after the check: $(pgrep -f "reducescope run" | wc -l)"
} > "$O/grade-faults.txt" 2>&1
cat "$O/grade-faults.txt"
