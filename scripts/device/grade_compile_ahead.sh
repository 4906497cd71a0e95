#!/usr/bin/env bash
# Issue 40 on the GPU machine with the carried CLI build (.carry/cli.tar.xz): `grade` of the corpus as seven classes
# (one per exercise, each file a student), first with compiling ahead turned off (REDUCESCOPE_COMPILE_AHEAD=0: each
# check compiles its own file while its GPU waits), then on (app/commands/compile_ahead.hpp). NVRTC's own cache is
# off in both (CUDA_CACHE_DISABLE=1), so that the second run is not helped by the first's compiles. Prints both times
# per class and whether the verdicts are the same; the logs go to $OUT/logs.tgz (the device returns few files).
set -u
mkdir -p /tmp/h && tar -C /tmp/h -xJf .carry/cli.tar.xz && export PATH=/usr/local/cuda/bin:$PATH LD_LIBRARY_PATH=/tmp/h/lib
R=/tmp/h/bin/reducescope
O=/tmp/grade-logs; rm -rf "$O"; mkdir -p "$O"
nvidia-smi --query-gpu=name,driver_version --format=csv,noheader
echo "cores: $(nproc)"
rm -rf /tmp/c && mkdir -p /tmp/c
for f in tests/fixtures/user/corpus/*/*.cu; do
  x=$(basename "$(dirname "$f")"); d=/tmp/c/$x/$(basename "$f" .cu); mkdir -p "$d"; cp "$f" "$d/"
done
export CUDA_CACHE_DISABLE=1
total_off=0; total_on=0
for x in $(ls /tmp/c); do
  for mode in 0 1; do
    t0=$(date +%s.%N)
    REDUCESCOPE_COMPILE_AHEAD=$mode "$R" grade /tmp/c/$x --exercise "$x" --out /tmp/o-$x-$mode --gpus 0 >"$O/grade-$x-ahead$mode.txt" 2>&1
    rc=$?
    s=$(awk "BEGIN{printf \"%.1f\", $(date +%s.%N) - $t0}")
    if [ "$mode" = 0 ]; then total_off=$(awk "BEGIN{print $total_off + $s}"); else total_on=$(awk "BEGIN{print $total_on + $s}"); fi
    echo "grade $x, compiling ahead $([ $mode = 1 ] && echo on || echo off): exit $rc, $s s; $(grep '^graded' "$O/grade-$x-ahead$mode.txt")"
  done
  if diff <(cut -d, -f1-5 /tmp/o-$x-0/class.csv) <(cut -d, -f1-5 /tmp/o-$x-1/class.csv) >/dev/null; then
    echo "  $x: the same verdicts ($(tail -n +2 /tmp/o-$x-1/class.csv | wc -l) students)"
  else
    echo "  $x: VERDICTS DIFFER"; diff <(cut -d, -f1-5 /tmp/o-$x-0/class.csv) <(cut -d, -f1-5 /tmp/o-$x-1/class.csv) | head
  fi
  if ls -d /tmp/reducescope-grade-* >/dev/null 2>&1; then echo "  $x: a compiled-ahead folder was left behind"; fi
done
echo "all seven classes: $total_off s with compiling ahead off, $total_on s on"
tar -C "$O" -czf "${OUT:-/tmp}/logs.tgz" .
