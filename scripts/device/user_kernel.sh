#!/usr/bin/env bash
# Runs on the GPU machine (the H100) for issue 19, your own kernel:
#   bash scripts/device/user_kernel.sh BIN_DIR OUT_DIR
# BIN_DIR holds reducescope and rs_gpu_tests. Every exercise's starting file must fail with its own check and
# every reference solution must pass (`check --exercise`, also as JSON); the fault fixtures must end cleanly
# (the time limit on an endless loop, a CUDA fault with compute-sanitizer's first report) and a normal check must
# work right after each; run, trace, bench and record --kernel-file on a solution; the save -> trace latency of the
# command line (20 runs of `trace --kernel-file`, each a fresh process: NVRTC for the GPU, the run, the trace).
set -u
B=$(cd "${1:?BIN_DIR}" && pwd); OUT=${2:?OUT_DIR}
mkdir -p "$OUT"
R="$B/reducescope"
X=kernels/user/exercises; S=kernels/user/solutions; F=tests/fixtures/user
nvidia-smi -L > "$OUT/gpu.txt" 2>&1
echo "== exercises" | tee "$OUT/exercises.txt"
for f in $X/*.cu; do
  x=$(basename "$f" .cu)
  "$R" check "$f" --exercise "$x" > "$OUT/start-$x.txt" 2>&1; rs=$?
  "$R" check "$S/$x.cu" --exercise "$x" > "$OUT/solution-$x.txt" 2>&1; rsol=$?
  echo "$x: start exit $rs ($(grep -c '✗' "$OUT/start-$x.txt") failed: $(grep '✗' "$OUT/start-$x.txt" | head -1 | cut -c1-140)); solution exit $rsol ($(grep -c '✓' "$OUT/solution-$x.txt") passed)" | tee -a "$OUT/exercises.txt"
done
"$R" check $S/first_add.cu --exercise first_add --json > "$OUT/first_add.json" 2> "$OUT/first_add.json.err"
echo "json exit $?" | tee -a "$OUT/exercises.txt"
echo "== faults" | tee "$OUT/faults.txt"
for f in hang_loop out_of_bounds; do
  s=$(date +%s%N)
  timeout 120 "$R" check $F/$f.cu > "$OUT/fault-$f.txt" 2>&1; rc=$?
  e=$(date +%s%N)
  echo "$f: exit $rc after $(( (e - s) / 1000000 )) ms: $(tail -8 "$OUT/fault-$f.txt" | tr '\n' ' ' | cut -c1-700)" | tee -a "$OUT/faults.txt"
  "$R" check $S/bank_conflicts.cu > "$OUT/after-$f.txt" 2>&1
  echo "  the next check: exit $? ($(tail -1 "$OUT/after-$f.txt"))" | tee -a "$OUT/faults.txt"
done
timeout 60 "$R" check $F/hang_loop.cu --kernel-timeout 2 > "$OUT/fault-hang-2s.txt" 2>&1
echo "hang with --kernel-timeout 2: exit $? ($(tail -1 "$OUT/fault-hang-2s.txt" | cut -c1-100))" | tee -a "$OUT/faults.txt"
echo "== commands" | tee "$OUT/commands.txt"
"$R" run --kernel-file $S/bank_conflicts.cu --n 1000003 --block-size 128 >> "$OUT/commands.txt" 2>&1; echo "run exit $?" | tee -a "$OUT/commands.txt"
"$R" trace --kernel-file $S/bank_conflicts.cu --n 512 --block-size 64 --out "$OUT/yours.rstrace" > "$OUT/trace.txt" 2>&1; echo "trace exit $?" | tee -a "$OUT/commands.txt"
"$R" bench --kernel-file $S/first_add.cu --block-size all --n 16777216 >> "$OUT/commands.txt" 2>&1; echo "bench exit $?" | tee -a "$OUT/commands.txt"
"$R" record --kernel-file $S/bank_conflicts.cu --out "$OUT/yours.rssession" --block-size all >> "$OUT/commands.txt" 2>&1; echo "record exit $?" | tee -a "$OUT/commands.txt"
"$R" show "$OUT/yours.rssession" >> "$OUT/commands.txt" 2>&1; echo "show exit $?" | tee -a "$OUT/commands.txt"
echo "== verify against Nsight Compute" | tee "$OUT/verify.txt"
for x in bank_conflicts divergence shuffle single_pass; do
  "$R" verify --kernel-file $S/$x.cu --block-size 128 >> "$OUT/verify.txt" 2>&1; echo "verify $x exit $?" | tee -a "$OUT/verify.txt"
done
"$R" verify --kernel reduce1 >> "$OUT/verify.txt" 2>&1; echo "verify reduce1 exit $?" | tee -a "$OUT/verify.txt"
echo "== latency: trace --kernel-file, 20 fresh processes" | tee "$OUT/latency.txt"
cp $X/bank_conflicts.cu /tmp/lat.cu
for i in $(seq 1 20); do
  echo "// save $i" >> /tmp/lat.cu
  s=$(date +%s%N); "$R" trace --kernel-file /tmp/lat.cu --n 4096 --block-size 256 --quiet > /dev/null 2>&1; e=$(date +%s%N)
  echo $(( (e - s) / 1000000 ))
done | sort -n > "$OUT/latency-ms.txt"
echo "median $(sed -n 10p "$OUT/latency-ms.txt") ms, min $(head -1 "$OUT/latency-ms.txt"), max $(tail -1 "$OUT/latency-ms.txt")" | tee -a "$OUT/latency.txt"
if [[ -x "$B/rs_gpu_tests" ]]; then
  timeout 500 "$B/rs_gpu_tests" > "$OUT/gpu-tests.txt" 2>&1
  echo "gpu tests exit $? ($(grep -c '^\[       OK' "$OUT/gpu-tests.txt") ok, $(grep -c '^\[  SKIPPED' "$OUT/gpu-tests.txt") skipped)"
fi
