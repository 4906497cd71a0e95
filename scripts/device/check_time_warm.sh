#!/usr/bin/env bash
# Issue 40 on the GPU machine with a carried CLI build (scripts/device/carried_cli.sh says what to carry): times
# `check --exercise` with bench/check_time.py (ARGS are its own: --runs, --only, --compare).
# Usage (from the repository root): bash scripts/device/check_time_warm.sh [ARGS...]
set -u
source scripts/device/carried_cli.sh || exit 1
python3 bench/check_time.py --reducescope "$R" "$@"
