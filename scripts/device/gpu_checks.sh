#!/usr/bin/env bash
# Runs on the GPU machine (see docs/gpu-results.md for what it produced there):
#   bash scripts/device/gpu_checks.sh BIN_DIR OUT_DIR
# BIN_DIR holds reducescope and rs_gpu_tests built for the GPU (e.g. -DCMAKE_CUDA_ARCHITECTURES=90).
# Writes OUT_DIR/summary.txt and OUT_DIR/results.tar.gz (logs, bench CSV, traces, ncu and
# compute-sanitizer output, SASS comparison). Run from the repository root.
set -u
B=${1:?BIN_DIR}; OUT=${2:?OUT_DIR}
R=$OUT/r; mkdir -p "$R/fixtures"
S=$OUT/summary.txt
log() { echo "== $*" | tee -a "$S"; }
export PATH=$PATH:/usr/local/cuda/bin:/opt/nvidia/nsight-compute/2025.3.1
log "$(date -u +%FT%TZ) $(nvidia-smi -L | head -1)"; nvidia-smi --query-gpu=driver_version,clocks.max.mem --format=csv >>"$S"

log "GPU tests (ctest label gpu)"
timeout 300 "$B/rs_gpu_tests" --gtest_brief=1 >"$R/gpu_tests.log" 2>&1; echo "rc=$?" | tee -a "$S"
tail -3 "$R/gpu_tests.log" >>"$S"

log "bench all kernels x all block sizes, N = 2^24"
timeout 300 "$B/reducescope" bench --kernel all --block-size all --n 16777216 --csv "$R/bench.csv" >"$R/bench.txt" 2>&1
echo "rc=$?" | tee -a "$S"; cat "$R/bench.txt" >>"$S"

log "fixtures: traces of every kernel at 64/256/1024 threads"
for k in 0 1 2 3 4 5 6; do for bs in 64 256 1024; do
  "$B/reducescope" trace --kernel reduce$k --block-size $bs --n 5000 --pattern random --quiet \
    --out "$R/fixtures/reduce${k}_bs${bs}.rstrace" >>"$R/fixtures.log" 2>&1 || echo "trace reduce$k $bs failed" >>"$S"
done; done
"$B/reducescope" trace --kernel reduce1 --block-size 256 --n 16777216 >"$R/trace_reduce1_bs256.txt" 2>&1
head -8 "$R/trace_reduce1_bs256.txt" >>"$S"

log "ncu bank conflicts vs trace, 1-block launches, block sizes 64..1024"
bash tests/ncu_compare.sh "$B/reducescope" "$R/ncu_compare.csv" | tail -3 | tee -a "$S"

log "SASS of the timing build (NullProbe) against a probe-free copy of the kernels"
bash tests/sass/compare_sass.sh "$R/sass" 90 | tee -a "$S"

log "compute-sanitizer memcheck / racecheck / synccheck, every kernel x block size, N = 3001 and 70001"
for tool in memcheck racecheck synccheck; do
  for k in 0 1 2 3 4 5 6; do for bs in 32 64 128 256 512 1024; do
    [ $k -ge 4 ] && [ $bs = 32 ] && continue
    for n in 3001 70001; do
      o=$(timeout 60 compute-sanitizer --tool $tool --error-exitcode 9 "$B/reducescope" run --kernel reduce$k --block-size $bs --n $n 2>&1)
      rc=$?; echo "$tool reduce$k $bs $n rc=$rc $(echo "$o" | grep -E 'ERROR SUMMARY|RACECHECK SUMMARY' | tr '\n' ' ')" >>"$R/sanitizer.log"
      [ $rc -ne 0 ] && { echo "$o" >>"$R/sanitizer_fail.log"; }
    done
  done; done
  # The tracing build too (its probe writes the trace with atomics).
  o=$(timeout 60 compute-sanitizer --tool $tool --error-exitcode 9 "$B/reducescope" trace --kernel reduce5 --block-size 256 --n 70001 --quiet 2>&1)
  echo "$tool trace reduce5 256 70001 rc=$? $(echo "$o" | grep -E 'ERROR SUMMARY|RACECHECK SUMMARY' | tr '\n' ' ')" >>"$R/sanitizer.log"
done
echo "sanitizer runs: $(wc -l <"$R/sanitizer.log"), nonzero exits: $(grep -vc 'rc=0' "$R/sanitizer.log")" | tee -a "$S"
grep -v 'rc=0' "$R/sanitizer.log" | head -20 >>"$S"
tar czf "$OUT/results.tar.gz" -C "$OUT" r && rm -rf "$R"
log "done $(date -u +%FT%TZ)"
