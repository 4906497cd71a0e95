#!/bin/bash
# On the GPU machine (issue 19): a user's kernel that hangs, then one that writes out of bounds, each open in the
# window; a few seconds in, the file is saved with a good kernel (the bank_conflicts solution). The window must keep
# drawing through the fault and show the good kernel's trace after the save.
#   XVFB_SCREEN=2600x1500x24 bash scripts/device/x11-run.sh RUNTIME.tar.xz -- bash scripts/device/gui_faults.sh GUI_BIN OUTDIR [FONT.ttf]
set -u
gui=${1:?gui binary}; out=${2:?outdir}
[ -n "${3:-}" ] && export REDUCESCOPE_FONT=$3
mkdir -p "$out"
work=$(mktemp -d)
export REDUCESCOPE_CONFIG=$work/settings.ini
for fault in hang_loop out_of_bounds; do
  printf '[ReduceScope][Settings]\nWindow=0,0,1280,720\nUiScale=1.00\n' >"$REDUCESCOPE_CONFIG"
  cp tests/fixtures/user/$fault.cu "$work/mine.cu"
  echo "== $fault, then a good save after ${SAVE_AFTER:-9} s"
  ( sleep "${SAVE_AFTER:-9}"; cp kernels/user/solutions/bank_conflicts.cu "$work/mine.cu"; echo "saved the good kernel" ) &
  # At least 5000 frames (the save comes first), then the screenshot once everything has settled; --stats: frames.
  timeout 240 "$gui" --kernel-file "$work/mine.cu" --block-size 256 --frames 5000 --stats \
    --screenshot "$out/$fault-then-good.png" 2>&1 | grep -E "^screenshot|^yours|^stats: first|saved"
  echo "exit ${PIPESTATUS[0]}"
  wait
done
