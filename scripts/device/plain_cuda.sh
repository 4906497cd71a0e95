#!/usr/bin/env bash
# Runs on the GPU machine (the H100) for issue 29, item 1: plain CUDA kernel files, traced as compiled.
#   bash scripts/device/plain_cuda.sh BIN_DIR OUT_DIR
# BIN_DIR holds reducescope, libreducescope_inject.so, rs_bt_patches.fatbin (and rs_gpu_tests, if there).
# - every plain exercise starting file must fail its check and every plain solution pass (the same for the wrapped
#   dialect's files); a plain solution written outside the project (tests/fixtures/user/outside_bank_conflicts.cu)
#   must pass bank_conflicts;
# - trace, record, show and verify --kernel-file on plain solutions;
# - the save -> trace latency: `trace --kernel-file` in a fresh process (NVRTC cold), and the window's worker command
#   (`record --compiled`, what the window runs after compiling with its warm NVRTC), 10 each.
set -u
B=$(cd "${1:?BIN_DIR}" && pwd); OUT=${2:?OUT_DIR}
mkdir -p "$OUT"
R="$B/reducescope"
X=kernels/user/exercises; S=kernels/user/solutions; W=kernels/user/wrapped
nvidia-smi -L > "$OUT/gpu.txt" 2>&1
echo "== exercises (plain, then wrapped)" | tee "$OUT/exercises.txt"
for d in plain wrapped; do
  if [[ $d == plain ]]; then XD=$X; SD=$S; else XD=$W/exercises; SD=$W/solutions; fi
  for f in $XD/*.cu; do
    x=$(basename "$f" .cu)
    s=$(date +%s%N)
    "$R" check "$f" --exercise "$x" > "$OUT/$d-start-$x.txt" 2>&1; rs=$?
    m=$(date +%s%N)
    "$R" check "$SD/$x.cu" --exercise "$x" > "$OUT/$d-solution-$x.txt" 2>&1; rsol=$?
    e=$(date +%s%N)
    echo "$d $x: start exit $rs in $(( (m - s) / 1000000 )) ms ($(grep -c '✗' "$OUT/$d-start-$x.txt") failed: $(grep '✗' "$OUT/$d-start-$x.txt" | head -1 | cut -c1-120)); solution exit $rsol in $(( (e - m) / 1000000 )) ms ($(grep -c '✓' "$OUT/$d-solution-$x.txt") passed, $(grep -c '✗' "$OUT/$d-solution-$x.txt") failed)" | tee -a "$OUT/exercises.txt"
  done
done
"$R" check tests/fixtures/user/outside_bank_conflicts.cu --exercise bank_conflicts > "$OUT/outside.txt" 2>&1
echo "outside solution: exit $? ($(tail -1 "$OUT/outside.txt"))" | tee -a "$OUT/exercises.txt"
echo "== commands" | tee "$OUT/commands.txt"
"$R" trace --kernel-file $S/bank_conflicts.cu --n 4096 --block-size 256 --out "$OUT/plain-bank_conflicts.rstrace" > "$OUT/trace.txt" 2>&1; echo "trace exit $?" | tee -a "$OUT/commands.txt"
"$R" trace --kernel-file $X/bank_conflicts.cu --n 4096 --block-size 256 --out "$OUT/plain-reduce1.rstrace" > "$OUT/trace-start.txt" 2>&1; echo "trace start exit $?" | tee -a "$OUT/commands.txt"
"$R" trace --kernel-file $S/shuffle.cu --n 4096 --block-size 256 --out "$OUT/plain-shuffle.rstrace" > "$OUT/trace-shuffle.txt" 2>&1; echo "trace shuffle exit $?" | tee -a "$OUT/commands.txt"
"$R" record --kernel-file $S/first_add.cu --out "$OUT/plain.rssession" --block-size all >> "$OUT/commands.txt" 2>&1; echo "record exit $?" | tee -a "$OUT/commands.txt"
"$R" show "$OUT/plain.rssession" >> "$OUT/commands.txt" 2>&1; echo "show exit $?" | tee -a "$OUT/commands.txt"
"$R" export "$OUT/plain.rssession" --html "$OUT/plain.html" --block-size all >> "$OUT/commands.txt" 2>&1; echo "export --html exit $? ($(stat -c %s "$OUT/plain.html" 2>/dev/null) bytes)" | tee -a "$OUT/commands.txt"
for x in bank_conflicts divergence shuffle single_pass; do
  "$R" verify --kernel-file $S/$x.cu --block-size 128 >> "$OUT/verify.txt" 2>&1; echo "verify $x exit $?" | tee -a "$OUT/commands.txt"
done
for f in "$OUT"/plain-*.rstrace; do "$R" show "$f" > "$f.show.txt" 2>&1; echo "show $(basename "$f") exit $?" | tee -a "$OUT/commands.txt"; done
echo "== latency" | tee "$OUT/latency.txt"
cp $X/bank_conflicts.cu /tmp/lat.cu
for i in $(seq 1 10); do
  echo "// save $i" >> /tmp/lat.cu
  s=$(date +%s%N); "$R" trace --kernel-file /tmp/lat.cu --n 4096 --block-size 256 --quiet > /dev/null 2>&1; e=$(date +%s%N)
  echo $(( (e - s) / 1000000 ))
done | sort -n > "$OUT/latency-trace-ms.txt"
echo "trace --kernel-file (fresh process, NVRTC cold): median $(sed -n 5p "$OUT/latency-trace-ms.txt") ms, min $(head -1 "$OUT/latency-trace-ms.txt"), max $(tail -1 "$OUT/latency-trace-ms.txt")" | tee -a "$OUT/latency.txt"
"$R" check /tmp/lat.cu --exercise bank_conflicts > /dev/null 2>&1  # warm the driver
for i in $(seq 1 10); do
  s=$(date +%s%N); "$R" record --kernel-file /tmp/lat.cu --out /tmp/lat.rssession --block-size 256 --n 16777216 --samples 20 > /tmp/lat.txt 2>&1; e=$(date +%s%N)
  [[ -s /tmp/lat.rssession ]] || { echo "record failed: $(tail -2 /tmp/lat.txt)" >&2; }
  rm -f /tmp/lat.rssession
  echo $(( (e - s) / 1000000 ))
done | sort -n > "$OUT/latency-record-ms.txt"
echo "record --kernel-file at 2^24, 256 threads, 20 samples (the window's worker command, plus NVRTC cold): median $(sed -n 5p "$OUT/latency-record-ms.txt") ms, min $(head -1 "$OUT/latency-record-ms.txt"), max $(tail -1 "$OUT/latency-record-ms.txt")" | tee -a "$OUT/latency.txt"
if [[ -x "$B/rs_gpu_tests" ]]; then
  timeout 300 "$B/rs_gpu_tests" --gtest_filter='GpuUserKernel.*' > "$OUT/gpu-tests.txt" 2>&1
  echo "gpu tests exit $? ($(grep -c '^\[       OK' "$OUT/gpu-tests.txt") ok)" | tee -a "$OUT/latency.txt"
fi
