#!/bin/bash
# On the GPU machine: Xvfb + Mesa (llvmpipe) + GLFW from a pruned, pre-extracted runtime, then CMD.
#   [XVFB_SCREEN=WxHxD] bash scripts/device/x11-run.sh .x11/rt.tar.xz -- CMD...   (the screen: 1600x1000x24)
# The tarball holds the .debs that shared/device/x11-runtime.sh fetches, unpacked with dpkg -x, their
# docs, man pages and locales removed, and packed with xz -9e: 51 MiB instead of 59, so that a GUI build
# fits beside it in the 64 MiB carry limit. The rest is x11-runtime.sh's `run` step.
set -eu
tarball=${1:?usage: x11-run.sh RUNTIME.tar.xz -- CMD...}; shift
[ "${1:-}" = "--" ] && shift
mkdir -p /opt/x && tar -xJf "$tarball" -C /opt/x
export LD_LIBRARY_PATH=/opt/x/usr/lib/x86_64-linux-gnu:/opt/x/lib/x86_64-linux-gnu:${LD_LIBRARY_PATH:-}
export LIBGL_DRIVERS_PATH=/opt/x/usr/lib/x86_64-linux-gnu/dri __GLX_VENDOR_LIBRARY_NAME=mesa
ln -sf /opt/x/usr/bin/xkbcomp /usr/bin/xkbcomp
mkdir -p /usr/share/X11 /tmp/.X11-unix
chmod 1777 /tmp/.X11-unix
ln -sfn /opt/x/usr/share/X11/xkb /usr/share/X11/xkb
/opt/x/usr/bin/Xvfb :77 -screen 0 "${XVFB_SCREEN:-1600x1000x24}" -nolisten tcp >/tmp/xvfb.log 2>&1 &
xpid=$!
sleep 2
rc=0
DISPLAY=:77 "$@" || rc=$?
kill $xpid 2>/dev/null || true
exit $rc
