#!/usr/bin/env bash
# The window in a real X server (Xvfb, Mesa llvmpipe), without a GPU:
#   1. it opens, draws the bundled H100 trace of reduce1 and saves a screenshot that is not blank;
#   2. real key events (xdotool) step the replay: Right x3 from step 2 gives step 5, then Left gives 4.
# usage: gui_xvfb.sh REDUCESCOPE WORKDIR
set -u
bin=${1:?reducescope}; dir=${2:?workdir}
mkdir -p "$dir"; pass=0; fail=0
ok() { echo "ok: $*"; pass=$((pass + 1)); }
bad() { echo "FAIL: $*"; fail=$((fail + 1)); }
for t in xvfb-run xdotool identify; do command -v $t >/dev/null || { echo "missing $t (run scripts/setup.sh)"; exit 1; }; done

# 1. A frame.
out=$(timeout 60 xvfb-run -a -s "-screen 0 1600x1000x24" "$bin" --kernel reduce1 --block-size 256 \
      --screenshot "$dir/frame.png" 2>&1); rc=$?
echo "$out"
[ $rc -eq 0 ] && ok "window exits 0" || bad "window exit code $rc"
if [ -s "$dir/frame.png" ]; then
  size=$(identify -format '%wx%h' "$dir/frame.png"); colours=$(identify -format '%k' "$dir/frame.png")
  [ "$size" = 1600x1000 ] && ok "screenshot is 1600x1000" || bad "screenshot size $size"
  [ "$colours" -gt 50 ] && ok "screenshot has $colours colours" || bad "screenshot nearly blank ($colours colours)"
else
  bad "no screenshot"
fi
echo "$out" | grep -q "showing reduce1 at 256 threads, step 5 of 10" && ok "bundled reduce1 trace shown mid-way" \
  || bad "expected the bundled reduce1 trace at step 5 of 10"

# 2. Keys. The app renders at least 400 frames before its screenshot; the keys arrive first.
run_keys() {  # $1: keys to send
  local disp=:$((90 + RANDOM % 100))
  Xvfb $disp -screen 0 1600x1000x24 -nolisten tcp >/dev/null 2>&1 & local xp=$!
  sleep 1
  DISPLAY=$disp timeout 90 "$bin" --kernel reduce1 --block-size 256 --step 2 --frames 400 \
    --screenshot "$dir/keys.png" >"$dir/keys.log" 2>&1 & local ap=$!
  local wid; wid=$(DISPLAY=$disp timeout 20 xdotool search --sync --name ReduceScope | head -1)
  sleep 0.5
  for k in $1; do DISPLAY=$disp xdotool key --window "$wid" "$k"; sleep 0.1; done
  wait $ap; local rc=$?
  kill $xp 2>/dev/null; wait $xp 2>/dev/null
  cat "$dir/keys.log"
  return $rc
}
run_keys "Right Right Right" && grep -q "step 5 of 10" "$dir/keys.log" && ok "Right x3: step 2 -> 5" \
  || bad "Right x3 did not reach step 5"
run_keys "Right Right Right Left" && grep -q "step 4 of 10" "$dir/keys.log" && ok "Right x3, Left: step 4" \
  || bad "Left did not step back"
run_keys "End" && grep -q "step 9 of 10" "$dir/keys.log" && ok "End: last step" || bad "End did not jump to the end"

echo "$pass passed, $fail failed"
[ $fail -eq 0 ]
