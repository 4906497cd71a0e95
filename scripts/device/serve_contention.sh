#!/usr/bin/env bash
# Where a check's time goes when several run at once on one GPU (issue 55: serve's throughput): one check alone
# (wall, user and system CPU seconds), then K at once for K = 2, 4, 8, each of the same file, with and without
# compute-sanitizer's three tools (REDUCESCOPE_NO_SANITIZERS=1 is not a product switch: the PATH without
# compute-sanitizer makes check say "not run").  Usage (carry of carried_cli.sh): serve_contention.sh OUT
set -u
OUT=${1:?}; mkdir -p "$OUT"
source scripts/device/carried_cli.sh || exit 1
export LD_LIBRARY_PATH=$PWD/.carry/lib:$LD_LIBRARY_PATH
F=tests/fixtures/user/corpus/shuffle/right_cg_tile_shfl_down.cu
one() { /usr/bin/time -f "%e %U %S" -o "$OUT/t.$1" "$R" check "$F" --exercise shuffle --json > /dev/null 2>"$OUT/err.$1"; }
for K in 1 2 4 8; do
  t0=$(date +%s.%N)
  for i in $(seq $K); do one $K.$i & done; wait
  echo "K=$K at once: all done in $(awk "BEGIN{printf \"%.1f\", $(date +%s.%N) - $t0}") s; per check wall/user/sys: $(cat $OUT/t.$K.* | tr '\n' ';')"
done
# Without the sanitizers (a PATH and CUDA dir without compute-sanitizer: check says the tools were not run).
mkdir -p /tmp/nocs/bin; for b in /usr/local/cuda/bin/*; do [ "$(basename $b)" = compute-sanitizer ] || ln -sf "$b" /tmp/nocs/bin/; done
for K in 1 4; do
  t0=$(date +%s.%N)
  for i in $(seq $K); do (unshare -m --propagation private sh -c "mount --bind /tmp/nocs/bin /usr/local/cuda/bin && /usr/bin/time -f '%e %U %S' -o $OUT/n.$K.$i $R check $F --exercise shuffle --json > /dev/null 2>$OUT/nerr.$K.$i") & done; wait
  echo "no sanitizers, K=$K at once: $(awk "BEGIN{printf \"%.1f\", $(date +%s.%N) - $t0}") s; per check: $(cat $OUT/n.$K.* 2>/dev/null | tr '\n' ';')"
done
grep -h "not run" $OUT/nerr.1.1 | head -2
