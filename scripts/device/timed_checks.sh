#!/usr/bin/env bash
# The exercises' timed checks after a change to how they are timed (check.cpp, time_against_reference): the plain
# first_add and histogram exercises, starting file (must fail) and solution (must pass), then a kernel that writes
# out of bounds and one that hangs, each followed by a check that must pass (the next save works).
#   bash scripts/device/timed_checks.sh BIN_DIR   -> $OUT/timed-checks.txt
set -u
R=$(cd "${1:?BIN_DIR}" && pwd)/reducescope
X=kernels/user/exercises; S=kernels/user/solutions; F=tests/fixtures/user
{
  nvidia-smi -L
  for x in first_add histogram; do
    "$R" check $X/$x.cu --exercise $x > /tmp/s.txt 2>&1; echo "== $x start: exit $?"; grep -E "✓|✗" /tmp/s.txt
    "$R" check $S/$x.cu --exercise $x > /tmp/s.txt 2>&1; echo "== $x solution: exit $?"; grep -E "✓|✗" /tmp/s.txt
  done
  for f in out_of_bounds hang_loop; do
    s=$(date +%s%N)
    timeout 120 "$R" check $F/$f.cu --kernel-timeout 5 > /tmp/f.txt 2>&1; rc=$?
    echo "== $f: exit $rc in $(( ($(date +%s%N) - s) / 1000000 )) ms"; head -6 /tmp/f.txt
    "$R" check $S/first_add.cu > /tmp/n.txt 2>&1; echo "== next check after $f: exit $?"; tail -1 /tmp/n.txt
  done
} 2>&1 | tee "$OUT/timed-checks.txt"
