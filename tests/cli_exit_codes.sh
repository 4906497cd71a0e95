#!/usr/bin/env bash
# Exit codes and messages of the real `reducescope` binary. Needs no GPU.
#
#   bash cli_exit_codes.sh /path/to/reducescope /path/to/fixtures_dir
#
# Exit codes (app/cli.hpp): 0 success, 1 runtime error, 2 usage error. A code above 2 (e.g. 134
# for SIGABRT, 139 for SIGSEGV) is never acceptable. Prints "N passed, M failed" last and exits
# nonzero if anything failed.
set -u

if [[ $# -ne 2 ]]; then
  echo "usage: bash $0 REDUCESCOPE FIXTURES_DIR" >&2
  exit 2
fi
BIN=$1
FIXTURES=$2
if [[ ! -x $BIN ]]; then
  echo "cli_exit_codes: $BIN is not an executable" >&2
  exit 2
fi

TMP=$(mktemp -d "${TMPDIR:-/tmp}/rs_cli_exit_codes.XXXXXX")
trap 'rm -rf "$TMP"' EXIT

passed=0
failed=0
OUT=$TMP/stdout
ERR=$TMP/stderr
RC=0

pass() { passed=$((passed + 1)); }
fail() {
  failed=$((failed + 1))
  echo "FAIL: $*"
  if [[ -s $OUT ]]; then echo "  stdout: $(head -c 400 "$OUT")"; fi
  if [[ -s $ERR ]]; then echo "  stderr: $(head -c 400 "$ERR")"; fi
}

# run ARGS...: runs the binary (30 s at most), sets RC, keeps stdout and stderr in $OUT and $ERR.
run() {
  timeout 30 "$BIN" "$@" >"$OUT" 2>"$ERR" </dev/null
  RC=$?
}

# expect_rc CODE ARGS...: the binary exits with exactly CODE.
expect_rc() {
  local want=$1
  shift
  run "$@"
  if [[ $RC -eq $want ]]; then pass; else fail "reducescope $* exited $RC, expected $want"; fi
}

# expect_in FILE TEXT DESCRIPTION: FILE contains TEXT (case-insensitive).
expect_in() {
  if grep -qi -- "$2" "$1"; then pass; else fail "$3: output lacks '$2'"; fi
}


# ---- help --------------------------------------------------------------------------------------

for args in "--help" "-h" "bench --help" "trace --help" "show --help" "help" "help bench" \
  "bench --n 0 --help" "trace --kernel reduce4 --block-size 32 --help"; do
  # shellcheck disable=SC2086  # split on purpose
  expect_rc 0 $args
  expect_in "$OUT" "usage" "reducescope $args"
done
run bench --help
expect_in "$OUT" "reducescope bench" "bench --help names its command"
run trace --help
expect_in "$OUT" "reducescope trace" "trace --help names its command"
run show --help
expect_in "$OUT" "reducescope show" "show --help names its command"

expect_rc 0 --version
expect_in "$OUT" "reducescope" "--version"

# ---- usage errors: exit 2, one message on stderr, nothing on stdout ------------------------------

usage_case() {
  expect_rc 2 "$@"
  if [[ -s $ERR ]]; then pass; else fail "reducescope $*: no message on stderr"; fi
  if [[ ! -s $OUT ]]; then pass; else fail "reducescope $*: a usage error printed to stdout"; fi
}

usage_case --block-size 3
expect_in "$ERR" "block size 3" "--block-size 3"
usage_case bench --block-size 3
usage_case bench --block-size 48
usage_case bench --block-size 2048
usage_case bench --n 0
expect_in "$ERR" "--n" "bench --n 0"
usage_case bench --n 2^32
usage_case bench --n lots
usage_case bench --samples 5
usage_case bench --kernel nope
usage_case bench --frobnicate
usage_case bench --kernel
usage_case bench --kernel reduce4 --block-size 32
expect_in "$ERR" "at least 64" "bench --kernel reduce4 --block-size 32"
usage_case trace --kernel nope --block-size 256
expect_in "$ERR" "nope" "trace --kernel nope"
usage_case trace --kernel reduce4 --block-size 32
expect_in "$ERR" "at least 64" "trace --kernel reduce4 --block-size 32"
usage_case trace
usage_case trace --kernel reduce2
usage_case trace --block-size 256
usage_case show
usage_case show --csv x
usage_case show a.rstrace b.rstrace

# ---- show: files that are not traces exit 1 (a runtime error, never a signal) --------------------

missing=$TMP/does/not/exist.rstrace
expect_rc 1 show "$missing"
expect_in "$ERR" "$missing" "show of a missing file names it"
expect_rc 1 show /nonexistent
expect_in "$ERR" "/nonexistent" "show /nonexistent names the file"

: >"$TMP/empty.rstrace"
expect_rc 1 show "$TMP/empty.rstrace"
expect_in "$ERR" "empty.rstrace" "show of an empty file names it"

head -c 4096 /dev/urandom >"$TMP/random.rstrace"
expect_rc 1 show "$TMP/random.rstrace"
expect_in "$ERR" "random.rstrace" "show of random bytes names the file"

# Right magic, then garbage.
{ printf 'RSTRACE\0\001\0\0\0\0\0\0\0'; head -c 2048 /dev/urandom; } >"$TMP/garbage_after_magic.rstrace"
expect_rc 1 show "$TMP/garbage_after_magic.rstrace"

# A version from the future.
printf 'RSTRACE\0\143\0\0\0\0\0\0\0' >"$TMP/future.rstrace"
expect_rc 1 show "$TMP/future.rstrace"
expect_in "$ERR" "newer" "show of a version-99 file"

expect_rc 1 show "$TMP"  # a directory

# ---- bench without a GPU -----------------------------------------------------------------------

if command -v nvidia-smi >/dev/null 2>&1 && nvidia-smi -L >/dev/null 2>&1; then
  echo "skipped: bench without a GPU (nvidia-smi -L lists a GPU here)"
else
  expect_rc 1 bench
  lines=$(grep -c '' "$ERR")
  if [[ $lines -eq 1 ]]; then pass; else fail "bench without a GPU: expected one line on stderr, got $lines"; fi
  expect_in "$ERR" "CUDA" "bench without a GPU"
  expect_rc 1 trace --kernel reduce2 --block-size 64 --n 2^12
  expect_in "$ERR" "CUDA" "trace without a GPU"
fi

# ---- fixtures: recorded traces show, damaged copies are refused cleanly --------------------------

# flip_byte SRC DST OFFSET: DST is SRC with the byte at OFFSET inverted.
flip_byte() {
  cp "$1" "$2"
  local byte
  byte=$(od -An -tu1 -j "$3" -N1 "$1" | tr -d ' ')
  # shellcheck disable=SC2059  # the format is the octal escape of the new byte, on purpose
  printf "$(printf '\\%03o' $((byte ^ 0xff)))" | dd of="$2" bs=1 seek="$3" conv=notrunc status=none
}

shopt -s nullglob
fixtures=("$FIXTURES"/*.rstrace)
shopt -u nullglob
if [[ ${#fixtures[@]} -eq 0 ]]; then
  echo "note: no fixtures (*.rstrace) in $FIXTURES; fixture checks skipped"
fi
for f in "${fixtures[@]}"; do
  name=$(basename "$f")
  expect_rc 0 show "$f"
  expect_in "$OUT" "steps" "show $name"

  size=$(stat -c %s "$f")
  for cut in 1 8 20 $((size / 5)) $((size / 2)) $((size - 1)); do
    if [[ $cut -lt 0 || $cut -ge $size ]]; then continue; fi
    head -c "$cut" "$f" >"$TMP/truncated.rstrace"
    # A truncated file always lacks part of its last section: it must be refused, cleanly.
    expect_rc 1 show "$TMP/truncated.rstrace"
  done
  for at in 0 9 12 20 40 $((size / 3)) $((size / 2)) $((size - 20)) $((size - 16)) $((size - 1)); do
    if [[ $at -lt 0 || $at -ge $size ]]; then continue; fi
    flip_byte "$f" "$TMP/flipped.rstrace" "$at"
    # Shipped traces are format version 2: the checksum catches any change, so exit 1.
    expect_rc 1 show "$TMP/flipped.rstrace"
  done
done

echo "$passed passed, $failed failed"
[[ $failed -eq 0 ]]
