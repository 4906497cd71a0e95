#!/usr/bin/env bash
# Shows that the probe compiles to nothing in the timing build: the SASS of reduce0..reduce6
# instantiated with NullProbe (probe_kernels.cu) against a plain copy without probe or wrapper
# (plain_kernels.cu), per kernel, after removing addresses, encodings and names.
#   bash tests/sass/compare_sass.sh OUT_DIR [ARCH]      needs nvcc and cuobjdump
set -u
out=${1:?OUT_DIR}; arch=${2:-90}; here=$(cd "$(dirname "$0")" && pwd); root=$here/../..
mkdir -p "$out"
nvcc=${NVCC:-nvcc}; command -v "$nvcc" >/dev/null || nvcc=/usr/local/cuda/bin/nvcc
cuobjdump=$(command -v cuobjdump || echo /usr/local/cuda/bin/cuobjdump)
"$nvcc" -std=c++17 -arch=sm_$arch -cubin -I"$root/kernels" -I"$root/tracing" -o "$out/probe.cubin" "$here/probe_kernels.cu" || exit 1
"$nvcc" -std=c++17 -arch=sm_$arch -cubin -o "$out/plain.cubin" "$here/plain_kernels.cu" || exit 1
split() {  # cuobjdump -sass FILE -> one normalized file per kernel: OUT/<tag>.reduceN.sass
  "$cuobjdump" -sass "$1" | awk -v out="$out" -v tag="$2" '
    /Function :/ { match($0, /reduce[0-9]/); f = out "/" tag "." substr($0, RSTART, RLENGTH) ".sass"; next }
    f && /\/\*[0-9a-f]+\*\// { line = $0; gsub(/\/\*[^*]*\*\//, "", line); gsub(/[ \t]+/, " ", line);
                               sub(/^ /, "", line); sub(/ $/, "", line); if (line != "") print line > f }'
}
split "$out/probe.cubin" probe
split "$out/plain.cubin" plain
same=0; diff=0
for k in 0 1 2 3 4 5 6; do
  a=$out/probe.reduce$k.sass; b=$out/plain.reduce$k.sass
  if [ -s "$a" ] && cmp -s "$a" "$b"; then
    echo "reduce$k: identical SASS ($(wc -l <"$a") instructions, sm_$arch)"; same=$((same + 1))
  else
    echo "reduce$k: SASS differs ($(wc -l <"$a" 2>/dev/null) vs $(wc -l <"$b" 2>/dev/null) instructions)"; diff=$((diff + 1))
    command -v diff >/dev/null && diff "$b" "$a" | head -20
  fi
done
echo "$same identical, $diff different"
[ $diff -eq 0 ]
