#!/usr/bin/env bash
# Issue 54, item 1, on the GPU machine: why a faulting kernel file takes the GPU from the window (EGL on the same GPU).
# A monitor writes, every 0.5 s, our processes (pid, parent, process group, state, age, command), the GPU's compute
# processes as nvidia-smi lists them, and every new Xid line of the kernel log, while:
#   A. `run --kernel-file` of the out-of-bounds file, from the command line (no window);
#   B. the window (--headless) on the shipped kernels, with that same CLI run beside it in another process;
#   C. the window on the out-of-bounds file, the good plain file saved over it 8 s in;
#   D. after the window has gone: what is left, and a new window on the good file (seconds to its screenshot);
#   E. C and D again with the trapping file.
# Usage (from the repository root): bash scripts/device/fault_diagnose.sh REDUCESCOPE LIBDIR OUT_DIR
set -u
R=${1:?REDUCESCOPE}; L=${2:?LIBDIR}; O=${3:?OUT_DIR}
source scripts/device/window_env.sh
plain=tests/fixtures/user/outside_bank_conflicts.cu
ts() { date +%T.%N | cut -c1-12; }
stamp() { while IFS= read -r l; do echo "$(ts) $l"; done; }
xids() { dmesg 2>/dev/null | grep -c "Xid"; }

monitor() {
  local n; n=$(xids)
  while :; do
    local t; t=$(ts)
    ps -eo pid,ppid,pgid,stat,etimes,args --no-headers | grep -E "reducescope|compute-sanitizer|nvdisasm" |
      grep -vE "grep|fault_diagnose|timeout " | cut -c1-220 | sed "s/^/$t ps /"
    nvidia-smi --query-compute-apps=pid,process_name,used_memory --format=csv,noheader 2>&1 | sed "s/^/$t smi /"
    local m; m=$(xids)
    if [ "$m" -gt "$n" ]; then dmesg | grep "Xid" | tail -n $((m - n)) | sed "s/^/$t xid /"; n=$m; fi
    sleep 0.5
  done
}

window() {  # NAME FILE_OR_EMPTY SAVE_AFTER LIMIT: the window, its screenshot once $work/go appears
  local name=$1 file=$2 save=$3 limit=$4 t0; t0=$(date +%s.%N)
  rm -f "$work/go"
  local args=(--headless --block-size 256 --stats --screenshot "$O/$name.png")
  [ -n "$file" ] && args+=(--kernel-file "$file")
  if [ "$save" -gt 0 ]; then
    ( sleep "$save"; cp $plain "$work/mine.cu"; echo "$(ts) == saved the good kernel"; sleep 2; touch "$work/go" ) &
  else
    touch "$work/go"
  fi
  REDUCESCOPE_SCREENSHOT_AFTER=$work/go timeout "$limit" "$R" "${args[@]}" 2>&1 | stamp | grep -vE "^[0-9:.]+ (language|input):"
  echo "$(ts) == $name: exit ${PIPESTATUS[0]} after $(awk "BEGIN { printf \"%.1f\", $(date +%s.%N) - $t0 }") s"
  wait
}

{
  echo "== $(date -u +%FT%TZ) $(nvidia-smi --query-gpu=name,driver_version,compute_mode --format=csv,noheader)"
  nvidia-smi -q | grep -iE "preemption|persistence|MIG Mode" -A1 | head -12
  echo "== Xid lines in the kernel log before: $(xids)"; dmesg | grep Xid | tail -5
} 2>&1 | tee "$O/setup.txt"

monitor >"$O/monitor.txt" 2>&1 &
mon=$!
{
  echo "$(ts) == A: run --kernel-file out_of_bounds.cu (CLI, no window)"
  timeout 120 "$R" run --kernel-file tests/fixtures/user/out_of_bounds.cu --block-size 256 2>&1 | stamp | tail -12
  echo "$(ts) == A: exit ${PIPESTATUS[0]}"
  sleep 8

  echo "$(ts) == B: the window on the shipped kernels, the same CLI run beside it 4 s in"
  ( sleep 4; echo "$(ts) == B: CLI run starts"; timeout 120 "$R" run --kernel-file tests/fixtures/user/out_of_bounds.cu \
      --block-size 256 >/dev/null 2>&1; echo "$(ts) == B: CLI run exit $?"; sleep 6; touch "$work/go" ) &
  rm -f "$work/go"
  REDUCESCOPE_SCREENSHOT_AFTER=$work/go timeout 90 "$R" --headless --kernel reduce1 --block-size 256 --stats \
    --screenshot "$O/B-shipped-beside-cli-fault.png" 2>&1 | stamp | grep -vE "^[0-9:.]+ (language|input):"
  echo "$(ts) == B: window exit ${PIPESTATUS[0]}"
  wait
  sleep 5

  for fault in out_of_bounds trap; do
    cp tests/fixtures/user/$fault.cu "$work/mine.cu"
    echo "$(ts) == C: the window on $fault.cu, the good file saved over it 8 s in"
    window "C-$fault-then-good" "$work/mine.cu" 8 120
    echo "$(ts) == D: after that window"
    sleep 3
    cp $plain "$work/good.cu"
    window "D-new-window-good-after-$fault" "$work/good.cu" 0 90
    sleep 3
  done
} 2>&1 | tee "$O/run.txt"
sleep 5
kill $mon
{
  echo "== after: processes of ours"; ps -eo pid,ppid,pgid,stat,etimes,args | grep -E "reducescope|compute-sanitizer" | grep -v grep
  echo "== nvidia-smi"; nvidia-smi
  echo "== Xid lines now: $(xids)"; dmesg | grep -E "NVRM|Xid" | tail -80
} 2>&1 | tee "$O/after.txt"
