#!/usr/bin/env bash
# Exit codes and messages of the real `reducescope` binary. Needs no GPU.
#
#   bash cli_exit_codes.sh /path/to/reducescope /path/to/fixtures_dir [/path/to/session.rssession]
#
# Exit codes (app/cli.hpp): 0 success, 1 runtime error, 2 usage error. A code above 2 (e.g. 134
# for SIGABRT, 139 for SIGSEGV) is never acceptable. Prints "N passed, M failed" last and exits
# nonzero if anything failed.
set -u

if [[ $# -lt 2 || $# -gt 3 ]]; then
  echo "usage: bash $0 REDUCESCOPE FIXTURES_DIR [SESSION]" >&2
  exit 2
fi
BIN=$1
FIXTURES=$2
SESSION=${3:-}
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
# A mistyped command is an unknown command, with the nearest one, even with --help (issue 38, item 6).
usage_case frobnicate
expect_in "$ERR" "unknown command 'frobnicate'" "frobnicate"
usage_case frobnicate --help
usage_case tarce --kernel reduce1
expect_in "$ERR" "the nearest is 'trace'" "tarce"
usage_case bench --kernel
usage_case bench --kernel reduce4 --block-size 32
expect_in "$ERR" "at least 64" "bench --kernel reduce4 --block-size 32"
usage_case bench --track multigpu --sizes 4097
expect_in "$ERR" "multiple of 4" "bench --track multigpu --sizes 4097"
usage_case trace --track multigpu --block-size 256
# The multigpu track on a machine without 2 GPUs (CI): one line saying so, exit 1, never a hang.
expect_rc 1 bench --track multigpu --sizes 4KiB
expect_in "$ERR" "needs at least 2 GPUs\|needs CUDA and NCCL" "bench --track multigpu on fewer than 2 GPUs (or a build without NCCL)"
expect_rc 1 record --track multigpu --sizes 4KiB --out "$TMP/mg.rssession"
if [[ ! -e $TMP/mg.rssession ]]; then pass; else fail "record --track multigpu wrote a session without measuring"; fi
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
usage_case record
expect_in "$ERR" "--out" "record without --out"
usage_case record --out "$TMP/x.rssession" --samples 5
usage_case record "$TMP/x.rssession"
usage_case export
usage_case export "$TMP/s.rssession"
expect_in "$ERR" "--out" "export without --out"
usage_case export --out "$TMP/charts"
usage_case export "$TMP/s.rssession" --out "$TMP/charts" --block-size 48
usage_case export "$TMP/s.rssession" --out "$TMP/charts" --block-size 128,256
expect_in "$ERR" "one --block-size" "export --out with two block sizes"
usage_case export "$TMP/s.rssession" --html "$TMP/x.html" --out "$TMP/charts"
usage_case export "$TMP/s.rssession" --html "$TMP/x.html" --block-size 128,48
expect_in "$ERR" "48" "export --html --block-size 128,48"
usage_case export "$TMP/s.rssession" --html
usage_case export --sweep "$TMP/b.csv" --html "$TMP/x.html"
usage_case show "$TMP/s.rssession" --html "$TMP/x.html"
usage_case show "$TMP/s.rssession" --out "$TMP/x"

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
  # record: one line saying there is no GPU (a CUDA build: "no CUDA GPU is available") or no CUDA
  # support (a build without CUDA), and no session file, not even a half-written one.
  expect_rc 1 record --out "$TMP/nogpu.rssession" --n 2^12
  lines=$(grep -c '' "$ERR")
  if [[ $lines -eq 1 ]]; then pass; else fail "record without a GPU: expected one line on stderr, got $lines"; fi
  if grep -qiE 'GPU|CUDA' "$ERR"; then pass; else fail "record without a GPU: the message names neither GPU nor CUDA"; fi
  if [[ ! -e $TMP/nogpu.rssession && ! -e $TMP/nogpu.rssession.part ]]; then pass; else
    fail "record without a GPU wrote a file"
  fi
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
# Every fixture shows, and is refused cut in half or with its middle byte flipped; every 8th is also cut and flipped
# at each of the offsets below (the headers, the sections' edges, the checksum). The trace reader's every byte is
# the fuzzer's work (scripts/sanitize.sh); each of these runs a process, and all offsets on all 51 files took most
# of this test's 150 s.
i=0
for f in "${fixtures[@]}"; do
  name=$(basename "$f")
  expect_rc 0 show "$f"
  expect_in "$OUT" "steps" "show $name"

  size=$(stat -c %s "$f")
  cuts=($((size / 2))) ats=($((size / 2)))
  if ((i++ % 8 == 0)); then
    cuts=(1 8 20 $((size / 5)) $((size / 2)) $((size - 1)))
    ats=(0 9 12 20 40 $((size / 3)) $((size / 2)) $((size - 20)) $((size - 16)) $((size - 1)))
  fi
  for cut in "${cuts[@]}"; do
    if [[ $cut -lt 0 || $cut -ge $size ]]; then continue; fi
    head -c "$cut" "$f" >"$TMP/truncated.rstrace"
    # A truncated file always lacks part of its last section: it must be refused, cleanly.
    expect_rc 1 show "$TMP/truncated.rstrace"
  done
  for at in "${ats[@]}"; do
    if [[ $at -lt 0 || $at -ge $size ]]; then continue; fi
    flip_byte "$f" "$TMP/flipped.rstrace" "$at"
    # Shipped traces are format version 2: the checksum catches any change, so exit 1.
    expect_rc 1 show "$TMP/flipped.rstrace"
  done
done

# ---- a session recorded on a GPU: shows, exports, damaged copies are refused cleanly --------------

# expect_one_line DESCRIPTION: stderr holds exactly one line.
expect_one_line() {
  local lines
  lines=$(grep -c '' "$ERR")
  if [[ $lines -eq 1 ]]; then pass; else fail "$1: expected one line on stderr, got $lines"; fi
}

if [[ -z $SESSION ]]; then
  echo "note: no session file given; session checks skipped"
elif [[ ! -f $SESSION ]]; then
  fail "session file $SESSION does not exist"
else
  expect_rc 0 show "$SESSION"
  expect_in "$OUT" "ReduceScope session" "show SESSION"
  expect_in "$OUT" "H100" "show SESSION names the GPU"
  # The date it was recorded on: the meta section is not compressed, so it is the first ISO 8601
  # date in the file.
  date=$(grep -aoE '[0-9]{4}-[0-9]{2}-[0-9]{2}T[0-9]{2}:[0-9]{2}:[0-9]{2}Z' "$SESSION" | head -1)
  if [[ -n $date ]]; then pass; else fail "no ISO 8601 date in $SESSION"; fi
  expect_in "$OUT" "$date" "show SESSION prints the date"
  expect_in "$OUT" "39 traces, 39 timings" "show SESSION counts its traces and timings"
  if [[ ! -s $ERR ]]; then pass; else fail "show SESSION wrote to stderr"; fi

  # By content, not by name: a session under another name is still a session.
  cp "$SESSION" "$TMP/renamed.rstrace"
  expect_rc 0 show "$TMP/renamed.rstrace"
  expect_in "$OUT" "ReduceScope session" "show of a session named .rstrace"

  ssize=$(stat -c %s "$SESSION")
  for at in 0 8 12 16 $((ssize / 3)) $((ssize / 2)) $((ssize - 5)) $((ssize - 1)); do
    flip_byte "$SESSION" "$TMP/flipped.rssession" "$at"
    expect_rc 1 show "$TMP/flipped.rssession"
    expect_one_line "show of a session flipped at byte $at"
    expect_in "$ERR" "flipped.rssession" "show of a session flipped at byte $at names the file"
  done
  for cut in 8 100 $((ssize / 2)) $((ssize - 20)) $((ssize - 1)); do
    head -c "$cut" "$SESSION" >"$TMP/truncated.rssession"
    expect_rc 1 show "$TMP/truncated.rssession"
    expect_one_line "show of a session cut to $cut bytes"
  done

  # export of the real session: charts and their CSVs, unless this build has no chart export.
  charts=yes
  run export "$SESSION" --out "$TMP/charts"
  if [[ $RC -eq 1 ]] && grep -qi "no chart export" "$ERR"; then
    charts=no
    echo "skipped: export of a session (this build has no chart export)"
    expect_one_line "export in a build without chart export"
  elif [[ $RC -eq 0 ]]; then
    pass
    for f in blocksize_time.png blocksize_time.csv; do
      if [[ -s $TMP/charts/$f ]]; then pass; else fail "export SESSION --out DIR: no $f in DIR"; fi
    done
    expect_in "$OUT" "H100" "export SESSION names the GPU"
  else
    fail "reducescope export SESSION --out DIR exited $RC, expected 0"
  fi

  # export: a damaged or missing session is refused (exit 1, one line) and leaves no charts.
  flip_byte "$SESSION" "$TMP/flipped.rssession" $((ssize / 2))
  expect_rc 1 export "$TMP/flipped.rssession" --out "$TMP/bad_charts"
  expect_one_line "export of a damaged session"
  if [[ $charts == yes ]]; then expect_in "$ERR" "flipped.rssession" "export of a damaged session names it"; fi
  if [[ -z $(ls -A "$TMP/bad_charts" 2>/dev/null) ]]; then pass; else fail "export of a damaged session wrote files"; fi
  expect_rc 1 export "$TMP/does/not/exist.rssession" --out "$TMP/bad_charts"
  expect_one_line "export of a missing session"

  # export --html: one self-contained web page (no chart export needed), nothing loaded from the network.
  expect_rc 0 export "$SESSION" --html "$TMP/page.html"
  if [[ -s $TMP/page.html ]]; then pass; else fail "export SESSION --html FILE wrote no FILE"; fi
  expect_in "$OUT" "H100" "export --html names the GPU"
  expect_in "$OUT" "bytes" "export --html says the page's size"
  if grep -q "https\?://" "$TMP/page.html"; then fail "the web page refers to http(s)"; else pass; fi
  expect_rc 0 export "$SESSION" --html "$TMP/page128.html" --block-size 128,256
  if [[ $(stat -c %s "$TMP/page128.html") -lt $(stat -c %s "$TMP/page.html") ]]; then pass
  else fail "export --html --block-size 128,256 is not smaller than the whole session's page"; fi
  # A damaged session, a folder in place of the file: exit 1, one line, no page.
  expect_rc 1 export "$TMP/flipped.rssession" --html "$TMP/bad.html"
  expect_one_line "export --html of a damaged session"
  if [[ ! -e $TMP/bad.html ]]; then pass; else fail "export --html of a damaged session wrote a page"; fi
  mkdir -p "$TMP/a_folder"
  expect_rc 1 export "$SESSION" --html "$TMP/a_folder"
  expect_one_line "export --html onto a folder"
fi

# ---- profile without Nsight Compute on the PATH: one line saying so, exit 1 -----------------------
if [[ -n $SESSION ]]; then
  cp "$SESSION" "$TMP/profile.rssession"
  TIMEOUT=$(command -v timeout)
  PATH=/nonexistent "$TIMEOUT" 30 "$BIN" profile "$TMP/profile.rssession" >"$OUT" 2>"$ERR" </dev/null
  RC=$?
  if [[ $RC -eq 1 ]]; then pass; else fail "profile without ncu exited $RC, expected 1"; fi
  expect_one_line "profile without ncu"
  expect_in "$ERR" "ncu" "profile without ncu names it"
  if cmp -s "$SESSION" "$TMP/profile.rssession"; then pass; else fail "profile without ncu changed the session"; fi
fi

# ---- your own kernel: new writes a starting file, check compiles it (kernels/user_kernel.hpp) ------------

usage_case new
usage_case new "$TMP/k.cu"
expect_in "$ERR" "--from" "new without --from"
usage_case new --from reduce1
usage_case new --from reduce1 "$TMP/a.cu" "$TMP/b.cu"
usage_case check
usage_case check --from reduce1 "$TMP/k.cu"
# --from a kernel with no starting file, or no kernel at all: exit 2, the message lists the starting files.
expect_rc 2 new --from sum_atomic "$TMP/k.cu"
expect_in "$ERR" "no starting file" "new --from sum_atomic"
expect_in "$ERR" "reduce0, reduce1" "new --from sum_atomic lists the starting files"
expect_rc 2 new --from nope "$TMP/k.cu"
expect_in "$ERR" "not a shipped kernel" "new --from nope"
if [[ ! -e $TMP/k.cu ]]; then pass; else fail "new --from a kernel without a starting file wrote a file"; fi
# Written once; never overwritten (exit 1, the file as it was).
expect_rc 0 new --from reduce1 "$TMP/k.cu"
expect_in "$TMP/k.cu" "__global__ void user_kernel(const T\* in, T\* out, unsigned n) {" "new writes the entry point (plain CUDA)"
if ! grep -q '^#include "reducescope.cuh"' "$TMP/k.cu"; then pass; else fail "new wrote the wrapped dialect without --wrapped"; fi
expect_rc 0 new --from reduce1 --wrapped "$TMP/kw.cu"
expect_in "$TMP/kw.cu" "__global__ void user_kernel(const T\* in, T\* out, unsigned n, Probe probe)" "new --wrapped writes the wrapped entry point"
expect_in "$TMP/kw.cu" '^#include "reducescope.cuh"' "new --wrapped writes the include"
expect_in "$TMP/k.cu" "What you may change" "new writes the rules"
expect_in "$OUT" "reducescope check" "new says what to do next"
echo "// mine" >>"$TMP/k.cu"
cp "$TMP/k.cu" "$TMP/k.before"
expect_rc 1 new --from reduce2 "$TMP/k.cu"
expect_in "$ERR" "exists" "new onto an existing file"
if cmp -s "$TMP/k.cu" "$TMP/k.before"; then pass; else fail "new overwrote an existing file"; fi
mkdir -p "$TMP/kdir"
expect_rc 1 new --from reduce1 "$TMP/kdir"
expect_in "$ERR" "directory" "new onto a directory"
expect_rc 1 new --from reduce1 "$TMP/no/such/dir/k.cu"
expect_one_line "new into a missing folder"

# check: files that are no kernel files exit 2 with one line naming the file, in any build.
expect_rc 2 check "$TMP/missing.cu"
expect_one_line "check of a missing file"
expect_in "$ERR" "missing.cu: error: no such file" "check of a missing file"
expect_rc 2 check "$TMP/kdir"
expect_in "$ERR" "is a directory" "check of a directory"
head -c 300 "$TMP/k.cu" >"$TMP/nul.cu"; printf '\0' >>"$TMP/nul.cu"
expect_rc 2 check "$TMP/nul.cu"
expect_in "$ERR" "not a text file" "check of a file with a NUL byte"
run check "$TMP/k.cu"
if [[ $RC -eq 1 ]] && grep -q "without the CUDA toolkit's NVRTC" "$ERR"; then
  echo "skipped: check's compile cases (this build has no NVRTC)"
  expect_one_line "check in a build without NVRTC"
else
  : >"$TMP/empty.cu"
  expect_rc 2 check "$TMP/empty.cu"
  expect_in "$ERR" "empty.cu: error: the file is empty" "check of an empty file"
  # A compile error: FILE:LINE:COL: error: message, at the line of the mistake; exit 2; nothing on stdout.
  sed 's/if (index < blockDim.x) {/if (index < blockDim.x + oops) {/' "$TMP/k.cu" >"$TMP/bad.cu"
  line=$(grep -n "oops" "$TMP/bad.cu" | cut -d: -f1)
  expect_rc 2 check "$TMP/bad.cu"
  expect_in "$ERR" "bad.cu:$line:[0-9]*: error: identifier \"oops\" is undefined" "check of a file with an error names its line"
  if [[ ! -s $OUT ]]; then pass; else fail "check of a broken file printed to stdout"; fi
  # An include out of the file's folder (a course grades untrusted files): refused at its line, exit 2, and the named
  # file's text never reaches the message.
  sed 's|^RS_LAUNCH_SHAPE|#include "/etc/passwd"\nRS_LAUNCH_SHAPE|' "$TMP/k.cu" >"$TMP/inc.cu"
  line=$(grep -n "/etc/passwd" "$TMP/inc.cu" | cut -d: -f1)
  expect_rc 2 check "$TMP/inc.cu"
  expect_in "$ERR" "inc.cu:$line:1: error: #include \"/etc/passwd\" is not allowed: an absolute path" \
    "check refuses an include out of the file's folder at its line"
  if ! grep -q "root:" "$ERR"; then pass; else fail "the refused file's text reached the message"; fi
  sed 's/user_kernel/my_kernel/g' "$TMP/k.cu" >"$TMP/noentry.cu"
  expect_rc 2 check "$TMP/noentry.cu"
  expect_in "$ERR" "no entry point" "check of a file without user_kernel"
  sed 's/T\* out, unsigned n) {/T* out, int n) {/' "$TMP/k.cu" >"$TMP/sig.cu"
  expect_rc 2 check "$TMP/sig.cu"
  expect_in "$ERR" "wrong signature" "check of a user_kernel with the wrong signature"
  sed 's/unsigned n, Probe probe/int n, Probe probe/' "$TMP/kw.cu" >"$TMP/sigw.cu"
  expect_rc 2 check "$TMP/sigw.cu"
  expect_in "$ERR" "wrong signature" "check of a wrapped user_kernel with the wrong signature"
  grep -v "^RS_LAUNCH_SHAPE" "$TMP/k.cu" >"$TMP/noshape.cu"
  expect_rc 2 check "$TMP/noshape.cu"
  expect_in "$ERR" "no launch shape" "check of a file without RS_LAUNCH_SHAPE"
  # A good file: OK and its launch shape; then running needs a GPU (exit 1 without one).
  if command -v nvidia-smi >/dev/null 2>&1 && nvidia-smi -L >/dev/null 2>&1; then
    expect_rc 0 check "$TMP/k.cu"
    expect_in "$OUT" "sums right on the GPU" "check on a GPU"
  else
    expect_rc 1 check "$TMP/k.cu"
    expect_in "$ERR" "needs a CUDA GPU" "check without a GPU says running needs one"
    expect_one_line "check without a GPU"
  fi
  expect_in "$OUT" "k.cu: OK" "check of a good file"
  expect_in "$OUT" "1 element per thread, repeated launches, 32 threads per block or more" "check prints the launch shape"
  # Compiled ahead (grade does so while the GPU checks the file before): --compile-only --cc 90 --save-compiled C,
  # then check --compiled C says what check of the file says, its warnings too (float32 not taken here), and exits
  # the same.
  expect_rc 0 new --from reduce2 "$TMP/warn.cu"
  sed -i '0,/^  __syncthreads();/s//  if (tid == 0) sdata[1] = sdata[1] % T(2);\n  __syncthreads();/' "$TMP/warn.cu"
  expect_rc 0 check "$TMP/warn.cu" --compile-only --cc 90 --save-compiled "$TMP/warn.rsuk"
  expect_in "$OUT" "for compute_90, int32 only" "check --cc 90 compiles for compute capability 9.0"
  if [[ -s $TMP/warn.rsuk ]]; then pass; else fail "check --save-compiled wrote no file"; fi
  run check "$TMP/warn.cu" --cc 90
  usage_rc=$RC
  expect_in "$ERR" "go with --compile-only" "check --cc without --compile-only"
  if [[ $usage_rc -eq 2 ]]; then pass; else fail "check --cc without --compile-only exited $usage_rc, not 2"; fi
  run check "$TMP/warn.cu"
  plain_rc=$RC
  sed 's/compute_75/compute_ARCH/' "$OUT" >"$TMP/plain.out"
  grep -v "needs a CUDA GPU" "$ERR" >"$TMP/plain.err"
  run check "$TMP/warn.cu" --compiled "$TMP/warn.rsuk"
  sed 's/compute_90/compute_ARCH/' "$OUT" >"$TMP/ahead.out"
  grep -v "needs a CUDA GPU" "$ERR" >"$TMP/ahead.err"
  if [[ $RC -eq $plain_rc ]] && cmp -s "$TMP/plain.out" "$TMP/ahead.out" && cmp -s "$TMP/plain.err" "$TMP/ahead.err" &&
    grep -q "float32 is not taken" "$TMP/ahead.err"; then pass; else
    fail "check --compiled said otherwise than check (exit $RC against $plain_rc):
$(diff "$TMP/plain.out" "$TMP/ahead.out"; diff "$TMP/plain.err" "$TMP/ahead.err")"
  fi
  cp "$TMP/warn.cu" "$TMP/other.cu"
  expect_rc 2 check "$TMP/other.cu" --compiled "$TMP/warn.rsuk"
  expect_in "$ERR" "was compiled from $TMP/warn.cu, not from $TMP/other.cu" "check --compiled of another file's kernel"
  run check "$TMP/./warn.cu" --compiled "$TMP/warn.rsuk"  # the same file by another name
  if [[ $RC -eq $plain_rc ]] && ! grep -q "was compiled from" "$ERR"; then pass; else
    fail "check --compiled refused its own file named another way (exit $RC): $(cat "$ERR")"; fi
fi

# ---- exercises, --kernel-file and verify (app/exercises.hpp, app/commands/kernel_file.cpp, verify.cpp) ----------

expect_rc 0 check --list
if [[ $(wc -l <"$OUT") -ge 6 ]] && grep -qx "bank_conflicts" "$OUT" && grep -qx "single_pass" "$OUT"; then pass; else
  fail "check --list prints the exercises one name a line"; fi
usage_case check --list "$TMP/k.cu"
usage_case check "$TMP/k.cu" --json
expect_in "$ERR" "--json needs --exercise" "check --json without an exercise"
expect_rc 2 check "$TMP/k.cu" --exercise nope
expect_in "$ERR" "not an exercise" "check --exercise nope"
expect_in "$ERR" "bank_conflicts, divergence" "check --exercise nope lists the exercises"
usage_case check "$TMP/k.cu" --kernel-timeout 0
usage_case --reload-bench 20
expect_in "$ERR" "needs --kernel-file" "--reload-bench without a kernel file"
usage_case --kernel-file "$TMP/k.cu" --reload-bench 0
usage_case bench --reload-bench 20
usage_case new --exercise bank_conflicts --from reduce1 "$TMP/x.cu"
expect_rc 2 new --exercise nope "$TMP/x.cu"
expect_in "$ERR" "not an exercise" "new --exercise nope"
expect_rc 0 new --exercise bank_conflicts "$TMP/x.cu"
expect_in "$TMP/x.cu" "--exercise bank_conflicts" "new --exercise writes the exercise's starting file"
expect_in "$OUT" "check $TMP/x.cu --exercise bank_conflicts" "new --exercise says what to do next"
# The exercise histogram: a user_histogram file, plain CUDA only; refused by the other exercises and the commands
# that take a reduction, and a reduction refused by it (each a usage error, exit 2, before any GPU is needed).
expect_rc 2 new --exercise histogram --wrapped "$TMP/hw.cu"
expect_in "$ERR" "plain CUDA only" "new --exercise histogram --wrapped"
expect_rc 0 new --exercise histogram "$TMP/h.cu"
expect_in "$TMP/h.cu" "__global__ void user_histogram(const unsigned char\* text, long n, unsigned int\* bins)" \
  "new --exercise histogram writes user_histogram"
run check "$TMP/h.cu"
if ! grep -q "without the CUDA toolkit's NVRTC" "$ERR"; then
  expect_in "$OUT" "a histogram: user_histogram, 7 letter bins" "check of a histogram file"
  expect_rc 2 check "$TMP/h.cu" --exercise bank_conflicts
  expect_in "$ERR" "it is a histogram, checked with --exercise histogram" "a histogram file under another exercise"
  expect_rc 2 check "$TMP/x.cu" --exercise histogram
  expect_in "$ERR" "the exercise histogram takes a file that defines user_histogram" "a reduction under histogram"
  expect_rc 2 trace --kernel-file "$TMP/h.cu"
  expect_in "$ERR" "defines user_histogram, a histogram" "trace --kernel-file of a histogram file"
  # run takes it (its bins at each block size: the exercise check's sanitizer runs, issue 57); here, without a GPU,
  # that is a runtime error, not a usage error
  run run --kernel-file "$TMP/h.cu" --block-size 64,128
  if [ "$RC" = 2 ]; then fail "run --kernel-file of a histogram file is refused (exit 2)"; else pass "run --kernel-file of a histogram file is not refused"; fi
fi
usage_case trace --kernel-file "$TMP/k.cu" --kernel reduce1
expect_in "$ERR" "takes no --kernel" "--kernel-file with --kernel"
usage_case record --kernel-file "$TMP/k.cu"
usage_case verify
usage_case verify --kernel reduce4 --block-size 32
usage_case record --out "$TMP/r.rssession" --block-size 100
# A session recorded on the H100 with record --kernel-file: show and export open it like any other.
YOURS=$(dirname "$0")/fixtures/yours-h100.rssession
expect_rc 0 show "$YOURS"
expect_in "$OUT" "track yours (kernel files: record --kernel-file)" "show of a kernel file's session"
expect_in "$OUT" "bank_conflicts                256     0.0897" "show lists the kernel file's timings"
expect_rc 0 export "$YOURS" --html "$TMP/yours.html"
expect_in "$OUT" "6 of 6 traces" "export --html of a kernel file's session"
# A kernel file that does not compile: exit 2 from run, trace, bench and record as from check, and no session.
sed 's/if (index < blockDim.x) {/if (index < blockDim.x + oops) {/' "$TMP/k.cu" >"$TMP/bad2.cu"
run check "$TMP/bad2.cu"
if [[ $RC -eq 2 ]]; then
  for c in run trace bench; do
    expect_rc 2 $c --kernel-file "$TMP/bad2.cu"
  done
  expect_rc 2 record --kernel-file "$TMP/bad2.cu" --out "$TMP/bad2.rssession"
  if [[ ! -e $TMP/bad2.rssession ]]; then pass; else fail "record of a broken kernel file wrote a session"; fi
fi
if ! command -v nvidia-smi >/dev/null 2>&1 || ! nvidia-smi -L >/dev/null 2>&1; then
  run check "$TMP/k.cu"
  if grep -q "without the CUDA toolkit's NVRTC" "$ERR"; then  # a build without NVRTC (the sanitizer build) says so
    expect_rc 1 trace --kernel-file "$TMP/k.cu"
    expect_in "$ERR" "cannot compile kernels" "trace --kernel-file in a build without NVRTC"
  else
    expect_rc 1 trace --kernel-file "$TMP/k.cu"
    expect_in "$ERR" "no CUDA GPU" "trace --kernel-file without a GPU"
    expect_rc 1 check "$TMP/x.cu" --exercise bank_conflicts
    expect_in "$ERR" "needs a CUDA GPU" "check --exercise without a GPU"
  fi
  if ! command -v ncu >/dev/null 2>&1; then
    expect_rc 1 verify --kernel reduce1
    expect_in "$ERR" "ncu is not on the PATH" "verify without ncu"
  fi
fi

# ---- the corrupt-file corpus (tests/corpus): every bad file exits 1 with a one-line message that
# names the file; the valid ones (v1-valid, v3-valid, session-valid) open -------------------------
CORPUS=$(cd "$(dirname "$0")" && pwd)/corpus
for f in "$CORPUS"/*; do
  name=$(basename "$f")
  case $name in
    *valid*)
      expect_rc 0 show "$f"
      ;;
    *)
      expect_rc 1 show "$f"
      expect_one_line "show of corpus file $name"
      expect_in "$ERR" "$name" "show of corpus file $name names it"
      ;;
  esac
done

echo "$passed passed, $failed failed"
[[ $failed -eq 0 ]]
