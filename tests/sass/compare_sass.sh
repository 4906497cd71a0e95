#!/usr/bin/env bash
# Shows that the probe compiles to nothing in the timing build: the SASS of each kernel
# instantiated with NullProbe against a plain copy without probe or wrapper, per kernel, after
# removing addresses, encodings and names.
#   harris:  probe_kernels.cu (reduce0..reduce6, int)  vs plain_kernels.cu
#   lecture: probe_lecture.cu (8 kernels, float)       vs plain_lecture.cu
#   book:    probe_book.cu (9 kernels, int)            vs plain_book.cu
#   bash tests/sass/compare_sass.sh OUT_DIR [ARCH]      needs nvcc and cuobjdump
set -u
out=${1:?OUT_DIR}; arch=${2:-90}; here=$(cd "$(dirname "$0")" && pwd); root=$here/../..
mkdir -p "$out"
nvcc=${NVCC:-nvcc}; command -v "$nvcc" >/dev/null || nvcc=/usr/local/cuda/bin/nvcc
cuobjdump=$(command -v cuobjdump || echo /usr/local/cuda/bin/cuobjdump)
split() {  # cuobjdump -sass FILE TAG -> one normalized file per kernel: OUT/<tag>.<name>.sass
  # The kernel's name is the length-prefixed identifier after the namespace in the mangled name
  # (_ZN2rs7reduce5ILj256E... -> reduce5, _ZN5plain16reduceNeighboredEPiS0_j -> reduceNeighbored).
  "$cuobjdump" -sass "$1" | awk -v out="$out" -v tag="$2" '
    /Function :/ { match($0, /N(5plain|2rs)[0-9]+/); d = substr($0, RSTART, RLENGTH); sub(/N(5plain|2rs)/, "", d);
                   f = out "/" tag "." substr($0, RSTART + RLENGTH, d + 0) ".sass"; next }
    f && /\/\*[0-9a-f]+\*\// { line = $0; gsub(/\/\*[^*]*\*\//, "", line); gsub(/[ \t]+/, " ", line);
                               sub(/^ /, "", line); sub(/ $/, "", line); if (line != "") print line > f }'
}
same=0; diff=0
compare() {  # TAG PROBE_CU PLAIN_CU NAMES...
  local tag=$1 probe=$2 plain=$3; shift 3
  "$nvcc" -std=c++17 -arch=sm_$arch -cubin -I"$root/kernels" -I"$root/tracing" -o "$out/$tag-probe.cubin" "$here/$probe" || exit 1
  "$nvcc" -std=c++17 -arch=sm_$arch -cubin -o "$out/$tag-plain.cubin" "$here/$plain" || exit 1
  split "$out/$tag-probe.cubin" probe
  split "$out/$tag-plain.cubin" plain
  for k in "$@"; do
    a=$out/probe.$k.sass; b=$out/plain.$k.sass
    if [ -s "$a" ] && cmp -s "$a" "$b"; then
      echo "$k: identical SASS ($(wc -l <"$a") instructions, sm_$arch)"; same=$((same + 1))
    else
      echo "$k: SASS differs ($(wc -l <"$a" 2>/dev/null) vs $(wc -l <"$b" 2>/dev/null) instructions)"; diff=$((diff + 1))
      command -v diff >/dev/null && diff "$b" "$a" | head -20
    fi
  done
}
compare harris probe_kernels.cu plain_kernels.cu reduce0 reduce1 reduce2 reduce3 reduce4 reduce5 reduce6
compare lecture probe_lecture.cu plain_lecture.cu sum_atomic sum_shared sum_reduce sum_reversed \
  sum_add_first sum_last_warp sum_shuffle sum_two_step
compare book probe_book.cu plain_book.cu reduceNeighbored reduceNeighboredLess \
  reduceInterleaved reduceUnrolling2 reduceUnrolling4 reduceUnrolling8 reduceUnrollWarps8 reduceCompleteUnrollWarps8 \
  reduceCompleteUnroll
echo "$same identical, $diff different"
[ $diff -eq 0 ]
