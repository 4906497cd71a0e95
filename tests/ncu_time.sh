#!/usr/bin/env bash
# GPU check of the timing method: `reducescope bench`'s end-to-end median (CUDA events around every
# launch and memset of one reduction, L2 flushed before each sample) against Nsight Compute's
# gpu__time_duration.sum, summed over the reduction's kernel launches of one `reducescope run` (ncu
# flushes the caches before each kernel by default; --clock-control none leaves the clocks as the bench
# finds them). The gap is what the end-to-end figure adds: launch latency, gaps between launches, the
# memset of an atomic kernel's accumulator, the copy of the partials and the host's part.
# usage: ncu_time.sh REDUCESCOPE [CSV_OUT]
set -u
bin=${1:?reducescope}; csv=${2:-/dev/null}
NCU=$(command -v ncu || ls /usr/local/cuda/bin/ncu /opt/nvidia/nsight-compute/*/ncu 2>/dev/null | head -1)
[ -x "$NCU" ] || { echo "ncu not found"; exit 1; }
echo "kernel,block,n,launches,ncu_kernel_ms,bench_median_ms,bench_over_ncu" >"$csv"
for spec in ${SPECS:-reduce6:256 reduceCompleteUnroll:512 sum_two_step:1024 vec4_loads:1024 single_pass_atomic:1024 single_pass_last_block:1024}; do
  k=${spec%%:*}; bs=${spec##*:}
  for e in ${EXPONENTS:=20 24 28}; do
    b=$("$bin" bench --kernel $k --block-size $bs --n 2^$e --type int32 2>/dev/null | awk -v k=$k '$1 == k {print $3; exit}')
    m=$(timeout 300 "$NCU" --clock-control none --metrics gpu__time_duration.sum \
          "$bin" run --kernel $k --block-size $bs --n 2^$e --type int32 2>&1)
    # Lines: "gpu__time_duration.sum   usecond   29.22" (or us, nsecond, ns, ...), one per launch.
    [ "$e" = "${EXPONENTS%% *}" ] && [ "$k" = reduce6 ] && echo "$m" | grep -m1 gpu__time_duration >&2
    read -r launches ms <<<"$(echo "$m" | awk '$1 == "gpu__time_duration.sum" {
        v = $NF; gsub(",", "", v); u = $(NF-1);
        f = (u ~ /^n/) ? 1e-6 : (u ~ /^u/) ? 1e-3 : (u ~ /^m/) ? 1 : (u ~ /^s/) ? 1e3 : 0;
        n++; s += v * f } END { printf "%d %.6f\n", n, s }')"
    ratio=$(awk -v b="${b:-0}" -v m="${ms:-0}" 'BEGIN { if (m > 0) printf "%.3f", b / m; else print "?" }')
    echo "$k,$bs,2^$e,$launches,$ms,$b,$ratio" | tee -a "$csv"
  done
done
