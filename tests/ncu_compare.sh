#!/usr/bin/env bash
# GPU test: the replay model's bank-conflict totals equal Nsight Compute's counters.
# For every kernel that uses shared memory (both tracks) and block size 64..1024, a 1-block launch
# (N = block size, or 2 x block size for the kernels that add during load):
#   traced: `reducescope trace --quiet` (tracing build + replay model)
#   ncu:    l1tex__data_bank_conflicts_pipe_lsu_mem_shared_op_{ld,st}.sum of `reducescope run`
#           (the timing build)
# usage: ncu_compare.sh REDUCESCOPE [CSV_OUT]; exits 1 on any mismatch or missing figure.
set -u
bin=${1:?reducescope}; csv=${2:-/dev/null}
NCU=$(command -v ncu || ls /usr/local/cuda/bin/ncu /opt/nvidia/nsight-compute/*/ncu 2>/dev/null | head -1)
[ -x "$NCU" ] || { echo "ncu not found"; exit 1; }
metrics=l1tex__data_bank_conflicts_pipe_lsu_mem_shared_op_ld.sum,l1tex__data_bank_conflicts_pipe_lsu_mem_shared_op_st.sum
echo "kernel,block,trace_ld,trace_st,ncu_ld,ncu_st" >"$csv"
bad=0; n_ok=0
# Every kernel that uses shared memory, with its elements per thread (a 1-block launch reads
# block size x that many elements).
kernels=${KERNELS:-"reduce0:1 reduce1:1 reduce2:1 reduce3:2 reduce4:2 reduce5:2 reduce6:2 sum_shared:1 sum_reduce:1 sum_reversed:1 sum_add_first:2 sum_last_warp:2 sum_shuffle:2 sum_two_step:2"}
for spec in $kernels; do k=${spec%%:*}; ipt=${spec##*:}; for bs in 64 128 256 512 1024; do
  n=$((bs * ipt))
  tr=$("$bin" trace --kernel $k --block-size $bs --n $n --quiet 2>&1 |
       sed -n 's/.*loads \([0-9]*\), stores \([0-9]*\).*/\1,\2/p')
  m=$(timeout 120 "$NCU" --metrics $metrics "$bin" run --kernel $k --block-size $bs --n $n 2>&1)
  ld=$(echo "$m" | awk '/op_ld.sum/ {print $NF}' | tr -d ','); st=$(echo "$m" | awk '/op_st.sum/ {print $NF}' | tr -d ',')
  echo "$k,$bs,$tr,$ld,$st" >>"$csv"
  if [ -z "$tr" ] || [ -z "$ld" ] || [ -z "$st" ] || [ "$tr" != "$ld,$st" ]; then
    echo "MISMATCH $k $bs: traced ${tr:-?} ncu ${ld:-?},${st:-?}"; bad=$((bad + 1))
  else
    n_ok=$((n_ok + 1))
  fi
done; done
echo "$n_ok passed, $bad failed"
[ $bad -eq 0 ]
