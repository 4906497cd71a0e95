#!/usr/bin/env bash
# Grading under load (issue 29, item 6): 8 `check --exercise first_add` processes at once on one GPU, on a mix of
# passing files (the solution) and failing ones (the starting file), against the same 8 checked one at a time.
# Timed checks take the GPU in turn (kernels/gpu_lock.hpp), so each file's verdicts must match and its speedup over
# the reference must stay within the spread of the one-at-a-time runs.
# Usage: bash scripts/device/grading_load.sh REDUCESCOPE   Writes $OUT/grading/ (each run's output) and prints a table.
set -u
R=$(cd "$(dirname "${1:?reducescope}")" && pwd)/$(basename "$1")
W=$(mktemp -d)
O=${OUT:-$W}/grading
mkdir -p "$O/alone" "$O/together" "$O/unlocked"
for i in 1 2 3 4; do
  cp kernels/user/solutions/first_add.cu "$W/pass$i.cu"
  "$R" new --exercise first_add "$W/fail$i.cu" > /dev/null
done
files=(pass1 fail1 pass2 fail2 pass3 fail3 pass4 fail4)
TIMEFORMAT='%R'
alone=$( { time for f in "${files[@]}"; do timeout 300 "$R" check "$W/$f.cu" --exercise first_add > "$O/alone/$f.txt" 2>&1; echo "rc=$?" >> "$O/alone/$f.txt"; done; } 2>&1 )
together=$( { time (for f in "${files[@]}"; do timeout 600 "$R" check "$W/$f.cu" --exercise first_add > "$O/together/$f.txt" 2>&1 & done; wait); } 2>&1 )
# The same 8 at once without the lock (each process its own lock folder): what the lock prevents.
unlocked=$( { time (for f in "${files[@]}"; do RS_LOCK_DIR=$(mktemp -d) timeout 600 "$R" check "$W/$f.cu" --exercise first_add > "$O/unlocked/$f.txt" 2>&1 & done; wait); } 2>&1 )
echo "one at a time: $alone s; 8 at once: $together s; 8 at once without the lock: $unlocked s" | tee "$O/summary.txt"
printf '%-6s %-16s %-16s %-16s\n' file "alone" "together" "without the lock" | tee -a "$O/summary.txt"
for f in "${files[@]}"; do
  v() { grep -o '^  [✓✗]' "$1" | tr -d ' \n'; }
  s() { grep -E '^  [✓✗] at least' "$1" | grep -oE '[0-9.]+x$'; }
  printf '%-6s %-16s %-16s %-16s\n' "$f" "$(v "$O/alone/$f.txt") $(s "$O/alone/$f.txt")" \
    "$(v "$O/together/$f.txt") $(s "$O/together/$f.txt")" "$(v "$O/unlocked/$f.txt") $(s "$O/unlocked/$f.txt")" | tee -a "$O/summary.txt"
done
grep -h "waited" "$O"/together/*.txt | tee -a "$O/summary.txt"
tar czf "${OUT:-$W}/grading.tgz" -C "$O" .
