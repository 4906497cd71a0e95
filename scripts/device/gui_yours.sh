#!/bin/bash
# On the GPU machine (issue 19): the window with a kernel file of the user's on the live H100 (Xvfb + Mesa
# llvmpipe draw it; the kernel runs in the worker process on the GPU). Screenshots for docs/your-kernel.md, and
# the window's frame times while the user's kernel hangs in the worker (it must keep drawing).
#   bash scripts/device/x11-run.sh .x11/rt.tar.xz -- bash scripts/device/gui_yours.sh GUI_BIN OUTDIR
set -u
gui=${1:?gui binary}; out=${2:?outdir}
mkdir -p "$out"
work=$(mktemp -d)
export REDUCESCOPE_CONFIG=$work/settings.ini
S=kernels/user/solutions; X=kernels/user/exercises
shot() {  # NAME ARGS...
  local name=$1; shift
  rm -f "$REDUCESCOPE_CONFIG"
  echo "== $name: $*"
  timeout 180 "$gui" "$@" --screenshot "$out/$name.png"
  echo "exit $?"
}
# reduce1 edited to sequential addressing (the bank_conflicts exercise's solution) beside the shipped reduce1.
shot edited-reduce1-vs-reduce1-bs256 --kernel-file $S/bank_conflicts.cu --compare reduce1:256 --block-size 256 --step 3 --frames 60
shot exercise-bank_conflicts-failed --kernel-file $X/bank_conflicts.cu --exercise bank_conflicts --block-size 256 --step 3 --frames 60
shot exercise-bank_conflicts-passed --kernel-file $S/bank_conflicts.cu --exercise bank_conflicts --block-size 256 --step 3 --frames 60
shot exercise-first_add-passed --kernel-file $S/first_add.cu --exercise first_add --block-size 256 --step 2 --frames 60
echo "== frames while a good kernel runs (600 frames, --stats)"
rm -f "$REDUCESCOPE_CONFIG"; timeout 180 "$gui" --kernel-file $S/bank_conflicts.cu --frames 600 --stats 2>&1 | tail -12
echo "== frames while the user's kernel hangs in the worker (hang_loop.cu, stopped at 5 s; 900 frames, --stats)"
rm -f "$REDUCESCOPE_CONFIG"; timeout 180 "$gui" --kernel-file tests/fixtures/user/hang_loop.cu --frames 900 --stats 2>&1 | tail -12
shot hang-stopped --kernel-file tests/fixtures/user/hang_loop.cu --frames 60
