#!/usr/bin/python3
"""How fast the exported page opens (issue 30: the bundled page loads in under 1 s on a laptop).

Exports the session's page with `reducescope export --html`, then opens it RUNS times in headless Chromium (a fresh
load each time, the cache bypassed) and prints, as median (min-max):
  - load: from the navigation's start to the first trace on screen (performance.now() when the page is ready);
  - switch: the int32 / float32 switch (key D) on sum_shared at 256 threads, to the float32 trace on screen;
  - largest: opening the largest trace of the largest part (the part inflated, the trace prepared and drawn).
Figures only; nothing is asserted (the README's page figures come from here). --size 1280x720 sets the viewport.

  /usr/bin/python3 bench/web_page_load.py --reducescope build/reducescope --session assets/sessions/h100-tracks.rssession
"""
import argparse
import json
import os
import shutil
import statistics
import subprocess
import sys
import tempfile
import time

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "tests"))
import web_chromium as wc  # noqa: E402  (the test's Browser: DevTools over Debian's python3-websocket)


def figure(xs):
    return "%.0f ms median (%.0f-%.0f, %d runs)" % (statistics.median(xs), min(xs), max(xs), len(xs))


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--reducescope", required=True)
    ap.add_argument("--session", required=True)
    ap.add_argument("--runs", type=int, default=7)
    ap.add_argument("--size", default="", help="the viewport, WxH (issue 39 measures at 1280x720); default Chromium's")
    ap.add_argument("--chromium", default=shutil.which("chromium") or shutil.which("chromium-browser"))
    a = ap.parse_args()
    work = tempfile.mkdtemp(prefix="rs-load-")
    page = os.path.join(work, "page.html")
    r = subprocess.run([a.reducescope, "export", a.session, "--html", page], capture_output=True, text=True)
    if r.returncode != 0:
        print(r.stderr, file=sys.stderr)
        return 1
    print(r.stdout.splitlines()[0])
    b = wc.Browser(a.chromium, work)
    loads, switches, largest = [], [], []
    try:
        b.call("Network.setCacheDisabled", cacheDisabled=True)
        if a.size:
            w, h = (int(v) for v in a.size.lower().split("x"))
            wc.set_viewport(b, w, h)
        for _ in range(a.runs):
            b.open(page)
            if not wc.wait_for(lambda: (wc.state(b) or {}).get("ready"), "the page to be ready", 60):
                print("the page did not become ready", file=sys.stderr)
                return 1
            loads.append(b.eval("window.rs.readyMs"))
            if 256 in (b.eval("window.rs.held('sum_shared')") or []):
                b.eval("window.rs.select('sum_shared', 256)")
                wc.wait_open(b, "sum_shared", 256)
                t0 = time.perf_counter()
                b.key("d", "KeyD", 68, "d")
                if wc.wait_for(lambda: (lambda s: s["dtype"] == "float32" and not s["loading"])(wc.state(b)), "float32"):
                    switches.append((time.perf_counter() - t0) * 1000)
            big = b.eval("(function(){var best=null;window.rs.entries().forEach(function(e){"
                         "if(!best||e.partBytes>best.partBytes||(e.part===best.part&&e.bytes>best.bytes))best=e;});"
                         "return JSON.stringify(best);})()")
            big = json.loads(big) if big else None
            if big:
                t0 = time.perf_counter()
                b.eval("window.rs.select(%s, %d)" % (json.dumps(big["kernel"]), big["bs"]))
                if wc.wait_open(b, big["kernel"], big["bs"]):
                    largest.append((time.perf_counter() - t0) * 1000)
    finally:
        b.close()
        shutil.rmtree(work, ignore_errors=True)
    print("load to the first trace: " + figure(loads))
    if switches:
        print("D on sum_shared at 256 (int32 -> float32 on screen): " + figure(switches))
    if largest:
        print("opening %s at %d (its kernel's part, %d bytes packed): %s" % (big["kernel"], big["bs"], big["partBytes"],
                                                                          figure(largest)))
    return 0


if __name__ == "__main__":
    sys.exit(main())
