#!/usr/bin/env bash
# GPU test: the trace's warp-level instruction counts of the new event kinds equal Nsight
# Compute's instruction counters, on 1-block launches (so the whole grid is the traced block):
#   shuffles            trace: WarpShuffle entries      ncu: SHFL in sass__inst_executed_per_opcode
#                       (ncu 2025 has no smsp__*_op_shfl counter; the per-opcode histogram is exact)
#   shared atomics      trace: WarpAtomic (shared)      ncu: smsp__sass_inst_executed_op_shared_atom.sum
#                       (float32: a CAS loop; ncu counts every try, at least the trace's rounds)
#   global atomics      trace: WarpAtomic (global)      ncu: ..._op_global_atom.sum + ..._op_global_red.sum
#                       (an atomicAdd whose old value is unused compiles to RED, not ATOM)
#   global load requests trace: GlobalRequest (loads)   ncu: smsp__sass_inst_executed_op_global_ld.sum
#   global load sectors  trace: sum of sectors           ncu: l1tex__t_sectors_pipe_lsu_mem_global_op_ld.sum
#   global store requests trace: GlobalRequest (stores)  ncu: smsp__sass_inst_executed_op_global_st.sum
# The trace comes from the tracing build (`reducescope trace`), the counters from the timing build
# (`reducescope run`).
# usage: ncu_instructions.sh REDUCESCOPE [CSV_OUT]; exits 1 on any mismatch or missing figure.
set -u
bin=${1:?reducescope}; csv=${2:-/dev/null}
NCU=$(command -v ncu || ls /usr/local/cuda/bin/ncu /opt/nvidia/nsight-compute/*/ncu 2>/dev/null | head -1)
[ -x "$NCU" ] || { echo "ncu not found"; exit 1; }
M_SHFL=sass__inst_executed_per_opcode
M_SATOM=smsp__sass_inst_executed_op_shared_atom.sum
M_GATOM=smsp__sass_inst_executed_op_global_atom.sum
M_GRED=smsp__sass_inst_executed_op_global_red.sum
M_GLD=smsp__sass_inst_executed_op_global_ld.sum
M_GST=smsp__sass_inst_executed_op_global_st.sum
M_SECT=l1tex__t_sectors_pipe_lsu_mem_global_op_ld.sum
echo "kernel,type,block,trace_shfl,ncu_shfl,trace_shared_atom,ncu_shared_atom,trace_global_atom,ncu_global_atom_plus_red,trace_ld_requests,ncu_ld,trace_ld_sectors,ncu_ld_sectors,trace_st_requests,ncu_st" >"$csv"
bad=0; ok=0
metric() { echo "$1" | awk -v m="$2" '$1 == m {print $NF}' | tr -d ',' | head -1; }
# SPECS: kernel:elements-per-thread pairs; TYPES, BLOCKS: what to run (all by default).
for spec in ${SPECS:-sum_atomic:1 sum_shared:1 sum_reduce:1 sum_reversed:1 sum_add_first:2 sum_last_warp:2 sum_shuffle:2 sum_two_step:2}; do
  k=${spec%%:*}; ipt=${spec##*:}
  for type in ${TYPES:-int32 float32}; do for bs in ${BLOCKS:-64 256 1024}; do
    n=$((bs * ipt))
    t=$("$bin" trace --kernel $k --block-size $bs --n $n --type $type --quiet 2>&1)
    counts=$(echo "$t" | sed -n 's/.*instructions: \([0-9]*\) shuffles, \([0-9]*\) shared atomics, \([0-9]*\) global atomics, \([0-9]*\) global load requests, \([0-9]*\) global store requests.*/\1 \2 \3 \4 \5/p')
    sectors=$(echo "$t" | sed -n 's/.*global load sectors: \([0-9]*\).*/\1/p')
    rounds=$(echo "$t" | sed -n 's/.*atomic rounds.*shared \([0-9]*\), global.*/\1/p')
    read -r tshfl tsatom tgatom tld tst <<<"${counts:-x x x x x}"
    m=$(timeout 120 "$NCU" --print-metric-instances details --metrics $M_SHFL,$M_SATOM,$M_GATOM,$M_GRED,$M_GLD,$M_SECT,$M_GST \
        "$bin" run --kernel $k --block-size $bs --n $n --type $type 2>&1)
    # The histogram spans several lines: "... (IMAD: 15; ...; SHFL: 5; ...)"; no SHFL entry means 0.
    if echo "$m" | grep -q "$M_SHFL"; then
      # (ncu wraps the value at a fixed width, even inside "SHFL: 5": join everything first)
      nshfl=$(echo "$m" | sed -n '/sass__inst_executed_per_opcode/,/----/p' | tr -d ' \n' | grep -oE 'SHFL:[0-9]+' | head -1 | cut -d: -f2)
      nshfl=${nshfl:-0}
    else nshfl=""; fi
    nsatom=$(metric "$m" $M_SATOM); ngatom=$(metric "$m" $M_GATOM); ngred=$(metric "$m" $M_GRED)
    nld=$(metric "$m" $M_GLD); nsect=$(metric "$m" $M_SECT); nst=$(metric "$m" $M_GST)
    ng=""; [ -n "$ngatom" ] && [ -n "$ngred" ] && ng=$((ngatom + ngred))
    echo "$k,$type,$bs,$tshfl,$nshfl,$tsatom,$nsatom,$tgatom,$ng,$tld,$nld,${sectors:-},$nsect,$tst,$nst" >>"$csv"
    # float32 shared atomics: a compare-and-swap loop on sm_90 (ATOMS.CAST.SPIN), one warp-level try per
    # round until every lane has landed, so ncu counts at least the trace's rounds, and more when other
    # warps' updates make tries fail. Every other count must be equal.
    satom_ok=no
    if [ "$type" = float32 ] && [ "${tsatom:-0}" != 0 ]; then
      [ -n "$nsatom" ] && [ -n "$rounds" ] && [ "$nsatom" -ge "$rounds" ] && satom_ok=yes
      echo "  $k $type $bs: $tsatom warp-level shared atomics, $rounds rounds of contention; ncu counted $nsatom ATOMS tries"
    elif [ "$tsatom" = "$nsatom" ]; then satom_ok=yes; fi
    if [ $satom_ok = yes ] && [ "$tshfl,$tgatom,$tld,${sectors:-},$tst" = "$nshfl,$ng,$nld,$nsect,$nst" ]; then ok=$((ok + 1)); else
      echo "MISMATCH $k $type $bs: trace shfl/satom/gatom/ld/sectors/st $tshfl/$tsatom/$tgatom/$tld/${sectors:-?}/$tst ncu $nshfl/$nsatom/$ng/$nld/$nsect/$nst"
      [ $bad -eq 0 ] && echo "$m" | grep -E 'smsp__|l1tex__|==ERR|==WARN' | head -12
      bad=$((bad + 1))
    fi
  done; done
done
echo "$ok passed, $bad failed"
[ $bad -eq 0 ]
