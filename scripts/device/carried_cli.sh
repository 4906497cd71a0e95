#!/usr/bin/env bash
# Sourced by the scripts of issue 40 that run a carried CLI build on the GPU machine (.carry/reducescope.xz: xz of
# reducescope built here for sm_90 without the GUI and the charts, to stay under the 64 MiB carry limit; and
# .carry/librs_capture.a). Unpacks it into $B (/tmp/h) and builds the binary tracer's two parts there, where the
# Compute Sanitizer API is: libreducescope_inject.so and rs_bt_patches.fatbin, as tracing/binary/CMakeLists.txt
# builds them, for sm_90 alone. Leaves R=$B/reducescope, PATH with nvcc and LD_LIBRARY_PATH with libnvrtc.so.13.
# Returns 1 (the caller exits) when a step fails.
# Usage (from the repository root): source scripts/device/carried_cli.sh || exit 1
B=/tmp/h; rm -rf "$B"; mkdir -p "$B"; cp .carry/librs_capture.a "$B"/ || return 1
xz -dc .carry/reducescope.xz >"$B/reducescope" && chmod +x "$B/reducescope" || return 1
S=/usr/local/cuda/compute-sanitizer
export PATH=/usr/local/cuda/bin:$PATH LD_LIBRARY_PATH=/usr/local/cuda/lib64${LD_LIBRARY_PATH:+:$LD_LIBRARY_PATH}
nvidia-smi --query-gpu=name,driver_version --format=csv,noheader; echo "cores: $(nproc)"
g++ -std=c++17 -O2 -shared -fPIC -o "$B/libreducescope_inject.so" tracing/binary/injector.cpp -I"$S/include" \
  -I/usr/local/cuda/include -Itracing/binary -Itracing "$B/librs_capture.a" -L"$S" -lsanitizer-public \
  -L/usr/local/cuda/lib64/stubs -lcuda /usr/lib/x86_64-linux-gnu/libz.so.1 -Wl,-rpath,"$S" || return 1
nvcc --fatbin --keep-device-functions -Xptxas --compile-as-tools-patch -I"$S/include" -Itracing/binary \
  -gencode arch=compute_90,code=sm_90 -o "$B/rs_bt_patches.fatbin" tracing/binary/patches.cu || return 1
R=$B/reducescope
