#!/bin/bash
# On the GPU machine (issue 19): the window with a kernel file of the user's on the live H100 (Xvfb + Mesa
# llvmpipe draw it; the kernel runs in the worker process on the GPU). Screenshots for docs/your-kernel.md in a
# 1280x720 window (a projector), the save -> new trace on screen benchmark (--reload-bench, 20 saves), and the
# window's frame times while the user's kernel hangs in the worker (it must keep drawing).
#   XVFB_SCREEN=2600x1500x24 bash scripts/device/x11-run.sh RUNTIME.tar.xz -- bash scripts/device/gui_yours.sh GUI_BIN OUTDIR [FONT.ttf]
# (a screen larger than the window, so that the pointer, at the screen's centre, is outside it: no tooltip)
# FONT.ttf: the UI font where the machine has no /usr/share/fonts/truetype/dejavu/DejaVuSans.ttf (Debian's
# fonts-dejavu-core, which scripts/setup.sh installs on a user's machine).
set -u
gui=${1:?gui binary}; out=${2:?outdir}
[ -n "${3:-}" ] && export REDUCESCOPE_FONT=$3
mkdir -p "$out"
work=$(mktemp -d)
export REDUCESCOPE_CONFIG=$work/settings.ini
S=kernels/user/solutions; X=kernels/user/exercises
small() { printf '[ReduceScope][Settings]\nWindow=0,0,1280,720\nUiScale=1.00\n' >"$REDUCESCOPE_CONFIG"; }
shot() {  # NAME ARGS...
  local name=$1; shift
  small
  echo "== $name: $*"
  timeout 180 "$gui" "$@" --screenshot "$out/$name.png"
  echo "exit $?"
}
# Save -> new trace on screen: 20 saves of a copy of the bank_conflicts solution (the benchmark rewrites the file
# it is given), at N = 2^24, 256 threads; then 5 saves with an exercise chosen (its checks run after each trace).
cp $S/bank_conflicts.cu "$work/bc.cu"
echo "== reload-bench: 20 saves, no exercise"
small; timeout 400 "$gui" --kernel-file "$work/bc.cu" --block-size 256 --reload-bench 20; echo "exit $?"
cmp -s $S/bank_conflicts.cu "$work/bc.cu" && echo "the file's own text is back" || echo "THE FILE WAS NOT RESTORED"
echo "== reload-bench: 5 saves, exercise bank_conflicts (then the live plot, large: a point per save)"
small; timeout 300 "$gui" --kernel-file "$work/bc.cu" --block-size 256 --exercise bank_conflicts --reload-bench 5 \
  --view live --large-charts --screenshot "$out/live-per-save.png"; echo "exit $?"
# reduce1 edited to sequential addressing (the bank_conflicts exercise's solution) beside the shipped reduce1.
shot edited-reduce1-vs-reduce1-bs256 --kernel-file $S/bank_conflicts.cu --compare reduce1:256 --block-size 256 --step 3 --frames 60
shot exercise-bank_conflicts-failed --kernel-file $X/bank_conflicts.cu --exercise bank_conflicts --block-size 256 --step 3 --frames 60
shot exercise-bank_conflicts-passed --kernel-file $S/bank_conflicts.cu --exercise bank_conflicts --block-size 256 --step 3 --frames 60
shot exercise-single_pass-failed --kernel-file $X/single_pass.cu --exercise single_pass --block-size 256 --step 2 --frames 60
shot exercise-first_add-passed --kernel-file $S/first_add.cu --exercise first_add --block-size 256 --step 2 --frames 60
# The timing charts with the user's kernel beside its track, large (T), after it ran at every block size it takes.
shot first_add-vs-block-size --kernel-file $S/first_add.cu --view blocksize --large-charts --block-size 256 --frames 60
echo "== frames while a good kernel runs (600 frames, --stats)"
small; timeout 180 "$gui" --kernel-file $S/bank_conflicts.cu --frames 600 --stats 2>&1 | tail -12
echo "== frames while the user's kernel hangs in the worker (hang_loop.cu, stopped at 5 s; 900 frames, --stats)"
small; timeout 180 "$gui" --kernel-file tests/fixtures/user/hang_loop.cu --frames 900 --stats 2>&1 | tail -12
shot hang-stopped --kernel-file tests/fixtures/user/hang_loop.cu --frames 60
