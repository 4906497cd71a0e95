#!/bin/bash
# On the GPU machine (issue 38, item 7): the window with --headless (EGL on the GPU, no X server), the kernels on the
# live GPU. Writes OUTDIR/headless.log and OUTDIR/*.png:
#   1. every track's representative kernel at 1280x720, live, and CUB's two reduce kernels from the bundled session;
#   2. a plain kernel file written outside the project (tests/fixtures/user/outside_bank_conflicts.cu), saved 20
#      times (--reload-bench 20: save -> new trace on screen, median and spread);
#   3. the hanging, out-of-bounds and trapping files, each saved over with that plain file a few seconds in: the
#      window keeps drawing through the fault and then shows the good kernel's trace (screenshot once it has settled).
# GUI_BIN: a GUI build with the binary tracer (libreducescope_inject.so and rs_bt_patches.fatbin beside it), which
# plain kernel files need.
# FAULTS=0 skips part 3, ONLY_FAULTS=1 parts 1 and 2; SHOT_TIMEOUT (default 180) and RELOAD_TIMEOUT (400) bound each screenshot and part 2 (s).
#   bash scripts/device/headless_run.sh LIBDIR -- bash scripts/device/headless_window.sh GUI_BIN OUTDIR
set -u
gui=${1:?gui binary}; out=${2:?outdir}
mkdir -p "$out"
work=$(mktemp -d); log=$out/headless.log
export REDUCESCOPE_CONFIG=$work/settings.ini
small() { printf '[ReduceScope][Settings]\nWindow=0,0,1280,720\nUiScale=1.00\n' >"$REDUCESCOPE_CONFIG"; }
shot() {  # NAME ARGS...
  local name=$1; shift
  small
  echo "== $name: $*"
  timeout "${SHOT_TIMEOUT:-180}" "$gui" --headless "$@" --screenshot "$out/$name.png" 2>&1 | grep -vE "^(language|input):"
  echo "exit ${PIPESTATUS[0]}"
}
plain=tests/fixtures/user/outside_bank_conflicts.cu
{
  echo "== $(date -u +%FT%TZ) $(nvidia-smi --query-gpu=name,driver_version --format=csv,noheader)"
  [ "${ONLY_FAULTS:-0}" = 1 ] || {
  shot harris-reduce1-bs256-step5 --kernel reduce1 --block-size 256 --step 5
  shot lecture-sum_shuffle-bs128-step3 --kernel sum_shuffle --block-size 128 --step 3
  shot lecture-sum_shared-bs256-step1 --kernel sum_shared --block-size 256 --step 1
  shot book-reduceInterleaved-bs256-step3 --kernel reduceInterleaved --block-size 256 --step 3
  shot course-histo_private-bs256-step1 --kernel histo_private --block-size 256 --step 1
  shot modern-single_pass_last_block-bs256-step3 --kernel single_pass_last_block --block-size 256 --step 3
  shot pitfalls-pitfall_no_syncthreads-bs256-step1 --kernel pitfall_no_syncthreads --block-size 256 --step 1
  shot compare-reduce1-vs-reduce3 --kernel reduce1 --block-size 256 --compare reduce3 --step 5
  shot cub-DeviceReduceKernel assets/sessions/h100-tracks.rssession --kernel cub::DeviceReduceKernel --step 2
  shot cub-DeviceReduceSingleTileKernel assets/sessions/h100-tracks.rssession --kernel cub::DeviceReduceSingleTileKernel \
    --step 2
  shot plain-kernel-file-bs256 --kernel-file $plain --block-size 256 --step 3

  cp $plain "$work/plain.cu"
  echo "== reload-bench: 20 saves of $plain"
  small; timeout "${RELOAD_TIMEOUT:-400}" "$gui" --headless --kernel-file "$work/plain.cu" --block-size 256 --reload-bench 20 2>&1 |
    grep -vE "^(language|input):"
  echo "exit ${PIPESTATUS[0]}"
  cmp -s $plain "$work/plain.cu" && echo "the file's own text is back" || echo "THE FILE WAS NOT RESTORED"
  }

  [ "${FAULTS:-1}" = 1 ] && for fault in hang_loop out_of_bounds trap; do
    small
    cp tests/fixtures/user/$fault.cu "$work/mine.cu"
    echo "== $fault, then the plain file saved over it after ${SAVE_AFTER:-8} s"
    # The screenshot waits for the save, 2 s more (the window sees the file change), then for the trace to settle.
    ( sleep "${SAVE_AFTER:-8}"; cp $plain "$work/mine.cu"; echo "$(date +%T.%N | cut -c1-12) saved the good kernel"; sleep 2; touch "$work/go" ) &
    REDUCESCOPE_SCREENSHOT_AFTER=$work/go timeout 240 "$gui" --headless --kernel-file "$work/mine.cu" --block-size 256 \
      --stats --screenshot "$out/$fault-then-good.png" 2>&1 | while IFS= read -r l; do echo "$(date +%T.%N | cut -c1-12) $l"; done | tee "$out/$fault.log" | grep -E "screenshot saved|yours:|stats: first|saved|headless|reset"
    echo "exit ${PIPESTATUS[0]}"
    wait
    rm -f "$work/go"
  done
} 2>&1 | tee "$log"
tar -C "$out" -czf "$out/screenshots.tgz" --remove-files $(cd "$out" && ls ./*.png)
