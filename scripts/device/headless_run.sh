#!/bin/bash
# On the GPU machine: runs CMD with the libraries and font scripts/device/headless_libs.sh gathered in LIBDIR, NVIDIA's
# EGL vendor library found through glvnd, and the repository's assets (a GUI build looks for them where it was built).
#   bash scripts/device/headless_run.sh LIBDIR -- CMD...
set -eu
lib=$(cd "${1:?usage: headless_run.sh LIBDIR -- CMD...}" && pwd); shift
[ "${1:-}" = "--" ] && shift
export LD_LIBRARY_PATH=$lib${LD_LIBRARY_PATH:+:$LD_LIBRARY_PATH}
export __EGL_VENDOR_LIBRARY_DIRS=${__EGL_VENDOR_LIBRARY_DIRS:-/usr/share/glvnd/egl_vendor.d}
export REDUCESCOPE_FONT=${REDUCESCOPE_FONT:-$lib/DejaVuSans.ttf}
export REDUCESCOPE_ASSETS=${REDUCESCOPE_ASSETS:-$PWD/assets}
exec "$@"
