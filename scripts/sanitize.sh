#!/usr/bin/env bash
# Host code under sanitizers (no GPU, no window): an ASan + UBSan build of the data layer, the
# CLI and the tests, built with clang, whose unit and CLI tests must pass; then the libFuzzer
# target over the trace reader and replay model for FUZZ_SECONDS (default 30), seeded with the
# bad files in tests/corpus and the shipped traces, and the one over the session reader for
# SESSION_FUZZ_SECONDS (default 15), seeded with tests/corpus and the shipped session. Called by
# scripts/test.sh, which must stay under 20 minutes on 2 cores from a fresh clone; run them longer by hand.
set -euo pipefail
cd "$(dirname "$0")/.."
dir=build-sanitize
CC=clang-14 CXX=clang++-14 bash scripts/build.sh "$dir" -DREDUCESCOPE_CUDA=OFF -DREDUCESCOPE_GUI=OFF \
  -DREDUCESCOPE_SANITIZE=ON -DREDUCESCOPE_FUZZ=ON -DCMAKE_BUILD_TYPE=RelWithDebInfo \
  "-DCMAKE_CXX_FLAGS_RELWITHDEBINFO=-O1 -gline-tables-only -DNDEBUG"
ASAN_OPTIONS=detect_leaks=1 LSAN_OPTIONS=suppressions=$PWD/tests/lsan.supp UBSAN_OPTIONS=print_stacktrace=1 ctest --test-dir "$dir" -L unit -j2 --output-on-failure
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
mkdir -p "$work/new"
echo "fuzzing the trace reader for ${FUZZ_SECONDS:-30} s"
"$dir/tests/fuzz_trace" -max_total_time="${FUZZ_SECONDS:-30}" -rss_limit_mb=2048 -timeout=10 \
  -artifact_prefix="$work/" "$work/new" tests/corpus assets/traces 2>&1 | tail -5
mkdir -p "$work/new_session"
echo "fuzzing the session reader for ${SESSION_FUZZ_SECONDS:-15} s"
"$dir/tests/fuzz_session" -max_total_time="${SESSION_FUZZ_SECONDS:-15}" -rss_limit_mb=2048 -timeout=10 \
  -artifact_prefix="$work/session-" "$work/new_session" tests/corpus assets/sessions 2>&1 | tail -5
