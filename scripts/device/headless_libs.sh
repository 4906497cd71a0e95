#!/bin/bash
# Here (Debian 12): what a GUI build of reducescope needs on the GPU machine to run --headless there. That machine
# has the NVIDIA driver's EGL (libEGL_nvidia.so.0) but no glvnd dispatcher, no GLFW, no X libraries, no cairo and no
# fonts (../shared/device/README.md). Copies into DIR every library ldd lists but glibc's, the C++ runtime's and
# CUDA's; Debian's libEGL.so.1, libGLdispatch.so.0, libGL.so.1 and libGLX.so.0 (libegl1, libglvnd0, libgl1,
# libglx0: Dear ImGui's OpenGL 3 backend loads GL through libGL.so.1, app/gui/app_setup.cpp); and the UI font
# (fonts-dejavu-core).
#   bash scripts/device/headless_libs.sh build/reducescope .carry/lib      (DIR git-ignored: carry it)
# Then, there: bash scripts/device/headless_run.sh .carry/lib -- CMD...
set -eu
bin=${1:?usage: headless_libs.sh REDUCESCOPE DIR}; dir=${2:?usage: headless_libs.sh REDUCESCOPE DIR}
mkdir -p "$dir"
ldd "$bin" | awk '$3 ~ /^\// { print $3 }' |
  grep -vE '/(libc|libm|libpthread|librt|libdl|libstdc\+\+|libgcc_s|libnvrtc|ld-linux-x86-64)\.so' |
  xargs -r cp -L -t "$dir"
for l in libEGL.so.1 libGLdispatch.so.0 libGL.so.1 libGLX.so.0; do cp -L "/usr/lib/x86_64-linux-gnu/$l" "$dir"; done
cp /usr/share/fonts/truetype/dejavu/DejaVuSans.ttf "$dir"
du -sh "$dir"
