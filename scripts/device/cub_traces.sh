#!/usr/bin/env bash
# CUB's kernels traced as compiled (issue 29, item 3; docs/binary-trace.md, "CUB opened"): runs
# cub::DeviceReduce::Sum and cub::DeviceHistogram through `reducescope run --cub`, adds their kernels' block 0
# to a copy of the bundled session (`record --add --binary --kernel cub`), traces them once more with the
# whole step listing, and has Nsight Compute count the same launches' shared-memory bank conflicts, requests
# and sectors. Usage: bash scripts/device/cub_traces.sh BUILD_DIR (with reducescope, libreducescope_inject.so,
# rs_bt_patches.fatbin). Writes $OUT/cub-traces.tgz and $OUT/h100-tracks.rssession.
set -u
B=$(cd "${1:?build dir}" && pwd)
R=$B/reducescope
export PATH=/usr/local/cuda/bin:$PATH
W=$(mktemp -d)
N=16777216
NH=1048576  # the histograms' traces count min(N, kHistogramTraceBytes) bytes of the text
nvidia-smi --query-gpu=name,driver_version --format=csv,noheader | tee "$W/gpu.txt"
cp assets/sessions/h100-tracks.rssession "$W/s.rssession"
"$R" run --cub reduce --n $N > "$W/run.txt" 2>&1; echo "run --cub reduce rc=$?" | tee -a "$W/run.txt"
"$R" run --cub reduce --n $N --type float32 >> "$W/run.txt" 2>&1; echo "run --cub reduce float32 rc=$?" | tee -a "$W/run.txt"
"$R" run --cub histogram --n $NH >> "$W/run.txt" 2>&1; echo "run --cub histogram rc=$?" | tee -a "$W/run.txt"
TIMEFORMAT='%R s'
{ time timeout 300 "$R" record --add --binary --kernel cub --out "$W/s.rssession"; } > "$W/record-cub.txt" 2>&1
echo "record rc=$?" | tee -a "$W/record-cub.txt"
cat "$W/record-cub.txt"
"$R" show "$W/s.rssession" > "$W/show.txt" 2>&1
grep -n "cub::" "$W/show.txt"
cd "$W"
for k in DeviceReduceKernel DeviceReduceSingleTileKernel; do
  timeout 120 "$R" trace --kernel $k --out "$k.rstrace" -- "$R" run --cub reduce --n $N > "$k.txt" 2>&1; echo "$k rc=$?"
  ncu --kernel-name regex:"$k" --launch-count 1 --metrics \
    l1tex__data_bank_conflicts_pipe_lsu_mem_shared_op_ld.sum,l1tex__data_bank_conflicts_pipe_lsu_mem_shared_op_st.sum,l1tex__t_requests_pipe_lsu_mem_global_op_ld.sum,l1tex__t_sectors_pipe_lsu_mem_global_op_ld.sum,launch__block_size,launch__grid_size \
    "$R" run --cub reduce --n $N > "$k-ncu.txt" 2>&1; echo "$k ncu rc=$?"
done
timeout 120 "$R" trace --kernel DeviceHistogramSweepKernel --out hist.rstrace -- "$R" run --cub histogram --n $NH > hist.txt 2>&1; echo "hist rc=$?"
ncu --kernel-name regex:DeviceHistogramSweepKernel --launch-count 1 --metrics \
  l1tex__data_bank_conflicts_pipe_lsu_mem_shared_op_ld.sum,l1tex__data_bank_conflicts_pipe_lsu_mem_shared_op_st.sum,launch__block_size,launch__grid_size \
  "$R" run --cub histogram --n $NH > hist-ncu.txt 2>&1; echo "hist ncu rc=$?"
compute-sanitizer --tool memcheck "$R" run --cub reduce --n 1000003 > memcheck-reduce.txt 2>&1; echo "memcheck reduce rc=$?"
compute-sanitizer --tool memcheck "$R" run --cub histogram --n 100003 > memcheck-histogram.txt 2>&1; echo "memcheck histogram rc=$?"
tail -2 memcheck-reduce.txt memcheck-histogram.txt
head -40 DeviceReduceKernel.txt; grep -A12 "Section\|DeviceReduce" DeviceReduceKernel-ncu.txt | tail -14
head -30 hist.txt
cp "$W/s.rssession" "$OUT/h100-tracks.rssession"
rm -f "$W/s.rssession"
tar czf "$OUT/cub-traces.tgz" -C "$W" .
