#!/usr/bin/env bash
# GPU experiment (issue 18, item 3): Nsight Compute's shared-store wavefronts and bank conflicts for
# the small kernels of tests/ncu/redux_sts.cu, each one block of 512 threads where one lane per warp
# stores one word (16 warp-level stores: 16 wavefronts if nothing else is counted).
# usage: ncu_redux.sh REDUX_STS_BINARY [CSV_OUT]   (needs ncu; prints a table, writes the CSV)
set -u
bin=${1:?redux_sts}; csv=${2:-/dev/null}
NCU=$(command -v ncu || ls /usr/local/cuda/bin/ncu /opt/nvidia/nsight-compute/*/ncu 2>/dev/null | head -1)
[ -x "$NCU" ] || { echo "ncu not found"; exit 1; }
m=smsp__sass_inst_executed_op_shared_st.sum,l1tex__data_pipe_lsu_wavefronts_mem_shared_op_st.sum
m=$m,l1tex__data_bank_conflicts_pipe_lsu_mem_shared_op_st.sum,smsp__sass_inst_executed_op_global_ld.sum
echo "kernel,sts_instructions,st_wavefronts,st_bank_conflicts,global_load_instructions" >"$csv"
printf '%-18s %8s %11s %10s %8s\n' kernel STS wavefronts conflicts LDG
bad=0
runs=${RUNS:-5}
for k in ${KERNELS:-redux_loads redux_noloads shfl_loads redux_loads_sync redux_loads_fence redux_loads_delay loads_store \
         redux_loads_all plain_noloads redux_indep}; do
  for run in $(seq "$runs"); do
    out=$(timeout 120 "$NCU" --metrics "$m" "$bin" "$k" 2>&1)
    echo "$out" | grep -q "^$k *correct" || { echo "$k: wrong result or no run"; echo "$out" | tail -5; bad=1; }
    v() { echo "$out" | awk -v n="$1" '$1 == n {print $NF}' | tr -d ','; }
    sts=$(v smsp__sass_inst_executed_op_shared_st.sum); wf=$(v l1tex__data_pipe_lsu_wavefronts_mem_shared_op_st.sum)
    bc=$(v l1tex__data_bank_conflicts_pipe_lsu_mem_shared_op_st.sum); ldg=$(v smsp__sass_inst_executed_op_global_ld.sum)
    printf '%-18s %8s %11s %10s %8s   (run %d)\n' "$k" "$sts" "$wf" "$bc" "$ldg" "$run"
    echo "$k,$sts,$wf,$bc,$ldg" >>"$csv"
  done
done
exit $bad
