#!/usr/bin/env bash
# Issue 40 on the GPU machine. (1) The corpus (tests/fixtures/user/corpus/expected.json): each file under
# `check --exercise`, its verdict against the one expected, with the time and where it went. (2) `grade` of a class
# made of the corpus copied under student names (COPIES copies of each file), on one GPU and on every GPU: the same
# verdicts, and the two times. (3) Two shards run side by side (one per GPU, no Slurm), merged: the one-batch verdicts.
# Usage (from the repository root): bash scripts/device/grade_class.sh REDUCESCOPE OUT_DIR [all|corpus|grade] [COPIES]
set -u
R=$(readlink -f "${1:?REDUCESCOPE}"); O=$(readlink -m "${2:?OUT_DIR}"); part=${3:-all}; copies=${4:-1}
mkdir -p "$O"
corpus=tests/fixtures/user/corpus
{
  echo "== $(date -u +%FT%TZ) $(nvidia-smi --query-gpu=name,driver_version --format=csv,noheader | paste -sd';')"
  if [ "$part" != grade ]; then
  echo "== (1) the corpus under check"
  python3 - "$R" "$corpus" <<'PY'
import json, subprocess, sys, time
r, corpus = sys.argv[1], sys.argv[2]
ok = bad = 0
for e in json.load(open(corpus + "/expected.json")):
    t0 = time.time()
    p = subprocess.run([r, "check", corpus + "/" + e["file"], "--exercise", e["exercise"]], capture_output=True, text=True)
    s = time.time() - t0
    passed = p.returncode == 0
    agree = passed == e["right"]
    ok += agree; bad += not agree
    took = [l.strip() for l in p.stdout.splitlines() if l.strip().startswith("(time:")]
    failed = [l.strip() for l in p.stdout.splitlines() if l.strip().startswith("\u2717") or l.strip().startswith("- ")]
    print("%-4s %-44s expected %-5s got %-5s %5.1f s %s" % ("ok" if agree else "FAIL", e["file"], "right" if e["right"] else "wrong",
          "pass" if passed else "fail", s, took[0] if took else ""))
    for f in failed[:3]: print("       " + f[:300])
    if e.get("hidden") or (not agree and not failed):  # issue 57's hidden bugs: the whole output (their sums too)
        print("       --- whole output ---")
        print("       " + (p.stdout + p.stderr).strip().replace("\n", "\n       ")[-3000:])
print("corpus: %d agree, %d disagree" % (ok, bad))
PY
  fi
  [ "$part" = corpus ] && exit 0
  echo "== (2) grade: a class of the corpus x $copies"
  cls=$O/class; rm -rf "$cls"; mkdir -p "$cls"
  python3 - "$corpus" "$cls" "$copies" <<'PY'
import json, shutil, sys
corpus, cls, copies = sys.argv[1], sys.argv[2], int(sys.argv[3])
by = {}
for e in json.load(open(corpus + "/expected.json")): by.setdefault(e["exercise"], []).append(e)
n = 0
for x, es in sorted(by.items()):
    for c in range(copies):
        for e in es:
            n += 1
            d = "%s/%s/student%03d" % (cls, x, n)
            shutil.os.makedirs(d)
            shutil.copy(corpus + "/" + e["file"], d + "/kernel.cu")
print("class: %d submissions over %d exercises" % (n, len(by)))
PY
  ngpu=$(nvidia-smi -L | wc -l)
  gsets="0 all"; [ "$ngpu" -gt 1 ] || gsets=0  # one GPU: "all" is GPU 0 again
  for x in $(ls "$cls"); do
    for g in $gsets; do
      t0=$(date +%s.%N)
      "$R" grade "$cls/$x" --exercise "$x" --out "$O/grade-$x-$g" --gpus "$g" >"$O/grade-$x-$g.txt" 2>&1
      echo "grade $x on --gpus $g: exit $?, $(awk "BEGIN{printf \"%.1f\", $(date +%s.%N) - $t0}") s; $(tail -1 "$O/grade-$x-$g.txt")"
    done
    if [ "$ngpu" -eq 1 ]; then
      :
    elif diff <(cut -d, -f1-5 "$O/grade-$x-0/class.csv") <(cut -d, -f1-5 "$O/grade-$x-all/class.csv") >/dev/null; then
      echo "  $x: the same verdicts on 1 and $ngpu GPUs"
    else
      echo "  $x: VERDICTS DIFFER"; diff <(cut -d, -f1-5 "$O/grade-$x-0/class.csv") <(cut -d, -f1-5 "$O/grade-$x-all/class.csv") | head
    fi
  done
  nsh=$(( ngpu > 2 ? ngpu : 2 ))
  echo "== (3) $nsh shards side by side, on $ngpu GPU(s), merged"
  x=$(ls "$cls" | head -1)
  rm -rf "$O/shards"
  t0=$(date +%s.%N)
  for i in $(seq 1 "$nsh"); do
    CUDA_VISIBLE_DEVICES=$(( (i - 1) % ngpu )) "$R" grade "$cls/$x" --exercise "$x" --out "$O/shards" --shard "$i/$nsh" \
      >"$O/shard-$i.txt" 2>&1 &
  done
  wait
  "$R" grade --merge "$O/shards"
  echo "shards: $(awk "BEGIN{printf \"%.1f\", $(date +%s.%N) - $t0}") s"
  diff <(cut -d, -f1-5 "$O/shards/class.csv") <(cut -d, -f1-5 "$O/grade-$x-0/class.csv") >/dev/null \
    && echo "  merged shards equal the one-batch verdicts ($x)" || echo "  MERGED SHARDS DIFFER"
} 2>&1 | tee "$O/grade-class-$part.txt"
