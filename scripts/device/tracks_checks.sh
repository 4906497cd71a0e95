#!/usr/bin/env bash
# Runs on the GPU machine for the tracks work (docs/gpu-results.md, "Tracks"):
#   bash scripts/device/tracks_checks.sh BIN_DIR OUT_DIR
# BIN_DIR holds reducescope and rs_gpu_tests built for the GPU (-DCMAKE_CUDA_ARCHITECTURES=90).
# Writes OUT_DIR/summary.txt and OUT_DIR/* (logs, bench tables and CSVs, ncu comparisons,
# compute-sanitizer logs, traces for fixtures, the recorded session). Run from the repository root.
set -u
B=${1:?BIN_DIR}; OUT=${2:?OUT_DIR}
mkdir -p "$OUT/traces"
S=$OUT/summary.txt
log() { echo "== $*" | tee -a "$S"; }
export PATH=$PATH:/usr/local/cuda/bin:$(ls -d /opt/nvidia/nsight-compute/*/ 2>/dev/null | head -1)
log "$(date -u +%FT%TZ) $(nvidia-smi -L | head -1)"

# PARTS: which parts to run (the device allows 10 minutes a command): tests bench sass ncu san traces record
# book course histo course_checks course_san modern modern_checks pitfalls floatpit sweep
PARTS=${PARTS:-"tests bench sass ncu san traces record"}
part() { case " $PARTS " in *" $1 "*) return 0 ;; esac; return 1; }
# sanitize NAME "KERNELS" "INT_ONLY_KERNELS": memcheck, racecheck and synccheck over every kernel x 64 and 1024
# threads x int32 and float32 (int32 only for the second list) x both builds, N = 70001, into
# $OUT/sanitizer-NAME.log (failures' reports into sanitizer_fail.log).
sanitize() {
  local name=$1 kernels=$2 int_only=" $3 " tool k bs type cmd extra o rc
  for tool in memcheck racecheck synccheck; do for k in $kernels; do
    for bs in 64 1024; do for type in int32 float32; do for cmd in run trace; do
      [ $type = float32 ] && [[ $int_only == *" $k "* ]] && continue
      extra=""; [ $cmd = trace ] && extra=--quiet
      o=$(timeout 60 compute-sanitizer --tool $tool --error-exitcode 9 "$B/reducescope" $cmd --kernel $k --block-size $bs --n 70001 --type $type $extra 2>&1)
      rc=$?
      echo "$tool $cmd $k $bs $type 70001 rc=$rc $(echo "$o" | grep -E 'ERROR SUMMARY|RACECHECK SUMMARY' | tr '\n' ' ')" >>"$OUT/sanitizer-$name.log"
      [ $rc -ne 0 ] && echo "$o" | head -40 >>"$OUT/sanitizer_fail.log"
    done; done; done
  done; done
}

if part tests; then
  log "GPU tests (ctest label gpu)"
  timeout 420 "$B/rs_gpu_tests" --gtest_brief=1 ${GTEST_FILTER:+--gtest_filter=$GTEST_FILTER} >"$OUT/gpu_tests.log" 2>&1
  echo "rc=$?" | tee -a "$S"
  grep -E "FAILED|PASSED|tests ran" "$OUT/gpu_tests.log" | head -20 >>"$S"
fi

if part bench; then
log "bench --track lecture --n 2^24 (int32 and float32, 1024 threads, the note's block size)"
timeout 300 "$B/reducescope" bench --track lecture --n 2^24 --csv "$OUT/bench-lecture.csv" >"$OUT/bench-lecture.txt" 2>&1
echo "rc=$?" | tee -a "$S"; cat "$OUT/bench-lecture.txt" >>"$S"

log "bench --track lecture --n 2^24 --block-size 256"
timeout 300 "$B/reducescope" bench --track lecture --n 2^24 --block-size 256 >"$OUT/bench-lecture-bs256.txt" 2>&1
echo "rc=$?" | tee -a "$S"

log "bench --track harris (unchanged kernels, 256 threads)"
timeout 200 "$B/reducescope" bench --track harris --n 2^24 >"$OUT/bench-harris.txt" 2>&1; echo "rc=$?" | tee -a "$S"
tail -12 "$OUT/bench-harris.txt" >>"$S"

fi
if part sass; then
log "SASS of the timing build (NullProbe) against probe-free copies: harris and lecture"
bash tests/sass/compare_sass.sh "$OUT/sass" 90 >"$OUT/sass.txt" 2>&1; echo "rc=$?" | tee -a "$S"
grep -E "SASS|identical" "$OUT/sass.txt" | tee -a "$S"
# What the compiler makes of atomicAdd in sum_atomic, for int and for float (opcodes in the timing build).
for t in int float; do
  printf '#include "lecture_kernels.cuh"\nnamespace rs { template __global__ void sum_atomic<%s, NullProbe>(const %s*, %s*, unsigned int, NullProbe); }\n' $t $t $t >"$OUT/sass/atomic_$t.cu"
  nvcc -std=c++17 -arch=sm_90 -cubin -Ikernels -Itracing -o "$OUT/sass/atomic_$t.cubin" "$OUT/sass/atomic_$t.cu" &&
    echo "sum_atomic<$t> opcodes: $(cuobjdump -sass "$OUT/sass/atomic_$t.cubin" | grep -oE '(REDUX|REDG|RED|ATOMG|ATOMS|ATOM|SHFL|VOTE)[.A-Z0-9]*' | sort | uniq -c | tr '\n' ' ')" | tee -a "$S"
done
tar czf "$OUT/sass.tar.gz" -C "$OUT" sass && rm -rf "$OUT/sass"

fi
if part ncu; then
log "ncu metric names"
ncu --query-metrics 2>/dev/null | grep -iE "sass_inst_executed_op_(shfl|shared_atom|global_atom|global_red|global_ld)|inst_executed_op_shfl|shfl" | head -20 | tee -a "$S"

log "ncu instruction counts vs trace (shuffles, atomics, global requests and sectors), 1-block launches"
timeout 900 bash tests/ncu_instructions.sh "$B/reducescope" "$OUT/ncu-instructions.csv" 2>&1 | tail -15 | tee -a "$S"

log "ncu bank conflicts vs trace, lecture kernels that use shared memory"
KERNELS="sum_shared:1 sum_reduce:1 sum_reversed:1 sum_add_first:2 sum_last_warp:2 sum_shuffle:2 sum_two_step:2" \
  timeout 600 bash tests/ncu_compare.sh "$B/reducescope" "$OUT/ncu-bank-conflicts-lecture.csv" 2>&1 | tail -4 | tee -a "$S"

fi
if part san; then
log "compute-sanitizer memcheck / racecheck / synccheck: lecture kernels x block sizes x int32/float32, N = 3001 and 70001, both builds"
for tool in memcheck racecheck synccheck; do
  for k in sum_atomic sum_shared sum_reduce sum_reversed sum_add_first sum_last_warp sum_shuffle sum_two_step; do
    for bs in ${SAN_BLOCKS:-64 1024}; do for type in int32 float32; do for n in ${SAN_N:-70001}; do
      for cmd in run trace; do
        [ $cmd = trace ] && [ $type = float32 ] && continue
        extra=""; [ $cmd = trace ] && extra=--quiet
        o=$(timeout 60 compute-sanitizer --tool $tool --error-exitcode 9 "$B/reducescope" $cmd --kernel $k --block-size $bs --n $n --type $type $extra 2>&1)
        rc=$?
        if [ $rc -eq 2 ] && echo "$o" | grep -q "needs at least 64"; then continue; fi
        echo "$tool $cmd $k $bs $type $n rc=$rc $(echo "$o" | grep -E 'ERROR SUMMARY|RACECHECK SUMMARY' | tr '\n' ' ')" >>"$OUT/sanitizer.log"
        [ $rc -ne 0 ] && echo "$o" | head -40 >>"$OUT/sanitizer_fail.log"
      done
    done; done; done
  done
done
echo "sanitizer runs: $(wc -l <"$OUT/sanitizer.log"), nonzero exits: $(grep -vc 'rc=0' "$OUT/sanitizer.log")" | tee -a "$S"
grep -v 'rc=0' "$OUT/sanitizer.log" | head -20 >>"$S"

fi
if part traces; then
log "traces for fixtures and the GUI tests"
for k in sum_atomic sum_shared sum_reduce sum_reversed sum_add_first sum_last_warp sum_shuffle sum_two_step; do
  for bs in 64 256; do
    "$B/reducescope" trace --kernel $k --block-size $bs --n 5000 --pattern random --quiet \
      --out "$OUT/traces/${k}_bs${bs}.rstrace" >>"$OUT/traces.log" 2>&1 || echo "trace $k $bs failed" | tee -a "$S"
  done
done
"$B/reducescope" trace --kernel sum_shuffle --block-size 128 --n 5000 --quiet --out "$OUT/traces/sum_shuffle_bs128.rstrace" >>"$OUT/traces.log" 2>&1
"$B/reducescope" trace --kernel sum_atomic --block-size 128 --n 5000 --quiet --out "$OUT/traces/sum_atomic_bs128.rstrace" >>"$OUT/traces.log" 2>&1
"$B/reducescope" trace --kernel sum_shuffle --block-size 128 --n 5000 --type float32 --quiet --out "$OUT/traces/sum_shuffle_bs128_f32.rstrace" >>"$OUT/traces.log" 2>&1
"$B/reducescope" trace --kernel sum_shuffle --block-size 128 --n 5000 >"$OUT/trace-sum_shuffle-bs128.txt" 2>&1
"$B/reducescope" trace --kernel sum_shared --block-size 256 --n 5000 >"$OUT/trace-sum_shared-bs256.txt" 2>&1
ls "$OUT/traces" | wc -l | tee -a "$S"
tar czf "$OUT/traces.tar.gz" -C "$OUT" traces && rm -rf "$OUT/traces"

fi
if part record; then
log "record a session with every track (N = 2^24, 30 samples)"
timeout 400 "$B/reducescope" record --out "$OUT/h100-tracks.rssession" --n 2^24 >"$OUT/record.log" 2>&1; echo "rc=$?" | tee -a "$S"
tail -3 "$OUT/record.log" >>"$S"
log "profile: the book's nvprof metrics with Nsight Compute, into the session"
timeout 400 "$B/reducescope" profile "$OUT/h100-tracks.rssession" >"$OUT/profile.log" 2>&1; echo "rc=$?" | tee -a "$S"
tail -3 "$OUT/profile.log" >>"$S"
ls -la "$OUT/h100-tracks.rssession" >>"$S" 2>&1
fi
if part book; then
log "bench --track book --n 2^24 (512 threads, the book's block size)"
timeout 300 "$B/reducescope" bench --track book --n 2^24 --csv "$OUT/bench-book.csv" >"$OUT/bench-book.txt" 2>&1
echo "rc=$?" | tee -a "$S"; grep -A14 "^kernel" "$OUT/bench-book.txt" >>"$S"
log "ncu instruction counts vs trace, book kernels (global loads, stores, sectors), 1-block launches"
SPECS="reduceNeighbored:1 reduceNeighboredLess:1 reduceInterleaved:1 reduceUnrolling2:2 reduceUnrolling4:4 reduceUnrolling8:8 reduceUnrollWarps8:8 reduceCompleteUnrollWarps8:8 reduceCompleteUnroll:8" \
  TYPES=int32 timeout 600 bash tests/ncu_instructions.sh "$B/reducescope" "$OUT/ncu-instructions-book.csv" 2>&1 | tail -6 | tee -a "$S"
log "compute-sanitizer memcheck / racecheck / synccheck: book kernels x 64, 1024 threads, N = 70001, both builds"
for tool in memcheck racecheck synccheck; do
  for k in reduceNeighbored reduceNeighboredLess reduceInterleaved reduceUnrolling2 reduceUnrolling4 reduceUnrolling8 \
           reduceUnrollWarps8 reduceCompleteUnrollWarps8 reduceCompleteUnroll; do
    for bs in 64 1024; do for cmd in run trace; do
      extra=""; [ $cmd = trace ] && extra=--quiet
      o=$(timeout 60 compute-sanitizer --tool $tool --error-exitcode 9 "$B/reducescope" $cmd --kernel $k --block-size $bs --n 70001 $extra 2>&1)
      rc=$?
      echo "$tool $cmd $k $bs int32 70001 rc=$rc $(echo "$o" | grep -E 'ERROR SUMMARY|RACECHECK SUMMARY' | tr '\n' ' ')" >>"$OUT/sanitizer-book.log"
      [ $rc -ne 0 ] && echo "$o" | head -40 >>"$OUT/sanitizer_fail.log"
    done; done
  done
done
echo "book sanitizer runs: $(wc -l <"$OUT/sanitizer-book.log"), nonzero exits: $(grep -vc 'rc=0' "$OUT/sanitizer-book.log")" | tee -a "$S"
log "book traces for fixtures"
mkdir -p "$OUT/btraces"
for k in reduceNeighbored reduceNeighboredLess reduceInterleaved reduceUnrolling2 reduceUnrolling4 reduceUnrolling8 \
         reduceUnrollWarps8 reduceCompleteUnrollWarps8 reduceCompleteUnroll; do
  for bs in 64 256; do
    "$B/reducescope" trace --kernel $k --block-size $bs --n 5000 --quiet --out "$OUT/btraces/${k}_bs${bs}.rstrace" >>"$OUT/btraces.log" 2>&1 ||
      echo "trace $k $bs failed" | tee -a "$S"
  done
done
"$B/reducescope" trace --kernel reduceUnrolling8 --block-size 64 --n 5000 >"$OUT/trace-reduceUnrolling8-bs64.txt" 2>&1
tar czf "$OUT/btraces.tar.gz" -C "$OUT" btraces && rm -rf "$OUT/btraces"
fi
if part course; then
log "bench --track course --n 2^24 (1024 threads), int32 and float32"
timeout 300 "$B/reducescope" bench --track course --n 2^24 --csv "$OUT/bench-course.csv" >"$OUT/bench-course.txt" 2>&1
echo "rc=$?" | tee -a "$S"; grep -E "^(naive|coalesced|better|farthest|kernel)" "$OUT/bench-course.txt" >>"$S"
fi
if part histo; then
log "histograms at 2^26 and 2^30 bytes: text, uniform, skewed; 256 threads; against cub::DeviceHistogram"
timeout 300 "$B/reducescope" histogram --n 2^26 --csv "$OUT/histogram-2e26.csv" >"$OUT/histogram-2e26.txt" 2>&1
echo "rc=$?" | tee -a "$S"; cat "$OUT/histogram-2e26.txt" >>"$S"
timeout 420 "$B/reducescope" histogram --n 2^30 --samples 20 --csv "$OUT/histogram-2e30.csv" >"$OUT/histogram-2e30.txt" 2>&1
echo "rc=$?" | tee -a "$S"; cat "$OUT/histogram-2e30.txt" >>"$S"
fi
if part course_checks; then
log "ncu bank conflicts vs trace, course kernels (1-block launches)"
KERNELS="naive_sum:2 coalesced_sum:2 better_sum:2 better_min:2 better_max:2 farthest_point:6" \
  timeout 500 bash tests/ncu_compare.sh "$B/reducescope" "$OUT/ncu-bank-conflicts-course.csv" 2>&1 | tail -4 | tee -a "$S"
log "ncu instruction counts vs trace, course reductions (global loads, stores, sectors)"
SPECS="naive_sum:2 coalesced_sum:2 better_sum:2 farthest_point:6" TYPES=int32 BLOCKS="64 1024" \
  timeout 400 bash tests/ncu_instructions.sh "$B/reducescope" "$OUT/ncu-instructions-course.csv" 2>&1 | tail -4 | tee -a "$S"
log "ncu instruction counts vs trace, histograms (shared and global atomics, byte loads)"
timeout 500 bash tests/ncu_histogram.sh "$B/reducescope" "$OUT/ncu-histogram.csv" 2>&1 | tail -6 | tee -a "$S"
fi
if part course_san; then
log "compute-sanitizer memcheck / racecheck / synccheck: course reductions x 64, 1024 threads x int32/float32, N = 70001, both builds"
sanitize course "naive_sum coalesced_sum better_sum better_min better_max farthest_point" "farthest_point"
log "compute-sanitizer: histograms (GPU tests at 1000003 bytes, every kernel x block size x input, and the traces)"
for tool in memcheck racecheck synccheck; do
  o=$(timeout 240 compute-sanitizer --tool $tool --error-exitcode 9 "$B/rs_gpu_tests" \
      --gtest_filter='Bytes/HistogramTest.*/9:Bytes/HistogramTest.*/10:Bytes/HistogramTest.*/11:GpuCourse.Privatised*' 2>&1)
  rc=$?
  echo "$tool histogram-tests rc=$rc $(echo "$o" | grep -E 'ERROR SUMMARY|RACECHECK SUMMARY|PASSED|FAILED' | tr '\n' ' ')" >>"$OUT/sanitizer-course.log"
  [ $rc -ne 0 ] && echo "$o" | tail -40 >>"$OUT/sanitizer_fail.log"
done
echo "course sanitizer runs: $(wc -l <"$OUT/sanitizer-course.log"), nonzero exits: $(grep -vc 'rc=0' "$OUT/sanitizer-course.log")" | tee -a "$S"
grep -v 'rc=0' "$OUT/sanitizer-course.log" | head -10 >>"$S"
fi
if part modern; then
log "bench --track modern --type int32, every block size, N = 2^16 .. 2^30 in powers of four"
for e in ${MODERN_EXPONENTS:-16 18 20 22 24 26 28 30}; do
  timeout 300 "$B/reducescope" bench --track modern --type int32 --n 2^$e --block-size all \
    --csv "$OUT/bench-modern-2e$e.csv" >"$OUT/bench-modern-2e$e.txt" 2>&1
  echo "2^$e rc=$?" | tee -a "$S"
  grep -E "cub::DeviceReduce::Sum|copy" "$OUT/bench-modern-2e$e.txt" | head -2 >>"$S"
done
tar czf "$OUT/bench-modern.tar.gz" -C "$OUT" $(cd "$OUT" && ls bench-modern-2e*) && rm -f "$OUT"/bench-modern-2e*
fi
if part modern_checks; then
log "ncu instruction counts vs trace, modern kernels (shuffles, warp reduces are not counted by ncu; loads, sectors)"
SPECS="shuffle_block:1 vec4_loads:8 single_pass_atomic:8 single_pass_last_block:8" TYPES="float32" BLOCKS="64 256 1024" \
  timeout 400 bash tests/ncu_instructions.sh "$B/reducescope" "$OUT/ncu-instructions-modern.csv" 2>&1 | tail -4 | tee -a "$S"
log "ncu bank conflicts vs trace, modern kernels (1-block launches)"
KERNELS="shuffle_block:1 reduce_add_sync:1 vec4_loads:8 single_pass_atomic:8 single_pass_last_block:8" \
  timeout 500 bash tests/ncu_compare.sh "$B/reducescope" "$OUT/ncu-bank-conflicts-modern.csv" 2>&1 | tail -3 | tee -a "$S"
log "compute-sanitizer memcheck / racecheck / synccheck: modern kernels x 64, 1024 threads x int32/float32, N = 70001, both builds"
sanitize modern "shuffle_block reduce_add_sync vec4_loads single_pass_atomic single_pass_last_block cg_reduce cub_block_reduce" \
  "reduce_add_sync"
echo "modern sanitizer runs: $(wc -l <"$OUT/sanitizer-modern.log"), nonzero exits: $(grep -vc 'rc=0' "$OUT/sanitizer-modern.log")" | tee -a "$S"
grep -v 'rc=0' "$OUT/sanitizer-modern.log" | head -10 >>"$S"
fi
if part pitfalls; then
log "pitfalls: each wrong kernel 100 times (timeout 120 s each command), 2^24 and 2^16 elements, 64/256/1024 threads"
for n in 2^24 2^16; do for bs in 64 256 1024; do
  timeout 120 "$B/reducescope" pitfalls --runs 100 --n $n --block-size $bs >"$OUT/pitfalls-n${n/^/e}-bs$bs.txt" 2>&1
  echo "n $n bs $bs rc=$?" | tee -a "$S"
  grep -E "^pitfall|wrong in" "$OUT/pitfalls-n${n/^/e}-bs$bs.txt" | paste - - | sed 's/: .*  wrong/: wrong/' | tee -a "$S"
done; done
log "pitfalls under compute-sanitizer (racecheck, synccheck, memcheck), 256 threads, N = 65536, timing build"
for k in pitfall_no_volatile pitfall_no_syncwarp pitfall_no_syncthreads; do for tool in racecheck synccheck memcheck; do
  o=$(timeout 120 compute-sanitizer --tool $tool "$B/reducescope" run --track pitfalls --kernel $k --block-size 256 --n 65536 2>&1)
  echo "== $k $tool: $(echo "$o" | grep -E 'RACECHECK SUMMARY|ERROR SUMMARY' | tr '\n' ' ')" | tee -a "$S"
  echo "== $k $tool" >>"$OUT/pitfalls-sanitizer.log"; echo "$o" | head -60 >>"$OUT/pitfalls-sanitizer.log"
done; done
tar czf "$OUT/pitfalls.tar.gz" -C "$OUT" $(cd "$OUT" && ls pitfalls-*) && rm -f "$OUT"/pitfalls-*
fi
if part floatpit; then
log "pitfall_float_atomic: 100 runs at 2^24 into a copy of the bundled session (every block size, with racecheck), and at 2^16, 2^20"
cp assets/sessions/h100-tracks.rssession "$OUT/session.rssession"
for bs in 32 64 128 256 512 1024; do
  timeout 200 "$B/reducescope" pitfalls --kernel pitfall_float_atomic --runs 100 --n 2^24 --block-size $bs \
    --out "$OUT/session.rssession" >"$OUT/floatpit-n2e24-bs$bs.txt" 2>&1
  echo "2^24 bs $bs rc=$? $(grep -E 'wrong in|racecheck' "$OUT/floatpit-n2e24-bs$bs.txt" | tr '\n' ' ')" | tee -a "$S"
done
for n in 2^16 2^20; do
  timeout 120 "$B/reducescope" pitfalls --kernel pitfall_float_atomic --runs 100 --n $n --block-size 256 >"$OUT/floatpit-n${n/^/e}-bs256.txt" 2>&1
  echo "$n bs 256 rc=$? $(grep -E 'wrong in' "$OUT/floatpit-n${n/^/e}-bs256.txt")" | tee -a "$S"
done
tar czf "$OUT/floatpit.tar.gz" -C "$OUT" session.rssession $(cd "$OUT" && ls floatpit-*) && rm -f "$OUT"/floatpit-* "$OUT/session.rssession"
fi
if part sweep; then
log "bench --track all --type int32 --block-size all at every N of the sweep (the sweep chart data)"
for e in ${SWEEP_EXPONENTS:-16 18 20 22 24 26 28 30}; do
  timeout 400 "$B/reducescope" bench --track all --type int32 --n 2^$e --block-size all --samples 20 \
    --csv "$OUT/sweep-2e$e.csv" >"$OUT/sweep-2e$e.txt" 2>&1
  echo "2^$e rc=$?" | tee -a "$S"
done
cat "$OUT"/sweep-2e*.csv >"$OUT/sweep.csv"
tar czf "$OUT/sweep.tar.gz" -C "$OUT" $(cd "$OUT" && ls sweep-2e*) && rm -f "$OUT"/sweep-2e*
fi
log "done $(date -u +%FT%TZ)"
