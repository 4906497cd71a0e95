#!/usr/bin/env bash
# Issue 38, item 3 on the GPU machine: a float kernel of a plain program attached with no --type shows its values as
# floats; a later launch is named; CUB's float kernel too; shuffles print no value. Usage (from the repository root):
#   bash scripts/device/typed_values.sh BIN_DIR OUT_DIR
# BIN_DIR holds reducescope, libreducescope_inject.so and rs_bt_patches.fatbin. Writes OUT_DIR/typed-values.txt and
# the traces.
set -u
B=$(cd "${1:?BIN_DIR}" && pwd); O=${2:?OUT_DIR}
mkdir -p "$O"
R=$B/reducescope
export PATH=/usr/local/cuda/bin:$PATH
W=$(mktemp -d)
{
  echo "== $(date -u +%FT%TZ) $(nvidia-smi --query-gpu=name,driver_version --format=csv,noheader)"
  nvcc -lineinfo -arch=sm_90 -o "$W/block_max" examples/block_max.cu || echo "nvcc failed"
  nvcc -lineinfo -arch=sm_90 -o "$W/two_reductions" examples/two_reductions.cu || echo "nvcc failed"
  echo "== block_max<float>, first launch, no --type"
  "$R" trace --kernel block_max --quiet --out "$O/block_max.rstrace" -- "$W/block_max" 1048576; echo "exit $?"
  "$R" show "$O/block_max.rstrace" --steps | head -60; echo "exit $?"
  echo "== block_max<float>, launch 3, no --type"
  "$R" trace --kernel block_max --launch 3 --quiet --out "$O/block_max-launch3.rstrace" -- "$W/block_max" 1048576
  echo "exit $?"
  "$R" show "$O/block_max-launch3.rstrace" | head -12; echo "exit $?"
  echo "== block_max<float>, --type int32 (the bits, as asked)"
  "$R" trace --kernel block_max --type int32 --quiet --out "$O/block_max-int32.rstrace" -- "$W/block_max" 1048576
  echo "exit $?"
  "$R" show "$O/block_max-int32.rstrace" | head -4
  echo "== CUB's DeviceReduceKernel on float32, no --type"
  "$R" trace --kernel DeviceReduceKernel --quiet --out "$O/cub-float.rstrace" -- \
    "$R" run --cub reduce --type float32 --n 1048576; echo "exit $?"
  "$R" show "$O/cub-float.rstrace" --steps | head -40; echo "exit $?"
  echo "== reduce_shuffle (int): shuffles print no value"
  "$R" trace --kernel reduce_shuffle --quiet --out "$O/shuffle.rstrace" -- "$W/two_reductions" 1048576; echo "exit $?"
  "$R" show "$O/shuffle.rstrace" --steps | grep -n "shfl\|moves\|no values" | head -12
} 2>&1 | tee "$O/typed-values.txt"
rm -rf "$W"
