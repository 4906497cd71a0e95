#!/usr/bin/env bash
# Issue 40's done-when on a machine with two GPUs (nvidia-h200-x2 or -h100-x2), with a carried CLI build
# (scripts/device/carried_cli.sh says what to carry): grade_class.sh's part (2) and (3), the corpus copied COPIES
# times under student names, graded on GPU 0 alone and on every GPU, the verdicts compared and both times printed;
# then the shards side by side and merged. Prints the log; $OUT/grade.tgz holds it (grade-class-grade.txt) and each
# class's results (the device returns few files, so one archive).
# Usage (from the repository root): bash scripts/device/grade_two_gpus.sh [COPIES]
set -u
source scripts/device/carried_cli.sh || exit 1
nvidia-smi -L
rm -rf /tmp/grade; bash scripts/device/grade_class.sh "$R" /tmp/grade grade "${1:-1}"
tar -C /tmp -czf "${OUT:-/tmp}/grade.tgz" grade
