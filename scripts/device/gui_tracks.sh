#!/bin/bash
# On the GPU machine: the window on the live H100 (Xvfb + Mesa llvmpipe draw it, CUDA runs the
# kernels) stepping through the lecture track's shuffle and atomic kernels (LECTURE=0 skips them) and the
# book track's in-place kernels (BOOK=0 skips them); screenshots for docs/.
#   bash .x11/x11-runtime.sh run .x11 -- bash scripts/device/gui_tracks.sh GUI_BIN OUTDIR
# (copy scripts/device/x11-runtime.sh into .x11: shared/ does not travel). Writes OUTDIR/tracks.log
# and OUTDIR/*.png.
set -u
gui=${1:?gui binary}; out=${2:?outdir}
work=$(mktemp -d); log=$out/tracks.log
export REDUCESCOPE_CONFIG=$work/settings.ini
{
  echo "== $(date -u +%FT%TZ) $(nvidia-smi --query-gpu=name,driver_version --format=csv,noheader)"
  shot() {  # NAME ARGS...
    local name=$1; shift
    rm -f "$REDUCESCOPE_CONFIG"
    echo "== $name: $*"
    timeout 150 "$gui" "$@" --screenshot "$out/$name.png"
  }
  if [ "${LECTURE:-1}" = 1 ]; then
    shot live-sum_shuffle-bs128-step3 --kernel sum_shuffle --block-size 128 --step 3 --frames 30
    shot live-sum_shuffle-bs128-step7 --kernel sum_shuffle --block-size 128 --step 7 --frames 30
    shot live-sum_shared-bs256-step1 --kernel sum_shared --block-size 256 --step 1 --frames 30
    shot live-sum_atomic-bs256 --kernel sum_atomic --block-size 256 --step 0 --frames 30
    shot live-compare-sum_last_warp-vs-sum_shuffle --kernel sum_last_warp --block-size 128 --compare sum_shuffle --step 4 --frames 30
  fi
  if [ "${BOOK:-1}" = 1 ]; then
    shot live-reduceUnrolling8-bs64-step0 --kernel reduceUnrolling8 --block-size 64 --step 0 --frames 30
    shot live-reduceUnrolling8-bs64-step3 --kernel reduceUnrolling8 --block-size 64 --step 3 --frames 30
    shot live-reduceNeighboredLess-bs64-step1 --kernel reduceNeighboredLess --block-size 64 --step 1 --frames 30
  fi
} >"$log" 2>&1
tail -8 "$log"
