#!/bin/bash
# On the GPU machine: the toggle-latency benchmark, then the window on the live GPU (Xvfb +
# Mesa llvmpipe for drawing, real CUDA for the kernels): a screenshot of every view and compare
# mode, and --stats runs for the first-frame time and the replay frame rate of a 1024-thread block.
#   bash scripts/device/x11-runtime.sh run .x11 -- bash scripts/device/gui_figures.sh GUI_BIN TOGGLE_BIN OUTDIR
# Writes OUTDIR/figures.tar (screenshots) and OUTDIR/figures.log.
set -u
gui=${1:?gui binary}; toggle=${2:?toggle_latency binary}; out=${3:?outdir}
work=$(mktemp -d); log=$out/figures.log
export REDUCESCOPE_CONFIG=$work/settings.ini   # fresh settings for every run below
{
  echo "== $(date -u +%FT%TZ) $(nvidia-smi --query-gpu=name,driver_version --format=csv,noheader)"
  echo "== toggle latency"; "$toggle" 40
  shot() {  # NAME ARGS...
    local name=$1; shift
    rm -f "$REDUCESCOPE_CONFIG"
    echo "== $name: $*"
    timeout 120 "$gui" "$@" --screenshot "$work/$name.png"
  }
  shot live-reduce1-bs256 --kernel reduce1 --block-size 256 --view table --frames 60
  shot live-reduce5-bs256-liveplot --kernel reduce5 --block-size 256 --view live --frames 400
  shot live-reduce0-bs1024-blocksize --kernel reduce0 --block-size 1024 --view blocksize --frames 60
  shot compare-reduce1-vs-reduce3 --kernel reduce1 --block-size 256 --compare reduce3 --view blocksize --frames 60
  shot compare-reduce0-bs128-vs-bs1024 --kernel reduce0 --block-size 128 --compare reduce0:1024 --frames 60
  shot help-high-contrast-scale125 --kernel reduce2 --block-size 512 --help-overlay --high-contrast --scale 1.25 --frames 60
  shot source-reduce6-bs128 --kernel reduce6 --block-size 128 --step 12 --frames 60
  shot large-charts-blocksize --kernel reduce3 --block-size 256 --large-charts --view blocksize --frames 60
  echo "== stats: first frame and replay of a 1024-thread block (reduce0, playing at 30 steps/s, vsync off)"
  printf '[ReduceScope][Settings]\nSpeed=30\n' >"$REDUCESCOPE_CONFIG"
  timeout 120 "$gui" --kernel reduce0 --block-size 1024 --play --frames 900 --stats
  echo "== stats: compare mode, two 1024-thread blocks"
  printf '[ReduceScope][Settings]\nSpeed=30\n' >"$REDUCESCOPE_CONFIG"
  timeout 120 "$gui" --kernel reduce0 --block-size 1024 --compare reduce1:1024 --play --frames 900 --stats
  echo "== stats: first frame without a GPU in reach (CUDA_VISIBLE_DEVICES=none): the bundled session"
  rm -f "$REDUCESCOPE_CONFIG"
  CUDA_VISIBLE_DEVICES=none timeout 120 "$gui" --frames 120 --stats
} >"$log" 2>&1
tar -C "$work" -cf "$out/figures.tar" $(cd "$work" && ls *.png)
tail -5 "$log"
