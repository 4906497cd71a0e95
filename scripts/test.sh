#!/usr/bin/env bash
# Sets everything up, builds every target (kernels for sm_75..sm_90 included) and runs the
# tests that need no GPU: unit tests, traces recorded on an H100, the CLI, the window under
# Xvfb; then the host code again under ASan + UBSan, and the trace and session readers' fuzzers for 30 s and 15 s.
# On a machine with a CUDA GPU, also run: ctest --test-dir build -L gpu
set -euo pipefail
cd "$(dirname "$0")/.."
bash scripts/setup.sh
bash scripts/build.sh build
ctest --test-dir build -LE gpu -j2 --output-on-failure  # the GUI test (minutes) runs beside the rest
bash scripts/sanitize.sh
