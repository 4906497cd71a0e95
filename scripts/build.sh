#!/usr/bin/env bash
# Configures and builds ReduceScope into build/ (or $1). Extra arguments go to CMake, e.g.
#   scripts/build.sh build -DCMAKE_CUDA_ARCHITECTURES=90     (a quick build for one GPU)
set -euo pipefail
cd "$(dirname "$0")/.."
dir=${1:-build}; shift || true
gen=(); command -v ninja >/dev/null && gen=(-G Ninja)
[ -f "$dir/CMakeCache.txt" ] && gen=()
cmake -S . -B "$dir" "${gen[@]}" "$@"
cmake --build "$dir" -j "$(nproc)"
