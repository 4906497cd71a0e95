#!/usr/bin/env bash
# Issue 57 on the GPU machine: the bugs that hide. (1) Every file of the corpus (tests/fixtures/user/corpus/
# expected.json) under `check --exercise`, its verdict against the one expected; the hidden-bug files' whole output
# (their sums right and their race, sync or fence check failing, in the same run). (2) The listings nvdisasm gives for
# the single passes and compute-sanitizer's raw output on the hidden-bug files, for the CI tests
# (tests/fixtures/grading/). (3) check where compute-sanitizer is not (its folder hidden in a mount namespace).
# (4) grade of a shuffle class holding the two hidden shuffle bugs and a right file: the race check as a test of its
# own in Gradescope's results.json.
# Usage (from the repository root): bash scripts/device/hidden_bugs.sh REDUCESCOPE OUT_DIR [all|corpus]
set -u
R=$(readlink -f "${1:?REDUCESCOPE}"); O=$(readlink -m "${2:?OUT_DIR}"); part=${3:-all}
mkdir -p "$O/sass" "$O/sanitizer"
corpus=tests/fixtures/user/corpus
# (1) is grade_class.sh's corpus part (it prints the hidden-bug files' whole output), with the tool's version first.
{
  echo "== $(date -u +%FT%TZ) $(nvidia-smi --query-gpu=name,driver_version --format=csv,noheader | paste -sd';'); $(/usr/local/cuda/bin/compute-sanitizer --version | tail -1)"
  bash scripts/device/grade_class.sh "$R" "$O" corpus
} 2>&1 | tee "$O/corpus.txt"

{
  echo "== (4) grade: a shuffle class of two hidden bugs and a right file"
  cls=$O/class; rm -rf "$cls"
  for f in wrong_no_barrier_before_warp_sums wrong_half_mask_all_lanes right_block_reduce_sum_first_add; do
    mkdir -p "$cls/$f"; cp $corpus/shuffle/$f.cu "$cls/$f/kernel.cu"
  done
  "$R" grade "$cls" --exercise shuffle --out "$O/grade" 2>&1 | tail -5
  for f in "$O"/grade/students/*/results.json; do
    echo "--- $f"; python3 -c "import json,sys; j=json.load(open(sys.argv[1])); print('score', j['score'], '|', j['output']); [print('  %s: %s/%s: %s' % (t['name'], t['score'], t['max_score'], t['output'].splitlines()[0][:160])) for t in j['tests']]" "$f"
  done
} 2>&1 | tee "$O/grade.txt"
[ "$part" = corpus ] && exit 0

{
  echo "== (2) nvdisasm listings of the single passes, and raw sanitizer output on the hidden bugs"
  for f in $corpus/single_pass/*.cu kernels/user/solutions/single_pass.cu; do
    n=$(basename "$f" .cu); [ "$f" = kernels/user/solutions/single_pass.cu ] && n=solution_single_pass
    "$R" check "$f" --compile-only --cc 90 --save-compiled "$O/$n.rsuk" >/dev/null 2>&1 || { echo "$n: no compile"; continue; }
    python3 - "$O/$n.rsuk" "$O/$n.cubin" <<'PY'
import sys
b = open(sys.argv[1], 'rb').read(); p = b.index(b"\n") + 1
while p < len(b):
    q = b.index(b"\n", p); n = int(b[p:q]); f = b[q + 1:q + 1 + n]; p = q + 1 + n
    if f[:4] == b"\x7fELF": open(sys.argv[2], 'wb').write(f); break
    if p < len(b) and b[p:p + 1] == b"\n": p += 1
PY
    /usr/local/cuda/bin/nvdisasm -gi -c "$O/$n.cubin" >"$O/sass/$n.sass" 2>&1
    echo "$n: $(wc -l <"$O/sass/$n.sass") lines; MEMBAR: $(grep -c MEMBAR "$O/sass/$n.sass"), ATOM: $(grep -cE ' (ATOMG|ATOM|RED)' "$O/sass/$n.sass")"
    rm -f "$O/$n.rsuk" "$O/$n.cubin"
  done
  for f in shuffle/wrong_no_barrier_before_warp_sums shuffle/wrong_half_mask_all_lanes unroll_last_warp/wrong_loop_no_volatile_no_syncwarp shuffle/right_block_reduce_sum_first_add; do
    n=$(basename $f)
    for t in racecheck synccheck memcheck; do
      extra=; [ $t = racecheck ] && extra="--racecheck-report hazard"
      timeout 120 /usr/local/cuda/bin/compute-sanitizer --tool $t $extra --print-limit 10000 "$R" run --kernel-file $corpus/$f.cu \
        --n 4097 --block-size 64,128 >"$O/sanitizer/$n-$t.txt" 2>&1
      echo "$n $t: exit $?, $(grep -cE 'hazard detected|Barrier error|Invalid' "$O/sanitizer/$n-$t.txt") reports; $(grep -E 'SUMMARY' "$O/sanitizer/$n-$t.txt" | head -1)"
    done
  done
} 2>&1 | tee "$O/fixtures.txt"

{
  echo "== (3) check where compute-sanitizer is not: /usr/local/cuda/bin/compute-sanitizer hidden (a mount namespace)"
  f=$corpus/shuffle/wrong_no_barrier_before_warp_sums.cu
  unshare -m bash -c "mount --bind /dev/null /usr/local/cuda/bin/compute-sanitizer && PATH=/usr/bin:/bin '$R' check '$f' --exercise shuffle" 2>&1 | tail -12
  echo "exit: ${PIPESTATUS[0]}"
} 2>&1 | tee "$O/no-sanitizer.txt"
