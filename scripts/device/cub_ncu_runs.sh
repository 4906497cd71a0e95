#!/usr/bin/env bash
# CUB's first pass and Nsight Compute's shared-memory bank conflicts (the stop note of 2026-11-26: 275 load and
# 1,710 store conflicts over 4096 blocks where block 0's trace has none). Runs ncu RUNS times on each of CUB's
# kernels with the shared-memory instruction counts, wavefronts and bank conflicts: addresses are the same every
# run, so counts that change from run to run are timing, not addresses (as tests/ncu_redux.sh found for a shared
# store of a __reduce_add_sync result). Also ncu's per-instruction source counters for DeviceReduceKernel (which
# SASS instruction the excess wavefronts are charged to) where this ncu prints them.
# Usage: bash scripts/device/cub_ncu_runs.sh BUILD_DIR   (reducescope there; writes $OUT/cub-ncu-runs.txt)
set -u
B=$(cd "${1:?build dir}" && pwd)
R=$B/reducescope
export PATH=/usr/local/cuda/bin:$PATH
N=16777216
NH=1048576
O=${OUT:-.}/cub-ncu-runs.txt
m=smsp__sass_inst_executed_op_shared_ld.sum,smsp__sass_inst_executed_op_shared_st.sum
m=$m,l1tex__data_pipe_lsu_wavefronts_mem_shared_op_ld.sum,l1tex__data_pipe_lsu_wavefronts_mem_shared_op_st.sum
m=$m,l1tex__data_bank_conflicts_pipe_lsu_mem_shared_op_ld.sum,l1tex__data_bank_conflicts_pipe_lsu_mem_shared_op_st.sum
{
  nvidia-smi --query-gpu=name,driver_version --format=csv,noheader
  ncu --version | tail -1
  printf '%-30s %4s %8s %8s %8s %8s %8s %8s\n' kernel run LDS STS ld_wf st_wf ld_conf st_conf
  for k in DeviceReduceKernel DeviceReduceSingleTileKernel DeviceHistogramSweepKernel; do
    what=reduce; n=$N
    [ $k = DeviceHistogramSweepKernel ] && { what=histogram; n=$NH; }
    for run in $(seq "${RUNS:-5}"); do
      out=$(timeout 120 ncu --kernel-name regex:"$k" --launch-count 1 --metrics "$m" "$R" run --cub $what --n $n 2>&1)
      v() { echo "$out" | awk -v n="$1" '$1 == n {print $NF}' | tr -d ','; }
      printf '%-30s %4s %8s %8s %8s %8s %8s %8s\n' $k $run $(v smsp__sass_inst_executed_op_shared_ld.sum) \
        $(v smsp__sass_inst_executed_op_shared_st.sum) $(v l1tex__data_pipe_lsu_wavefronts_mem_shared_op_ld.sum) \
        $(v l1tex__data_pipe_lsu_wavefronts_mem_shared_op_st.sum) \
        $(v l1tex__data_bank_conflicts_pipe_lsu_mem_shared_op_ld.sum) \
        $(v l1tex__data_bank_conflicts_pipe_lsu_mem_shared_op_st.sum)
    done
  done
  echo
  echo "== ncu source counters, DeviceReduceKernel (SASS lines with shared-memory wavefronts)"
  rep=$(mktemp -d)/r
  timeout 300 ncu --kernel-name regex:DeviceReduceKernel --launch-count 1 --section SourceCounters -o "$rep" \
    "$R" run --cub reduce --n $N > /dev/null 2>&1
  timeout 120 ncu --import "$rep.ncu-rep" --page source --csv --print-source sass 2> /dev/null > "$rep.csv"
  head -1 "$rep.csv"
  grep -E 'LDS|STS|REDUX|BAR' "$rep.csv" | head -60
} 2>&1 | tee "$O"
