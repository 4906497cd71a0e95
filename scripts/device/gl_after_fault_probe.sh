#!/usr/bin/env bash
# usage: probe.sh R LIB OUT LABEL
R=$1; L=$2; O=$3; label=$4; mkdir -p $O
export LD_LIBRARY_PATH=$L${LD_LIBRARY_PATH:+:$LD_LIBRARY_PATH} __EGL_VENDOR_LIBRARY_DIRS=/usr/share/glvnd/egl_vendor.d REDUCESCOPE_FONT=$L/DejaVuSans.ttf REDUCESCOPE_ASSETS=$PWD/assets
w=$(mktemp -d); export REDUCESCOPE_CONFIG=$w/s.ini; printf '[ReduceScope][Settings]\nWindow=0,0,1280,720\nUiScale=1.00\n' >$REDUCESCOPE_CONFIG
x0=$(dmesg | grep -c Xid)
win() { # name env...
  local name=$1; shift
  echo "== $label $name: $*"
  env "$@" timeout 30 $R --headless --kernel reduce1 --block-size 256 --stats --frames 900 2>&1 | grep -E "headless|reset|stats: first|Error|error" | sed 's/drawing again.*(reset/... (reset/' | tail -6
  echo "exit ${PIPESTATUS[0]}; new Xids: $(( $(dmesg | grep -c Xid) - x0 ))"; x0=$(dmesg | grep -c Xid)
}
win no-cuda CUDA_VISIBLE_DEVICES=
win live-cuda A=1
echo "== $label CLI out_of_bounds"; timeout 60 $R run --kernel-file tests/fixtures/user/out_of_bounds.cu --block-size 256 2>&1 | head -2
echo "new Xids: $(( $(dmesg | grep -c Xid) - x0 ))"; dmesg | grep Xid | tail -n $(( $(dmesg | grep -c Xid) - x0 )) | cut -c1-200; x0=$(dmesg | grep -c Xid)
win no-cuda-after CUDA_VISIBLE_DEVICES=
win live-cuda-after A=1
