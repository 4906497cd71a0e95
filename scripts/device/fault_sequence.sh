#!/usr/bin/env bash
# Issue 54, item 4, on the GPU machine: the fault sequence, in one window drawing through EGL on the same GPU as the
# kernels (--headless), then through `check` and `grade`. Writes OUT_DIR/*.txt and screenshots.
#   0. a fresh GPU: the window on the shipped kernels (live) with no kernel file, and one with the GPU hidden from
#      its CUDA (CUDA_VISIBLE_DEVICES=): resets and Xids, as a baseline;
#   1. one window on a kernel file saved in turn as: hang -> good -> out of bounds -> good -> trap -> good. Each
#      good save is timed from the save to the window's "yours: trace N on screen" line (--stats);
#   2. after the window exits: our processes, nvidia-smi's compute processes, the Xid lines since the start; then a
#      new window on the good file, timed from its start to its first trace on screen;
#   3. the same files through `check --exercise bank_conflicts` (good, hang, good, out of bounds, good, trap, good)
#      and `grade` of a class holding all four: the good file's verdict must be the same each time;
#   (before 1) item 5's screenshots: --kernel reproducible_sum from the command line; --lang zh with no catalogue, then with
#      the catalogue but no CJK font (the machine has none).
# Usage (from the repository root): bash scripts/device/fault_sequence.sh REDUCESCOPE LIBDIR OUT_DIR
set -u
R=${1:?REDUCESCOPE}; L=${2:?LIBDIR}; O=${3:?OUT_DIR}
source scripts/device/window_env.sh
good=kernels/user/solutions/bank_conflicts.cu
U=tests/fixtures/user
now() { date +%s.%N; }
since() { awk "BEGIN { printf \"%.2f\", $(now) - $1 }"; }
xids() { dmesg 2>/dev/null | grep -c "Xid"; }
ours() { ps -eo pid,ppid,pgid,stat,etimes,args --no-headers | grep -E "[r]educescope|[c]ompute-sanitizer" | grep -v fault_sequence; }
x_start=$(xids)

{
  echo "== $(date -u +%FT%TZ) $(nvidia-smi --query-gpu=name,driver_version,persistence_mode --format=csv,noheader)"
  echo "== Xid lines before: $x_start"
  echo "== 0. baseline windows on a GPU where nothing has faulted (20 s each at most)"
  for v in live no-cuda; do
    x0=$(xids)
    env $([ $v = no-cuda ] && echo CUDA_VISIBLE_DEVICES=) timeout 40 "$R" --headless --kernel reduce1 --block-size 256 \
      --stats --frames 300 --screenshot "$O/0-$v.png" 2>&1 | grep -E "^(headless|screenshot|stats: first)|reset" | cut -c1-200
    echo "$v: exit ${PIPESTATUS[0]}, new Xids $(($(xids) - x0))"
  done
} 2>&1 | tee "$O/0-baseline.txt"

{
  echo "== item 5: --kernel reproducible_sum (float32 only) live, and --lang zh with no catalogue or CJK font carried"
  timeout 25 "$R" --headless --kernel reproducible_sum --block-size 256 --screenshot "$O/5-reproducible_sum.png" 2>&1 |
    grep -E "^(screenshot|element type)|rror" | cut -c1-200
  for loc in /nonexistent "$PWD/.carry/locale"; do  # no catalogue; then the catalogue but no CJK font (none there)
    RS_LOCALEDIR=$loc timeout 25 "$R" --headless --kernel reduce1 --block-size 256 --lang zh \
      --screenshot "$O/5-lang-zh-$(basename "$loc").png" 2>&1 | grep -E "^(screenshot|language)|rror|missing" | cut -c1-400
  done
} 2>&1 | tee "$O/5-items.txt"

{
  echo "== 1. one window: hang -> good -> out of bounds -> good -> trap -> good"
  cp $U/hang_loop.cu "$work/mine.cu"
  rm -f "$work/go" "$work/win.log"
  t_win=$(now)
  REDUCESCOPE_SCREENSHOT_AFTER=$work/go timeout 300 "$R" --headless --kernel-file "$work/mine.cu" --block-size 256 \
    --stats --screenshot "$O/1-sequence-end.png" >"$work/win.log" 2>&1 &
  win=$!
  traces() { grep -c "^yours: trace .* on screen" "$work/win.log"; }
  wait_trace() {  # N LIMIT: until trace N is on screen; prints the seconds since $t_save
    local n=$1 limit=$2
    while [ "$(traces)" -lt "$n" ]; do
      kill -0 $win 2>/dev/null || { echo "the window exited"; return 1; }
      awk "BEGIN { exit !($(since "$t_save") > $limit) }" && { echo "no trace $n within $limit s"; return 1; }
      sleep 0.05
    done
    echo "trace $n on screen $(since "$t_save") s after the save"
  }
  n=0
  for fault in hang_loop out_of_bounds trap; do
    if [ $fault != hang_loop ]; then cp $U/$fault.cu "$work/mine.cu"; echo "$(date +%T) saved $fault.cu"; fi
    # The fault's end: the banner line (the time limit, or the CUDA error), at most 30 s.
    t_fault=$(now)
    b0=$(grep -c "^yours: banner" "$work/win.log")
    while [ "$(grep -c "^yours: banner" "$work/win.log")" -le "$b0" ] && [ "$(awk "BEGIN{print ($(since "$t_fault") < 30)}")" = 1 ]; do sleep 0.1; done
    grep "^yours: banner" "$work/win.log" | tail -1 | cut -c1-220
    sleep 1
    cp $good "$work/mine.cu"; t_save=$(now); n=$((n + 1)); echo "$(date +%T) saved the good file after $fault.cu"
    wait_trace $n 30
  done
  sleep 2; touch "$work/go"
  for _ in $(seq 300); do kill -0 $win 2>/dev/null || break; sleep 0.1; done
  kill -0 $win 2>/dev/null && { echo "no screenshot 30 s after the last save: the window is stopped"; kill $win; }
  wait $win; echo "window exit $?"
  echo "-- the window's own lines:"; grep -E "^(headless|yours|screenshot|stats)|reset|OpenGL" "$work/win.log" | cut -c1-240
  sleep 2
  echo "== 2. after the window: our processes:"; ours || echo "(none)"
  echo "nvidia-smi compute processes:"; nvidia-smi --query-compute-apps=pid,process_name --format=csv,noheader; echo "(end)"
  echo "Xid lines since the start: $(($(xids) - x_start))"
  dmesg | grep Xid | tail -n $(($(xids) - x_start)) | cut -c1-200
  cp $good "$work/fresh.cu"
  t_save=$(now); x0=$(xids)
  timeout 40 "$R" --headless --kernel-file "$work/fresh.cu" --block-size 256 --stats --screenshot "$O/2-new-window.png" \
    >"$work/win2.log" 2>&1
  echo "new window: exit $?, $(grep -m1 "^yours: trace 1 on screen" "$work/win2.log") (from its start), new Xids $(($(xids) - x0))"
  grep -E "reset|^screenshot" "$work/win2.log" | cut -c1-200
} 2>&1 | tee "$O/1-window.txt"

{
  echo "== 3. check: good, hang, good, out of bounds, good, trap, good (exercise bank_conflicts)"
  for f in $good $U/hang_loop.cu $good $U/out_of_bounds.cu $good $U/trap.cu $good; do
    t=$(now)
    v=$("$R" check "$f" --exercise bank_conflicts 2>&1); rc=$?
    echo "$(basename "$f"): exit $rc, checks passed $(echo "$v" | grep -c '✓'), failed $(echo "$v" | grep -c '✗'); \
$(echo "$v" | grep -m1 -E 'reducescope:|WRONG|sums right' | cut -c1-160) ($(since "$t") s)"
  done
  echo "our processes after the checks:"; ours || echo "(none)"
  echo "== grade of a class of four: good, hang_loop, out_of_bounds, trap"
  rm -rf "$work/class" "$work/graded"; mkdir -p "$work/class"
  for f in hang_loop out_of_bounds trap; do cp $U/$f.cu "$work/class/$f.cu"; done
  cp $good "$work/class/good.cu"
  "$R" grade "$work/class" --exercise bank_conflicts --out "$work/graded" --gpus 0 2>&1 | tail -6
  cut -d, -f1-4 "$work/graded/class.csv"
  echo "our processes after the grade:"; ours || echo "(none)"
  echo "nvidia-smi compute processes:"; nvidia-smi --query-compute-apps=pid,process_name --format=csv,noheader; echo "(end)"
  echo "Xid lines since the start: $(($(xids) - x_start))"
} 2>&1 | tee "$O/3-check-grade.txt"
dmesg | grep -E "NVRM" | tail -n 60 >"$O/dmesg-nvrm.txt"

