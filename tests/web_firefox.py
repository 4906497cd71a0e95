#!/usr/bin/env python3
"""The exported web page in a second engine: headless Firefox (Debian's firefox-esr), driven over
WebDriver BiDi (Firefox's --remote-debugging-port; python3-websocket). A smoke test beside the full
Chromium one (tests/web_chromium.py), so the page is known to work outside Blink too:

  - the page of the bundled session loads from disk and opens its first kernel;
  - real key events (ArrowRight, End, Home) move the step;
  - ArrowDown opens the next kernel, and it draws its steps;
  - a corrupted data block shows the visible error message, not a blank page;
  - no JavaScript error is logged.

Every check waits for what it checks (polls with a timeout). A screenshot of the first kernel goes
into --out. Exit 0 when every check passed.
"""
import argparse
import base64
import json
import os
import shutil
import subprocess
import sys
import tempfile
import time

import websocket

from web_pages import VISIBLE_ERROR_JS, write_damaged_pages

failures = []


def check(cond, what):
    print(("ok   " if cond else "FAIL ") + what, flush=True)
    if not cond:
        failures.append(what)


def wait_for(fn, what, timeout=60):
    end = time.time() + timeout
    while time.time() < end:
        v = fn()
        if v:
            return v
        time.sleep(0.2)
    print("  (timed out after %d s waiting for %s)" % (timeout, what), flush=True)
    return None


class Firefox:
    """One headless Firefox with one WebDriver BiDi session."""

    def __init__(self, binary, work):
        self.profile = os.path.join(work, "profile")
        os.makedirs(self.profile, exist_ok=True)
        self.proc = subprocess.Popen([binary, "--headless", "--no-remote", "--profile", self.profile,
                                      "--remote-debugging-port", "0", "--window-size=1280,720"],
                                     stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True)
        url = None
        end = time.time() + 60
        while time.time() < end and url is None:  # "WebDriver BiDi listening on ws://127.0.0.1:PORT"
            line = self.proc.stdout.readline()
            if not line:
                break
            if "WebDriver BiDi listening on " in line:
                url = line.split("listening on ")[1].strip()
        if url is None:
            raise RuntimeError("Firefox did not open WebDriver BiDi")
        self.ws = websocket.create_connection(url + "/session", timeout=60, suppress_origin=True)
        self.next_id = 0
        self.log = []
        self.call("session.new", {"capabilities": {}})
        self.call("session.subscribe", {"events": ["log.entryAdded"]})
        self.ctx = self.call("browsingContext.getTree", {})["contexts"][0]["context"]

    def call(self, method, params):
        self.next_id += 1
        self.ws.send(json.dumps({"id": self.next_id, "method": method, "params": params}))
        while True:
            m = json.loads(self.ws.recv())
            if m.get("method") == "log.entryAdded":
                e = m["params"]
                if e.get("level") == "error":
                    self.log.append(e.get("text", ""))
                continue
            if m.get("id") == self.next_id:
                if m.get("type") == "error":
                    raise RuntimeError("%s: %s" % (method, m.get("message", m)))
                return m["result"]

    def open(self, path):
        self.call("browsingContext.navigate", {"context": self.ctx, "url": "file://" + os.path.abspath(path),
                                               "wait": "complete"})

    def eval(self, expr):
        r = self.call("script.evaluate", {"expression": expr, "target": {"context": self.ctx}, "awaitPromise": False})
        return r.get("result", {}).get("value")

    def key(self, value):
        """A real key press (WebDriver key codes: \\ue014 ArrowRight, \\ue015 ArrowDown, \\ue010 End, \\ue011 Home)."""
        self.call("input.performActions", {"context": self.ctx, "actions": [
            {"type": "key", "id": "keyboard", "actions": [{"type": "keyDown", "value": value},
                                                          {"type": "keyUp", "value": value}]}]})

    def screenshot(self, path):
        data = self.call("browsingContext.captureScreenshot", {"context": self.ctx})["data"]
        with open(path, "wb") as f:
            f.write(base64.b64decode(data))

    def close(self):
        try:
            self.ws.close()
        finally:
            self.proc.kill()
            self.proc.wait()


def state(b):
    s = b.eval("window.rs && window.rs.state ? JSON.stringify(window.rs.state()) : null")
    return json.loads(s) if s else None


ROOM_JS = """(function(main){function r(id){var e=document.getElementById(id); if(!e||e.hidden||!e.offsetParent)
return null; var b=e.getBoundingClientRect(); return [b.top, b.bottom, e.scrollWidth, e.clientWidth];}
return JSON.stringify({main: r(main), step: r('step-row'), line: r('source-line'), shown: window.rs.shownViews,
text: document.getElementById('source-line').textContent, wide: document.documentElement.scrollWidth,
h: window.innerHeight, w: window.innerWidth});})"""


def open_and_step(b, kernel, bs, what):
    """Opens kernel at bs threads and steps it from 0 to 1 with real keys; False where it did not open."""
    b.eval("window.rs.select(%s, %d)" % (json.dumps(kernel), bs))
    ok = wait_for(lambda: (lambda s: s and s["kernel"] == kernel and s["bs"] == bs and not s["loading"]
                           and s["steps"] > 0)(state(b)), "%s to open" % kernel, 30)
    check(bool(ok), "Firefox: %s opens at %d threads" % (what, bs))
    if not ok:
        return False
    b.key("\ue011")
    wait_for(lambda: state(b)["step"] == 0, "step 0", 20)
    b.key("\ue014")
    check(bool(wait_for(lambda: state(b)["step"] == 1, "step 1", 20)), "Firefox: ArrowRight steps %s" % kernel)
    return True


def check_float_trace(b, out):
    """Issue 30 in a second engine: reproducible_sum's float32 trace opens at 1280x720 and steps with real keys."""
    if not b.eval("!!(window.rs && window.rs.held && (window.rs.held('reproducible_sum') || []).indexOf(256) >= 0)"):
        print("skip reproducible_sum: this page holds no float32 trace of it")
        return
    b.call("browsingContext.setViewport", {"context": b.ctx, "viewport": {"width": 1280, "height": 720}})
    wait_for(lambda: b.eval("window.innerWidth") == 1280, "the viewport to be 1280x720", 20)
    if not open_and_step(b, "reproducible_sum", 256, "reproducible_sum (float32)"):
        return
    title = b.eval("document.getElementById('kernel-title').textContent")
    check("float32" in title, "Firefox: reproducible_sum's title names float32 (%s)" % title)
    b.screenshot(os.path.join(out, "firefox-reproducible_sum-float32-1280x720.png"))
    # The int32 / float32 switch: sum_shared at 256 threads in int32, a real D opens its float32 trace, D again int32.
    if not open_and_step(b, "sum_shared", 256, "sum_shared (int32)"):
        return
    if b.eval("document.getElementById('type-row').hidden"):
        print("skip the int32 / float32 switch: this page holds sum_shared in one element type")
        return
    check(state(b)["dtype"] == "int32", "Firefox: sum_shared opens in int32 (%s)" % state(b)["dtype"])
    b.key("d")
    check(bool(wait_for(lambda: (lambda s: s["dtype"] == "float32" and not s["loading"] and s["step"] == 1)(state(b)),
                        "float32", 20)), "Firefox: D opens sum_shared's float32 trace at the same step")
    b.key("\ue014")
    check(bool(wait_for(lambda: state(b)["step"] == 2, "step 2", 20)), "Firefox: ArrowRight steps the float32 trace")
    b.screenshot(os.path.join(out, "firefox-sum_shared-float32-1280x720.png"))
    b.key("d")
    check(bool(wait_for(lambda: state(b)["dtype"] == "int32", "int32", 20)), "Firefox: D again opens the int32 trace")


def check_cub_trace(b, out):
    """Issue 29 in a second engine: CUB's first pass, traced as compiled, opens at 256 threads and steps."""
    if not b.eval("!!(window.rs && window.rs.held && (window.rs.held('cub::DeviceReduceKernel') || []).length)"):
        print("skip CUB: this page holds no trace of cub::DeviceReduceKernel")
        return
    if open_and_step(b, "cub::DeviceReduceKernel", 256, "cub::DeviceReduceKernel"):
        b.screenshot(os.path.join(out, "firefox-cub-DeviceReduceKernel-1280x720.png"))


def check_room(b, out):
    """Issue 17, item 5, in a second engine: at 1280x720 and on a phone (390x844) the step controls, the
    step's main view and its whole source line are where a student finds them without hunting."""
    for (w, h) in ((1280, 720), (390, 844)):
        b.call("browsingContext.setViewport", {"context": b.ctx, "viewport": {"width": w, "height": h}})
        wait_for(lambda: b.eval("window.innerWidth") == w, "the viewport to be %dx%d" % (w, h), 20)
        for (k, bs, step, main) in (("reduce1", 256, 5, "smem-panel"), ("sum_shuffle", 128, 3, "lanes-panel")):
            b.eval("window.rs.select(%s, %d)" % (json.dumps(k), bs))
            if not wait_for(lambda: (lambda s: s and s["kernel"] == k and s["bs"] == bs and not s["loading"] and
                                      s["steps"] > 0)(state(b)), "%s to open" % k, 30):
                check(False, "%dx%d: %s opens" % (w, h, k))
                continue
            b.key("\ue011")
            wait_for(lambda: state(b)["step"] == 0, "step 0", 20)
            for _ in range(step):
                b.key("\ue014")
            wait_for(lambda: state(b)["step"] == step, "step %d" % step, 20)
            b.eval("window.scrollTo(0, 0)")
            r = json.loads(b.eval("%s(%s)" % (ROOM_JS, json.dumps(main))))
            tag = "Firefox %dx%d %s step %d" % (w, h, k, step)
            phone = w < 700
            check(r["shown"] and r["shown"][0] + "-panel" == main, "%s: the main view is %s" % (tag, main))
            check(r["main"] is not None and r["main"][0] + 60 < h * (1.5 if phone else 1.0),
                  "%s: the main view starts %s (%s)" % (tag, "within a screen and a half" if phone else "on the first screen",
                                                     r["main"] and int(r["main"][0])))
            check(r["step"] is not None and r["step"][1] <= h, "%s: the step controls on the first screen" % tag)
            check(r["line"] is not None and r["text"].startswith("line ") and r["line"][2] <= r["line"][3] + 1 and
                  (phone or r["line"][1] <= h), "%s: the step's source line whole%s" % (tag, "" if phone else ", on the first screen"))
            check(r["wide"] <= w, "%s: no sideways scrolling (%d px)" % (tag, r["wide"]))
            b.screenshot(os.path.join(out, "firefox-room-%s-%dx%d.png" % (k, w, h)))


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--reducescope", required=True)
    ap.add_argument("--session", required=True)
    ap.add_argument("--out", required=True)
    ap.add_argument("--firefox", default=shutil.which("firefox-esr") or shutil.which("firefox") or "firefox-esr")
    a = ap.parse_args()
    os.makedirs(a.out, exist_ok=True)
    work = tempfile.mkdtemp(prefix="rs-firefox-")
    try:
        page = os.path.join(work, "replay.html")
        r = subprocess.run([a.reducescope, "export", a.session, "--html", page], capture_output=True, text=True)
        check(r.returncode == 0 and os.path.exists(page), "reducescope export --html writes the page")
        if r.returncode != 0:
            print(r.stderr)
            return 1
        corrupt = write_damaged_pages(page, work)["corrupt"]

        b = Firefox(a.firefox, work)
        try:
            print("  " + b.eval("navigator.userAgent"), flush=True)
            b.open(page)
            s = wait_for(lambda: (lambda s: s if s and s["ready"] and not s["loading"] and s["steps"] > 0 else None)(state(b)),
                         "the page to open its first kernel")
            check(bool(s), "the page loads in Firefox and opens its first kernel (%s)" % (s and s["kernel"]))
            if s:
                first = s["kernel"]
                b.key("\ue014")
                check(bool(wait_for(lambda: state(b)["step"] == 1, "step 1", 20)), "ArrowRight moves to step 1")
                b.key("\ue010")
                last = s["steps"] - 1
                check(bool(wait_for(lambda: state(b)["step"] == last, "the last step", 20)), "End jumps to the last step (%d)" % last)
                b.key("\ue011")
                check(bool(wait_for(lambda: state(b)["step"] == 0, "step 0", 20)), "Home jumps to step 0")
                b.screenshot(os.path.join(a.out, "firefox-first-kernel.png"))
                b.key("\ue015")
                n = wait_for(lambda: (lambda s: s if s["kernel"] != first and not s["loading"] and s["steps"] > 0 else None)(state(b)),
                             "the next kernel", 30)
                check(bool(n), "ArrowDown opens the next kernel (%s)" % (n and n["kernel"]))
            if s:
                check_room(b, a.out)
                check_float_trace(b, a.out)
                check_cub_trace(b, a.out)
            check(not b.log, "no JavaScript error logged (%s)" % ("; ".join(b.log[:3]) or "none"))
            b.open(corrupt)
            text = wait_for(lambda: b.eval(VISIBLE_ERROR_JS), "a visible error message", 30)
            check(bool(text) and "corrupt" in text,
                  "a corrupt data block shows a visible error (%s)" % ((text or "none").splitlines()[0][:100]))
        finally:
            b.close()
    finally:
        shutil.rmtree(work, ignore_errors=True)
    print("\nweb_firefox: %d failed" % len(failures) + ("".join("\n  failed: " + f for f in failures)))
    return 1 if failures else 0


if __name__ == "__main__":
    sys.exit(main())
