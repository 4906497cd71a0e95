#!/usr/bin/env bash
# Issue 40 on a one-GPU machine (no 2-GPU machine was lent): grade with 4 workers at once on GPU 0 (--gpus 0,0,0,0)
# against one worker, on three exercises of the corpus: the same verdicts (timing takes the GPU lock in turn), and
# the two times. Run from the repository root with the headless carry unpacked at /tmp/h.
set -u
R=/tmp/h/bin/reducescope
mkdir -p /tmp/c
for x in first_add shuffle bank_conflicts; do for f in tests/fixtures/user/corpus/$x/*.cu; do d=/tmp/c/$x/$(basename $f .cu); mkdir -p $d; cp $f $d/; done; done
for x in first_add shuffle bank_conflicts; do
  for g in 0 0,0,0,0; do
    t0=$(date +%s.%N)
    $R grade /tmp/c/$x --exercise $x --out /tmp/o-$x-$g --gpus $g > /tmp/o-$x-$g.txt 2>&1
    echo "grade $x --gpus $g: exit $?, $(awk "BEGIN{printf \"%.1f\", $(date +%s.%N) - $t0}") s; $(tail -1 /tmp/o-$x-$g.txt)"
  done
  diff <(cut -d, -f1-5 /tmp/o-$x-0/class.csv) <(cut -d, -f1-5 /tmp/o-$x-0,0,0,0/class.csv) >/dev/null && echo "  $x: the same verdicts with 4 workers at once" || { echo "  $x: DIFFER"; diff <(cut -d, -f1-5 /tmp/o-$x-0/class.csv) <(cut -d, -f1-5 /tmp/o-$x-0,0,0,0/class.csv); }
  grep -h "x reduce\|GB/s" /tmp/o-$x-0,0,0,0/class.csv | head -0
done
cut -d, -f1,3,4,5,6,7,8,9,10 /tmp/o-first_add-0,0,0,0/class.csv
