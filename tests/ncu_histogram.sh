#!/usr/bin/env bash
# GPU test: the course track's histogram kernels, traced against Nsight Compute on 1-block launches
# (N = block size bytes, so the whole grid is the traced block):
#   shared atomics         trace: WarpAtomic (shared)   ncu: smsp__sass_inst_executed_op_shared_atom.sum
#   global atomics         trace: WarpAtomic (global)   ncu: ..._op_global_atom.sum + ..._op_global_red.sum
#   global load requests   trace: GlobalRequest (loads) ncu: smsp__sass_inst_executed_op_global_ld.sum
# The trace comes from the tracing build (`reducescope histogram --out`), the counters from the timing
# build (the first launch of the kernel in `reducescope histogram`).
# usage: ncu_histogram.sh REDUCESCOPE [CSV_OUT]; exits 1 on any mismatch or missing figure.
set -u
bin=${1:?reducescope}; csv=${2:-/dev/null}
NCU=$(command -v ncu || ls /usr/local/cuda/bin/ncu /opt/nvidia/nsight-compute/*/ncu 2>/dev/null | head -1)
[ -x "$NCU" ] || { echo "ncu not found"; exit 1; }
M_SATOM=smsp__sass_inst_executed_op_shared_atom.sum
M_GATOM=smsp__sass_inst_executed_op_global_atom.sum
M_GRED=smsp__sass_inst_executed_op_global_red.sum
M_GLD=smsp__sass_inst_executed_op_global_ld.sum
echo "kernel,input,block,trace_shared_atom,ncu_shared_atom,trace_global_atom,ncu_global_atom_plus_red,trace_ld,ncu_ld" >"$csv"
metric() { echo "$1" | awk -v m="$2" '$1 == m {print $NF}' | tr -d ',' | head -1; }
bad=0; ok=0
tmp=$(mktemp -d)
for k in ${KERNELS:-histo_sectioned histo_basic histo_private}; do for in in text uniform skewed; do
  for bs in ${BLOCKS:-64 256 1024}; do
    t=$("$bin" histogram --kernel $k --input $in --n $bs --block-size $bs --out "$tmp/t.rstrace" 2>&1)
    counts=$(echo "$t" | sed -n 's/.*instructions: \([0-9]*\) shuffles, \([0-9]*\) shared atomics, \([0-9]*\) global atomics, \([0-9]*\) global load requests.*/\2 \3 \4/p')
    read -r tsatom tgatom tld <<<"${counts:-x x x}"
    m=$(timeout 180 "$NCU" -k "regex:$k" -c 1 --metrics $M_SATOM,$M_GATOM,$M_GRED,$M_GLD \
          "$bin" histogram --kernel $k --input $in --n $bs --block-size $bs --samples 20 2>&1)
    satom=$(metric "$m" $M_SATOM); gatom=$(metric "$m" $M_GATOM); gred=$(metric "$m" $M_GRED); gld=$(metric "$m" $M_GLD)
    g=""; [ -n "$gatom" ] && [ -n "$gred" ] && g=$((gatom + gred))
    echo "$k,$in,$bs,$tsatom,$satom,$tgatom,$g,$tld,$gld" >>"$csv"
    if [ "$tsatom" = "$satom" ] && [ "$tgatom" = "$g" ] && [ "$tld" = "$gld" ]; then
      ok=$((ok + 1))
    else
      echo "MISMATCH $k $in $bs: trace $tsatom/$tgatom/$tld ncu $satom/$g/$gld"; bad=$((bad + 1))
    fi
  done
done; done
rm -rf "$tmp"
echo "histogram instruction counts: $ok equal, $bad different"
[ $bad -eq 0 ]
