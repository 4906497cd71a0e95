#!/usr/bin/env bash
# The window in a real X server (Xvfb, Mesa llvmpipe), without a GPU, driven by real input
# events (xdotool). Each run gets its own settings file (REDUCESCOPE_CONFIG) so runs do not leak.
#   1. it opens the bundled H100 session by default, says it is a recording (in plain words without a
#      GPU: "No NVIDIA GPU here: showing the session recorded on ..."), and the screenshot is 1600x1000
#      and not blank;
#   2. arrow keys step the replay (Right x3 from step 2 gives 5; Left then 4; End the last step),
#      and the screenshots of different steps differ; T swaps in the large timing charts;
#   3. a mouse click on "512" changes the block size; one on "only rows used this step" the grid;
#   4. clicking File, then "Export timing charts", writes PNG, SVG, PDF and CSV files;
#   5. compare mode + help overlay + high contrast: a different picture, mostly black ground;
#   6. settings persist: a saved selection and scale come back on the next start;
#   7. a corrupt file on the command line is reported and the app keeps running;
#   8. lecture traces (assets/traces/sum_*.rstrace, recorded on a GPU; skipped with a message while
#      they are missing): sum_shuffle's lanes view is drawn and changes between two shuffle steps,
#      sum_shared's atomics view is drawn, sum_atomic's shared memory is named in the idle line, no panel;
#   9. a session holding both tracks: --kernel sum_shuffle opens it from the session, Down moves
#      on to sum_two_step and Up from sum_atomic back to reduce6 (skipped if the session lacks them);
#  10. the book track (assets/traces/reduceInterleaved_bs64.rstrace; skipped while it is missing):
#      the global-memory view takes the shared-memory grid's place and changes between steps 0 and 1;
#      a lecture kernel's global-memory view is one line and its requests, no grid;
#  11. the course track from the bundled session: the privatised histogram's atomics view is drawn and
#      changes from the loop of shared atomics (step 1) to the merge into the global bins (step 2);
#  12. a 1280x720 window (a projector): compare mode puts A's views above B's, each the replay column's
#      full width, and the two warps panels side by side under them; the kernel list shows reduce1's
#      whole title, wrapped onto a second line; "log time axis" on the vs-block-size tab redraws the chart
#      (File > Export's log-axis chart, blocksize_time_log.*, is checked in 4);
#  13. a 1280x720 screen at scale 1.0 and 1.5, every track alone and in compare mode: the window fits, the
#      step bar is on screen, the step's main view is drawn whole enough, empty views fold into one line,
#      the kernel list shows the selection, the menu bar's origin text covers no menu;
#  14. the pitfalls (issue 18): pitfall_no_syncwarp from the bundled session shows racecheck's races on the
#      source (the line saying where, red marks) and the raced words where the shared view goes, its runs in
#      plain words, and a click on "Compare with the fix" puts reduce4 under it;
#  15. the bits tab (issue 20): reproducible_sum's one pattern, and sum_atomic's WRONG sum with its reason;
#  16. the multigpu tab (issue 21) on tests/fixtures/multigpu-synthetic.rssession at 1280x720, scale 1.0 and 1.5:
#      it takes the window, its ring controls, sentence, lanes and timeline are on screen (with the chart and
#      the tables beside them at 1.0, under inner tabs at 1.5); --step 1 opens the ring at step 1, Right steps
#      it to 2 and redraws the lanes, the "<" button back to 0; a session without a recording says so in the tab.
#  17. your own kernel (issue 19) without a GPU, at 1280x720: `--kernel-file` on a starting file (`reducescope new
#      --from reduce1`) lists it as "yours", compiles it and says that running it needs a GPU, the file in the
#      replay's place; a broken file shows its error at its line and a one-line banner; File > Open kernel file
#      opens a path typed into its dialog; in one window, a broken
#      file fixed on disk compiles (the error line gone, the source view redrawn), an empty save does not, a
#      deleted file says so, and a restored one compiles again, each waited for in the widget map; a session
#      recorded with `record --kernel-file` on the H100 (tests/fixtures/yours) shows the user's kernel like any
#      other, in compare mode against reduce1, with its row in the timing table; with the kernel file open beside
#      it, that recording is its trace, marked STALE once the file changes.
# usage: gui_xvfb.sh REDUCESCOPE WORKDIR
set -u
bin=${1:?reducescope}; dir=${2:?workdir}
rm -rf "$dir"; mkdir -p "$dir"; pass=0; fail=0
ok() { echo "ok: $*"; pass=$((pass + 1)); }
bad() { echo "FAIL: $*"; fail=$((fail + 1)); }
for t in xvfb-run Xvfb xdotool identify compare convert; do
  command -v $t >/dev/null || { echo "missing $t (run scripts/setup.sh)"; exit 1; }
done
export REDUCESCOPE_CONFIG="$dir/settings.ini"

check_png() {  # $1 png, $2 what
  if [ -s "$1" ]; then
    local size colours; size=$(identify -format '%wx%h' "$1"); colours=$(identify -format '%k' "$1")
    [ "$size" = 1600x1000 ] && ok "$2: screenshot is 1600x1000" || bad "$2: screenshot size $size"
    [ "$colours" -gt 50 ] && ok "$2: $colours colours" || bad "$2: nearly blank ($colours colours)"
  else
    bad "$2: no screenshot"
  fi
}
differ() {  # $1 $2 pngs: number of differing pixels (an integer)
  compare -metric AE "$1" "$2" null: 2>&1 | cut -d' ' -f1 | awk '{printf "%d", $1}'
}

# 1. A frame, by default: the bundled session.
rm -f "$REDUCESCOPE_CONFIG"
out=$(timeout 60 xvfb-run -a -s "-screen 0 1600x1000x24" "$bin" --kernel reduce1 --block-size 256 \
      --screenshot "$dir/frame.png" 2>&1); rc=$?
echo "$out"
[ $rc -eq 0 ] && ok "window exits 0" || bad "window exit code $rc"
check_png "$dir/frame.png" "default window"
echo "$out" | grep -q "showing reduce1 at 256 threads, step 5 of 10; recorded session" \
  && ok "bundled H100 session shown (reduce1 at 256, mid-way), as a recording" \
  || bad "expected the bundled session's reduce1 trace at step 5 of 10"
# Issue 17: a student without a GPU read "CUDA driver version is insufficient for CUDA runtime version".
echo "$out" | grep -q "^origin: No NVIDIA GPU here: showing the session recorded on NVIDIA H100 80GB HBM3, 20" \
  && ok "no GPU: the window says it shows the session recorded on the H100, in plain words" \
  || bad "no GPU: no plain sentence saying which recording is shown"

# Starts the app on a fresh X server; runs "$@" (an action) against it; waits for it to exit. The screenshot waits
# for the action: once it is done, the test creates $name.go ($REDUCESCOPE_SCREENSHOT_AFTER), and the app takes the
# screenshot 3 frames later, once its work has settled.
# A fresh X server on a display number it picks itself (-displayfd: free, so two test runs on one machine do not
# share one); sets DISP and XPID. $SCREEN: its size (default 1600x1000).
start_xvfb() {
  local fifo; fifo=$(mktemp -u); mkfifo "$fifo"
  Xvfb -displayfd 3 -screen 0 "${SCREEN:-1600x1000}x24" -nolisten tcp 3>"$fifo" >/dev/null 2>&1 & XPID=$!
  local n=""; read -r -t 30 n <"$fifo"; rm -f "$fifo"
  DISP=:${n:-99}
}
with_app() {  # $1: log name; $2: app args (one string); rest: action
  local name=$1 args=$2; shift 2
  start_xvfb; local disp=$DISP xp=$XPID
  rm -f "$dir/$name.map" "$dir/$name.go"
  # shellcheck disable=SC2086
  DISPLAY=$disp REDUCESCOPE_WIDGET_MAP="$dir/$name.map" REDUCESCOPE_SCREENSHOT_AFTER="$dir/$name.go" timeout 90 \
    "$bin" $args --frames 5 --screenshot "$dir/$name.png" >"$dir/$name.log" 2>&1 & local ap=$!
  WID=$(DISPLAY=$disp timeout 20 xdotool search --sync --name ReduceScope | head -1)
  sleep 0.5
  DISPLAY=$disp "$@"
  touch "$dir/$name.go"
  wait $ap; local rc=$?
  kill $xp 2>/dev/null; wait $xp 2>/dev/null
  cat "$dir/$name.log"
  return $rc
}
keys() { for k in "$@"; do xdotool key --window "$WID" "$k"; sleep 0.1; done; }
# Clicks the centre of widget $1 from the app's widget map (waits for it to appear).
click() {
  local map=$MAP line=""
  for _ in $(seq 50); do line=$(grep "^$1 " "$map" 2>/dev/null) && break; sleep 0.1; done
  [ -n "$line" ] || { echo "widget $1 not in $map"; return 1; }
  read -r _ x0 y0 x1 y1 <<<"$line"
  xdotool mousemove --window "$WID" $(((x0 + x1) / 2)) $(((y0 + y1) / 2)); sleep 0.2
  xdotool click --window "$WID" 1; sleep 0.3
}

clicks() { for w in "$@"; do click "$w" || return 1; done; }
inside() {  # $1 "x0 y0 x1 y1": inside 1280x720
  local x0 y0 x1 y1; read -r x0 y0 x1 y1 <<<"$1"
  [ -n "$1" ] && [ "$x0" -ge 0 ] && [ "$y0" -ge 0 ] && [ "$x1" -le 1280 ] && [ "$y1" -le 720 ]
}

# 2. Keys.
base="--kernel reduce1 --block-size 256 --step 2"
with_app k0 "$base" true && grep -q "step 2 of 10" "$dir/k0.log" && ok "--step 2 opens at step 2" || bad "--step 2"
with_app k1 "$base" keys Right Right Right && grep -q "step 5 of 10" "$dir/k1.log" && ok "Right x3: step 2 -> 5" \
  || bad "Right x3 did not reach step 5"
with_app k2 "$base" keys Right Right Right Left && grep -q "step 4 of 10" "$dir/k2.log" && ok "Right x3, Left: step 4" \
  || bad "Left did not step back"
with_app k3 "$base" keys End && grep -q "step 9 of 10" "$dir/k3.log" && ok "End: last step" || bad "End did not jump to the end"
with_app large "$base" keys t
d=$(differ "$dir/k0.png" "$dir/large.png")
[ "${d:-0}" -gt 200000 ] && ok "T: large timing charts in place of the replay ($d pixels differ)" || bad "T changed little ($d)"
rm -f "$REDUCESCOPE_CONFIG"  # T is a saved setting: start the next runs without it
d=$(differ "$dir/k0.png" "$dir/k1.png")
[ "${d:-0}" -gt 1000 ] && ok "step 2 and step 5 screenshots differ ($d pixels)" || bad "steps 2 and 5 look the same ($d)"

# 3. A mouse click on the block size.
MAP="$dir/click.map"
with_app click "--kernel reduce1 --block-size 256" click A/bs512 && grep -q "showing reduce1 at 512 threads" "$dir/click.log" \
  && ok "clicking 512 shows reduce1 at 512 threads" || bad "the click did not change the block size"

# 3b. "only rows used this step" on a 1024-thread block: a click changes the grid.
MAP="$dir/rows1.map"
with_app rows0 "--kernel reduce3 --block-size 1024 --step 6" true
with_app rows1 "--kernel reduce3 --block-size 1024 --step 6" click A/touched-rows
d=$(differ "$dir/rows0.png" "$dir/rows1.png")
[ "${d:-0}" -gt 20000 ] && ok "clicking 'only rows used this step' redraws the grid ($d pixels)" \
  || bad "the rows checkbox changed nothing ($d)"

# 4. File > Export through the menu.
MAP="$dir/export.map"
with_app export "--kernel reduce1 --block-size 256 --export-dir $dir/charts" clicks menu/File menu/File/Export
for f in blocksize_time.png blocksize_time.svg blocksize_time.pdf blocksize_time.csv blocksize_bandwidth.png \
         blocksize_time_log.png blocksize_time_log.pdf kernels_time_bs256.png kernels_time_bs256.csv \
         harris_table_bs256.csv; do
  [ -s "$dir/charts/$f" ] && ok "File > Export wrote $f" || bad "File > Export did not write $f"
done
[ -s "$dir/charts/blocksize_time.png" ] && [ "$(identify -format '%k' "$dir/charts/blocksize_time.png")" -gt 20 ] \
  && ok "exported PNG has content" || bad "exported PNG blank or missing"
grep -q "^reduce6,1024," "$dir/charts/blocksize_time.csv" 2>/dev/null && ok "exported CSV holds reduce6 at 1024" \
  || bad "exported CSV lacks reduce6 at 1024"

# 5. Compare + help overlay + high contrast.
with_app cmp "--kernel reduce1 --block-size 256 --compare reduce3:512 --help-overlay --high-contrast" true
grep -q "compare" "$dir/cmp.log" && ok "compare mode on" || bad "compare mode not reported"
check_png "$dir/cmp.png" "compare"
d=$(differ "$dir/frame.png" "$dir/cmp.png")
[ "${d:-0}" -gt 100000 ] && ok "compare/high-contrast screenshot differs from the default ($d pixels)" || bad "compare looks like the default"
black=$(convert "$dir/cmp.png" -alpha off -fill white +opaque black -fill black -opaque black -negate -format "%[fx:mean]" info:)
awk "BEGIN{exit !($black > 0.3)}" && ok "high contrast: $black of the window is black" || bad "high contrast: only $black black"

# 6. Settings persist.
grep -q "HighContrast=1" "$REDUCESCOPE_CONFIG" && grep -q "B=reduce3,512" "$REDUCESCOPE_CONFIG" \
  && ok "settings saved" || bad "settings not saved: $(cat "$REDUCESCOPE_CONFIG")"
sed -i 's/^A=.*/A=reduce4,128/; s/^UiScale=.*/UiScale=1.25/; s/^Compare=.*/Compare=0/' "$REDUCESCOPE_CONFIG"
with_app persist "" true && grep -q "showing reduce4 at 128 threads" "$dir/persist.log" \
  && ok "saved selection restored" || bad "saved selection not restored"
grep -q "UiScale=1.25" "$REDUCESCOPE_CONFIG" && ok "UI scale kept" || bad "UI scale lost"

# 7. A corrupt file: an error in the window, and the app keeps running (the bundled session instead).
head -c 3000 "$(dirname "$0")/../assets/sessions/h100.rssession" >"$dir/bad.rssession"
with_app bad "$dir/bad.rssession" true; rc=$?
[ $rc -eq 0 ] && grep -q "showing reduce" "$dir/bad.log" && ok "corrupt file: keeps running, shows the bundled session" \
  || bad "corrupt file: rc $rc"

# The rectangle "x0 y0 x1 y1" of widget $2 in widget map $1 (empty if the app never drew it).
rect() { grep "^$2 " "$1" 2>/dev/null | cut -d' ' -f2-; }
# Pixels differing inside rectangle "x0 y0 x1 y1" ($3) of two screenshots.
differ_in() {
  local x0 y0 x1 y1; read -r x0 y0 x1 y1 <<<"$3"
  local g="$((x1 - x0))x$((y1 - y0))+$x0+$y0"
  convert "$1" -crop "$g" +repage "$dir/crop1.png" && convert "$2" -crop "$g" +repage "$dir/crop2.png" \
    && differ "$dir/crop1.png" "$dir/crop2.png"
}
skip() { echo "skip: $*"; }

# step_right TAG FILE KERNEL BS STEP: opens FILE at STEP (screenshot TAG0, widget map TAG0.map) and
# again pressing Right (TAG1); checks the window said it showed STEP, then STEP + 1.
step_right() {
  local tag=$1 file=$2 kernel=$3 bs=$4 step=$5 next=$(($5 + 1))
  MAP="$dir/${tag}0.map"
  with_app "${tag}0" "$file --step $step" true
  with_app "${tag}1" "$file --step $step" keys Right
  grep -q "showing $kernel at $bs threads, step $step of" "$dir/${tag}0.log" \
    && ok "$kernel trace opens at step $step" || bad "$kernel trace did not open at step $step"
  grep -q "showing $kernel at $bs threads, step $next of" "$dir/${tag}1.log" \
    && ok "Right: $kernel step $step -> $next" || bad "Right did not reach $kernel step $next"
}

# panel_changes TAG RECT WHAT: the panel at RECT looks different in TAG0's and TAG1's screenshots.
panel_changes() {
  local d
  d=$(differ_in "$dir/${1}0.png" "$dir/${1}1.png" "$2")
  [ "${d:-0}" -gt 500 ] && ok "$3 changes with the step ($d pixels)" || bad "$3 looks the same across the step ($d)"
}

# view_changes TAG PANEL WHAT PNGNAME: after step_right TAG, the panel is drawn in TAG0's frame and
# changes across the step; TAG1's screenshot is sane.
view_changes() {
  local r
  r=$(rect "$dir/${1}0.map" "$2")
  if [ -n "$r" ]; then
    ok "$3 drawn ($r)"
    panel_changes "$1" "$r" "$3"
  else
    bad "no $3"
  fi
  check_png "$dir/${1}1.png" "$4"
}

# 8. Lecture traces: the lanes and atomics views.
traces="$(dirname "$0")/../assets/traces"
if [ -s "$traces/sum_shuffle_bs128.rstrace" ]; then
  steps=$("$bin" show "$traces/sum_shuffle_bs128.rstrace" --steps 2>/dev/null \
          | awk '/^step [0-9]+\/[0-9]+ +ends at a warp shuffle/ {split($2, a, "/"); print a[1]}')
  first=$(echo "$steps" | head -1)
  if [ -n "$first" ]; then
    step_right lane "$traces/sum_shuffle_bs128.rstrace" sum_shuffle 128 "$first"
    view_changes lane panel/lanesA "sum_shuffle's lanes view (shuffle step $first)" sum_shuffle
  else
    bad "sum_shuffle_bs128.rstrace has no step that ends at a warp shuffle"
  fi
else
  skip "assets/traces/sum_shuffle_bs128.rstrace missing (recorded on the GPU machine): lanes view not checked"
fi
if [ -s "$traces/sum_shared_bs256.rstrace" ]; then
  MAP="$dir/shared.map"
  with_app shared "$traces/sum_shared_bs256.rstrace --step 1" true
  grep -q "showing sum_shared at 256 threads, step 1 of" "$dir/shared.log" && ok "sum_shared trace opens" \
    || bad "sum_shared trace did not open"
  [ -n "$(rect "$dir/shared.map" panel/atomicsA)" ] && ok "atomics view drawn for sum_shared" \
    || bad "no atomics view for sum_shared"
  check_png "$dir/shared.png" "sum_shared"
else
  skip "assets/traces/sum_shared_bs256.rstrace missing: atomics view not checked"
fi
if [ -s "$traces/sum_atomic_bs128.rstrace" ]; then
  MAP="$dir/atomic.map"
  with_app atomic "$traces/sum_atomic_bs128.rstrace" true
  # No shared memory: no panel for it, named in the one idle line instead (issue 17).
  r=$(rect "$dir/atomic.map" panel/idleA)
  if [ -z "$(rect "$dir/atomic.map" panel/smemA)" ] && [ -n "$r" ]; then
    read -r _ y0 _ y1 <<<"$r"
    [ $((y1 - y0)) -lt 80 ] && ok "sum_atomic: no shared-memory panel, the idle line says so ($((y1 - y0)) px high)" \
      || bad "sum_atomic: the idle line is $((y1 - y0)) px high, expected one or two lines"
  else
    bad "sum_atomic: a shared-memory panel is drawn, or no idle line"
  fi
  [ -n "$(rect "$dir/atomic.map" panel/atomicsA)" ] && ok "atomics view drawn for sum_atomic" \
    || bad "no atomics view for sum_atomic"
else
  skip "assets/traces/sum_atomic_bs128.rstrace missing: the no-shared-memory layout not checked"
fi

# 9. The bundled session (both tracks, opened by default without a GPU): the kernel list runs
# through the tracks in order.
session="$(dirname "$0")/../assets/sessions/h100-tracks.rssession"
if [ -f "$session" ]; then
  arg=""
  with_app ses1 "$arg --kernel sum_shuffle --block-size 128" keys Down
  grep -q "showing sum_two_step at 128 threads.*recorded session" "$dir/ses1.log" \
    && ok "session: sum_shuffle, Down: sum_two_step" || bad "session: Down from sum_shuffle did not show sum_two_step"
  with_app ses2 "$arg --kernel sum_atomic --block-size 256" keys Up
  grep -q "showing reduce6 at 256 threads" "$dir/ses2.log" && ok "session: Up from sum_atomic: reduce6" \
    || bad "session: Up from sum_atomic did not show reduce6"
else
  skip "no session with lecture kernels in assets/sessions: track navigation not checked"
fi

# 10. The book track: the traced block's slice of the scratch buffer, reduced in place.
if [ -s "$traces/reduceInterleaved_bs64.rstrace" ]; then
  step_right book "$traces/reduceInterleaved_bs64.rstrace" reduceInterleaved 64 0
  r=$(rect "$dir/book0.map" panel/globalA)
  if [ -n "$r" ]; then
    read -r _ y0 _ y1 <<<"$r"
    [ $((y1 - y0)) -gt 300 ] && ok "global-memory view drawn for reduceInterleaved ($((y1 - y0)) px high)" \
      || bad "reduceInterleaved: the global-memory view is only $((y1 - y0)) px high"
    [ -z "$(rect "$dir/book0.map" panel/smemA)" ] && ok "reduceInterleaved: the global grid takes the shared-memory grid's place" \
      || bad "reduceInterleaved: a shared-memory panel is still drawn"
    panel_changes book "$r" "reduceInterleaved's global-memory view (step 0)"
  else
    bad "no global-memory view for reduceInterleaved"
  fi
  check_png "$dir/book1.png" "reduceInterleaved"
else
  skip "assets/traces/reduceInterleaved_bs64.rstrace missing (recorded on the GPU machine): global-memory view not checked"
fi
if [ -s "$dir/atomic.map" ]; then
  r=$(rect "$dir/atomic.map" panel/globalA)
  if [ -n "$r" ]; then
    read -r _ y0 _ y1 <<<"$r"
    # One line and the step's load requests (4 warps: 4 lines), no grid.
    [ $((y1 - y0)) -lt 200 ] && ok "sum_atomic: the global-memory view is a line and its requests ($((y1 - y0)) px high)" \
      || bad "sum_atomic: the global-memory view is $((y1 - y0)) px high, expected a line and 4 requests, no grid"
  else
    bad "sum_atomic: no global-memory view"
  fi
fi

# 11. The course track: histo_private from the bundled session, its atomics view across a step.
if [ -f "$session" ] && "$bin" show "$session" 2>/dev/null | grep -q "^histo_private (track course"; then
  step_right histo "--kernel histo_private --block-size 256" histo_private 256 1
  view_changes histo panel/atomicsA "histo_private's atomics view (step 1, the shared bins)" histo_private
else
  skip "the bundled session has no course track: the histogram's atomics view not checked"
fi

# 12. 1280x720: the compare layout, the kernel list's titles, the log time axis.
small="$dir/small.ini"
printf '[ReduceScope][Settings]\nWindow=0,0,1280,720\nUiScale=1.00\n' >"$small"
MAP="$dir/cmp720.map"
REDUCESCOPE_CONFIG="$small" with_app cmp720 "--kernel reduce1 --block-size 256 --compare reduce3 --step 3" true
size=$(identify -format '%wx%h' "$dir/cmp720.png" 2>/dev/null)
[ "$size" = 1280x720 ] && ok "1280x720 window from the settings file" || bad "the window is $size, not 1280x720"
sa=$(rect "$MAP" panel/smemA); sb=$(rect "$MAP" panel/smemB); wa=$(rect "$MAP" panel/warpsA); wb=$(rect "$MAP" panel/warpsB)
if [ -n "$sa" ] && [ -n "$sb" ] && [ -n "$wa" ] && [ -n "$wb" ]; then
  read -r ax0 ay0 ax1 ay1 <<<"$sa"; read -r bx0 by0 bx1 by1 <<<"$sb"
  read -r wax0 way0 wax1 way1 <<<"$wa"; read -r wbx0 wby0 wbx1 wby1 <<<"$wb"
  [ "$bx0" -eq "$ax0" ] && [ "$by0" -ge "$ay1" ] && [ $((bx1 - bx0)) -eq $((ax1 - ax0)) ] \
    && ok "compare at 1280x720: B's shared memory under A's, as wide ($sa / $sb)" \
    || bad "compare at 1280x720: shared-memory panels not stacked ($sa / $sb)"
  # 32 cells a row and the row labels: at least 15 pixels a cell.
  [ $((ax1 - ax0)) -ge 540 ] && ok "compare at 1280x720: each shared-memory grid is $((ax1 - ax0)) px wide" \
    || bad "compare at 1280x720: shared-memory panel only $((ax1 - ax0)) px wide"
  [ "$wax1" -le "$wbx0" ] && [ "$way0" -eq "$wby0" ] && [ "$way0" -ge "$by1" ] \
    && ok "compare at 1280x720: the warps panels side by side under B ($wa / $wb)" \
    || bad "compare at 1280x720: warps panels misplaced ($wa / $wb)"
else
  bad "compare at 1280x720: panels missing from the widget map (smemA '$sa' smemB '$sb' warpsA '$wa' warpsB '$wb')"
fi
# The list shows each title whole where they all fit, else the names alone with the selected kernel's
# whole title under the list (never a title cut to one line).
r=$(rect "$MAP" A/kernel/reduce1); t=$(rect "$MAP" A/selected-title)
if [ -n "$r" ] && [ -n "$t" ]; then
  read -r _ y0 _ y1 <<<"$r"; read -r _ ty0 _ ty1 <<<"$t"
  if [ $((y1 - y0)) -ge 30 ]; then
    ok "kernel list: reduce1's whole title in the list, on two lines ($((y1 - y0)) px)"
  elif [ $((ty1 - ty0)) -ge 30 ] && inside "$t"; then
    ok "kernel list: names only; reduce1's whole title under the list, on two lines ($((ty1 - ty0)) px)"
  else
    bad "kernel list: reduce1's title is cut (entry $((y1 - y0)) px, title under the list $((ty1 - ty0)) px)"
  fi
else
  bad "kernel list: no entry for reduce1 or no selected title in the widget map"
fi
MAP="$dir/log1.map"
logs="--kernel reduce1 --block-size 256 --view blocksize --large-charts"
rm -f "$dir/log.ini"; REDUCESCOPE_CONFIG="$dir/log.ini" with_app log0 "$logs" true
rm -f "$dir/log.ini"; REDUCESCOPE_CONFIG="$dir/log.ini" with_app log1 "$logs" click bs/log-time
r=$(rect "$MAP" panel/timings)
if [ -n "$r" ] && [ -n "$(rect "$MAP" bs/log-time)" ]; then
  d=$(differ_in "$dir/log0.png" "$dir/log1.png" "$r")
  [ "${d:-0}" -gt 2000 ] && ok "'log time axis' redraws the time chart ($d pixels)" || bad "'log time axis' changed little ($d)"
else
  bad "no 'log time axis' checkbox or timing panel in the widget map"
fi

# 13. The room's screen (issue 17): a 1280x720 X screen, no saved settings, at scale 1.0 and 1.5. For each
#     track's representative kernel, alone and in compare mode: the window fits the screen; the step bar
#     (controls, step slider, each side's sentence) is on screen; the view that carries the step's lesson
#     is drawn and tall enough for its content; a view with nothing in the step is folded into the idle
#     line; the kernel list shows the selection; the origin in the menu bar does not cover the menus.
room() {  # $1 name, $2 scale, $3 main panel id, $4 least px at 1.0 (scaled), $5 folded panel id or "", rest: app args
  local name=$1 scale=$2 main=$3 least=$4 folded=$5; shift 5
  local args="$* --scale $scale"
  MAP="$dir/$name.map"
  rm -f "$dir/$name.ini"
  REDUCESCOPE_CONFIG="$dir/$name.ini" SCREEN=1280x720 with_app "$name" "$args" true >/dev/null
  local size; size=$(identify -format '%wx%h' "$dir/$name.png" 2>/dev/null)
  [ "$size" = 1280x720 ] && ok "$name: the window opens inside the 1280x720 screen" || bad "$name: window $size"
  for w in step/slider step/next step/sentenceA; do
    inside "$(rect "$MAP" $w)" && ok "$name: $w on screen" || bad "$name: $w off screen or missing ('$(rect "$MAP" $w)')"
  done
  if [[ "$args" == *--compare* ]]; then
    for w in step/sentenceB source/lineB; do
      inside "$(rect "$MAP" $w)" && ok "$name: $w on screen" || bad "$name: $w off screen or missing"
    done
  fi
  local r; r=$(rect "$MAP" "$main")
  if [ -n "$r" ]; then
    local y0 y1; read -r _ y0 _ y1 <<<"$r"
    local want; want=$(awk -v l="$least" -v s="$scale" 'BEGIN { printf "%d", l * (s > 1 ? 0.55 + 0.45 * s : 1) }')
    [ $((y1 - y0)) -ge "$want" ] && ok "$name: $main is $((y1 - y0)) px high (at least $want)" \
      || bad "$name: $main only $((y1 - y0)) px high, wanted $want"
  else
    bad "$name: the main view $main is not drawn"
  fi
  if [ -n "$folded" ]; then
    [ -z "$(rect "$MAP" "$folded")" ] && [ -n "$(rect "$MAP" panel/idleA)" ] \
      && ok "$name: $folded, empty this step, is folded into the idle line" || bad "$name: $folded drawn though empty"
  fi
  # Each side's kernel list shows its selection (A's from --kernel, B's from --compare).
  local side sel l k
  for side in A B; do
    if [ $side = A ]; then sel=$(sed -n 's/.*--kernel \([^ ]*\).*/\1/p' <<<"$args")
    else sel=$(sed -n 's/.*--compare \([^: ]*\).*/\1/p' <<<"$args"); fi
    [ -n "$sel" ] || continue
    l=$(rect "$MAP" $side/kernel-list); k=$(rect "$MAP" "$side/kernel/$sel")
    if [ -n "$l" ] && [ -n "$k" ]; then
      local ly0 ly1 ky0 ky1; read -r _ ly0 _ ly1 <<<"$l"; read -r _ ky0 _ ky1 <<<"$k"
      [ "$ky0" -ge "$ly0" ] && [ "$ky1" -le "$ly1" ] && ok "$name: kernel list $side shows $sel" \
        || bad "$name: $sel ($k) is scrolled out of kernel list $side ($l)"
    else
      bad "$name: no kernel list $side or no entry $sel in the widget map"
    fi
  done
  local h o; h=$(rect "$MAP" menu/Help); o=$(rect "$MAP" menu/origin)
  if [ -n "$o" ]; then
    local hx1 ox0; read -r _ _ hx1 _ <<<"$h"; read -r ox0 _ _ _ <<<"$o"
    [ "$ox0" -gt "$hx1" ] && ok "$name: the origin text starts right of the Help menu" || bad "$name: the origin covers the menus"
  fi
}
for sc in 1.0 1.5; do
  room "harris-$sc" $sc panel/smemA 200 "" --kernel reduce1 --block-size 256 --step 5
  room "lecture-$sc" $sc panel/lanesA 190 panel/smemA --kernel sum_shuffle --block-size 128 --step 3
  room "atomics-$sc" $sc panel/atomicsA 250 "" --kernel sum_shared --block-size 256 --step 1
  room "book-$sc" $sc panel/globalA 250 "" --kernel reduceInterleaved --block-size 256 --step 3
  room "course-$sc" $sc panel/atomicsA 250 "" --kernel histo_private --block-size 256 --step 1
  room "modern-$sc" $sc panel/atomicsA 150 panel/lanesA --kernel single_pass_last_block --block-size 256 --step 3
  room "cmp-lecture-$sc" $sc panel/lanesB 150 "" --kernel sum_last_warp --block-size 128 --compare sum_shuffle:128 --step 3
  room "cmp-harris-$sc" $sc panel/smemB 120 "" --kernel reduce1 --block-size 256 --compare reduce3:256 --step 5
  room "pitfalls-$sc" $sc panel/smemA 100 "" --kernel pitfall_no_syncthreads --block-size 256 --step 1
done

# 14. The pitfalls: races on the source and on shared memory, the runs in words, compare with the fix.
if "$bin" show "$session" 2>/dev/null | grep -q "racecheck, one block of 256 threads: 10 races"; then
  MAP="$dir/pit.map"
  REDUCESCOPE_CONFIG="$small" with_app pit "--kernel pitfall_no_syncwarp --block-size 256 --step 1" click A/compare-fix
  for w in source/racesA A/races A/pitfall-results panel/smemA; do
    [ -n "$(rect "$MAP" $w)" ] && ok "pitfall_no_syncwarp: $w drawn" || bad "pitfall_no_syncwarp: no $w in the widget map"
  done
  grep -q "; compare" "$dir/pit.log" && [ -n "$(rect "$MAP" B/kernel/reduce4)" ] && [ -n "$(rect "$MAP" panel/smemB)" ] \
    && ok "Compare with the fix: reduce4 is side B, its shared memory drawn" \
    || bad "Compare with the fix did not put reduce4 beside pitfall_no_syncwarp"
  # The red of the raced words and of the race marks (the window's kVermillion, 213 94 0).
  red=$(convert "$dir/pit.png" -fill black +opaque "rgb(213,94,0)" -fill white -opaque "rgb(213,94,0)" -format '%[fx:mean*w*h]' info: 2>/dev/null)
  [ "${red%.*}" -gt 500 ] 2>/dev/null && ok "pitfall_no_syncwarp: $red vermillion pixels (raced words, race marks)" \
    || bad "pitfall_no_syncwarp: no vermillion drawn ($red)"
else
  skip "the bundled session has no racecheck races: the pitfall views not checked"
fi

# 15. The bits tab: one pattern for reproducible_sum, sum_atomic stuck at 2^24 with the reason beside WRONG.
if "$bin" show "$session" 2>/dev/null | grep -q "^bits of float32 sums"; then
  MAP="$dir/bits.map"
  REDUCESCOPE_CONFIG="$small" with_app bits "--kernel sum_atomic --block-size 256 --view bits --large-charts" true
  [ -n "$(rect "$MAP" bits/one/reproducible_sum)" ] && ok "bits tab: reproducible_sum has one pattern" \
    || bad "bits tab: no one-pattern mark for reproducible_sum"
  [ -n "$(rect "$MAP" bits/wrong/sum_atomic)" ] && ok "bits tab: sum_atomic's WRONG sum is drawn with its reason" \
    || bad "bits tab: sum_atomic's WRONG sum not drawn"
else
  skip "the bundled session has no bits view"
fi

# 16. The multigpu tab: the ring replay, its timeline, the busbw chart and the figures of a 2-GPU recording.
mg="$(dirname "$0")/fixtures/multigpu-synthetic.rssession"
if [ -f "$mg" ]; then
  for sc in 1.0 1.5; do
    args="$mg --view multigpu --step 1 --scale $sc"
    MAP="$dir/mg0-$sc.map"; rm -f "$dir/mg.ini"
    REDUCESCOPE_CONFIG="$dir/mg.ini" SCREEN=1280x720 with_app "mg0-$sc" "$args" true >/dev/null
    size=$(identify -format '%wx%h' "$dir/mg0-$sc.png" 2>/dev/null)
    [ "$size" = 1280x720 ] && ok "multigpu $sc: the window opens inside the 1280x720 screen" || bad "multigpu $sc: window $size"
    want="multigpu/header multigpu/prev multigpu/next multigpu/step multigpu/sentence multigpu/lanes multigpu/timeline"
    if [ "$sc" = 1.0 ]; then want="$want multigpu/chart multigpu/table multigpu/sum"; else want="$want multigpu/tab/chart multigpu/tab/figures"; fi
    for w in $want; do
      inside "$(rect "$MAP" $w)" && ok "multigpu $sc: $w on screen" || bad "multigpu $sc: $w off screen or missing ('$(rect "$MAP" $w)')"
    done
    [ -z "$(rect "$MAP" step/slider)" ] && ok "multigpu $sc: the tab takes the window (no kernel step bar)" \
      || bad "multigpu $sc: the kernel replay's step bar is drawn beside the multigpu tab"
    l=$(rect "$MAP" multigpu/lanes); t=$(rect "$MAP" multigpu/timeline); c=$(rect "$MAP" multigpu/chart)
    if [ -n "$l" ] && [ -n "$t" ]; then
      read -r _ _ _ ly1 <<<"$l"; read -r _ ty0 _ _ <<<"$t"
      [ "$ty0" -ge "$ly1" ] && ok "multigpu $sc: the timeline is under the lanes" || bad "multigpu $sc: timeline ($t) over the lanes ($l)"
    fi
    if [ -n "$c" ] && [ -n "$l" ]; then
      read -r _ _ lx1 _ <<<"$l"; read -r cx0 _ _ _ <<<"$c"
      [ "$cx0" -ge "$lx1" ] && ok "multigpu $sc: the chart is beside the lanes" || bad "multigpu $sc: chart ($c) over the lanes ($l)"
    fi
    [ -n "$(rect "$MAP" multigpu/shown-step/1)" ] && ok "multigpu $sc: --step 1 opens the ring at step 1" \
      || bad "multigpu $sc: the ring did not open at step 1"
    MAP="$dir/mg1-$sc.map"; rm -f "$dir/mg.ini"
    REDUCESCOPE_CONFIG="$dir/mg.ini" SCREEN=1280x720 with_app "mg1-$sc" "$args" keys Right >/dev/null
    [ -n "$(rect "$MAP" multigpu/shown-step/2)" ] && ok "multigpu $sc: Right steps the ring to step 2" \
      || bad "multigpu $sc: Right did not step the ring to 2"
    if [ -n "$l" ]; then
      d=$(differ_in "$dir/mg0-$sc.png" "$dir/mg1-$sc.png" "$l")
      [ "${d:-0}" -gt 2000 ] && ok "multigpu $sc: the lanes change from step 1 to 2 ($d pixels)" \
        || bad "multigpu $sc: the lanes look the same at steps 1 and 2 ($d)"
    fi
  done
  MAP="$dir/mgprev.map"; rm -f "$dir/mg.ini"
  REDUCESCOPE_CONFIG="$dir/mg.ini" SCREEN=1280x720 with_app mgprev "$mg --view multigpu --step 1" click multigpu/prev >/dev/null
  [ -n "$(rect "$MAP" multigpu/shown-step/0)" ] && ok "multigpu: '<' steps the ring back to the start" \
    || bad "multigpu: '<' did not step the ring back to 0"
  rm -f "$dir/mg.ini"
  REDUCESCOPE_CONFIG="$dir/mg.ini" SCREEN=1280x720 with_app mgtable "$mg --view table" true >/dev/null
  d=$(differ "$dir/mg0-1.0.png" "$dir/mgtable.png")
  [ "${d:-0}" -gt 100000 ] && ok "multigpu: the tab and the table tab differ ($d pixels)" || bad "multigpu: tab looks like the table tab ($d)"
else
  skip "no tests/fixtures/multigpu-synthetic.rssession: the multigpu tab not checked"
fi
MAP="$dir/mgnone.map"; rm -f "$dir/mg.ini"
# (assets/sessions/h100.rssession: the bundled h100-tracks session holds the 2 x H200 recording since 2026-11-24)
REDUCESCOPE_CONFIG="$dir/mg.ini" SCREEN=1280x720 with_app mgnone "$(dirname "$0")/../assets/sessions/h100.rssession --kernel reduce1 --block-size 256 --view multigpu" true >/dev/null
[ -n "$(rect "$MAP" multigpu/none)" ] && [ -z "$(rect "$MAP" multigpu/lanes)" ] && [ -n "$(rect "$MAP" step/slider)" ] \
  && ok "multigpu: a session without a recording says how to get one; the replay keeps its place" \
  || bad "multigpu: no 'no multi-GPU recording' line for a session without one"

# 17. Your own kernel without a GPU (screenshots: docs/screenshots/yours/, copied from $dir/yours/*.png).
yd="$dir/yours"; fy="$(dirname "$0")/fixtures/yours"
mkdir -p "$yd/live" "$yd/seed"
yours_ini() { printf '[ReduceScope][Settings]\nWindow=0,0,1280,720\nUiScale=1.00\n' >"$yd/s.ini"; }
# Waits (up to 30 s) until widget $1 is in the widget map $MAP; "!NAME": until the map, written, lacks it.
wait_map() {
  local want=$1 neg=0
  [ "${want:0:1}" = "!" ] && { neg=1; want=${want:1}; }
  for _ in $(seq 300); do
    if grep -q "^$want " "$MAP" 2>/dev/null; then
      [ $neg = 0 ] && return 0
    elif [ $neg = 1 ] && [ -s "$MAP" ]; then
      return 0
    fi
    sleep 0.1
  done
  echo "waited 30 s for ${1} in $MAP"; return 1
}
# A screenshot of window $WID once two in a row are the same (the frame has settled): $1 the PNG.
settled_shot() {
  import -window "$WID" "$1.prev.png" 2>/dev/null
  for _ in $(seq 20); do
    import -window "$WID" "$1" 2>/dev/null
    [ "$(differ "$1.prev.png" "$1")" = 0 ] && break
    mv "$1" "$1.prev.png"
  done
  rm -f "$1.prev.png"
}
# Like with_app, but without a screenshot: the window runs until the action is done, then Ctrl Q ends it.
live_app() {  # $1: log name; $2: app args (one string); rest: action
  local name=$1 args=$2; shift 2
  start_xvfb; local disp=$DISP xp=$XPID
  rm -f "$dir/$name.map"
  # shellcheck disable=SC2086
  DISPLAY=$disp REDUCESCOPE_WIDGET_MAP="$dir/$name.map" timeout 150 "$bin" $args --frames 1000000 \
    >"$dir/$name.log" 2>&1 & local ap=$!
  WID=$(DISPLAY=$disp timeout 20 xdotool search --sync --name ReduceScope | head -1)
  DISPLAY=$disp "$@"; local act=$?
  DISPLAY=$disp xdotool key --window "$WID" ctrl+q
  wait $ap; local rc=$?
  kill $xp 2>/dev/null; wait $xp 2>/dev/null
  cat "$dir/$name.log"
  [ $act -eq 0 ] && [ $rc -eq 0 ]
}
size720() { [ "$(identify -format '%wx%h' "$1" 2>/dev/null)" = 1280x720 ]; }
park() { xdotool mousemove --window "$WID" 1278 718; }  # the pointer out of the way: no tooltip in the pictures
rm -f "$yd/start.cu"
if "$bin" new --from reduce1 "$yd/start.cu" >/dev/null 2>&1 && [ -s "$yd/start.cu" ]; then
  ok "reducescope new --from reduce1 wrote a starting file"
else
  bad "reducescope new --from reduce1 wrote no starting file"
fi
# 17a. The starting file: compiles, needs a GPU to run; the file takes the replay's place.
cp "$yd/start.cu" "$yd/my_reduce1.cu"
MAP="$dir/yours-start.map"; yours_ini
REDUCESCOPE_CONFIG="$yd/s.ini" SCREEN=1280x720 with_app yours-start "--kernel-file $yd/my_reduce1.cu" park >/dev/null
cp "$dir/yours-start.png" "$yd/starting-file-no-gpu-1280x720.png" 2>/dev/null
grep -q "^yours: my_reduce1 (side A): compiles; running it needs a CUDA GPU" "$dir/yours-start.log" \
  && ok "yours: the starting file compiles; running it needs a CUDA GPU" \
  || bad "yours: no 'compiles; running it needs a CUDA GPU' ($(grep '^yours:' "$dir/yours-start.log"))"
size720 "$dir/yours-start.png" && ok "yours: the window is 1280x720" || bad "yours: the window is not 1280x720"
for w in A/yours-header A/kernel/yours yours/state/compiles panel/yours-note panel/source; do
  inside "$(rect "$MAP" $w)" && ok "yours: $w on screen" || bad "yours: $w off screen or missing ('$(rect "$MAP" $w)')"
done
# 17b. A broken file: its error at its line, and the banner.
eline=$(grep -n 'sdata\[tid\] = (i < n) ? in\[i\] : T(0);' "$yd/start.cu" | head -1 | cut -d: -f1)
sed 's/? in\[i\] : T(0);/? in[j] : T(0);/' "$yd/start.cu" >"$yd/broken.cu"
cp "$yd/broken.cu" "$yd/my_reduce1.cu"
MAP="$dir/yours-broken.map"; yours_ini
REDUCESCOPE_CONFIG="$yd/s.ini" SCREEN=1280x720 with_app yours-broken "--kernel-file $yd/my_reduce1.cu" park >/dev/null
cp "$dir/yours-broken.png" "$yd/compile-error-1280x720.png" 2>/dev/null
grep -q "^yours: my_reduce1 (side A): does not compile: 1 error; banner: my_reduce1.cu does not compile: line $eline: " \
  "$dir/yours-broken.log" && ok "yours: the broken file's error is at line $eline, in the banner" \
  || bad "yours: no error at line $eline ($(grep '^yours:' "$dir/yours-broken.log"))"
for w in "source/error-line/$eline" source/errorA step/yours-banner yours/state/errors; do
  inside "$(rect "$MAP" "$w")" && ok "yours: $w on screen" || bad "yours: $w off screen or missing"
done
# File > Open kernel file: the dialog takes the path typed into it.
yours_dialog() {
  park
  clicks menu/File menu/File/OpenKernel && wait_map open/path || return 1
  xdotool type --window "$WID" "$yd/my_reduce1.cu" && click open/open
}
MAP="$dir/yours-dialog.map"; yours_ini
REDUCESCOPE_CONFIG="$yd/s.ini" SCREEN=1280x720 with_app yours-dialog "--kernel reduce1 --block-size 256" yours_dialog \
  >/dev/null
grep -q "^yours: my_reduce1 (side A): does not compile" "$dir/yours-dialog.log" \
  && ok "yours: File > Open kernel file opened the typed path as side A" \
  || bad "yours: File > Open kernel file did not open it ($(grep -E '^(yours|screenshot)' "$dir/yours-dialog.log" | tr '\n' ' '))"
# 17c. One window, the file changed under it: fixed, emptied (a half-written save), deleted, restored.
yours_reload() {
  park
  wait_map yours/state/errors && wait_map "source/error-line/$eline" || return 1
  settled_shot "$yd/reload-broken.png"
  cp "$yd/start.cu" "$yd/live/.my_reduce1.cu.new" && mv "$yd/live/.my_reduce1.cu.new" "$yd/live/my_reduce1.cu"
  wait_map yours/state/compiles && wait_map "!source/error-line/$eline" || return 2
  settled_shot "$yd/reload-fixed.png"
  : >"$yd/live/my_reduce1.cu"
  wait_map yours/state/errors || return 3
  rm "$yd/live/my_reduce1.cu"
  wait_map yours/state/gone || return 4
  cp "$yd/start.cu" "$yd/live/my_reduce1.cu"
  wait_map yours/state/compiles || return 5
}
cp "$yd/broken.cu" "$yd/live/my_reduce1.cu"
MAP="$dir/yours-live.map"; yours_ini
REDUCESCOPE_CONFIG="$yd/s.ini" SCREEN=1280x720 live_app yours-live "--kernel-file $yd/live/my_reduce1.cu" yours_reload \
  >"$dir/yours-live.out"; rc=$?
[ $rc -eq 0 ] && ok "yours: in one window, fixed -> compiles, emptied -> error, deleted -> says so, restored -> compiles" \
  || bad "yours: the window did not follow the file's changes ($(tail -3 "$dir/yours-live.out" | tr '\n' ' '))"
r=$(rect "$dir/yours-start.map" panel/source)
if [ -n "$r" ] && [ -s "$yd/reload-broken.png" ] && [ -s "$yd/reload-fixed.png" ]; then
  d=$(differ_in "$yd/reload-broken.png" "$yd/reload-fixed.png" "$r")
  [ "${d:-0}" -gt 500 ] && ok "yours: the source view redraws when the fixed file compiles ($d pixels)" \
    || bad "yours: the source view looks the same before and after the fix ($d)"
else
  bad "yours: no screenshots of the reload, or no source panel in the widget map"
fi
# 17d. A session recorded with `record --kernel-file` (and reduce1) on the H100: the user's kernel like any other.
if [ -f "$fy/my_reduce1.rssession" ]; then
  MAP="$dir/yours-session.map"; yours_ini
  REDUCESCOPE_CONFIG="$yd/s.ini" SCREEN=1280x720 with_app yours-session "$fy/my_reduce1.rssession --compare reduce1 --step 3" \
    park >/dev/null
  cp "$dir/yours-session.png" "$yd/session-compare-reduce1-1280x720.png" 2>/dev/null
  grep -q "showing my_reduce1 at 256 threads, step 3 of 10; recorded session; compare" "$dir/yours-session.log" \
    && grep -q "^yours: my_reduce1 (side A): recorded on NVIDIA H100" "$dir/yours-session.log" \
    && ok "yours: the session's my_reduce1 is side A, reduce1 side B, at step 3" \
    || bad "yours: the session's user kernel not shown ($(grep -E '^(screenshot|yours)' "$dir/yours-session.log" | tr '\n' ' '))"
  for w in A/kernel/yours panel/smemA panel/smemB panel/warpsA; do
    [ -n "$(rect "$MAP" $w)" ] && ok "yours (session): $w drawn" || bad "yours (session): no $w"
  done
  # The timing panel scrolls the user's kernel's rows (its own and CUB's, the table's last) into view.
  for w in table/yours table/cub; do
    inside "$(rect "$MAP" $w)" && ok "yours (session): $w on screen at 1280x720" \
      || bad "yours (session): $w off screen or missing ('$(rect "$MAP" $w)')"
  done
  # With the kernel file open beside it: the recording is its trace; a change to the file makes it stale.
  cp "$fy/my_reduce1.cu" "$yd/seed/my_reduce1.cu"
  MAP="$dir/yours-seed.map"; yours_ini
  REDUCESCOPE_CONFIG="$yd/s.ini" SCREEN=1280x720 with_app yours-seed "$fy/my_reduce1.rssession --kernel-file $yd/seed/my_reduce1.cu" \
    true >/dev/null
  grep -q "^yours: my_reduce1 (side A): compiles; the replay is the session's recording of this text$" "$dir/yours-seed.log" \
    && [ -z "$(rect "$MAP" replay/stale)" ] && ok "yours: the recording of the file as it is: replayed, not stale" \
    || bad "yours: the recording of an unchanged file ($(grep '^yours:' "$dir/yours-seed.log"))"
  # The fixture is a wrapped file of an earlier release (g_idata): its own line of the mistake.
  eline=$(grep -n 'sdata\[tid\] = (i < n) ? g_idata\[i\] : T(0);' "$fy/my_reduce1.cu" | head -1 | cut -d: -f1)
  sed 's/? g_idata\[i\] : T(0);/? g_idata[j] : T(0);/' "$fy/my_reduce1.cu" >"$yd/seed/my_reduce1.cu"
  MAP="$dir/yours-stale.map"; yours_ini
  REDUCESCOPE_CONFIG="$yd/s.ini" SCREEN=1280x720 with_app yours-stale "$fy/my_reduce1.rssession --kernel-file $yd/seed/my_reduce1.cu" \
    park >/dev/null
  cp "$dir/yours-stale.png" "$yd/stale-compile-error-1280x720.png" 2>/dev/null
  grep -q "^yours: my_reduce1 (side A): does not compile: 1 error; STALE; banner: my_reduce1.cu does not compile: line $eline" \
    "$dir/yours-stale.log" && ok "yours: a change that does not compile: STALE, the error in the banner" \
    || bad "yours: no STALE after a broken change ($(grep '^yours:' "$dir/yours-stale.log"))"
  for w in replay/stale source/stale "source/error-line/$eline" panel/smemA; do
    inside "$(rect "$MAP" "$w")" && ok "yours (stale): $w on screen" || bad "yours (stale): no $w"
  done
else
  skip "no tests/fixtures/yours/my_reduce1.rssession: a session's user kernel not checked"
fi

# 17e. --reload-bench (the save -> new trace benchmark) without a GPU: says the run needs one, exits 1, and
# leaves the file as it was.
cp "$yd/start.cu" "$yd/bench.cu"
REDUCESCOPE_CONFIG="$yd/s.ini" with_app yours-bench "--kernel-file $yd/bench.cu --reload-bench 3" true >/dev/null
rc=$?
[ $rc -eq 1 ] && grep -q "^reload-bench: stopped: the file's run needs a CUDA GPU" "$dir/yours-bench.log" \
  && cmp -s "$yd/start.cu" "$yd/bench.cu" && ok "yours: --reload-bench without a GPU says it needs one, exit 1, file kept" \
  || bad "yours: --reload-bench without a GPU (exit $rc: $(grep '^reload-bench' "$dir/yours-bench.log" | tr '\n' ' '))"

# 18. A binary trace (issue 28): examples/two_reductions.cu's reduce_shuffle, recorded on the H100 by the binary
# tracer. It opens as the user's kernel (its name heads the list, not reduce1's teaching note), its notes say what
# the tracer lacks, and the lanes view says in one line that it has no shuffle values.
bt="$(dirname "$0")/fixtures/binary/shuffle.rstrace"
MAP="$dir/binary.map"
with_app binary "$bt --step 2" true >/dev/null
grep -q "showing reduce_shuffle at 256 threads, step 2 of" "$dir/binary.log" && ok "binary trace opens" \
  || bad "binary trace did not open: $(tail -2 "$dir/binary.log" | tr '\n' ' ')"
grep -q "yours: reduce_shuffle (side A): Recorded by the binary backend" "$dir/binary.log" \
  && ok "binary trace: shown as the user's kernel, recorded by the binary backend" || bad "binary trace: not shown as yours"
# The N slider says the N the program reduced (2^20), not the window's default 2^24.
grep -q "^input: N = 1048576$" "$dir/binary.log" && ok "binary trace: the N slider holds the program's N (2^20)" \
  || bad "binary trace: N is not the trace's ($(grep '^input:' "$dir/binary.log"))"
for w in yours/notes lanes/no-values panel/lanesA; do
  [ -n "$(rect "$MAP" "$w")" ] && ok "binary trace: $w drawn" || bad "binary trace: no $w"
done
check_png "$dir/binary.png" "binary trace"

# 18b. Float32 traces (issue 30): the bundled session holds sum_atomic's float32 trace at 256 threads beside its
# int32 one. The controls offer int32 / float32, the key D switches to float32 and back, and reproducible_sum
# (float32 only) opens its float32 trace by itself.
MAP="$dir/float32.map"
SCREEN=1280x720 with_app float32 "$session --kernel sum_atomic --block-size 256" keys d >/dev/null
grep -q "^element type: float32" "$dir/float32.log" && ok "float32: key D shows sum_atomic's float32 trace" \
  || bad "float32: key D did not switch ($(grep '^element type' "$dir/float32.log"))"
for w in A/dtype/int32 A/dtype/float32; do
  inside "$(rect "$MAP" "$w")" && ok "float32: $w on screen at 1280x720" || bad "float32: $w off screen or missing"
done
SCREEN=1280x720 with_app float32-back "$session --kernel sum_atomic --block-size 256 --type float32" keys d >/dev/null
grep -q "^element type: int32" "$dir/float32-back.log" && ok "float32: --type float32 then D goes back to int32" \
  || bad "float32: D did not go back ($(grep '^element type' "$dir/float32-back.log"))"
SCREEN=1280x720 with_app float32-rsum "$session --kernel reproducible_sum --block-size 256 --step 3" true >/dev/null
grep -q "showing reproducible_sum at 256 threads, step 3 of" "$dir/float32-rsum.log" \
  && grep -q "^element type: float32" "$dir/float32-rsum.log" && ok "float32: reproducible_sum steps its float32 trace" \
  || bad "float32: reproducible_sum did not open ($(grep 'showing\|^element' "$dir/float32-rsum.log" | tr '\n' ' '))"

# 18c. The pitfalls as compiled (issue 29): the bundled session holds pitfall_no_volatile's binary trace beside the
# source probe's and racecheck's races. The controls offer "Traced by: the source / as compiled", and the key B
# switches to the binary tracer's trace.
MAP="$dir/as-compiled.map"
SCREEN=1280x720 with_app as-compiled "$session --kernel pitfall_no_volatile --block-size 256" keys b >/dev/null
grep -q "^tracer: the binary backend" "$dir/as-compiled.log" && ok "as compiled: key B shows the binary tracer's trace" \
  || bad "as compiled: key B did not switch ($(grep '^tracer' "$dir/as-compiled.log"))"
for w in A/tracer/source A/tracer/binary; do
  inside "$(rect "$MAP" "$w")" && ok "as compiled: $w on screen at 1280x720" || bad "as compiled: $w off screen or missing"
done
SCREEN=1280x720 with_app as-source "$session --kernel pitfall_no_volatile --block-size 256" true >/dev/null
grep -q "^tracer: the source probe" "$dir/as-source.log" && ok "as compiled: the source probe's trace by default" \
  || bad "as compiled: not the source probe's by default ($(grep '^tracer' "$dir/as-source.log"))"

# 18d. CUB opened (issue 29): the bundled session's CUB kernels, traced as compiled, are listed in the modern track.
# Side A opens cub::DeviceReduceKernel at the block size CUB ran it at; its "Compare with single_pass_last_block"
# button puts our kernel beside it (B); Down goes on to CUB's second pass. single_pass_last_block's own note offers
# CUB's kernel the other way round.
MAP="$dir/cub.map"
SCREEN=1280x720 with_app cub "$session --kernel cub::DeviceReduceKernel" clicks A/compare-with/single_pass_last_block \
  >/dev/null
grep -q "showing cub::DeviceReduceKernel at 256 threads.*; compare" "$dir/cub.log" && grep -q "^tracer: the binary backend" "$dir/cub.log" \
  && ok "CUB: cub::DeviceReduceKernel opens at CUB's 256 threads, traced as compiled" \
  || bad "CUB: $(grep -m1 '^screenshot' "$dir/cub.log")"
grep -q "^B: single_pass_last_block at 256 threads" "$dir/cub.log" && ok "CUB: 'Compare with single_pass_last_block' puts it beside (B)" \
  || bad "CUB: the compare button gave $(grep '^B:' "$dir/cub.log")"
for w in A/kernel/cub::DeviceReduceKernel A/compare-with/reduce6; do
  inside "$(rect "$MAP" "$w")" && ok "CUB: $w on screen at 1280x720" || bad "CUB: $w off screen or missing"
done
SCREEN=1280x720 with_app cub-down "$session --kernel cub::DeviceReduceKernel" keys Down >/dev/null
grep -q "showing cub::DeviceReduceSingleTileKernel at 256" "$dir/cub-down.log" && ok "CUB: Down goes on to the second pass" \
  || bad "CUB: Down gave $(grep -m1 '^screenshot' "$dir/cub-down.log")"
MAP="$dir/cub-back.map"
SCREEN=1280x720 with_app cub-back "$session --kernel single_pass_last_block --block-size 256" \
  clicks A/compare-with/cub::DeviceReduceKernel >/dev/null
grep -q "^B: cub::DeviceReduceKernel at 256 threads" "$dir/cub-back.log" \
  && ok "CUB: single_pass_last_block's note puts CUB's first pass beside it" || bad "CUB: $(grep '^B:' "$dir/cub-back.log")"
inside "$(rect "$MAP" A/compare-with/cub::DeviceReduceKernel)" && ok "CUB: single_pass_last_block's CUB button on screen at 1280x720" \
  || bad "CUB: single_pass_last_block's CUB button off screen or missing ($(rect "$MAP" A/compare-with/cub::DeviceReduceKernel))"

# 18e. Why the bits differ (issue 30): the bundled session holds sum_atomic's block 0 in two runs (float32, 256
# threads). The bits tab's button opens it in the atomics panel's two-runs view: the sentence of where and why the
# runs part, and the first update whose rounding differs marked, on screen at 1280x720.
MAP="$dir/two-runs.map"
SCREEN=1280x720 REDUCESCOPE_CONFIG="$dir/two-runs.ini" with_app two-runs "$session --kernel reduce1 --block-size 256 --view bits" \
  clicks bits/two-runs/sum_atomic >/dev/null
grep -q "showing sum_atomic at 256 threads" "$dir/two-runs.log" && grep -q "^element type: float32" "$dir/two-runs.log" \
  && ok "two runs: the bits tab's button opens sum_atomic's float32 trace" || bad "two runs: $(grep -m1 '^screenshot' "$dir/two-runs.log")"
for w in atomics/two-runs/why atomics/two-runs/first; do
  inside "$(rect "$MAP" "$w")" && ok "two runs: $w on screen at 1280x720" || bad "two runs: $w off screen or missing"
done

# 18f. ... and how reproducible_sum avoids it: the bits tab's "Exact sum, step by step" opens reproducible_sum's float32
# trace, whose global panel says at every step what it adds to the block's exact accumulator.
MAP="$dir/exact.map"
SCREEN=1280x720 REDUCESCOPE_CONFIG="$dir/exact.ini" with_app exact "$session --kernel reduce1 --block-size 256 --view bits" \
  clicks bits/exact/reproducible_sum >/dev/null
grep -q "showing reproducible_sum at 256 threads" "$dir/exact.log" && ok "exact sum: the bits tab's button opens reproducible_sum" \
  || bad "exact sum: $(grep -m1 '^screenshot' "$dir/exact.log")"
inside "$(rect "$MAP" A/exact-accumulator)" && ok "exact sum: the accumulator's sentence on screen at 1280x720" \
  || bad "exact sum: A/exact-accumulator off screen or missing ($(rect "$MAP" A/exact-accumulator))"

# 19. Chinese (issue 31). View > Language > 中文 switches the window's words (the View menu then reads 视图) and
# saves the choice; the next start opens in Chinese without --lang; with no saved choice the system locale
# decides (LANG=zh_CN.UTF-8), and --lang en wins over both. The Chinese frame differs from the English one.
zh_ini="$dir/zh.ini"; rm -f "$zh_ini"
MAP="$dir/zh-menu.map"
REDUCESCOPE_CONFIG="$zh_ini" with_app zh-menu "--kernel reduce1 --block-size 256" \
  clicks menu/View menu/View/Language menu/View/Language/zh >/dev/null
grep -q "^language: zh (the View menu reads 视图)" "$dir/zh-menu.log" && ok "View > Language > 中文: the window speaks Chinese" \
  || bad "View > Language > 中文: $(grep '^language' "$dir/zh-menu.log")"
grep -q "^Language=zh" "$zh_ini" && ok "the language chosen is saved" || bad "the language chosen is not saved"
REDUCESCOPE_CONFIG="$zh_ini" with_app zh-saved "--kernel reduce1 --block-size 256" true >/dev/null
grep -q "^language: zh" "$dir/zh-saved.log" && ok "the saved language opens the next window" || bad "the saved language is not used"
rm -f "$dir/zh-env.ini"
LANG=zh_CN.UTF-8 LANGUAGE= LC_ALL= LC_MESSAGES= REDUCESCOPE_CONFIG="$dir/zh-env.ini" \
  with_app zh-env "--kernel reduce1 --block-size 256" true >/dev/null
grep -q "^language: zh" "$dir/zh-env.log" && ok "LANG=zh_CN.UTF-8: Chinese by default" || bad "LANG=zh_CN.UTF-8 gave $(grep '^language' "$dir/zh-env.log")"
LANG=zh_CN.UTF-8 LANGUAGE= LC_ALL= LC_MESSAGES= REDUCESCOPE_CONFIG="$zh_ini" \
  with_app zh-en "--kernel reduce1 --block-size 256 --lang en" true >/dev/null
grep -q "^language: en (the View menu reads View)" "$dir/zh-en.log" && ok "--lang en wins over the locale and the saved choice" \
  || bad "--lang en: $(grep '^language' "$dir/zh-en.log")"
[ "$(differ "$dir/zh-saved.png" "$dir/zh-en.png")" -gt 1000 ] && ok "the Chinese frame differs from the English one" \
  || bad "the Chinese and English frames are the same"

# 20. Issue 38: what the views say and show. (a) At 1280x720, scale 1.0 and 1.5, English and Chinese, int32 and
# float32, every lane value drawn in the lanes view's table (the cells above it are too narrow) shows glyphs:
# its crop has more than two colours. (b) pitfall_no_syncwarp's banks view says its shared memory is not traced
# (not "does not use") and offers the binary trace: its button switches to it, as key B does.
scale15="$dir/scale15.ini"
printf '[ReduceScope][Settings]\nWindow=0,0,1280,720\nUiScale=1.50\n' >"$scale15"
for case in "10 en int32" "10 zh float32" "15 en float32" "15 zh int32"; do
  read -r sc lang type <<<"$case"
  name="lanes-$sc-$lang-$type"
  MAP="$dir/$name.map"
  ini="$dir/$name.ini"
  [ "$sc" = 15 ] && cp "$scale15" "$ini" || rm -f "$ini"
  REDUCESCOPE_CONFIG="$ini" SCREEN=1280x720 with_app "$name" \
    "$session --kernel sum_shuffle --block-size 256 --step 4 --type $type --lang $lang" true >/dev/null
  panel=$(rect "$MAP" panel/lanesA)
  read -r px0 py0 px1 py1 <<<"${panel:-0 0 0 0}"
  seen=0; blank=0
  while read -r _ x0 y0 x1 y1; do
    [ "$y1" -le "$py1" ] && [ "$y0" -ge "$py0" ] || continue  # scrolled out of the panel
    seen=$((seen + 1))
    c=$(convert "$dir/$name.png" -crop "$((x1 - x0))x$((y1 - y0))+$x0+$y0" +repage -format '%k' info: 2>/dev/null)
    [ "${c:-0}" -gt 2 ] || blank=$((blank + 1))
  done < <(grep '^A/lanes-value/' "$MAP" 2>/dev/null)
  [ "$seen" -ge 32 ] && [ "$blank" -eq 0 ] && ok "lanes at 1280x720, scale 1.$((sc % 10)), $lang, $type: $seen values on screen, each drawn" \
    || bad "lanes at 1280x720, scale 1.$((sc % 10)), $lang, $type: $seen values on screen, $blank blank"
done
MAP="$dir/not-traced.map"
SCREEN=1280x720 with_app not-traced "$session --kernel pitfall_no_syncwarp --block-size 256 --step 1" \
  clicks A/as-compiled >/dev/null
grep -q "^tracer: the binary backend" "$dir/not-traced.log" && ok "not traced: the banks view's button shows the binary trace" \
  || bad "not traced: the button did not switch ($(grep '^tracer' "$dir/not-traced.log"))"

# 21. Issue 38, item 7: --headless, with no X server (DISPLAY unset): the same frame as in Xvfb (both Mesa's llvmpipe
# here: the headless one through EGL), of the size the settings say; the renderer named on stdout; without EGL's
# vendor libraries a one-line error and exit 1; without --screenshot, --frames or --reload-bench a usage error.
hl="$dir/headless.ini"
printf '[ReduceScope][Settings]\nWindow=0,0,1280,720\nUiScale=1.00\n' >"$hl"
MAP="$dir/xvfb-twin.map"
cp "$hl" "$dir/xvfb-twin.ini"
REDUCESCOPE_CONFIG="$dir/xvfb-twin.ini" SCREEN=1280x720 with_app xvfb-twin "--kernel reduce1 --block-size 256 --step 3" park \
  >/dev/null
out=$(env -u DISPLAY REDUCESCOPE_CONFIG="$hl" timeout 60 "$bin" --headless --kernel reduce1 --block-size 256 --step 3 \
  --screenshot "$dir/headless.png" 2>&1); rc=$?
echo "$out" | grep -q "^headless: .*OpenGL" && ok "headless: renders through EGL ($(echo "$out" | grep '^headless:'))" \
  || bad "headless: no renderer line (rc $rc: $out)"
[ "$(identify -format '%wx%h' "$dir/headless.png" 2>/dev/null)" = 1280x720 ] && ok "headless: a 1280x720 frame" \
  || bad "headless: no 1280x720 screenshot"
echo "$out" | grep -q "showing reduce1 at 256 threads, step 3 of 10" && ok "headless: reduce1 at step 3" \
  || bad "headless: not reduce1 at step 3"
d=$(differ "$dir/headless.png" "$dir/xvfb-twin.png")
[ -n "$d" ] && [ "$d" -lt 9216 ] && ok "headless: the frame is the window's ($d of 921600 pixels differ)" \
  || bad "headless: the frame differs from the window's in ${d:-?} pixels"
out=$(env -u DISPLAY __EGL_VENDOR_LIBRARY_DIRS=/nonexistent REDUCESCOPE_CONFIG="$hl" timeout 60 "$bin" --headless \
  --screenshot "$dir/none.png" 2>&1); rc=$?
[ $rc -eq 1 ] && [ "$(echo "$out" | grep -c 'reducescope: --headless: ')" = 1 ] && [ ! -e "$dir/none.png" ] \
  && ok "headless without an EGL driver: one line and exit 1 ($(echo "$out" | grep -- '--headless'))" \
  || bad "headless without an EGL driver: rc $rc, $out"
out=$(env -u DISPLAY "$bin" --headless --kernel reduce1 2>&1); rc=$?
[ $rc -eq 2 ] && echo "$out" | grep -q "give it --screenshot" && ok "headless alone: a usage error (exit 2)" \
  || bad "headless alone: rc $rc, $out"

# 22. Issue 39: Predict mode and class mode, at 1280x720, by keys and clicks. (a) --lesson harris on reduce0 at 256:
# Right asks before step 1 (the step stays 0); a wrong number typed keeps it hidden and says try again; the right one
# (16: reduce0's first step keeps lanes with even tid, 16 of warp 0's 32) shows step 1, marked right, scored as 2
# tries. (b) --class-mode: the question for the room with no answer field; Right asks, Enter reveals step 1 with the
# trace's answer, and nothing is scored. (c) --lang zh with no saved choice speaks Chinese (it was overridden by the
# locale where no --lesson was given). (d), (e) and (f) below.
waitw() { for _ in $(seq 100); do grep -q "^$1 " "$MAP" 2>/dev/null && return 0; sleep 0.1; done; echo "no $1 in $MAP"; return 1; }
# Dear ImGui 1.86 reads a key's state once a frame: a press and release within one frame (xdotool key) can be missed
# by a text field, so its keys are held for a few frames, as a person's are.
hold() { xdotool keydown --window "$WID" "$1"; sleep 0.15; xdotool keyup --window "$WID" "$1"; sleep 0.1; }
predict_scored() {
  keys Right; waitw predict/input || return
  click predict/input; xdotool type --window "$WID" "32"; hold Return; waitw predict/verdict || return
  click predict/input; hold ctrl+a; xdotool type --window "$WID" "16"; hold Return
}
MAP="$dir/predict.map"; rm -f "$dir/predict.ini"
REDUCESCOPE_CONFIG="$dir/predict.ini" SCREEN=1280x720 with_app predict \
  "$session --kernel reduce0 --block-size 256 --lesson harris" predict_scored >/dev/null
grep -q "showing reduce0 at 256 threads, step 1 of 10" "$dir/predict.log" && \
  grep -q "^predict: lesson harris, scored; verdict: Right: 16 of warp 0's 32 lanes" "$dir/predict.log" && \
  grep -q "answered 1, right at the first try 0, tries 2$" "$dir/predict.log" \
  && ok "predict: wrong then right shows step 1, marked right, 2 tries ($(grep '^predict' "$dir/predict.log"))" \
  || bad "predict: $(grep -E '^(predict|screenshot)' "$dir/predict.log")"
class_mode() {
  keys Right; waitw predict/reveal || return
  grep -q "^predict/input " "$MAP" && echo "class mode drew an answer field"
  hold Return
}
MAP="$dir/class.map"; rm -f "$dir/class.ini"
REDUCESCOPE_CONFIG="$dir/class.ini" SCREEN=1280x720 with_app class \
  "$session --kernel reduce0 --block-size 256 --lesson harris --class-mode" class_mode >"$dir/class.out"
grep -q "showing reduce0 at 256 threads, step 1 of 10" "$dir/class.log" && \
  grep -q "^predict: lesson harris, class mode; verdict: On the GPU: 16 of warp 0's 32 lanes" "$dir/class.log" && \
  ! grep -q "answered\|answer field" "$dir/class.log" "$dir/class.out" \
  && ok "class mode: Right asks, Enter reveals step 1 with the trace's answer, no answer field, no score" \
  || bad "class mode: $(grep -E '^(predict|screenshot)' "$dir/class.log"; cat "$dir/class.out")"
# (d) A question before step 0 (course: naive_sum's first load), its global panel folded away at 1280x720: asked in
# the first panel on screen, the step's panels kept out of sight.
MAP="$dir/predict0.map"; rm -f "$dir/predict0.ini"
REDUCESCOPE_CONFIG="$dir/predict0.ini" SCREEN=1280x720 with_app predict0 \
  "$session --kernel naive_sum --block-size 256 --lesson course" waitw predict/input >/dev/null
grep -q "^predict: lesson course, scored, question before step 0 (sectors)" "$dir/predict0.log" && \
  inside "$(rect "$MAP" predict/ask)" && inside "$(rect "$MAP" predict/input)" \
  && ok "a question before step 0, its panel folded: asked on screen ($(rect "$MAP" predict/ask))" \
  || bad "before step 0: $(grep '^predict' "$dir/predict0.log"); ask at $(rect "$MAP" predict/ask)"
# (e) A lesson's question about the session (harris: reduce1's speedup over reduce0) waits at the top of the timings
# panel, on screen at 1280x720 (the verdict scrolled into sight), its tables behind it; a wrong number says try again, a right one (1.5: the H100's medians give 1.54x, right
# within 15%) shows the verdict with the session's reason, scored as 2 tries; File > Save my answers writes them in the
# page's format, which lesson-report reads.
session_speedup() {
  waitw predict/session/input || return
  click predict/session/input; xdotool type --window "$WID" "100"; hold Return; waitw predict/session/verdict || return
  click predict/session/input; hold ctrl+a; xdotool type --window "$WID" "1.5"; hold Return
  clicks menu/File menu/File/SaveAnswers
  for _ in $(seq 50); do ls "$dir"/answers/reducescope-answers*.json >/dev/null 2>&1 && break; sleep 0.1; done
}
MAP="$dir/speedup.map"; rm -f "$dir/speedup.ini"; rm -rf "$dir/answers"
REDUCESCOPE_CONFIG="$dir/speedup.ini" SCREEN=1280x720 with_app speedup \
  "$session --kernel reduce1 --block-size 256 --lesson harris --export-dir $dir/answers" session_speedup >/dev/null
grep -q "session speedup (harris#2): Right: reduce0 took 0.1724 ms (median) and reduce1 0.1122 ms: 1.54x; any answer from 1.31x" "$dir/speedup.log" \
  && grep -q "answered 1, right at the first try 0, tries 2$" "$dir/speedup.log" \
  && inside "$(rect "$MAP" predict/session/verdict)" \
  && ok "predict: the timings panel's speedup question at 1280x720, wrong then right, scored as 2 tries" \
  || bad "session question: $(grep -E '^(predict|screenshot)' "$dir/speedup.log")"
# File > Save my answers: the page's format, which lesson-report reads (the question, its key, the wrong try).
"$bin" lesson-report "$dir"/answers/reducescope-answers*.json >"$dir/answers.txt" 2>&1
grep -q "saved 1 answers to $dir/answers/reducescope-answers.*json" "$dir/speedup.log" && \
  grep -Eq "reduce1 +- +speedup +1.54 +0% +100 \(1 student\)" "$dir/answers.txt" \
  && ok "File > Save my answers: lesson-report reads the window's answers (the speedup, its key, the wrong 100)" \
  || bad "saved answers: $(grep saved "$dir/speedup.log"); $(cat "$dir/answers.txt")"
# (f) float's question of where two runs of sum_atomic's block part waits in the Timings panel: the atomics panel's
# two runs (--two-runs), which answer it, are held back until it is answered.
MAP="$dir/part.map"; rm -f "$dir/part.ini"
REDUCESCOPE_CONFIG="$dir/part.ini" SCREEN=1280x720 with_app part \
  "$session --kernel sum_atomic --block-size 256 --type float32 --two-runs --lesson float --step 2" \
  waitw atomics/two-runs-held >/dev/null
grep -q "session part (float#6): waiting" "$dir/part.log" && grep -q "^atomics/two-runs-held " "$MAP" \
  && ! grep -q "^atomics/two-runs/" "$MAP" \
  && ok "predict: the two runs held back while the question of where they part waits" \
  || bad "two runs with a waiting question: $(grep '^predict' "$dir/part.log"); $(grep '^atomics' "$MAP" | head -3)"
MAP="$dir/zh-flag.map"; rm -f "$dir/zh-flag.ini"
LANG=C LANGUAGE= LC_ALL= LC_MESSAGES= REDUCESCOPE_CONFIG="$dir/zh-flag.ini" \
  with_app zh-flag "--kernel reduce1 --block-size 256 --lang zh" true >/dev/null
grep -q "^language: zh" "$dir/zh-flag.log" && ok "--lang zh with no saved choice: Chinese" \
  || bad "--lang zh with no saved choice gave $(grep '^language' "$dir/zh-flag.log")"

# 23. Issue 54: the window survives a GPU reset of its OpenGL context. REDUCESCOPE_SIMULATE_GL_RESET=20 is the test
# double of a robustness reset (a kernel's fault on the GPU that also draws the window): at frame 20 the context is
# taken as lost, and the window makes a new one (headless: a new EGL context; with GLFW: a new window where the old one
# stood), Dear ImGui's objects and the font texture again in it. One reset, said once on stderr (no loop), then the
# frames go on: the screenshot at frame 60 is drawn whole (the frame without the reset, less the step bar's one line
# that says the reset), and the widget map has that line.
for mode in headless glfw; do
  MAP="$dir/glreset-$mode.map"; rm -f "$MAP"
  printf '[ReduceScope][Settings]\nWindow=0,0,1280,720\nUiScale=1.00\n' >"$dir/glreset.ini"
  args=(--kernel reduce1 --block-size 256 --step 3 --frames 60 --screenshot "$dir/glreset-$mode.png")
  if [ $mode = headless ]; then
    out=$(env -u DISPLAY REDUCESCOPE_CONFIG="$dir/glreset.ini" REDUCESCOPE_WIDGET_MAP="$MAP" REDUCESCOPE_SIMULATE_GL_RESET=20 \
      timeout 60 "$bin" --headless "${args[@]}" 2>&1); rc=$?
  else
    out=$(REDUCESCOPE_CONFIG="$dir/glreset.ini" REDUCESCOPE_WIDGET_MAP="$MAP" REDUCESCOPE_SIMULATE_GL_RESET=20 \
      timeout 60 xvfb-run -a -s "-screen 0 1280x720x24" "$bin" "${args[@]}" 2>&1); rc=$?
  fi
  resets=$(echo "$out" | grep -c "the GPU reset the window's OpenGL context (reset")
  colours=$(identify -format '%k' "$dir/glreset-$mode.png" 2>/dev/null || echo 0)
  [ $rc -eq 0 ] && [ "$resets" = 1 ] && echo "$out" | grep -q "(reset 1)" && [ "$colours" -gt 1000 ] \
    && grep -q "^step/gl-reset " "$MAP" && grep -q "^panel/smemA " "$MAP" && echo "$out" | grep -q "showing reduce1 at 256 threads, step 3" \
    && ok "$mode: a GPU reset of the OpenGL context at frame 20, one new context, the frame at 60 drawn whole ($colours colours) with its line" \
    || bad "$mode GL reset: rc $rc, $resets resets, $colours colours, $(grep -c gl-reset "$MAP" 2>/dev/null) reset lines: $out"
done
# Three resets within a minute (frames 20, 25, 30): a headless window moves to the next EGL display (here Mesa's
# surfaceless platform after its device platform), says so once, and draws the frame at 60 there.
out=$(env -u DISPLAY REDUCESCOPE_CONFIG="$dir/glreset.ini" REDUCESCOPE_SIMULATE_GL_RESET=20,25,30 timeout 60 "$bin" \
  --headless --kernel reduce1 --block-size 256 --step 3 --frames 60 --screenshot "$dir/glreset-move.png" 2>&1); rc=$?
colours=$(identify -format '%k' "$dir/glreset-move.png" 2>/dev/null || echo 0)
[ $rc -eq 0 ] && [ "$(echo "$out" | grep -c "reset the window's OpenGL context (reset")" = 3 ] \
  && echo "$out" | grep -q "(reset 3, the third within a minute); drawing on .*EGL surfaceless platform from now on" \
  && [ "$colours" -gt 1000 ] \
  && ok "headless: the third reset within a minute moves the drawing to the next EGL display, drawn whole ($colours colours)" \
  || bad "headless, three resets: rc $rc, $colours colours: $out"
d=$(differ "$dir/glreset-headless.png" "$dir/headless.png")
[ -n "$d" ] && [ "$d" -gt 0 ] && ok "headless GL reset: the frame differs from the one without a reset by the reset's line ($d pixels)" \
  || bad "headless GL reset: the frame is the same as without the reset"

source "$(dirname "$0")/gui_room_section.sh"

echo "$pass passed, $fail failed"
[ $fail -eq 0 ]
