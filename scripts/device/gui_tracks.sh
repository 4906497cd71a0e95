#!/bin/bash
# On the GPU machine: the window on the live H100 (Xvfb + Mesa llvmpipe draw it, CUDA runs the
# kernels) stepping through the lecture track's shuffle and atomic kernels (LECTURE=0 skips them) and the
# book track's in-place kernels (BOOK=0 skips them); screenshots for docs/.
#   bash scripts/device/x11-run.sh .x11/rt.tar.xz -- bash scripts/device/gui_tracks.sh GUI_BIN OUTDIR
# Writes OUTDIR/tracks.log and OUTDIR/*.png. COURSE=0 skips the course track's histogram and loads.
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
  if [ "${COURSE:-1}" = 1 ]; then
    # The privatised histogram over the text: step 1 is the loop of shared atomics, step 2 the merge.
    shot live-histo_private-bs256-step1 --kernel histo_private --block-size 256 --step 1 --frames 30
    shot live-histo_private-bs256-step2 --kernel histo_private --block-size 256 --step 2 --frames 30
    shot live-histo_basic-bs256-step0 --kernel histo_basic --block-size 256 --step 0 --frames 30
    shot live-compare-naive_sum-vs-coalesced_sum --kernel naive_sum --block-size 64 --compare coalesced_sum --step 0 --frames 30
    shot live-farthest_point-bs64-step3 --kernel farthest_point --block-size 64 --step 3 --frames 30
  fi
} >"$log" 2>&1
tail -8 "$log"
