#!/usr/bin/env bash
# The Chinese screenshots of docs/screenshots/zh/ (issue 31): every track in the window at 1280x720, alone and in
# compare mode, at scale 1.0 and 1.5, from the bundled H100 session (no GPU needed), and the page of each track in
# headless Chromium at 1280x720. Usage: bash scripts/screenshots_zh.sh BUILD_DIR [OUT_DIR]
set -euo pipefail
cd "$(dirname "$0")/.."
bin=$(cd "${1:?build dir}" && pwd)/reducescope
out=${2:-docs/screenshots/zh}
mkdir -p "$out"
session=assets/sessions/h100-tracks.rssession
export REDUCESCOPE_CONFIG; REDUCESCOPE_CONFIG=$(mktemp)
# One X server for all the windows, its pointer parked in the corner (no tooltip in the pictures).
Xvfb :77 -noreset -screen 0 1280x720x24 -nolisten tcp >/dev/null 2>&1 & xvfb=$!
trap 'kill $xvfb 2>/dev/null' EXIT
sleep 1
export DISPLAY=:77
xdotool mousemove 1279 719
# track  kernel (alone)  side B (compare)  step
shots=(
  "harris reduce3 reduce2 4"
  "lecture sum_shuffle sum_reduce 3"
  "book reduceUnrolling8 reduceNeighbored 4"
  "course farthest_point better_sum 3"
  "modern single_pass_last_block shuffle_block 3"
  "pitfalls pitfall_no_volatile reduce4 7"
)
for s in "${shots[@]}"; do
  read -r track k b step <<<"$s"
  for scale in 1.0 1.5; do
    rm -f "$REDUCESCOPE_CONFIG"
    timeout 60 "$bin" "$session" --lang zh --kernel "$k" --block-size 256 --step "$step" --scale "$scale" --screenshot "$out/window-$track-$scale-1280x720.png" | sed -n 1p
    rm -f "$REDUCESCOPE_CONFIG"
    timeout 60 "$bin" "$session" --lang zh --kernel "$k" --block-size 256 --compare "$b:256" --step "$step" --scale "$scale" --screenshot "$out/compare-$track-$scale-1280x720.png" | sed -n 1p
  done
done
rm -f "$REDUCESCOPE_CONFIG"
# The page, in Chinese, opened at each track's kernel (#lang=zh; the page selects the first kernel, the test hook
# selects the track's).
page=$(mktemp --suffix=.html)
"$bin" export "$session" --html "$page" --block-size 256 --lang zh > /dev/null
for s in "${shots[@]}"; do
  read -r track k _ _ <<<"$s"
  sel=$(mktemp --suffix=.html)
  sed "s|</body>|<script>addEventListener('load',function(){var i=setInterval(function(){if(window.rs\&\&window.rs.ready){clearInterval(i);window.rs.select('$k',256);}},50);});</script></body>|" "$page" > "$sel"
  timeout 60 chromium --headless --disable-gpu --no-sandbox --hide-scrollbars --window-size=1280,720 \
    --virtual-time-budget=10000 --screenshot="$out/page-$track-1280x720.png" "file://$sel" 2>/dev/null
  rm -f "$sel"
  echo "page $track: $out/page-$track-1280x720.png"
done
rm -f "$page"
# 256 colours (the UI has few; the text stays sharp): a quarter of the bytes in the repository.
for f in "$out"/*.png; do convert "$f" -dither None -colors 256 "PNG8:$f"; done
du -sh "$out"
