#!/usr/bin/env bash
# Runs on the GPU machine: adds the pitfalls to the bundled session (issue 18), as
#   bash scripts/device/pitfalls_session.sh BIN_DIR OUT_DIR
# BIN_DIR holds reducescope built for the GPU without GUI and charts (-DCMAKE_CUDA_ARCHITECTURES=90
# -DREDUCESCOPE_GUI=OFF -DREDUCESCOPE_CHARTS=OFF). Copies assets/sessions/h100-tracks.rssession to OUT_DIR
# and runs `reducescope pitfalls --block-size all --out` on it: 100 runs of each wrong kernel at each block
# size, a timing and a trace of each, and compute-sanitizer racecheck's races on one block. The output is
# kept as docs/data/pitfalls/pitfalls-racecheck-h100-*.txt; the session replaces the bundled one.
set -eu
B=${1:?BIN_DIR}; OUT=${2:?OUT_DIR}
export PATH=/usr/local/cuda/bin:$PATH
mkdir -p "$OUT"
cp assets/sessions/h100-tracks.rssession "$OUT/h100-tracks.rssession"
start=$(date +%s)
"$B/reducescope" pitfalls --block-size all --out "$OUT/h100-tracks.rssession" > "$OUT/pitfalls.txt" 2>&1
echo "pitfalls took $(( $(date +%s) - start )) s" >> "$OUT/pitfalls.txt"
tail -3 "$OUT/pitfalls.txt"
