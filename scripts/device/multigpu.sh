#!/usr/bin/env bash
# Runs on the 2-GPU machine (device kind nvidia-h200-x2) for issue 21, the multigpu track:
#   bash scripts/device/multigpu.sh BIN_DIR OUT_DIR
# The GPUs and their links, the multi-GPU GPU tests, `record --track multigpu` (which prints the bench tables
# too) into OUT_DIR/multigpu.rssession and the error paths: one GPU visible, more GPUs asked
# for than present. NVLink multicast stays off (NCCL_NVLS_ENABLE=0; the program sets it as well).
set -u
B=${1:?BIN_DIR}; OUT=${2:?OUT_DIR}
mkdir -p "$OUT"
export NCCL_NVLS_ENABLE=0
{ nvidia-smi -L; nvidia-smi topo -m; nvidia-smi nvlink -s 2>/dev/null | head -40; } > "$OUT/topology.txt" 2>&1
timeout 300 "$B/rs_gpu_tests" --gtest_filter='MultiGpu*' > "$OUT/gpu-tests-multigpu.txt" 2>&1
echo "gpu tests exit $? ($(grep -c '^\[       OK' "$OUT/gpu-tests-multigpu.txt") ok)"
timeout 400 "$B/reducescope" record --track multigpu --out "$OUT/multigpu.rssession" > "$OUT/record-multigpu.txt" 2>&1
echo "record exit $?"
CUDA_VISIBLE_DEVICES=0 "$B/reducescope" bench --track multigpu --sizes 4KiB > "$OUT/one-gpu.txt" 2>&1
echo "one GPU visible: exit $? ($(tail -1 "$OUT/one-gpu.txt"))"
"$B/reducescope" bench --track multigpu --gpus 3 --sizes 4KiB > "$OUT/three-gpus.txt" 2>&1
echo "--gpus 3: exit $? ($(tail -1 "$OUT/three-gpus.txt"))"
