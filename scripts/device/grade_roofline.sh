#!/usr/bin/env bash
# Issue 40 on the GPU machine with the carried build (.carry/headless.tar.xz): grade_class.sh over the corpus, then the
# first_add students' pages and roofline charts (PNG, SVG, PDF, CSV) into $OUT/pages.tgz.
set -u
mkdir -p /tmp/h && tar -C /tmp/h -xJf .carry/headless.tar.xz && export PATH=/usr/local/cuda/bin:$PATH LD_LIBRARY_PATH=/tmp/h/lib
nvidia-smi --query-gpu=name,driver_version --format=csv,noheader
O=/tmp/o; mkdir -p $O
timeout 540 bash scripts/device/grade_class.sh /tmp/h/bin/reducescope $O all 1 > $O/grade_class.log 2>&1
echo "grade_class rc=$?"
tail -30 $O/grade_class.log
# the students' pages and rooflines of one timed exercise
mkdir -p $OUT/pages
for d in $O/grade-first_add-0/students/*/; do n=$(basename $d); mkdir -p $OUT/pages/$n; cp $d/report.html $d/roofline.* $OUT/pages/$n/ 2>/dev/null; done
cp $O/grade-first_add-0/class.html $O/grade-first_add-0/class.csv $OUT/pages/ 2>/dev/null
cp $O/grade_class.log $OUT/
ls $OUT/pages | head
tar -C $OUT -czf $OUT/pages.tgz pages && rm -rf $OUT/pages
