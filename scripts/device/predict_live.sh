#!/bin/bash
# Issue 39 on the GPU machine: Predict mode's questions about the session asked of the live GPU's timings (no recording
# open), in the headless window at 1280x720: harris's reduce1 speedup over reduce0, reduce6's fastest block size,
# lecture's sum_shared over sum_atomic. Each screenshot waits for the window to be idle (its timings measured); the
# log's "predict:" line says whether the question is asked and its state.
#   bash scripts/device/headless_run.sh LIBDIR -- bash scripts/device/predict_live.sh GUI_BIN OUTDIR
set -u
gui=${1:?gui binary}; out=${2:?outdir}
mkdir -p "$out"
export REDUCESCOPE_CONFIG=$(mktemp -d)/settings.ini
shot() {  # NAME ARGS...
  local name=$1; shift
  printf '[ReduceScope][Settings]\nWindow=0,0,1280,720\nUiScale=1.00\n' >"$REDUCESCOPE_CONFIG"
  echo "== $name: $*"
  timeout 180 "$gui" --headless "$@" --screenshot "$out/$name.png" 2>&1 | grep -E "^(screenshot|predict|origin)"
  echo "exit ${PIPESTATUS[0]}"
}
{
  echo "== $(date -u +%FT%TZ) $(nvidia-smi --query-gpu=name,driver_version --format=csv,noheader)"
  shot live-harris-reduce1-speedup --kernel reduce1 --block-size 256 --lesson harris
  shot live-harris-reduce6-fastest --kernel reduce6 --block-size 256 --lesson harris
  shot live-lecture-sum_shared-speedup --kernel sum_shared --block-size 256 --lesson lecture
  shot live-harris-reduce1-speedup-zh --kernel reduce1 --block-size 256 --lesson harris --lang zh
} 2>&1 | tee "$out/predict_live.log"
