#!/usr/bin/env bash
# Issue 40 on the GPU machine with a carried CLI build (.carry/: reducescope built for sm_90 without the GUI and the
# charts, and librs_capture.a): builds the binary tracer's two parts there, where the Compute Sanitizer API is
# (libreducescope_inject.so and rs_bt_patches.fatbin, as tracing/binary/CMakeLists.txt builds them, for sm_90 alone),
# then times `check --exercise` with bench/check_time.py (ARGS are its own: --runs, --only).
# Usage (from the repository root): bash scripts/device/check_time_warm.sh [ARGS...]
set -u
B=/tmp/h; rm -rf "$B"; mkdir -p "$B"; cp .carry/reducescope .carry/librs_capture.a "$B"/
S=/usr/local/cuda/compute-sanitizer
export PATH=/usr/local/cuda/bin:$PATH
nvidia-smi --query-gpu=name,driver_version --format=csv,noheader; echo "cores: $(nproc)"
g++ -std=c++17 -O2 -shared -fPIC -o "$B/libreducescope_inject.so" tracing/binary/injector.cpp -I"$S/include" \
  -I/usr/local/cuda/include -Itracing/binary -Itracing "$B/librs_capture.a" -L"$S" -lsanitizer-public \
  -L/usr/local/cuda/lib64/stubs -lcuda /usr/lib/x86_64-linux-gnu/libz.so.1 -Wl,-rpath,"$S" || exit 1
nvcc --fatbin --keep-device-functions -Xptxas --compile-as-tools-patch -I"$S/include" -Itracing/binary \
  -gencode arch=compute_90,code=sm_90 -o "$B/rs_bt_patches.fatbin" tracing/binary/patches.cu || exit 1
python3 bench/check_time.py --reducescope "$B/reducescope" "$@"
