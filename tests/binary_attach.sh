#!/usr/bin/env bash
# GPU test (ctest -L gpu) of the binary tracer attached to a plain CUDA program (issue 28): builds
# examples/two_reductions.cu with nvcc -lineinfo, traces block 0 of reduce_strided, and checks the trace:
# Nsight Compute's 70 load and 35 store bank conflicts for this launch, the source from the line table, the
# program's own output and exit code passed through; a NAME that matches nothing lists the kernels (exit 1).
# Usage: tests/binary_attach.sh REDUCESCOPE SOURCE_DIR
set -u
R=$1 SRC=$2
W=$(mktemp -d); trap 'rm -rf "$W"' EXIT
fail() { echo "FAIL: $*"; exit 1; }
nvcc=${CUDA_HOME:-/usr/local/cuda}/bin/nvcc
"$nvcc" -lineinfo -o "$W/two" "$SRC/examples/two_reductions.cu" || fail "nvcc"
out=$("$R" trace --kernel reduce_strided --out "$W/s.rstrace" -- "$W/two" 1048576 2>&1); rc=$?
[ $rc = 0 ] || fail "trace exited $rc: $out"
grep -q "^reduce_strided: .* right" <<<"$out" || fail "the program's output did not pass through"
grep -q "bank conflicts (extra wavefronts, 32 banks x 4 bytes): loads 70, stores 35" <<<"$out" || fail "bank conflicts: $out"
show=$("$R" show "$W/s.rstrace") || fail "show"
grep -q "recorded by the binary backend" <<<"$show" || fail "show does not name the tracer"
grep -q "sdata\[tid\] = i < n ? in\[i\] : 0;" "$W/s.rstrace" || fail "the trace does not hold the program's source"
out=$("$R" trace --kernel nosuch --out "$W/x.rstrace" -- "$W/two" 4096 2>&1); rc=$?
[ $rc = 1 ] || fail "no match exited $rc"
grep -q "reduce_shuffle(int const\*, int\*, unsigned int) (1 launch)" <<<"$out" || fail "no list of launched kernels: $out"
echo "binary tracer attached to two_reductions: ok"
