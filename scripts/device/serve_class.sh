#!/usr/bin/env bash
# Issue 55's done-when on the GPU machine: `reducescope serve` with a class of 30 simulated students
# (scripts/device/serve_class.py), each checking one right or wrong exercise file of tests/fixtures/user/corpus every
# 30 s for 3 minutes; every verdict compared with `check --json` of the same file run alone first; a worker killed
# with SIGKILL mid-run. Also keeps each file's check --json (with its message ids) as fixtures for CI's test double.
# Run from the repository root with the carry of scripts/device/carried_cli.sh and the libraries of
# scripts/device/headless_libs.sh in .carry/lib.  Usage: serve_class.sh OUT [MINUTES] [STUDENTS]
set -u
OUT=${1:?usage: serve_class.sh OUT [MINUTES] [STUDENTS]}; MIN=${2:-3}; N=${3:-30}
mkdir -p "$OUT/ref"
source scripts/device/carried_cli.sh || exit 1
export LD_LIBRARY_PATH=$PWD/.carry/lib:$LD_LIBRARY_PATH
C=tests/fixtures/user/corpus
cat > "$OUT/files.txt" <<LIST
first_add $C/first_add/right_grid_stride_shfl.cu
first_add $C/first_add/wrong_missing_tail.cu
shuffle $C/shuffle/right_cg_tile_shfl_down.cu
shuffle $C/shuffle/wrong_half_mask_all_lanes.cu
shuffle $C/shuffle/wrong_four_offsets.cu
bank_conflicts $C/bank_conflicts/right_padded_strided.cu
bank_conflicts $C/bank_conflicts/wrong_interleaved_strided.cu
single_pass $C/single_pass/right_guide_threadfence_reset.cu
single_pass $C/single_pass/wrong_no_threadfence.cu
divergence $C/divergence/wrong_modulo_tree.cu
LIST
dmesg 2>/dev/null | grep -c Xid > "$OUT/xids-before.txt" || true
echo "== check --json of each file alone (the reference verdicts)"
while read -r ex f; do
  n=$(basename "$f" .cu); t0=$(date +%s.%N)
  "$R" check "$f" --exercise "$ex" --json > "$OUT/ref/$ex-$n.json" 2>"$OUT/ref/$ex-$n.err"
  echo "$ex $n: exit $?, $(awk "BEGIN{printf \"%.1f\", $(date +%s.%N) - $t0}") s, passed $(grep -o '"passed": [a-z]*' "$OUT/ref/$ex-$n.json")"
done < "$OUT/files.txt"
python3 - "$N" > "$OUT/roster.csv" <<'PY'
import sys
for k in range(int(sys.argv[1])): print("s%02d,Student %d" % (k, k))
PY
echo "== serve"
"$R" serve --roster "$OUT/roster.csv" --data /tmp/serve-class --port 8471 > "$OUT/serve.txt" 2>"$OUT/serve.err" &
SP=$!
for i in $(seq 100); do grep -q "serving on" "$OUT/serve.txt" && break; sleep 0.1; done
grep -v "/s/\|/i/" "$OUT/serve.txt"
echo "== the class as the issue has it: each student checks the same file every 30 s"
python3 scripts/device/serve_class.py --base http://127.0.0.1:8471 --links /tmp/serve-class/links.txt \
  --files "$OUT/files.txt" --ref "$OUT/ref" --minutes "$MIN" --every 30 --kill 100000 --out "$OUT/class.json"
echo "class exit $?"
echo "== every submission a different file (no reuse), ${UMIN:-2} min, a worker killed at 30 s"
python3 scripts/device/serve_class.py --base http://127.0.0.1:8471 --links /tmp/serve-class/links.txt \
  --files "$OUT/files.txt" --ref "$OUT/ref" --minutes "${UMIN:-2}" --every 30 --kill 30 --unique --out "$OUT/class-unique.json"
echo "class (unique) exit $?"
I=$(grep instructor /tmp/serve-class/links.txt | awk '{print $1}' | sed 's#.*/i/##')
curl -s -H "Authorization: Bearer $I" http://127.0.0.1:8471/api/stats; echo
kill -TERM $SP; wait $SP; echo "serve exit $?"
echo "== after: processes on the GPU, new Xids"
nvidia-smi --query-compute-apps=pid,process_name --format=csv,noheader
echo "Xid lines before: $(cat "$OUT/xids-before.txt"), after: $(dmesg 2>/dev/null | grep -c Xid)"
