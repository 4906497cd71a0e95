#!/usr/bin/env bash
# grade on Slurm (issue 40, item 5), on a single-node Slurm from Debian's packages (slurmctld, slurmd, munge), without a
# GPU: `grade --slurm --shards 4 --compile-only` writes an sbatch array script; sbatch --wait runs its 4 tasks (each
# `grade --shard I/4`), the last merges; the merged class.csv equals a one-batch grade's (every column but the seconds).
# Its own munged, slurmctld and slurmd, on their own socket and ports, under WORKDIR; stopped at the end.
# usage: grade_slurm.sh REDUCESCOPE WORKDIR
set -u
bin=$(readlink -f "${1:?reducescope}"); work=${2:?workdir}
here=$(cd "$(dirname "$0")/.." && pwd)
pass=0; fail=0
ok() { echo "ok: $*"; pass=$((pass + 1)); }
bad() { echo "FAIL: $*"; fail=$((fail + 1)); }
for t in munged slurmctld slurmd sbatch sinfo squeue; do
  command -v "$t" >/dev/null || { echo "grade_slurm: no $t (scripts/setup.sh installs slurmctld slurmd slurm-client munge)"; exit 1; }
done
rm -rf "$work"; mkdir -p "$work"/{state,spool,munge,class}; work=$(readlink -f "$work")
chmod 700 "$work/munge"
cleanup() {
  [ -f "$work/slurmd.pid" ] && kill "$(cat "$work/slurmd.pid")" 2>/dev/null
  [ -f "$work/slurmctld.pid" ] && kill "$(cat "$work/slurmctld.pid")" 2>/dev/null
  [ -f "$work/munge/munged.pid" ] && kill "$(cat "$work/munge/munged.pid")" 2>/dev/null
  sleep 0.5
}
trap cleanup EXIT

# The class: the seven exercises' solutions and the four style fixtures as students, one that does not compile, one
# folder without a file.
for f in "$here"/kernels/user/solutions/*.cu; do cp "$f" "$work/class/sol_$(basename "$f")"; done
for f in "$here"/tests/fixtures/user/styles/*.cu; do mkdir -p "$work/class/style_$(basename "$f" .cu)"; cp "$f" "$work/class/style_$(basename "$f" .cu)/"; done
printf '__global__ void user_kernel(const int* in, int* out, unsigned n) { this does not compile }\n' >"$work/class/broken.cu"
mkdir -p "$work/class/empty_folder"

# munge: a daemon of our own (the key Debian's package made), its socket in WORKDIR.
key=/etc/munge/munge.key
[ -r "$key" ] || { echo "grade_slurm: no $key (the munge package makes it)"; exit 1; }
cp "$key" "$work/munge/munge.key"; chmod 400 "$work/munge/munge.key"
munged --force --socket="$work/munge/munge.sock" --key-file="$work/munge/munge.key" \
  --pid-file="$work/munge/munged.pid" --log-file="$work/munge/munged.log" --seed-file="$work/munge/munged.seed" \
  || { echo "grade_slurm: munged did not start:"; cat "$work/munge/munged.log"; exit 1; }

host=$(hostname -s)
port=$((20000 + RANDOM % 20000))
cat >"$work/slurm.conf" <<CONF
ClusterName=rsgrade
SlurmctldHost=$host(127.0.0.1)
SlurmUser=root
SlurmdUser=root
SlurmctldPort=$port
SlurmdPort=$((port + 1))
AuthType=auth/munge
AuthInfo=socket=$work/munge/munge.sock
CredType=cred/munge
StateSaveLocation=$work/state
SlurmdSpoolDir=$work/spool
SlurmctldPidFile=$work/slurmctld.pid
SlurmdPidFile=$work/slurmd.pid
SlurmctldLogFile=$work/slurmctld.log
SlurmdLogFile=$work/slurmd.log
ProctrackType=proctrack/linuxproc
TaskPlugin=task/none
JobAcctGatherType=jobacct_gather/none
AccountingStorageType=accounting_storage/none
SchedulerType=sched/backfill
SelectType=select/cons_tres
SelectTypeParameters=CR_Core
ReturnToService=2
MpiDefault=none
NodeName=$host NodeAddr=127.0.0.1 CPUs=$(nproc) RealMemory=500 State=UNKNOWN
PartitionName=grade Nodes=$host Default=YES MaxTime=INFINITE State=UP OverSubscribe=YES
CONF
export SLURM_CONF=$work/slurm.conf
slurmctld -f "$SLURM_CONF" || { echo "slurmctld did not start"; cat "$work/slurmctld.log"; exit 1; }
slurmd -f "$SLURM_CONF" -N "$host" || { echo "slurmd did not start"; cat "$work/slurmd.log"; exit 1; }
for _ in $(seq 60); do sinfo -h -o %t 2>/dev/null | grep -Eq '^(idle|mix|alloc)' && break; sleep 0.5; done
state=$(sinfo -h -o %t 2>/dev/null)
echo "$state" | grep -Eq '^(idle|mix|alloc)' && ok "single-node Slurm up (node $host: $state)" \
  || { bad "Slurm's node is not up ($state)"; tail -20 "$work/slurmctld.log" "$work/slurmd.log"; exit 1; }

# The sbatch array.
"$bin" grade "$work/class" --exercise shuffle --out "$work/out" --compile-only --slurm --shards 4 >"$work/slurm-write.txt" 2>&1
grep -q "^#SBATCH --array=1-4$" "$work/out/grade.sbatch" && ! grep -q -- "--gres" "$work/out/grade.sbatch" \
  && ok "grade --slurm writes a 4-task array script (compile only: no --gres)" || bad "grade --slurm: $(cat "$work/slurm-write.txt")"
t0=$(date +%s)
timeout 600 sbatch --wait "$work/out/grade.sbatch" >"$work/sbatch.txt" 2>&1; rc=$?
echo "sbatch --wait: exit $rc in $(( $(date +%s) - t0 )) s: $(cat "$work/sbatch.txt")"
[ $rc -eq 0 ] && ok "sbatch --wait: the array ran (exit 0)" || { bad "sbatch --wait exit $rc"; tail -20 "$work/slurmctld.log"; }
n=$(ls "$work"/out/slurm-*_*.out 2>/dev/null | wc -l)
[ "$n" -eq 4 ] && ok "4 array tasks, one log each" || bad "$n task logs"
cat "$work"/out/slurm-*_*.out | grep -E "^shard|^class|graded" | sed 's/^/  /'
[ -f "$work/out/class.csv" ] && ok "the last task merged: class.csv and class.html" || bad "no class.csv after the array"

# One batch, without Slurm: the same verdicts.
"$bin" grade "$work/class" --exercise shuffle --out "$work/one" --compile-only >"$work/one.txt" 2>&1
strip() { cut -d, -f1-5 "$1" | sort; }  # student, file, outcome, score, max_score
if [ -f "$work/out/class.csv" ] && diff <(strip "$work/out/class.csv") <(strip "$work/one/class.csv") >/dev/null; then
  ok "the merged class equals one batch's ($(($(wc -l <"$work/one/class.csv") - 1)) students)"
else
  bad "merged and one-batch verdicts differ: $(diff <(strip "$work/out/class.csv") <(strip "$work/one/class.csv") | head -5)"
fi
grep -q "^broken,.*,compile error,0,1" "$work/out/class.csv" && grep -q "^empty_folder,,no file,0,1" "$work/out/class.csv" \
  && grep -q "^style_block_reduce_sum,.*,compiled,1,1" "$work/out/class.csv" \
  && ok "a broken file and an empty folder get a zero and their line; the rest compile" \
  || bad "class.csv: $(cat "$work/out/class.csv")"
# A later grade into the same folder, of one student: its merge takes that grade's roster, not the earlier results.
"$bin" grade "$work/class/broken.cu" --exercise shuffle --out "$work/one" --compile-only >"$work/again.txt" 2>&1
"$bin" grade --merge "$work/one" >"$work/merge.txt" 2>&1
rows=$(($(wc -l <"$work/one/class.csv") - 1))
[ "$rows" -eq 1 ] && grep -q "^broken," "$work/one/class.csv" && grep -q "left out .* of an earlier grade" "$work/merge.txt" \
  && ok "a merge after a later grade in the same folder takes its roster only (1 student; says what it left out)" \
  || bad "merge after a later grade: $rows rows; $(cat "$work/merge.txt")"
echo "$pass passed, $fail failed"
[ $fail -eq 0 ]
