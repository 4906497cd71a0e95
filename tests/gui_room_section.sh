# Sourced by tests/gui_xvfb.sh (its helpers: with_app, click, waitw, keys, ok, bad; $bin, $dir, $session).
# 24. Issue 56: the window in class mode connected to `reducescope serve` (--serve the instructor's link), at
# 1280x720. Right asks before step 1 (reduce0 at 256, harris); "Open to the room" opens that question on the
# students' pages; three students answer through the server's API (8, 8, 16: two wrong, one right); the window draws
# the distribution as it arrives (its bars in the Predict box, waited for in the widget map), then Enter reveals the
# step and the reveal reaches the server. The X screen's bars before the reveal are checked by their colour (the
# page's blue, room-bars.png).
room_serve_data="$dir/room-serve"; rm -rf "$room_serve_data"
printf 'ann,Ann\nben,Ben\ncy,Cy\n' >"$dir/room-roster.csv"
"$bin" serve --roster "$dir/room-roster.csv" --data "$room_serve_data" --port 0 --gpus none >"$dir/room-serve.out" 2>&1 &
room_serve_pid=$!
for _ in $(seq 100); do grep -q "serving on" "$dir/room-serve.out" && break; sleep 0.1; done
room_base=$(sed -n 's/^serving on \(http:[^ ]*\).*/\1/p' "$dir/room-serve.out")
room_link=$(sed -n 's/^instructor .* \(http:[^ ]*\/i\/[0-9a-f]*\)$/\1/p' "$dir/room-serve.out")
room_answers() {  # the three students answer once the question is open on their pages
  python3 - "$room_base" "$room_serve_data/links.txt" <<'PY'
import json, sys, time, urllib.request
base, links = sys.argv[1], sys.argv[2]
tokens = {l.split()[1]: l.split()[0].rsplit("/", 1)[1] for l in open(links) if "/s/" in l}
def req(path, tok, body=None):
    r = urllib.request.Request(base + path, data=json.dumps(body).encode() if body is not None else None,
                               headers={"Authorization": "Bearer " + tok, "Content-Type": "application/json"})
    return json.load(urllib.request.urlopen(r, timeout=10))
for _ in range(300):
    st = req("/api/room", tokens["ann"])
    if st.get("state") == "open":
        break
    time.sleep(0.1)
for who, n in (("ann", 8), ("ben", 8), ("cy", 16)):
    req("/api/room/answer", tokens[who], {"poll": st["poll"], "vote": st["vote"], "numbers": [n]})
print("answered poll", st.get("poll"))
PY
}
room_class() {
  keys Right; waitw room/open || return
  click room/open
  room_answers
  rm -f "$dir/room-bars.seen"
  for _ in $(seq 100); do grep "^room/bars " "$MAP" >"$dir/room-bars.seen" && break; sleep 0.1; done
  sleep 1  # the bars of all three answers (the client asks every 0.3 s); the map has them once the first arrived
  import -window root "$dir/room-bars.png"  # the X screen before the reveal (the app's own screenshot comes after)
  hold Return
  sleep 1
}
MAP="$dir/room.map"; rm -f "$dir/room.ini"
REDUCESCOPE_CONFIG="$dir/room.ini" SCREEN=1280x720 with_app room \
  "$session --kernel reduce0 --block-size 256 --lesson harris --class-mode --serve $room_link" room_class >"$dir/room-app.out"
room_state=$(python3 -c "
import json,sys,urllib.request
tok=[l.split()[0].rsplit('/',1)[1] for l in open('$room_serve_data/links.txt') if '/i/' in l][0]
r=urllib.request.Request('$room_base/api/room', headers={'Authorization':'Bearer '+tok})
j=json.load(urllib.request.urlopen(r, timeout=10)); print(j['state'], j['votes'][0]['answers'], j['question']['kernel'], j['question']['step'])")
blue=$(convert "$dir/room-bars.png" -fill black +opaque "rgb(0,114,178)" -fill white -opaque "rgb(0,114,178)" -format '%[fx:round(mean*w*h)]' info: 2>/dev/null || echo 0)
[ -s "$dir/room-bars.seen" ] && [ "$room_state" = "revealed 3 reduce0 1" ] && [ "${blue:-0}" -gt 200 ] \
  && ok "class mode with --serve: the question opened on the students' pages, their 3 answers drawn as bars ($blue blue pixels), the reveal sent ($room_state)" \
  || bad "class mode with --serve: state '$room_state', $blue blue pixels, bars $(cat "$dir/room-bars.seen" 2>/dev/null); $(tail -3 "$dir/room-app.out")"
kill $room_serve_pid 2>/dev/null; wait $room_serve_pid 2>/dev/null
