#!/usr/bin/env python3
"""The exported web page (reducescope export SESSION --html) in headless Chromium, opened from disk.

Drives the page with the Chrome DevTools Protocol (python3-websocket): real key events
(Input.dispatchKeyEvent: ArrowRight, End, Home, Space), real mouse clicks on every kernel of every
track, and checks:
  - the page loads no http:// or https:// resource (everything it needs is inline);
  - a step changes what is drawn (the shared-memory canvas and the step counter);
  - every kernel opens without a JavaScript exception or console error, and every trace the page
    holds opens (every kernel x block size) with steps;
  - stepping a 1024-thread block redraws (its time per step and frame rate are printed as figures);
  - the bank figure: reduce1 at 256 threads, step 3, draws an 8-way conflict (vermillion, "8-way" marks),
    reduce3 at the same step none, and hovering a bank names its words;
  - the timing table's launch column, the three charts drawn (painted pixels), the log time axis toggle
    changing the drawing, the N sweep's legend and table;
  - the multigpu panel (issue 21) where the session has a multi-GPU recording, none where it has not: the ring
    stepped with its buttons, keys and range (the sentence, the figure and the timeline change; the page's
    simulation agrees with the exporter's summed chunks), busbw against size with the P2P line, the tables;
    a session holding only that recording (no traces) makes a page of its panel alone;
  - a corrupted and a truncated data block (and a file cut short) each show a visible error.
Screenshots go to OUT_DIR (Page.captureScreenshot). Every wait polls with a timeout: no fixed sleeps.

  - a page of one binary trace (--session FILE.rstrace): its note, a step with real keys, the lanes view's
    arrows and its words that the trace has no values.

usage: web_chromium.py --reducescope BIN --session FILE.rssession|FILE.rstrace --out OUT_DIR [--chromium PATH]
Exit 0 when every check passed, 1 otherwise (with the failures listed).
"""
import argparse
import base64
import glob
import json
import os
import re
import shutil
import subprocess
import sys
import tempfile
import time
import urllib.request

try:
    import websocket  # Debian: python3-websocket
except ImportError:
    print("web_chromium: python3-websocket is missing (scripts/setup.sh installs it)", file=sys.stderr)
    sys.exit(1)

from web_pages import VISIBLE_ERROR_JS, write_damaged_pages  # noqa: E402 (beside this file)

FAILURES = []
PASSES = 0


def check(cond, what):
    global PASSES
    if cond:
        PASSES += 1
        print("ok   " + what)
    else:
        FAILURES.append(what)
        print("FAIL " + what)
    return cond


def wait_for(fn, what, timeout=30.0, interval=0.05):
    """Polls fn() until it returns a truthy value; returns it, or None after `timeout` seconds."""
    end = time.monotonic() + timeout
    while True:
        try:
            v = fn()
        except Exception as e:  # noqa: BLE001 - a poll may race with navigation
            v = None
            last = e
        if v:
            return v
        if time.monotonic() > end:
            print("  (timed out after %.0f s waiting for %s)" % (timeout, what))
            return None
        time.sleep(interval)


class Browser:
    """One headless Chromium with one page, spoken to over the DevTools protocol."""

    def __init__(self, chromium, workdir):
        self.profile = tempfile.mkdtemp(prefix="rs-chromium-", dir=workdir)
        args = [chromium, "--headless=new", "--no-sandbox", "--disable-gpu", "--no-first-run",
                "--no-default-browser-check", "--disable-extensions", "--disable-background-networking",
                "--disable-dev-shm-usage", "--remote-debugging-port=0", "--user-data-dir=" + self.profile,
                "--window-size=1600,1200", "--force-device-scale-factor=1", "about:blank"]
        self.proc = subprocess.Popen(args, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
        port_file = os.path.join(self.profile, "DevToolsActivePort")
        text = wait_for(lambda: open(port_file).read() if os.path.exists(port_file) else None,
                        "Chromium's DevToolsActivePort", timeout=60)
        if not text:
            self.close()
            raise RuntimeError("Chromium did not start (no DevToolsActivePort)")
        port = int(text.split()[0])
        targets = wait_for(lambda: [t for t in json.load(urllib.request.urlopen(
            "http://127.0.0.1:%d/json/list" % port, timeout=5)) if t.get("type") == "page"], "a page target")
        self.ws = websocket.create_connection(targets[0]["webSocketDebuggerUrl"], timeout=60, suppress_origin=True)
        self.next_id = 0
        self.events = []
        for domain in ("Page", "Runtime", "Log", "Network"):
            self.call(domain + ".enable")

    def call(self, method, **params):
        self.next_id += 1
        my = self.next_id
        self.ws.send(json.dumps({"id": my, "method": method, "params": params}))
        while True:
            msg = json.loads(self.ws.recv())
            if msg.get("id") == my:
                if "error" in msg:
                    raise RuntimeError("%s: %s" % (method, msg["error"]))
                return msg.get("result", {})
            if "method" in msg:
                self.events.append(msg)

    def eval(self, expr):
        r = self.call("Runtime.evaluate", expression=expr, returnByValue=True, awaitPromise=True)
        if "exceptionDetails" in r:
            d = r["exceptionDetails"]
            raise RuntimeError("JS: %s: %s %s" % (expr[:80], d.get("text"), d.get("exception", {}).get("description", "")))
        return r["result"].get("value")

    def drain(self):
        """Reads the events that arrived without a call (a short evaluate flushes them)."""
        self.eval("0")

    def open(self, path):
        self.events.clear()
        self.call("Page.navigate", url="file://" + os.path.abspath(path))
        return wait_for(lambda: self.eval("document.readyState") == "complete", "the page to load")

    def key(self, key, code, vk, text=None):
        base = {"key": key, "code": code, "windowsVirtualKeyCode": vk, "nativeVirtualKeyCode": vk}
        down = dict(base, type="keyDown" if text is None else "keyDown")
        if text is not None:
            down["text"] = text
        self.call("Input.dispatchKeyEvent", **down)
        self.call("Input.dispatchKeyEvent", **dict(base, type="keyUp"))

    def click(self, selector):
        """A real mouse click at the centre of the element (scrolled into view first)."""
        rect = self.eval("(function(){var e=document.querySelector(%s); if(!e) return null; e.scrollIntoView({block:'center'});"
                         "var r=e.getBoundingClientRect(); return [r.x+r.width/2, r.y+r.height/2];})()" % json.dumps(selector))
        if not rect:
            return False
        x, y = rect
        for t in ("mouseMoved", "mousePressed", "mouseReleased"):
            self.call("Input.dispatchMouseEvent", type=t, x=x, y=y, button="left", clickCount=1)
        return True

    def screenshot(self, path, full=False):
        params = {"format": "png"}
        if full:
            params["captureBeyondViewport"] = True
            size = self.eval("[document.documentElement.scrollWidth, document.documentElement.scrollHeight]")
            params["clip"] = {"x": 0, "y": 0, "width": size[0], "height": min(size[1], 4000), "scale": 1}
        data = self.call("Page.captureScreenshot", **params)["data"]
        with open(path, "wb") as f:
            f.write(base64.b64decode(data))

    def errors(self):
        """JavaScript exceptions and console errors seen so far."""
        out = []
        for e in self.events:
            m, p = e.get("method"), e.get("params", {})
            if m == "Runtime.exceptionThrown":
                d = p.get("exceptionDetails", {})
                out.append("exception: " + str(d.get("exception", {}).get("description") or d.get("text")))
            elif m == "Runtime.consoleAPICalled" and p.get("type") in ("error", "assert"):
                out.append("console.error: " + " ".join(str(a.get("value", a.get("description"))) for a in p.get("args", [])))
            elif m == "Log.entryAdded" and p.get("entry", {}).get("level") == "error":
                out.append("log: " + p["entry"].get("text", ""))
        return out

    def requested_urls(self):
        return [e["params"]["request"]["url"] for e in self.events if e.get("method") == "Network.requestWillBeSent"]

    def close(self):
        try:
            self.ws.close()
        except Exception:  # noqa: BLE001
            pass
        if self.proc.poll() is None:
            self.proc.terminate()
            try:
                self.proc.wait(timeout=10)
            except subprocess.TimeoutExpired:
                self.proc.kill()
                self.proc.wait()
        shutil.rmtree(self.profile, ignore_errors=True)


def state(b):
    return b.eval("window.rs && window.rs.state ? window.rs.state() : null")


def smem_pixels(b):
    return b.eval("document.getElementById('smem').toDataURL()")


# Pixels of a canvas: [painted (alpha > 0), of which close to `rgb` and opaque, all]. The canvases are
# transparent where nothing is drawn (canvasCtx clears them), so "painted" is what was drawn.
PIXELS_JS = """(function(id, rgb, tol){var c=document.getElementById(id); if(!c||!c.width||!c.height) return null;
var d=c.getContext('2d').getImageData(0,0,c.width,c.height).data, n=0, m=0;
for(var i=0;i<d.length;i+=4){ if(d[i+3]>0){n++; if(rgb && d[i+3]>200 && Math.abs(d[i]-rgb[0])<=tol &&
Math.abs(d[i+1]-rgb[1])<=tol && Math.abs(d[i+2]-rgb[2])<=tol) m++;}}
return [n, m, c.width*c.height];})"""
VERMILLION = [213, 94, 0]  # the conflict colour (web/replay.css --verm, the window's kVermillion)


def pixels(b, canvas_id, rgb=None, tol=12):
    return b.eval("%s(%s, %s, %d)" % (PIXELS_JS, json.dumps(canvas_id), json.dumps(rgb), tol))


def data_url(b, canvas_id):
    return b.eval("document.getElementById(%s).toDataURL()" % json.dumps(canvas_id))


def set_viewport(b, w, h):
    """Resizes the page and waits until its canvases are drawn again at their new widths (the page redraws
    100 ms after the last resize event)."""
    b.call("Emulation.setDeviceMetricsOverride", width=w, height=h, deviceScaleFactor=1, mobile=False)
    wait_for(lambda: b.eval("window.innerWidth") == w, "the viewport to be %dx%d" % (w, h))
    # A hidden canvas (canvas.js's hide(): 0 px high, its bitmap kept) is not redrawn; waiting for it cost 30 s a
    # resize after a kernel whose banks view is text only.
    wait_for(lambda: b.eval("[].every.call(document.querySelectorAll('#banks, .chart-canvas'), function(c){"
                            "return !c.clientWidth || !c.clientHeight || !c.height || "
                            "c.width === Math.round(c.clientWidth);})"),
             "the canvases to be redrawn at %d wide" % w)


def park_mouse(b):
    """The mouse over the sidebar's heading, where nothing reacts to it (for screenshots)."""
    b.call("Input.dispatchMouseEvent", type="mouseMoved", x=3, y=3)


def goto_step(b, kernel, bs, step):
    """Opens kernel at bs threads, then steps there with real key events (Home, ArrowRight)."""
    b.eval("window.rs.select(%s, %d)" % (json.dumps(kernel), bs))
    if not wait_open(b, kernel, bs):
        return False
    b.key("Home", "Home", 36)
    if not wait_for(lambda: state(b)["step"] == 0, "Home"):
        return False
    for _ in range(step):
        b.key("ArrowRight", "ArrowRight", 39)
    return bool(wait_for(lambda: state(b)["step"] == step, "%s step %d" % (kernel, step)))


def wait_open(b, kernel, bs=None, timeout=30):
    def ok():
        s = state(b)
        return s and s["kernel"] == kernel and not s["loading"] and s["steps"] > 0 and (bs is None or s["bs"] == bs)
    return wait_for(ok, "%s to open" % kernel, timeout)


def visible_error(b, words, timeout=30):
    def ok():
        return b.eval(VISIBLE_ERROR_JS)
    text = wait_for(ok, "a visible error message", timeout)
    return text if text and all(w in text for w in words) else None


def check_bank_figure(b, out):
    """The bank view as the classic figure: reduce1 at 256 threads, step 3, is an 8-way conflict (lines into
    four vermillion banks marked "8-way"); reduce3 at the same step is conflict free (no vermillion, no
    mark). Hovering a bank frames it and names its words."""
    set_viewport(b, 1280, 720)
    figures = {}
    for kernel in ("reduce1", "reduce3"):
        if not check(goto_step(b, kernel, 256, 3), "%s at 256 threads: the keys reach step 3" % kernel):
            return
        b.eval("document.getElementById('banks-panel').scrollIntoView()")
        fig = wait_for(lambda: b.eval("window.rs.bankFigure()"), "the bank figure of %s" % kernel)
        px = wait_for(lambda: (lambda p: p if p and p[0] > 0 else None)(pixels(b, "banks", VERMILLION)),
                      "the bank canvas to be drawn")
        figures[kernel] = (fig, px, data_url(b, "banks"))
        print("  %s step 3: selected access %s-way, marks %s, %s painted pixels, %s vermillion" %
              (kernel, fig and fig["deg"], fig and fig["marks"], px and px[0], px and px[1]))
        if kernel == "reduce1":
            park_mouse(b)
            b.screenshot(os.path.join(out, "web-banks-classic-1280x720.png"))
    if len(figures) < 2 or not all(f[0] and f[1] for f in figures.values()):
        check(False, "the bank figure is drawn for reduce1 and reduce3")
        return
    (f1, p1, u1), (f3, p3, u3) = figures["reduce1"], figures["reduce3"]
    check(f1["deg"] == 8 and f1["marks"] and all(m == "8-way" for m in f1["marks"]),
          "reduce1 step 3: an 8-way conflict, its banks marked \"8-way\" (%s)" % f1["marks"])
    check(p1[1] > 500, "reduce1 step 3: conflicted lanes, lines and banks drawn vermillion (%d px)" % p1[1])
    check(f3["deg"] == 1 and not f3["marks"], "reduce3 step 3: conflict free, no n-way mark (%s)" % f3["marks"])
    check(p3[1] == 0, "reduce3 step 3: nothing vermillion (%d px)" % p3[1])
    check(u1 != u3, "the bank figure changes between a conflicted and a conflict-free step")
    # Hover bank 4 of reduce1 (one of its 8-way banks): a real mouse move over its box.
    if not goto_step(b, "reduce1", 256, 3):
        return
    b.eval("document.getElementById('banks-panel').scrollIntoView()")
    fig = wait_for(lambda: b.eval("window.rs.bankFigure()"), "the bank figure")
    before = data_url(b, "banks")
    rect = b.eval("(function(){var r=document.getElementById('banks').getBoundingClientRect(); return [r.x, r.y];})()")
    x = rect[0] + fig["x"] + 4 * fig["pitch"] + fig["boxW"] / 2
    y = rect[1] + fig["bankY"] + fig["boxH"] / 2
    b.call("Input.dispatchMouseEvent", type="mouseMoved", x=x, y=y)
    tip_js = ("(function(){var e=document.getElementById('bank-hover'); if(!e||e.hidden) return null;"
              "var r=e.getBoundingClientRect(); return r.width>100 && r.height>15 ? e.textContent : null;})()")
    text = wait_for(lambda: (lambda t: t if t and t.startswith("bank 4:") else None)(b.eval(tip_js)),
                    "the tooltip of bank 4")
    check(bool(text) and "8-way" in (text or "") and "sdata[" in (text or ""),
          "hovering bank 4 shows a tooltip with its lanes and words (%s)" % (text or "none")[:90])
    check(bool(wait_for(lambda: data_url(b, "banks") != before, "the hovered bank to be framed")),
          "hovering a bank redraws the figure (its lines highlighted)")
    b.screenshot(os.path.join(out, "web-banks-hover-1280x720.png"))
    park_mouse(b)
    check(bool(wait_for(lambda: b.eval("document.getElementById('bank-hover').hidden"), "the tooltip to go")),
          "the tooltip goes when the mouse leaves the figure")
    set_viewport(b, 1600, 1200)


# Issue 17, item 5: the page on a laptop. For each size and each track's representative kernel and step
# (the view that carries the step's lesson, from what the trace holds): the step controls, the kernel
# list, the main view and the step's whole source line are on the first screen (the phone: the controls
# on the first, the main view within a screen and a half); the banner is one line; the source line is
# not cut; a view with nothing in the step is folded into the idle line.
ROOM_CASES = [("reduce1", 256, 5, "smem-panel", "lanes-panel"), ("sum_shuffle", 128, 3, "lanes-panel", "smem-panel"),
              ("sum_shared", 256, 1, "atomics-panel", "lanes-panel"),
              ("reduceInterleaved", 256, 3, "global-panel", "smem-panel"),
              ("histo_private", 256, 1, "atomics-panel", "lanes-panel"),
              ("single_pass_last_block", 256, 3, "atomics-panel", "lanes-panel")]
ROOM_SIZES = [(1280, 720), (1366, 768), (1920, 1080), (390, 844)]
RECT_JS = """(function(id){var e=document.getElementById(id); if(!e||e.hidden||!e.offsetParent) return null;
var r=e.getBoundingClientRect(); return [r.left, r.top, r.right, r.bottom, e.scrollWidth, e.clientWidth];})"""


def rect(b, el_id):
    return b.eval("%s(%s)" % (RECT_JS, json.dumps(el_id)))


def check_room(b, out):
    for (w, h) in ROOM_SIZES:
        set_viewport(b, w, h)
        phone = w < 700
        for (k, bs, step, main, folded) in ROOM_CASES:
            if not goto_step(b, k, bs, step):
                check(False, "%dx%d: %s opens at step %d" % (w, h, k, step))
                continue
            b.eval("window.scrollTo(0,0)")
            wait_for(lambda: b.eval("window.scrollY") == 0, "the top of the page")
            tag = "%dx%d %s@%d step %d" % (w, h, k, bs, step)
            shown = b.eval("window.rs.shownViews")
            check(bool(shown) and shown[0] + "-panel" == main, "%s: the main view is %s (shown: %s)" % (tag, main, shown))
            m = rect(b, main)
            limit = h * (1.5 if phone else 1.0)
            check(m is not None and m[1] + 60 < limit, "%s: %s starts on the %s (%s)" %
                  (tag, main, "first screen and a half" if phone else "first screen", m and int(m[1])))
            for el in ("step-row", "step-counter"):
                r = rect(b, el)
                check(r is not None and r[3] <= h, "%s: #%s on the first screen" % (tag, el))
            sb = rect(b, "sidebar")
            check(sb is not None and sb[1] < h / 2, "%s: the kernel list on the first screen" % tag)
            ks = b.eval("(function(){var e=document.querySelector('#kernel-list .kernel.sel'), s=document.getElementById("
                        "'sidebar'); if(!e) return null; var a=e.getBoundingClientRect(), c=s.getBoundingClientRect();"
                        " return a.top >= c.top - 1 && a.bottom <= c.bottom + 1;})()")
            check(bool(ks), "%s: the kernel list shows the selected kernel" % tag)
            src = rect(b, "source-line")
            text = b.eval("document.getElementById('source-line').textContent")
            check(src is not None and text.startswith("line ") and src[4] <= src[5] + 1,
                  "%s: the step's source line whole (%r)" % (tag, text[:60]))
            if not phone:
                check(src is not None and src[3] <= h, "%s: the source line on the first screen" % tag)
                ban = rect(b, "banner")
                check(ban is not None and ban[3] - ban[1] < 48, "%s: the banner is one line (%s px)" %
                      (tag, ban and int(ban[3] - ban[1])))
            check(rect(b, folded) is None, "%s: %s, empty in this step, is folded" % (tag, folded))
            sw = b.eval("document.documentElement.scrollWidth")
            check(sw <= w, "%s: no sideways scrolling (the page is %d px wide)" % (tag, sw))
            if (w, h) in ((1280, 720), (390, 844)) or k in ("reduce1", "sum_shuffle"):
                park_mouse(b)
                b.screenshot(os.path.join(out, "web-room-%s-%dx%d.png" % (k, w, h)))
    set_viewport(b, 1600, 1200)


# Issue 17, item 3: sentences that were false on the page, each checked where it was seen.
def check_true_text(b):
    goto_step(b, "sum_shared", 256, 1)
    cap = b.eval("document.getElementById('bank-caption').textContent")
    check("shared atomic" in cap and "No shared-memory access" not in cap,
          "sum_shared step 1: the bank view names the 8 shared atomics (%r)" % cap)
    goto_step(b, "single_pass_last_block", 256, 3)
    summary = b.eval("document.getElementById('step-summary').textContent")
    check("__syncthreads_or()" in summary, "single_pass_last_block step 3 ends at __syncthreads_or() (%r)" % summary[:80])
    bad = b.eval("document.querySelectorAll('#global-list .bad').length")
    check(bad == 0, "single_pass_last_block step 3: one lane's 4-byte store is not flagged as wasteful")
    goto_step(b, "histo_private", 256, 1)
    part = b.eval("(function(){var s=window.rs.state(); return s && s.part;})()")
    check(bool(part), "histo_private step 1: the diverged warps' part-time lanes are drawn half green (%s)" % part)
    goto_step(b, "vec4_loads", 1024, 2)
    note = rect(b, "ncu-note")
    check(note is not None, "vec4_loads: the bank view says Nsight Compute counts more store conflicts here")
    goto_step(b, "shuffle_block", 1024, 2)
    check(rect(b, "ncu-note") is None, "shuffle_block: no Nsight Compute note")
    # Issue 38: the sentences come from the trace's facts (app/explain/). A raw __shared__ array the source probe
    # does not record is "not traced", not absent.
    goto_step(b, "pitfall_no_syncwarp", 256, 1)
    banks = b.eval("document.getElementById('banks-text').textContent")
    check("Not traced by the source probe" in banks and "does not use" not in banks,
          "pitfall_no_syncwarp: the banks view says its shared memory is not traced (%r)" % banks[:90])
    lanes = b.eval("document.getElementById('lanes-text').textContent")
    check("not at all" not in lanes, "pitfall_no_syncwarp: its lanes are not said to exchange values not at all (%r)" % lanes[:90])
    # Issue 38, item 1: the idle line from the exporter's parts (explain::idle_line), composed by the page with the
    # window's message ids (explain::render_idle; the layout tests check the window's words for the same steps).
    for k, step, want in (("reduce0", 1, "No shuffles, atomics, global requests"),
                          ("sum_shuffle", 4, "Not in this step: atomics (step 8), shared (steps 0-3), global (step 0)"),
                          ("reproducible_sum", 1,
                           "Not in this step: atomics (step 4); shared memory not traced by the source probe")):
        goto_step(b, k, 256, step)
        line = b.eval("document.getElementById('idle-line').textContent")
        check(line == want, "%s step %d: the idle line says %r (%r)" % (k, step, want, line))
    goto_step(b, "reduce0", 256, 1)
    banks = b.eval("document.getElementById('banks-text').textContent")
    check("Not traced" not in banks, "reduce0: its shared memory is traced (%r)" % banks[:60])
    # reproducible_sum: at a barrier where no warp made a recorded instruction, the warps reached it; its warp
    # reduces are named so, and after one every lane holds the warp's result.
    b.eval("window.rs.select('reproducible_sum', 256)")
    wait_open(b, "reproducible_sum", 256)
    at = b.eval("window.rs.stepsWith('aws')")
    if check(bool(at), "reproducible_sum has barrier steps with no recorded instruction (%s)" % at):
        goto_step(b, "reproducible_sum", 256, at[0])
        summary = b.eval("document.getElementById('step-summary').textContent")
        check("reached the barrier" in summary and "Active warps 0" not in summary,
              "reproducible_sum step %d: the warps reached the barrier (%r)" % (at[0], summary[:160]))
    red = b.eval("window.rs.stepsWith('wred')")
    if check(bool(red), "reproducible_sum has warp reduces (%s)" % red):
        goto_step(b, "reproducible_sum", 256, red[0])
        summary = b.eval("document.getElementById('step-summary').textContent")
        check("warp reduce" in summary and "shuffle" not in summary,
              "reproducible_sum step %d: warp reduces, not shuffles (%r)" % (red[0], summary[:160]))
        text = " | ".join(b.eval("window.rs.lanesCaptions") or [])
        check("every lane of warp 0" in text and "lane 0 of warp 0" not in text,
              "reproducible_sum step %d: every lane holds the result (%r)" % (red[0], text[:120]))


# Issue 38, item 4: at 1280x720 the lanes view's cells are too narrow for values; each warp's values follow in a
# table of 16 lanes a row. Every value cell of the table draws glyphs (ink pixels on its fill), int32 and float32.
LANES_INK_JS = """(function(){
  var c = document.getElementById('lanes'), k = c.width / c.clientWidth, ctx = c.getContext('2d');
  return (window.rs.lanesCells || []).map(function (q) {
    var d = ctx.getImageData(Math.round(q[0] * k), Math.round(q[1] * k), Math.max(1, Math.round(q[2] * k)),
                             Math.max(1, Math.round(q[3] * k))).data, ink = 0;
    for (var i = 0; i < d.length; i += 4) if (d[i] < 80 && d[i + 1] < 80 && d[i + 2] < 80) ink++;
    return [q[4], ink];
  });
})()"""


# Issue 38, item 4: at 1280x720 a kernel name in the sidebar breaks only between its words ("reduceNeighbore/d" did).
# Where each line of a name starts, from the characters' boxes.
NAME_LINES_JS = """(function(){
  var out = [];
  document.querySelectorAll('#sidebar .kernel[data-kernel]').forEach(function (b) {
    var name = b.getAttribute('data-kernel'), text = '', tops = [], r = document.createRange();
    var walker = document.createTreeWalker(b, NodeFilter.SHOW_TEXT), n;
    while ((n = walker.nextNode()) && text.length < name.length) {
      if (n.parentNode !== b) continue;
      for (var i = 0; i < n.length && text.length < name.length; i++) {
        r.setStart(n, i); r.setEnd(n, i + 1);
        var rc = r.getClientRects()[0];
        tops.push(rc ? Math.round(rc.top) : -1);
        text += n.data[i];
      }
    }
    var starts = [];
    for (var k = 1; k < tops.length; k++) if (tops[k] > tops[k - 1] + 2) starts.push(k);
    out.push([name, text, starts]);
  });
  return out;
})()"""


def check_name_breaks(b):
    set_viewport(b, 1280, 720)
    names = b.eval(NAME_LINES_JS) or []
    bad = []
    for name, text, starts in names:
        for k in starts:
            prev, nxt = name[k - 1], name[k]
            at_word = name[k - 2:k] == "::" or prev == "_" or ((prev.islower() or prev.isdigit()) and nxt.isupper())
            if not at_word:
                bad.append("%s|%s" % (name[:k], name[k:]))
    wrapped = sum(1 for n in names if n[2])
    check(len(names) > 40 and not bad, "sidebar at 1280x720: %d names, %d wrapped, each only between words (%s)"
          % (len(names), wrapped, bad[:4]))
    set_viewport(b, 1600, 1200)


def check_lanes_values(b, out):
    set_viewport(b, 1280, 720)
    for dtype in ("int32", "float32"):
        b.eval("window.rs.select('sum_shuffle', 256)")
        wait_open(b, "sum_shuffle", 256)
        if dtype == "float32" and state(b)["dtype"] != "float32":
            b.key("d", "KeyD", 68, "d")
            wait_for(lambda: state(b)["dtype"] == "float32", "float32")
        bs = state(b)["bs"]  # float32: the nearest block size the page holds it at (the page's budget decides)
        at = b.eval("window.rs.stepsWith('shf')")
        if not check(bool(at), "sum_shuffle has shuffle steps (%s)" % at):
            continue
        goto_step(b, "sum_shuffle", bs, at[0])
        cells = b.eval(LANES_INK_JS) or []
        blank = [c for c in cells if not c[0] or c[1] < 3]
        check(len(cells) == 64 and not blank,
              "lanes at 1280x720, %s: %d values in the table, %d without glyphs (%s)" % (dtype, len(cells), len(blank),
                                                                                      [c[0] for c in cells[:6]]))
        b.screenshot(os.path.join(out, "web-lanes-values-%s-1280x720.png" % dtype))
        if dtype == "float32":  # back to int32, where the checks after this one start
            b.key("d", "KeyD", 68, "d")
            wait_for(lambda: state(b)["dtype"] == "int32", "int32")
    set_viewport(b, 1600, 1200)


# Issue 18, item 1: the pitfalls shown where they break. The bundled session holds racecheck's races for
# the wrong kernels; the page marks both ends of each on the source, draws the raced words where the shared
# view would be (the trace does not record that kernel's shared memory), says the runs in plain words, and
# opens the kernel that fixes it.
def check_pitfalls(b, out):
    set_viewport(b, 1280, 720)
    if not check(goto_step(b, "pitfall_no_syncwarp", 256, 1), "pitfall_no_syncwarp opens (the session holds its trace)"):
        return
    b.eval("window.scrollTo(0,0)")
    shown = b.eval("window.rs.shownViews")
    check(bool(shown) and shown[0] == "smem", "pitfall_no_syncwarp: the raced words come first (shown: %s)" % shown)
    races = b.eval("document.getElementById('source-races').textContent")
    check("10 races" in races and "43" in races and "48" in races, "the source says where the races are (%r)" % races)
    lines = b.eval("[].map.call(document.querySelectorAll('#source .ln.race .no'), function(e){return +e.textContent;})")
    check(lines == [43, 44, 45, 46, 47, 48], "both ends of each race are marked on the source (%s)" % lines)
    mark = b.eval("document.querySelectorAll('#source .ln.race')[1].getAttribute('data-race')")
    check(mark is not None and "43 -> 44 (RAW)" in mark and "44 (WAR)" in mark, "line 44's mark names its races (%r)" % mark)
    tip = b.eval("document.querySelectorAll('#source .ln.race')[1].title")
    check("RAW: line 43 writes, line 44 reads: 16 words (sdata[16..31]), 64 hazards" in (tip or ""),
          "hovering line 44 says its races in the window's words (%r)" % (tip or "")[:90])
    px = pixels(b, "smem", VERMILLION)
    check(px is not None and px[1] > 100, "the raced words are drawn in vermillion (%s)" % px)
    note = b.eval("document.getElementById('kernel-note').textContent")
    check("right in all 100 runs" in note, "the runs in plain words (%r)" % note[:160])
    park_mouse(b)
    b.screenshot(os.path.join(out, "web-pitfall-no_syncwarp-1280x720.png"))
    goto_step(b, "pitfall_no_volatile", 256, 1)
    note = b.eval("document.getElementById('kernel-note').textContent")
    check("wrong in all 100 runs, always the same wrong sum" in note, "pitfall_no_volatile: %r" % note[:200])
    check(b.click("#kernel-note button.fix"), "the note has a button to the fix")
    check(bool(wait_open(b, "reduce4", 256)), "the button opens the fix, reduce4, at the same block size")
    check(b.eval("document.querySelectorAll('#source .ln.race').length") == 0, "reduce4's source has no race marks")
    set_viewport(b, 1600, 1200)


# Issue 20, item 2: the bits view. The bundled session holds `reducescope bits` from the H100.
def check_bits(b, out):
    set_viewport(b, 1280, 720)
    goto_step(b, "vec4_loads", 256, 0)
    bits = dict((k, n) for k, n in (b.eval("window.rs.bits") or []))
    check(bits.get("reproducible_sum") == 1, "bits view: reproducible_sum gives one pattern in all (%s)" % bits.get("reproducible_sum"))
    check(bits.get("pitfall_float_atomic", 0) > 10, "bits view: the float atomics give many (%s)" % bits.get("pitfall_float_atomic"))
    check(all(n >= 1 for n in bits.values()) and len(bits) > 15, "bits view: every float kernel has a row (%d)" % len(bits))
    # Why the bits differ (issue 30): sum_atomic's block 0 in two runs, below the table, the first differing row marked.
    two = b.eval("JSON.stringify([].map.call(document.querySelectorAll('#bits-table .two-runs'), function (e) {"
                 " return [e.getAttribute('data-kernel'), e.querySelectorAll('tr').length,"
                 " e.querySelectorAll('tr.first-diff').length, e.textContent.indexOf('not associative') >= 0]; }))")
    two = dict((k, (rows, marked, why)) for k, rows, marked, why in json.loads(two or "[]"))
    if b.eval("!!(window.rs && window.rs.held && (window.rs.held('sum_atomic') || []).length)") and two:
        check("sum_atomic" in two and two["sum_atomic"][0] > 2 and two["sum_atomic"][1] == 1 and two["sum_atomic"][2],
              "bits view: sum_atomic's two runs side by side, the first differing rounding marked, and why (%s)" %
              (two.get("sum_atomic"),))
        # Issue 38: the two runs are traced at the session's N, the table above at the bits view's: both said.
        text = b.eval("document.querySelector(\"#bits-table .two-runs[data-kernel='sum_atomic']\").textContent") or ""
        ns = re.findall(r"N = (\d+)", text)
        bits_n = b.eval("window.rs.bitsN") or 0
        check(len(ns) >= 2 and str(bits_n) in ns and any(n != str(bits_n) for n in ns),
              "bits view: sum_atomic's two runs say their N and the table's (%s; the table's %s)" % (ns, bits_n))
        b.eval("document.querySelector(\"#bits-table .two-runs[data-kernel='sum_atomic']\").scrollIntoView()")
        park_mouse(b)
        b.screenshot(os.path.join(out, "web-two-runs-sum_atomic-1280x720.png"))
    elif not two:
        print("skip two runs: this page holds none")
    # ... and the link to reproducible_sum's exact accumulator: it opens reproducible_sum.
    if b.eval("!!document.querySelector(\"#bits-table button.see[data-kernel='reproducible_sum']\")"):
        b.click("#bits-table button.see[data-kernel='reproducible_sum']")
        check(bool(wait_open(b, "reproducible_sum", 256)), "bits view: its button opens reproducible_sum's accumulator")
        goto_step(b, "vec4_loads", 256, 0)
    b.eval("document.getElementById('bits-panel').scrollIntoView()")
    park_mouse(b)
    b.screenshot(os.path.join(out, "web-bits-1280x720.png"))
    set_viewport(b, 1600, 1200)


def check_charts(b, out):
    """The timing table's launches column, the three charts drawn, the log time axis, the N sweep's table."""
    set_viewport(b, 1280, 720)
    if not check(goto_step(b, "reduce1", 256, 0), "reduce1 at 256 threads opens for the charts"):
        return
    heads = b.eval("[].map.call(document.querySelectorAll('#timing-tables th'), function(e){return e.textContent;})")
    launches = b.eval("[].map.call(document.querySelectorAll('#timing-tables td.l'), function(e){return e.textContent;})")
    check("L" in heads and launches and all(v.isdigit() and int(v) > 0 for v in launches),
          "the timing table has an L column with the launch counts (%s)" % ", ".join(launches or []))
    for cid in ("chart-bars", "chart-bs", "chart-sweep"):
        px = wait_for(lambda: (lambda p: p if p and p[0] > 0.03 * p[2] else None)(pixels(b, cid)),
                      "%s to be drawn" % cid)
        check(bool(px), "%s is drawn (%s of %s pixels painted)" % (cid, px and px[0], px and px[2]))
    series = b.eval("window.rs.charts")
    check(series.get("bs", {}).get("series") == 7, "time against block size: one line per harris kernel (%s)" %
          series.get("bs"))
    check(series.get("sweep", {}).get("series", 0) >= 3, "the N sweep: a line per track, CUB and the copy (%s)" %
          series.get("sweep"))
    legend = b.eval("document.getElementById('legend-sweep').textContent")
    check("CUB" in legend and "copy" in legend and "harris" in legend and "peak" in legend,
          "the sweep's legend names CUB, the copy, the tracks and the peak")
    rows = b.eval("[].map.call(document.querySelectorAll('#sweep-table tr'), function(e){return e.textContent;})")
    check(len(rows) == 9 and rows[1].startswith("2") and "reduce" in rows[1],
          "the sweep table: harris against CUB at 8 N (%d rows; %s)" % (len(rows), (rows[1:2] or ["none"])[0]))
    # The log time axis (on by default, as in the window): a real click on the toggle changes the drawing;
    # a second one restores it.
    b.eval("document.getElementById('bars-figure').scrollIntoView()")
    park_mouse(b)
    b.screenshot(os.path.join(out, "web-charts-1280x720.png"))
    first = data_url(b, "chart-bs")
    was_log = b.eval("window.rs.charts.bs.log")
    check(was_log is True and b.eval("document.getElementById('log-time').checked"), "the time axis starts in log scale")
    b.click("#log-time")
    changed = wait_for(lambda: data_url(b, "chart-bs") != first, "the time axis to change scale")
    check(bool(changed) and b.eval("window.rs.charts.bs.log") is False, "the log time axis toggle redraws the chart")
    b.eval("document.getElementById('bars-figure').scrollIntoView()")
    park_mouse(b)
    b.screenshot(os.path.join(out, "web-charts-linear-1280x720.png"))
    b.click("#log-time")
    check(bool(wait_for(lambda: data_url(b, "chart-bs") == first, "the log axis again")),
          "toggling the log time axis back draws the first chart again")
    # Another track redraws the charts; the sweep at 1600 x 1000.
    bars = data_url(b, "chart-bars")
    b.eval("window.rs.select('shuffle_block')")
    if wait_open(b, "shuffle_block"):
        check(bool(wait_for(lambda: data_url(b, "chart-bars") != bars, "the bars of the modern track")),
              "another track's kernel redraws the bar chart")
    set_viewport(b, 1600, 1000)
    b.eval("document.getElementById('sweep-panel').scrollIntoView()")
    wait_for(lambda: b.eval("window.rs.charts.sweep.series") >= 3, "the sweep at 1600 wide")
    b.screenshot(os.path.join(out, "web-sweep-1600x1000.png"))
    goto_step(b, "reduce1", 256, 3)
    b.eval("document.getElementById('bars-figure').scrollIntoView()")
    b.screenshot(os.path.join(out, "web-charts-1600x1000.png"))
    b.eval("document.getElementById('banks-panel').scrollIntoView()")
    b.screenshot(os.path.join(out, "web-banks-classic-1600x1000.png"))
    set_viewport(b, 1600, 1200)
    b.eval("window.scrollTo(0,0)")


# Issue 21: the multigpu track. A session with a multi-GPU recording shows its panel (reached from the kernel
# list where the page has traces): the ring replayed step by step with its own buttons, range and keys, the
# step's sentence and figure changing with the step, the page's simulation of the schedule agreeing with the
# exporter's (summed_chunks) and with the recorded transfers, the measured timeline, busbw against size with
# the P2P copy as a dashed line, and the tables; the controls stay on screen over the timeline at 1280 x 720.
# A session without one shows no panel.
YELLOW = [240, 228, 66]  # the P2P line's colour (web/js/timings-multigpu.js MG_COLORS.p2p)
MG_TEXT = "(function(id){var e=document.getElementById(id); return e ? e.textContent : null;})(%s)"


def mg(b, key):
    return b.eval("window.rs.mg ? window.rs.mg[%s] : null" % json.dumps(key))


def check_multigpu(b, out, expect, has_traces):
    shown = bool(mg(b, "shown"))
    check(shown == expect and b.eval("document.getElementById('multigpu-panel').hidden") == (not expect),
          "the multigpu panel is %s (the session %s a multi-GPU recording)" % ("shown" if expect else "hidden",
                                                                            "has" if expect else "has not"))
    link = b.eval("!!document.querySelector('#kernel-list [data-jump=multigpu-panel]')")
    check(link == (expect and has_traces), "the kernel list links to the multigpu panel only where both exist (%s)" % link)
    if not shown:
        return
    set_viewport(b, 1280, 720)
    if has_traces:
        b.click("#kernel-list [data-jump=multigpu-panel]")
        check(bool(wait_for(lambda: b.eval("document.activeElement.id") == "mg-step", "the ring's range focused")),
              "the kernel list's link opens the panel with the ring's range focused")
    b.eval("document.getElementById('multigpu-panel').scrollIntoView()")
    check(mg(b, "summedMatches") is True, "the page's ring simulation holds the exporter's summed chunks at every step")
    check(mg(b, "scheduleMatches") is True, "the recorded transfers are the ring schedule's, in order")
    steps = mg(b, "steps")
    check(steps and steps >= 2 and steps % 2 == 0, "the ring has 2(G-1) steps (%s)" % steps)
    for cid in ("mg-ring", "mg-timeline", "chart-mg"):
        px = wait_for(lambda: (lambda p: p if p and p[0] > 0.03 * p[2] else None)(pixels(b, cid)), "%s drawn" % cid)
        check(bool(px), "%s is drawn (%s of %s pixels painted)" % (cid, px and px[0], px and px[2]))
    note = b.eval(MG_TEXT % json.dumps("mg-nccl-note"))
    check("NCCL is a black box: timed, not traced" in (note or ""), "the timeline says NCCL is timed, not traced")

    # Stepping with the panel's own button: the counter, the sentence, the figure and the timeline change.
    b.click("#mg-start")
    wait_for(lambda: mg(b, "step") == 0, "the ring at its start")
    s0, ring0, time0 = mg(b, "sentence"), data_url(b, "mg-ring"), data_url(b, "mg-timeline")
    check(s0.startswith("Before the first step"), "at the start the sentence says so (%r)" % s0[:60])
    main_step = state(b)["step"]
    b.click("#mg-fwd")
    check(bool(wait_for(lambda: mg(b, "step") == 1, "the ring's next button")), "the ring's next button steps it")
    s1 = mg(b, "sentence")
    check(s1 != s0 and s1.startswith("Step 1 of %d, reduce-scatter" % steps) and "adds it" in s1 and "Measured:" in s1 and
          "\u00b5s" in s1, "step 1's sentence: a reduce-scatter step with its measured time (%r)" % s1[:120])
    check(data_url(b, "mg-ring") != ring0, "a ring step redraws the chunks and arrows")
    check(data_url(b, "mg-timeline") != time0, "a ring step highlights another step on the timeline")
    check(b.eval(MG_TEXT % json.dumps("mg-counter")) == "step 1 of %d" % steps, "the ring's counter says step 1")
    b.eval("document.getElementById('multigpu-panel').scrollIntoView()")
    park_mouse(b)
    b.screenshot(os.path.join(out, "web-multigpu-ring-1280x720.png"))
    # The room: the controls, the sentence and the ring's figure on one screen, nothing sideways.
    for el in ("mg-controls", "mg-sentence", "mg-ring"):
        r = rect(b, el)
        check(r is not None and r[1] >= 0 and r[3] <= 720, "1280x720: #%s on screen with the panel (%s)" %
              (el, r and [int(v) for v in r[:4]]))
    check(b.eval("document.documentElement.scrollWidth") <= 1280, "1280x720: no sideways scrolling")
    # The keys, with the focus on the panel's button: they step the ring, not the trace.
    b.key("ArrowRight", "ArrowRight", 39)
    check(bool(wait_for(lambda: mg(b, "step") == 2, "ArrowRight in the panel")) and state(b)["step"] == main_step,
          "ArrowRight in the panel steps the ring (not the trace)")
    b.key("End", "End", 35)
    wait_for(lambda: mg(b, "step") == steps, "End in the panel")
    last = mg(b, "sentence")
    check("all-gather" in last and "the all-reduce is done" in last, "the last step's sentence: the all-reduce is done (%r)" %
          last[:100])
    check(b.eval("document.getElementById('mg-fwd').disabled"), "next is disabled at the last step")
    b.key("Home", "Home", 36)
    check(bool(wait_for(lambda: mg(b, "step") == 0, "Home in the panel")), "Home in the panel: the ring's start")
    # The range: a real click at its right end is the last step.
    rr = rect(b, "mg-step")
    b.call("Input.dispatchMouseEvent", type="mousePressed", x=rr[2] - 3, y=(rr[1] + rr[3]) / 2, button="left", clickCount=1)
    b.call("Input.dispatchMouseEvent", type="mouseReleased", x=rr[2] - 3, y=(rr[1] + rr[3]) / 2, button="left", clickCount=1)
    check(bool(wait_for(lambda: mg(b, "step") == steps, "the range's end")), "the ring's range reaches the last step")
    # The controls stay on screen while the timeline is read.
    b.eval("window.scrollBy(0, document.getElementById('mg-timeline').getBoundingClientRect().top - 300)")
    c = rect(b, "mg-controls")
    check(c is not None and c[1] >= -1 and c[3] <= 720, "the ring's controls stay on screen over its timeline (%s)" %
          (c and [int(v) for v in c[:4]]))
    park_mouse(b)
    b.screenshot(os.path.join(out, "web-multigpu-timeline-1280x720.png"))
    # Several rings: the selector replays another.
    if mg(b, "rings") >= 2:
        b.eval("(function(){var s=document.getElementById('mg-ring-select'); s.value='1'; s.dispatchEvent(new Event('change'));})()")
        check(bool(wait_for(lambda: mg(b, "ring") == 1 and mg(b, "step") == 0, "the second ring")),
              "the ring selector replays the second ring from its start")
        cur = b.eval("(function(){var r=document.querySelector('#mg-table tr.cur td'); return r ? r.textContent : null;})()")
        sel = b.eval("(function(){var s=document.getElementById('mg-ring-select'); return s.options[s.selectedIndex].text;})()")
        check(cur is not None and sel.startswith(cur + " "), "the table marks the selected ring's size (%s; %s)" % (cur, sel))

    # busbw against size: NCCL, ring and naive, the P2P copy dashed (and drawn: its yellow pixels).
    chart = mg(b, "chart") or {}
    names = chart.get("series", [])
    check(len(names) == 4 and any(n.startswith("NCCL") for n in names) and any("ring" in n for n in names) and
          any("naive" in n for n in names), "the busbw chart has NCCL, ring and naive lines (%s)" % names)
    check([n for n in chart.get("dashed", []) if n.startswith("P2P")], "the busbw chart has the P2P copy as a dashed line")
    legend = b.eval(MG_TEXT % json.dumps("legend-mg")) or ""
    check("P2P copy" in legend and b.eval("document.querySelectorAll('#legend-mg i.dash').length") == 1,
          "the chart's legend shows the P2P copy with a dashed sample (%r)" % legend[:120])
    b.eval("document.getElementById('mg-figure').scrollIntoView()")
    px = pixels(b, "chart-mg", YELLOW)
    check(px is not None and px[1] > 300, "the P2P line is drawn (%s yellow pixels)" % (px and px[1]))
    park_mouse(b)
    b.screenshot(os.path.join(out, "web-multigpu-chart-1280x720.png"))
    first = data_url(b, "chart-mg")
    b.click("#mg-log")
    check(bool(wait_for(lambda: data_url(b, "chart-mg") != first and mg(b, "chart")["log"], "the log axis")),
          "the log bandwidth axis toggle redraws the chart")
    b.click("#mg-log")
    # The tables: every all-reduce size with the four bandwidths and a result; the spread sum against one GPU.
    heads = b.eval("[].map.call(document.querySelectorAll('#mg-table th'), function(e){return e.textContent;})")
    check(all(h in heads for h in ("size", "P2P copy", "NCCL", "ring", "naive", "ring / NCCL", "results")),
          "the all-reduce table's columns (%s)" % heads)
    rows = b.eval("[].map.call(document.querySelectorAll('#mg-table tr'), function(e){return e.textContent;})")
    check(len(rows) > 2 and all(r.endswith("correct") or "WRONG" in r for r in rows[1:]),
          "the all-reduce table: one row per size with its result (%d rows)" % (len(rows) - 1))
    sums = b.eval("document.querySelectorAll('#mg-sum-table tr').length")
    check(sums > 2, "the spread-sum table is drawn (%d rows)" % sums)
    b.eval("document.getElementById('mg-table').scrollIntoView()")
    park_mouse(b)
    b.screenshot(os.path.join(out, "web-multigpu-tables-1280x720.png"))
    set_viewport(b, 1600, 1200)
    b.eval("window.scrollTo(0,0)")


def check_float_trace(b, out):
    """Issue 30: reproducible_sum (float32 only) steps at 1280x720 from the session's float32 trace: it opens, its
    title says float32, a step changes the step's summary; a screenshot of step 2. Skipped where the page has none."""
    if not b.eval("!!(window.rs && window.rs.held && (window.rs.held('reproducible_sum') || []).indexOf(256) >= 0)"):
        print("skip reproducible_sum: this page holds no float32 trace of it")
        return
    set_viewport(b, 1280, 720)
    if not check(goto_step(b, "reproducible_sum", 256, 1), "reproducible_sum opens at 256 threads and steps (real keys)"):
        return
    title = b.eval("document.getElementById('kernel-title').textContent")
    check("float32" in title, "reproducible_sum's title names float32 (%s)" % title)
    before = b.eval("document.getElementById('step-summary').textContent")
    b.key("ArrowRight", "ArrowRight", 39)
    check(bool(wait_for(lambda: state(b)["step"] == 2, "step 2")), "ArrowRight moves reproducible_sum to step 2")
    after = b.eval("document.getElementById('step-summary').textContent")
    check(after != before, "a step of the float32 trace says what the new step did (%s)" % after)
    check("Exact accumulator" in after and "exactly" in after,
          "reproducible_sum's step says what it adds to the exact accumulator (%s)" % after[after.find("Exact"):][:120])
    b.key("End", "End", 35)
    wait_for(lambda: state(b)["step"] == state(b)["steps"] - 1, "the last step")
    last = b.eval("document.getElementById('step-summary').textContent")
    check("rounds the grid's exact sum" in last and "once to float32" in last,
          "reproducible_sum's last step: the one rounding (%s)" % last[last.find("At the end"):][:140])
    b.key("Home", "Home", 36)
    wait_for(lambda: state(b)["step"] == 0, "step 0")
    for _ in range(2):
        b.key("ArrowRight", "ArrowRight", 39)
    wait_for(lambda: state(b)["step"] == 2, "step 2")
    b.eval("window.scrollTo(0,0)")
    park_mouse(b)
    b.screenshot(os.path.join(out, "reproducible_sum-float32-bs256-step2-1280x720.png"))


def check_type_switch(b, out):
    """Issue 30, item 1: the int32 / float32 switch. sum_shared, which the page holds in both at 256 threads: the
    Element type row shows, D (a real key) opens the float32 trace at the same step and D again the int32 one; the
    shared-memory word 0 reads as a float in one and an integer in the other (real mouse hover); a block size the page
    holds in int32 only disables the float32 button. Skipped where the page has no float32 trace beside an int32 one."""
    set_viewport(b, 1280, 720)
    if 256 not in (b.eval("window.rs.held('sum_shared')") or []) or not goto_step(b, "sum_shared", 256, 0):
        print("skip the int32 / float32 switch: sum_shared does not open at 256 threads")
        return
    if b.eval("document.getElementById('type-row').hidden"):
        print("skip the int32 / float32 switch: this page holds sum_shared in one element type")
        return
    check(state(b)["dtype"] == "int32", "sum_shared opens in int32 (%s)" % state(b)["dtype"])
    types = b.eval("[].map.call(document.querySelectorAll('#type-buttons button'), function (e) {"
                   " return e.textContent + (e.classList.contains('sel') ? '*' : '') + (e.disabled ? '-' : ''); }).join(',')")
    check(types == "int32*,float32", "the Element type buttons: int32 selected, float32 offered (%s)" % types)

    def word0():
        c = b.eval("JSON.stringify(window.rs.smemCell(0))")
        c = json.loads(c) if c else None
        if not c:
            return None
        b.call("Input.dispatchMouseEvent", type="mouseMoved", x=c["x"], y=c["y"])
        return wait_for(lambda: (lambda t: t if t and t.startswith("word 0 ") else None)(
            b.eval("document.getElementById('smem-hover').textContent")), "word 0's hover text")

    b.key("End", "End", 35)
    last = state(b)["steps"] - 1
    wait_for(lambda: state(b)["step"] == last, "the last step")
    as_int = word0() or ""
    value = as_int.split(": ", 1)[-1].split(",")[0]
    check(value.lstrip("-").isdigit(), "int32: word 0 holds an integer (%s)" % as_int)
    b.key("d", "KeyD", 68, "d")
    check(bool(wait_for(lambda: state(b)["dtype"] == "float32" and not state(b)["loading"], "float32")),
          "D opens sum_shared's float32 trace")
    check(state(b)["step"] == min(last, state(b)["steps"] - 1), "D keeps the step (%d)" % state(b)["step"])
    title = b.eval("document.getElementById('kernel-title').textContent")
    check("float32" in title, "the title names float32 (%s)" % title)
    as_float = word0() or ""
    value = as_float.split(": ", 1)[-1].split(",")[0]
    check("." in value and value != as_int.split(": ", 1)[-1].split(",")[0],
          "float32: word 0 holds a float value (%s)" % as_float)
    types = b.eval("[].map.call(document.querySelectorAll('#type-buttons button.sel'), function (e) { return e.textContent; }).join()")
    check(types == "float32", "the float32 button is selected (%s)" % types)
    park_mouse(b)
    b.eval("window.scrollTo(0,0)")
    b.screenshot(os.path.join(out, "sum_shared-float32-bs256-last-step-1280x720.png"))
    b.key("d", "KeyD", 68, "d")
    check(bool(wait_for(lambda: state(b)["dtype"] == "int32" and not state(b)["float32"], "int32")), "D again: back to int32")
    # A block size the page holds in int32 only (the budget): the float32 button says where float32 is, and D goes to
    # the nearest block size that has it.
    sizes = b.eval("window.rs.held('sum_shared')") or []
    for bs in sorted(sizes, reverse=True):
        b.eval("window.rs.select('sum_shared', %d)" % bs)
        wait_open(b, "sum_shared", bs)
        tip = b.eval("(function(){var e=document.querySelector(\"#type-buttons button[data-type='float32']\");"
                     "return e && !e.classList.contains('sel') ? e.title : null;})()")
        if not tip or "holds it at" not in tip:
            continue
        check(state(b)["dtype"] == "int32", "at %d threads (int32 only here) sum_shared shows int32 (%s)" % (bs, tip[:100]))
        b.key("d", "KeyD", 68, "d")
        moved = wait_for(lambda: state(b)["dtype"] == "float32" and not state(b)["loading"], "float32 elsewhere")
        check(bool(moved) and state(b)["bs"] < bs,
              "D at %d threads opens float32 at the nearest block size the page has it (%s)" % (bs, state(b)["bs"]))
        b.key("d", "KeyD", 68, "d")
        wait_for(lambda: state(b)["dtype"] == "int32", "int32")
        break
    else:
        print("skip: this page holds sum_shared in float32 at every block size")


def check_cub_traces(b, out):
    """Issue 29, item 3: CUB's kernels, traced as compiled, in the modern track after its kernels: each opens at the
    block size CUB ran it at and steps with real keys; "See" buttons go from CUB's first pass to
    single_pass_last_block and back. Skipped where the page holds none."""
    if not b.eval("!!(window.rs && window.rs.held && (window.rs.held('cub::DeviceReduceKernel') || []).length)"):
        print("skip CUB: this page holds no trace of cub::DeviceReduceKernel")
        return
    set_viewport(b, 1280, 720)
    order = b.eval("JSON.stringify(Array.from(document.querySelectorAll('.track')).map(function (t) {"
                   " return [t.querySelector('.track-title').textContent, Array.from(t.querySelectorAll('[data-kernel]'))"
                   ".map(function (k) { return k.getAttribute('data-kernel'); })]; }))")
    tracks = dict((t, ks) for t, ks in json.loads(order))
    modern = tracks.get("modern", [])
    check("cub::DeviceReduceKernel" in modern and "single_pass_last_block" in modern and
          modern.index("cub::DeviceReduceKernel") > modern.index("single_pass_last_block"),
          "cub::DeviceReduceKernel is listed in the modern track, after its kernels (%s)" % ", ".join(modern[-4:]))
    for (k, bs) in (("cub::DeviceReduceKernel", 256), ("cub::DeviceReduceSingleTileKernel", 256),
                    ("cub::DeviceHistogramSweepKernel", None)):
        b.eval("window.rs.select(%s, 0)" % json.dumps(k))
        if not check(bool(wait_open(b, k, bs)), "%s opens%s" % (k, " at %d threads" % bs if bs else "")):
            continue
        b.key("Home", "Home", 36)
        wait_for(lambda: state(b)["step"] == 0, "Home")
        before = b.eval("document.getElementById('step-summary').textContent")
        b.key("ArrowRight", "ArrowRight", 39)
        check(bool(wait_for(lambda: state(b)["step"] == 1, "step 1")), "ArrowRight steps %s" % k)
        after = b.eval("document.getElementById('step-summary').textContent")
        check(after != before, "a step of %s says what the new step did (%s)" % (k, after[:80]))
        note = b.eval("document.getElementById('kernel-note').textContent")
        check("binary backend" in note, "%s's note says the binary backend recorded it" % k)
        sizes = b.eval("[].map.call(document.querySelectorAll('#bs-buttons button'), function (e) {"
                       " return e.textContent + (e.classList.contains('sel') ? '*' : ''); }).join(',')")
        check(("768*" in sizes) == (bs is None), "%s's block sizes: %s" % (k, sizes))
    goto_step(b, "cub::DeviceReduceKernel", 256, 1)
    src = b.eval("document.getElementById('source-title').textContent")
    check("cub/device/dispatch/kernels/reduce.cuh" in src, "CUB's listing is named as CUB's file (%s)" % src)
    b.eval("window.scrollTo(0,0)")
    park_mouse(b)
    b.screenshot(os.path.join(out, "cub-DeviceReduceKernel-bs256-step1-1280x720.png"))
    b.click("#kernel-note button.see[data-kernel='single_pass_last_block']")
    check(bool(wait_open(b, "single_pass_last_block", 256)), "CUB's note: 'See single_pass_last_block' opens it at 256")
    sizes = b.eval("[].map.call(document.querySelectorAll('#bs-buttons button'), function (e) { return e.textContent; })")
    check("768" not in sizes and len(sizes) == 6, "our kernels offer the six block sizes, not CUB's 768 (%s)" % sizes)
    back = b.eval("!!document.querySelector(\"#kernel-note button.see[data-kernel='cub::DeviceReduceKernel']\")")
    check(back, "single_pass_last_block's note offers 'See how CUB does it: cub::DeviceReduceKernel'")


def check_replay(b, out):
    """The traces' replay: the timing table, real key events, every view, every kernel and trace, the speed."""
    timing_rows = b.eval("document.querySelectorAll('#timing-tables table tr').length")
    check(timing_rows > 3, "the timing table is drawn (%d rows)" % timing_rows)

    # Real key events: step forward, to the end, back home, play and pause.
    b.click("[data-kernel='reduce1']")
    wait_open(b, "reduce1")
    b.eval("window.scrollTo(0,0)")
    before = smem_pixels(b)
    counter0 = b.eval("document.getElementById('step-counter').textContent")
    b.key("ArrowRight", "ArrowRight", 39)
    moved = wait_for(lambda: state(b)["step"] == 1, "ArrowRight to step")
    check(bool(moved), "ArrowRight moves to step 1")
    changed = wait_for(lambda: smem_pixels(b) != before, "the shared-memory canvas to change")
    check(bool(changed), "a step changes the shared-memory drawing")
    check(b.eval("document.getElementById('step-counter').textContent") != counter0, "a step changes the step counter")
    steps = state(b)["steps"]
    b.key("End", "End", 35)
    check(bool(wait_for(lambda: state(b)["step"] == steps - 1, "End")), "End jumps to the last step (%d)" % (steps - 1))
    b.key("ArrowRight", "ArrowRight", 39)
    check(state(b)["step"] == steps - 1, "ArrowRight at the last step stays there")
    b.key("Home", "Home", 36)
    check(bool(wait_for(lambda: state(b)["step"] == 0, "Home")), "Home jumps to step 0")
    b.key("ArrowRight", "ArrowRight", 39)
    b.key("ArrowRight", "ArrowRight", 39)
    wait_for(lambda: state(b)["step"] == 2, "two steps")
    b.screenshot(os.path.join(out, "web-reduce1.png"))
    b.eval("window.scrollTo(0,0)")
    b.key("Home", "Home", 36)
    wait_for(lambda: state(b)["step"] == 0, "Home")
    b.eval("document.getElementById('speed').value='10'; document.getElementById('speed').dispatchEvent(new Event('change'))")
    b.key(" ", "Space", 32, text=" ")
    check(bool(wait_for(lambda: state(b)["playing"], "Space to play")), "Space starts playing")
    check(bool(wait_for(lambda: state(b)["step"] >= 2, "playing to advance")), "playing advances the steps")
    b.key(" ", "Space", 32, text=" ")
    check(bool(wait_for(lambda: not state(b)["playing"], "Space to pause")), "Space pauses")
    held_step = state(b)["step"]
    check(wait_for(lambda: state(b)["step"] == held_step, "pause to hold", 1) is not None, "paused: the step holds")
    b.key("ArrowDown", "ArrowDown", 40)
    check(bool(wait_open(b, "reduce2")), "ArrowDown opens the next kernel (reduce2)")
    b.key("PageUp", "PageUp", 33)
    check(bool(wait_for(lambda: state(b)["bs"] > 256 and not state(b)["loading"], "PageUp")),
          "Page Up opens a larger block size")

    check_bank_figure(b, out)
    check_charts(b, out)
    check_room(b, out)
    check_true_text(b)
    check_lanes_values(b, out)
    check_name_breaks(b)
    check_pitfalls(b, out)
    check_bits(b, out)

    # Every kernel of every track, with a real click; every trace the page holds.
    kernels = b.eval("window.rs.kernels()")
    opened, no_trace = [], []
    for k in kernels:
        held = b.eval("window.rs.held(%s)" % json.dumps(k))
        if not b.click("[data-kernel=%s]" % json.dumps(k)):
            check(False, "kernel %s has a button" % k)
            continue
        if not held:
            ok = wait_for(lambda: state(b)["kernel"] == k and not state(b)["loading"], k)
            no_trace.append(k)
            shown = b.eval("document.getElementById('kernel-note').innerText")
            check(bool(ok) and "No trace" in shown, "%s (no trace in the page) says so" % k)
            continue
        if wait_open(b, k):
            opened.append(k)
        else:
            check(False, "kernel %s opens on a click" % k)
    check(len(opened) >= 30, "%d kernels open on a click (%d without a trace here: %s)" %
          (len(opened), len(no_trace), ", ".join(no_trace) or "none"))
    pairs = b.eval("(async function(){var n=0, bad=[]; var ks=window.rs.kernels();"
                   "for (var i=0;i<ks.length;i++){var h=window.rs.held(ks[i]); for (var j=0;j<h.length;j++){"
                   "await window.rs.select(ks[i],h[j]); var s=window.rs.state();"
                   "if(s.kernel!==ks[i]||s.bs!==h[j]||!(s.steps>0)) bad.push(ks[i]+'@'+h[j]);"
                   "window.rs.benchSteps(s.steps); n++;}} return [n, bad];})()")
    check(pairs[0] > 0 and not pairs[1], "every trace the page holds opens and draws every step (%d traces%s)" %
          (pairs[0], "; bad: " + ", ".join(pairs[1]) if pairs[1] else ""))
    # 60 fps is a speed target, so it is measured and printed here, not judged (a busy CI machine would
    # make a timed check flaky; STYLE: speed targets in benchmarks that print figures). What is checked:
    # a 1024-thread block's steps draw at all (a positive time).
    def best_frame(bs, runs=3):
        b.eval("window.rs.select('reduce0', %d)" % bs)
        if not wait_open(b, "reduce0", bs):
            return -1
        return min(b.eval("window.rs.playFrames(60)") for _ in range(runs))
    small, frame = best_frame(32), best_frame(1024)
    if state(b)["bs"] == 1024:
        b.eval("window.rs.viewMs = {}")
        ms = b.eval("window.rs.benchSteps(240)")
        print("  per view, ms per step: " + ", ".join("%s %.2f" % (k, v / 240) for k, v in b.eval("window.rs.viewMs").items()))
        check(ms > 0, "a 1024-thread block (reduce0) redraws its steps")
        print("  figure: %.2f ms of script per step at 1024 threads (a 60 fps frame is 16.7 ms)" % ms)
        print("  figure: one step per animation frame: %.1f ms per frame (%.0f fps); a 32-thread block: %.1f ms" %
              (frame, 1000 / frame if frame > 0 else 0, small))
        b.key("End", "End", 35)
        b.screenshot(os.path.join(out, "web-reduce0-1024.png"))
    else:
        check(False, "reduce0 opens at 1024 threads")

    # A few views worth a picture: a shuffle kernel (lanes), an in-place kernel (global slice).
    for k, kind, name in (("sum_shuffle", "shf", "web-lanes-sum_shuffle.png"),
                          ("reduceInterleaved", "req", "web-global-reduceInterleaved.png")):
        b.eval("window.rs.select(%s)" % json.dumps(k))
        if wait_open(b, k):
            with_kind = b.eval("window.rs.stepsWith(%s)" % json.dumps(kind))
            step = with_kind[1] if len(with_kind) > 1 else with_kind[0] if with_kind else 0
            for _ in range(step):
                b.key("ArrowRight", "ArrowRight", 39)
            check(bool(wait_for(lambda: state(b)["step"] == step, "steps")), "%s: the arrow keys reach step %d" % (k, step))
            b.eval("document.getElementById(%s).scrollIntoView()" %
                   json.dumps("lanes-panel" if "lanes" in name else "global-panel"))
            b.screenshot(os.path.join(out, name))
    b.eval("window.scrollTo(0,0)")


def check_binary_trace(b, out):
    """A page of one binary trace (reducescope export F.rstrace --html, issue 28): stepped with real keys to a
    shuffle step, its lanes view draws the arrows and says in words that a binary trace has no values; the note
    under the title names the binary backend."""
    note = b.eval("document.getElementById('kernel-note').innerText")
    check("binary backend" in note, "the note names the binary backend (%s)" % note[:80])
    for _ in range(2):
        b.key("ArrowRight", "ArrowRight", 39)
    moved = wait_for(lambda: state(b)["step"] == 2, "ArrowRight twice")
    check(bool(moved), "ArrowRight steps the binary trace to step 2")
    text = wait_for(lambda: b.eval("document.getElementById('lanes-text').innerText"), "the lanes text")
    check(bool(text) and "no values" in text, "the lanes view says a binary trace has no values (%s)" % (text or "")[:90])
    painted = pixels(b, "lanes")
    check(bool(painted) and painted[0] > 0, "the lanes canvas draws the shuffle (%s painted pixels)" % (painted and painted[0]))
    b.screenshot(os.path.join(out, "web-binary-trace-step2.png"))


def check_chinese(b, out):
    """The page exported with --lang zh (issue 31): it opens in Chinese (the dictionary from the catalogue), its words
    and the kernel's teaching note are Chinese, the arrow keys still step it, and the switch in the header turns it
    English and back in place, keeping the kernel and the step."""
    def sidebar():
        return b.eval("document.querySelector('#sidebar h2').textContent")
    check(b.eval("window.rs.lang") == "zh", "the page opens in Chinese (rs.lang = %s)" % b.eval("window.rs.lang"))
    check(sidebar() == "\u6838\u51fd\u6570", "the kernel list is headed 核函数 (%s)" % sidebar())
    check(b.eval("document.documentElement.lang") == "zh-CN", "the document's language is zh-CN")
    banner = b.eval("document.getElementById('banner').innerText")
    check("\u5f55\u5236" in banner, "the banner says 录制 (recorded) (%s)" % banner[:60])
    title = b.eval("document.getElementById('kernel-note').innerText")
    check(any(0x4e00 <= ord(c) <= 0x9fff for c in title), "the teaching note is in Chinese (%s)" % title[:40])
    b.key("ArrowRight", "ArrowRight", 39)
    moved = wait_for(lambda: state(b)["step"] == 1, "ArrowRight in Chinese")
    check(bool(moved), "ArrowRight steps the page in Chinese")
    summary = b.eval("document.getElementById('step-summary').innerText")
    check(any(0x4e00 <= ord(c) <= 0x9fff for c in summary), "the step's sentence is in Chinese (%s)" % summary[:50])
    # Issue 38, item 5: the session's timing method, stored in English, said in Chinese (explain::parse_timing_method).
    cap = b.eval("document.getElementById('timing-caption').textContent") or ""
    check("CUDA events around" not in cap and "\u9884\u70ed" in cap,
          "the timing method is said in Chinese (%s)" % cap[max(0, cap.find("\u9884\u70ed") - 30):][:80])
    hover = b.eval("document.querySelector('#smem-panel h3').title")
    check(hover and "Shared memory" in hover, "a heading shows its English on hover (%s)" % hover)
    b.screenshot(os.path.join(out, "web-zh.png"))
    kernel = state(b)["kernel"]
    b.click("#lang-switch")
    en = wait_for(lambda: sidebar() == "Kernels", "the switch to English")
    check(bool(en), "the switch turns the page English in place (%s)" % sidebar())
    s = state(b)
    check(s["kernel"] == kernel and s["step"] == 1, "the switch keeps the kernel and the step (%s, %s)" % (s["kernel"], s["step"]))
    summary_en = b.eval("document.getElementById('step-summary').innerText")
    check(not any(0x4e00 <= ord(c) <= 0x9fff for c in summary_en), "no Chinese left in English (%s)" % summary_en[:50])
    b.click("#lang-switch")
    back = wait_for(lambda: sidebar() == "\u6838\u51fd\u6570", "the switch back to Chinese")
    check(bool(back), "and back to Chinese")
    check_chinese_typography(b)


# Issue 38, item 5: the page exported with --lang zh, through every kernel the page holds (CUB's included), three steps
# each, and its bits and multigpu views: the visible text (every element drawn, not code, not the source listing;
# the lanes view's canvas captions too) holds no Latin word outside the allow-list below, and its Chinese sentences
# follow the Chinese rules: no space after full-width punctuation, no line starting with it, no ASCII comma or
# parenthesis between Chinese characters, a number not split from its unit across lines, one term per concept
# (网格跨步循环, not 网格步长循环; 核函数, not 内核).
VISIBLE_TEXT_JS = """(function(){
  var skip = {PRE: 1, CODE: 1, SCRIPT: 1, STYLE: 1, CANVAS: 1, TEXTAREA: 1, KBD: 1};
  var out = [], seen = new Set();
  function visible(e) {
    if (e.closest('[hidden]')) return false;
    var cs = getComputedStyle(e);
    return cs.display !== 'none' && cs.visibility !== 'hidden' && e.getClientRects().length > 0;
  }
  var walker = document.createTreeWalker(document.body, NodeFilter.SHOW_ELEMENT, {
    acceptNode: function (e) {
      // Code, the source listing and its current line, kernel names (a name is broken into text nodes at its word
      // boundaries), the switch to English.
      if (skip[e.tagName] || e.id === 'source' || e.id === 'source-line' || e.id === 'rs-i18n' || e.id === 'rs-data' ||
          e.id === 'lang-switch' || e.hasAttribute('data-kernel') || e.classList.contains('code') || !visible(e))
        return NodeFilter.FILTER_REJECT;
      return NodeFilter.FILTER_ACCEPT;
    }});
  var e, blocks = [];
  while ((e = walker.nextNode())) {
    for (var n = e.firstChild; n; n = n.nextSibling) {
      if (n.nodeType !== 3 || !n.data.trim()) continue;
      var id = e.id || (e.closest('[id]') || {}).id || e.tagName;
      out.push([id, n.data]);
    }
    // The lines as drawn (innerText: a <br> or a block starts a line) of each element with an id and none inside.
    if (e.id && !e.querySelector('[id]')) blocks.push([e.id, e.innerText]);
  }
  (window.rs.lanesCaptions || []).forEach(function (c) { out.push(['lanes canvas', c]); });
  return [out, blocks];
})()"""

# Latin words a Chinese page keeps: CUDA's and the field's names, units, the terms docs/chinese.md keeps in English,
# the sources' names. Identifiers (an underscore, a digit, an inner capital, ::, a call) are code and kept anyway.
LATIN_ALLOWED = set("""
lane lanes bank banks shuffle shuffles CUDA GPU GPUs CPU CUB NCCL NVIDIA Nsight Compute SM SMs L1 L2 PTX SASS
NVRTC API ID RAW WAR WAW racecheck compute sanitizer nvcc ncu nvidia smi topo NVLink PCIe P2P busbw algbw
int float double unsigned bool char long short struct extern volatile const void if else for while return true
false GB KB MB TB GiB MiB KiB B ms us s ns x bit bits byte bytes Harris CSV PNG SVG PDF HTML JSON ReduceScope
reducescope export record show check trace html lang zh en Professional C Programming Optimizing Parallel
Reduction in sm Home End Page Up Down Tab Enter Esc Shift Ctrl all-reduce all-gather reduce-scatter
harris lecture book course modern pitfalls multigpu yours min max memset cudaMemset ulps ulp
input output scratch dev_sum tid tx stride sdata
compute-sanitizer nvidia-smi cuda-samples nccl-tests Brent Volta Kepler Pascal Hopper Kulisch Collange Defour Graillat Iakymchuk Cooperative Groups Mark Hwu Kirk
""".split())
LATIN_WORD = re.compile(r"[A-Za-z][A-Za-z0-9_]*(?:'s)?(?:-[A-Za-z]+)*")


def latin_words(text):
    """The Latin words of `text` that are neither code nor allowed."""
    bad = []
    for m in LATIN_WORD.finditer(text):
        w = m.group(0)
        before, after = text[max(0, m.start() - 2):m.start()], text[m.end():m.end() + 2]
        near = text[max(0, m.start() - 3):m.start()] + text[m.end():m.end() + 3]
        code = (len(w) == 1 or all(len(p) == 1 for p in w.split("-")) or re.search(r"[<>=%*+\[\]]", near) or
                before.endswith("'") and after.startswith("'") or
                text[max(0, m.start() - 12):m.start()].endswith("reducescope ") or "_" in w or any(c.isdigit() for c in w) or re.search("[a-z][A-Z]", w) or before.endswith(("::", ".", "<", "--", "-", "/", "#", "`", "&", "@")) or
                after.startswith(("::", "(", "<", "[", ".cu", ".h", "`", "*", "=", "/")) or w.isupper() and len(w) <= 5)
        if not code and w not in LATIN_ALLOWED and w.lower() not in LATIN_ALLOWED:
            bad.append(w)
    return bad


HAN = "\u4e00-\u9fff"
UNITS = "(?:GB/s|GiB|MiB|KiB|ms|µs|ns|%|B|字节|个|次|步|路|位)"


def chinese_problems(where, view, text, lines=True):
    """The problems of one text: Latin words (`lines` False: a text node), or the typography of an element's lines as
    drawn (`lines` True), each named with where it is."""
    bad = []
    for line in text.split("\n"):
        w = "%s %s: %r" % (where, view, line[:70])
        if not lines:
            words = latin_words(line)
            if words:
                bad.append("Latin words %s: %s" % (sorted(set(words))[:6], w))
            continue
        if re.search("[\u3002\uff0c\uff1b\uff1a\uff01\uff1f] ", line):
            bad.append("space after full-width punctuation: " + w)
        if re.match("^[\u3002\uff0c\uff1b\uff1a]", line.strip()):
            bad.append("line starts with full-width punctuation: " + w)
        if (re.search("[{0}] ?[,;]|[,;] ?[{0}]".format(HAN), line) or
                any(re.search("[%s]" % HAN, m) for m in re.findall(r"\(([^()]*)\)", line))):
            bad.append("ASCII punctuation between Chinese characters: " + w)
        if "\u7f51\u683c\u6b65\u957f\u5faa\u73af" in line or "\u5185\u6838" in line:
            bad.append("term variant: " + w)
    return bad


def page_problems(b, where):
    nodes, blocks = b.eval(VISIBLE_TEXT_JS) or [[], []]
    return ([p for view, text in nodes for p in chinese_problems(where, view, text, lines=False)] +
            [p for view, text in blocks for p in chinese_problems(where, view, text)])


def split_units(b):
    """Elements whose text breaks between a number and its unit (their line boxes, from a Range per character)."""
    return b.eval("""(function(){
      var out = [], re = /[0-9](\\s|\\u00a0)?(GB\\/s|GiB|MiB|ms|\\u00b5s|%%|\\u5b57\\u8282)/g;
      document.querySelectorAll('#step-summary, #kernel-note, #banks-text, #warps-text, #lanes-text, #smem-text,' +
                                ' #global-text, #atomics-text, #bank-caption, #timing-caption, #bits-caption').forEach(function (e) {
        if (!e.getClientRects().length) return;
        var walker = document.createTreeWalker(e, NodeFilter.SHOW_TEXT), n, r = document.createRange(), m;
        while ((n = walker.nextNode())) {
          re.lastIndex = 0;
          while ((m = re.exec(n.data))) {
            r.setStart(n, m.index); r.setEnd(n, m.index + 1);
            var a = r.getClientRects()[0];
            r.setStart(n, m.index + m[0].length - 1); r.setEnd(n, m.index + m[0].length);
            var z = r.getClientRects()[0];
            if (a && z && z.top > a.top + 2) out.push([e.id, n.data.substr(Math.max(0, m.index - 10), 30)]);
          }
        }
      });
      return out;
    })()""")


def report_problems(bad):
    """The distinct problems (the same text in another kernel or step is one), each printed once with where it was
    first seen and how often."""
    first, count = {}, {}
    for p in bad:
        kind, _, rest = p.partition(": ")
        where, _, text = rest.partition(": ")
        key = (kind, text.split(" ", 1)[-1] if kind.startswith("Latin") else text)
        first.setdefault(key, p)
        count[key] = count.get(key, 0) + 1
    out = [first[k] for k in sorted(first)]
    for k in sorted(first):
        print("  zh (%dx): %s" % (count[k], first[k]))
    return out


def check_chinese_typography(b):
    bad = []
    kernels = b.eval("window.rs.kernels()") or []
    for k in kernels:
        sizes = b.eval("window.rs.held(%s)" % json.dumps(k)) or []
        if not sizes:
            continue
        b.eval("window.rs.select(%s, %d)" % (json.dumps(k), sizes[0]))
        if not wait_open(b, k, sizes[0]):
            bad.append("%s did not open" % k)
            continue
        for step in range(3):
            where = "%s step %d" % (k, state(b)["step"])
            bad += page_problems(b, where)
            bad += ["number split from its unit: %s %s %r" % (where, e, t) for e, t in split_units(b) or []]
            b.key("ArrowRight", "ArrowRight", 39)
            wait_for(lambda: state(b)["step"] >= min(step + 1, state(b)["steps"] - 1), "step", timeout=5)
    problems = report_problems(bad)
    check(len(kernels) > 40 and not problems, "the Chinese page through %d kernels: %d problems %s" %
          (len(kernels), len(problems), problems[:3]))


def check_chinese_multigpu(b):
    """The multigpu panel of a page with no traces, in Chinese: its visible text, each ring step."""
    bad = []
    steps = mg(b, "steps") or 0
    for i in range(steps + 1):
        bad += page_problems(b, "ring step %d" % i)
        b.click("#mg-fwd")
    problems = report_problems(bad)
    check(steps >= 2 and not problems, "the Chinese multigpu panel through %d ring steps: %d problems %s" %
          (steps, len(problems), problems[:3]))


# Issue 38, item 2: the page's step sentences in the claims audit. rs_page_facts (tests/page_facts.cpp) writes each
# step's facts from the explain layer, which tests/test_claims.cpp checks against the raw records; here every step of
# every kernel the page holds is drawn (window.rs.stepTexts) and its summary and idle line are read. The summary must
# say the step's active warps, its shared loads, stores and conflicts, and its counts of shuffles, warp reduces, warp
# atomics and global requests, each by its own name, and claim no other count; the idle line must be
# explain::render_idle's, word for word, in the page's language.
SUMMARY_COUNTS = (
    ("shf", "{0} shuffle.", "{0} shuffles."),
    ("wred", "{0} warp reduce.", "{0} warp reduces."),
    ("atm", "{0} warp atomic.", "{0} warp atomics."),
    ("req", "{0} global request.", "{0} global requests."),
)
SHARED = "Shared: {0} warp loads, {1} stores; bank conflicts {2} load, {3} store."
SHARED_WORST = ("Shared: {0} warp loads, {1} stores; bank conflicts {2} load, {3} store "
                "(<span class=\"bad\">worst {4}-way</span>).")
ACTIVE = "Active warps {0} of {1}."


def check_page_claims(b, facts_path, lang):
    with open(facts_path, encoding="utf-8") as f:
        facts = {(x["kernel"], x["bs"], x["dtype"], x["binary"]): x["steps"] for x in json.load(f)}
    say = lambda *a: b.eval("window.rs.say(%s)" % ", ".join(json.dumps(x) for x in a))

    def pattern(msg, n):  # the message with any numbers in its n places
        marks = ["\u27e6%d\u27e7" % i for i in range(n)]
        text = re.escape(say(msg, *marks))
        for m in marks:
            text = text.replace(re.escape(m), r"\d+")
        return re.compile(text)

    counts = [(key, re.compile("|".join(sorted({pattern(one, 1).pattern, pattern(many, 1).pattern}))), one, many)
              for key, one, many in SUMMARY_COUNTS]
    shared_any = re.compile(pattern(SHARED, 4).pattern + "|" + pattern(SHARED_WORST, 5).pattern)
    active_any = pattern(ACTIVE, 2)
    wrong, steps, kernels = [], 0, 0
    start = state(b)
    for k in b.eval("window.rs.kernels()") or []:
        for bs in b.eval("window.rs.held(%s)" % json.dumps(k)) or []:
            b.eval("window.rs.select(%s, %d)" % (json.dumps(k), bs))
            if not wait_open(b, k, bs):
                wrong.append("%s at %d: did not open" % (k, bs))
                continue
            s = state(b)
            want = facts.get((k, bs, s["dtype"], s["binary"]))
            if want is None:
                wrong.append("%s at %d (%s%s): not in the session's facts" % (k, bs, s["dtype"], ", binary" * s["binary"]))
                continue
            got = b.eval("window.rs.stepTexts()") or []
            if len(got) != len(want):
                wrong.append("%s at %d: %d steps on the page, %d in the trace" % (k, bs, len(got), len(want)))
                continue
            kernels += 1
            for i, (g, f) in enumerate(zip(got, want)):
                steps += 1
                text, where = g["summary"], "%s %d step %d" % (k, bs, i)
                problems = []
                if f["unrecorded"]:
                    if active_any.search(text):
                        problems.append("counts active warps where none made a recorded instruction")
                elif say(ACTIVE, f["aw"], f["warps"]) not in text or len(active_any.findall(text)) != 1:
                    problems.append("active warps: want %d of %d" % (f["aw"], f["warps"]))
                if f["ld"] or f["st"]:
                    shared = (say(SHARED_WORST, f["ld"], f["st"], f["ldc"], f["stc"], f["deg"]) if f["deg"] > 1
                              else say(SHARED, f["ld"], f["st"], f["ldc"], f["stc"]))
                    if shared not in text:
                        problems.append("shared: want %r" % shared)
                elif shared_any.search(text):
                    problems.append("claims shared accesses where there are none")
                for key, rx, one, many in counts:
                    n = f[key]
                    found = rx.findall(text)
                    if n == 0 and found:
                        problems.append("claims %r where there are none" % found)
                    elif n and (say(one if n == 1 else many, n) not in text or len(found) != 1):
                        problems.append("%s: want %r, found %r" % (key, say(one if n == 1 else many, n), found))
                idle = f["idle_" + lang]
                if g["idle"] != idle:
                    problems.append("idle line %r, want %r" % (g["idle"], idle))
                if problems:
                    wrong.append("%s: %s (%r)" % (where, "; ".join(problems), text[:200]))
    b.eval("window.rs.select(%s, %d)" % (json.dumps(start["kernel"]), start["bs"]))  # as the page opened
    wait_open(b, start["kernel"], start["bs"])
    for w in wrong[:20]:
        print("  claim: " + w)
    check(not wrong and steps > 0,
          "the page's step sentences say each step's facts (%s: %d kernels, %d steps, %d contradictions)"
          % (lang, kernels, steps, len(wrong)))


# Issue 39: Predict mode. The harris lesson from the address (#lesson=harris) opens reduce0 at 256; the next step
# waits for its question, in the warps panel, with real keys and clicks; a wrong answer keeps the step hidden, the right
# one shows it with its reason; Show reveals and counts as not right; the score table and the downloaded answers say
# what was answered; the answers outlive a reload (localStorage). The reveal's time is printed.
def check_predict(b, page, out, lang):
    b.eval("window.rs.predict.clear()")
    b.open(page + "#lesson=harris")
    wait_for(lambda: (b.eval("window.rs && window.rs.predict && window.rs.predict.state()") or {}).get("on"),
             "Predict mode from #lesson=harris", 60)
    s = wait_for(lambda: (lambda x: x if x and x["ready"] and x["kernel"] == "reduce0" and not x["loading"] else None)(
        state(b)), "reduce0 to open", 60)
    p = b.eval("window.rs.predict.state()")
    if not check(bool(s) and p and p["on"] and p["lesson"] == "harris" and s["kernel"] == "reduce0" and s["bs"] == 256,
                 "#lesson=harris turns Predict mode on and opens reduce0 at 256 (%s, %s)" % (p, s and s["kernel"])):
        return
    b.key("ArrowRight", "ArrowRight", 39)
    wait_for(lambda: (b.eval("window.rs.predict.state()") or {}).get("pending"), "a question before step 1")
    p = b.eval("window.rs.predict.state()")
    if not check(bool(p) and p["pending"]["step"] == 1 and p["pending"]["kind"] == "lanes" and p["step"] == 0,
                 "ArrowRight asks before step 1 is shown, the step stays 0 (%s)" % p):
        return
    inside = b.eval("(function(){var x=document.getElementById('predict-box'); return !x.hidden && "
                    "x.closest('section').id;})()")
    check(inside == "warps-panel", "the question sits in the warps panel, where lanes are drawn (%s)" % inside)
    ask = b.eval("document.querySelector('.predict-ask').textContent")
    want = b.eval("window.rs.say('How many lanes of warp {0} make an instruction in step {1}?', 0, 1)")
    check(ask == want, "the question is said in the page's language (%r)" % ask)
    b.screenshot(os.path.join(out, "web-predict-question-%s.png" % lang))
    key = p["pending"]["key"][0]
    b.click("#predict-input")
    b.call("Input.insertText", text=str(key + 1))
    b.click("#predict-check")
    wait_for(lambda: (b.eval("window.rs.predict.state()") or {}).get("verdict"), "a verdict")
    p = b.eval("window.rs.predict.state()")
    check(p and p["verdict"] and not p["verdict"]["right"] and p["step"] == 0 and p["pending"],
          "a wrong answer keeps step 1 hidden and says try again (%s)" % (p and p["verdict"]))
    cs = b.eval("(function(){var s=getComputedStyle(document.querySelector('#predict-box .predict-verdict'));"
                "return [s.color, s.backgroundColor];})()")
    check(bool(cs) and cs[0] != cs[1], "the 'try again' verdict is readable: its text not in its background's colour (%s)" % cs)
    b.eval("document.getElementById('predict-input').value = ''")
    b.click("#predict-input")
    b.call("Input.insertText", text=str(key))
    t0 = b.eval("performance.now()")
    b.key("Enter", "Enter", 13)
    p = wait_for(lambda: (lambda x: x if x and not x["pending"] and x["step"] == 1 else None)(
        b.eval("window.rs.predict.state()")), "step 1 after the right answer")
    ms = b.eval("window.rs.predict.revealMs || 0")
    right = b.eval("window.rs.say('Right: {0}', '')")
    if check(bool(p) and p["verdict"]["right"] and p["verdict"]["text"].startswith(right.strip()),
             "the right answer shows step 1, marked right with why (%r)" % (p and p["verdict"]["text"])):
        print("  predict: step revealed %.1f ms after the answer (JavaScript, headless Chromium)" % ms)
        check(ms < 50, "a predicted step's reveal takes under 50 ms (%.1f ms)" % ms)
    b.screenshot(os.path.join(out, "web-predict-right-%s.png" % lang))
    b.key("ArrowRight", "ArrowRight", 39)
    wait_for(lambda: (b.eval("window.rs.predict.state()") or {}).get("pending"), "a question before step 2")
    b.click("#predict-show")
    p = wait_for(lambda: (lambda x: x if x and not x["pending"] and x["step"] == 2 else None)(
        b.eval("window.rs.predict.state()")), "step 2 after Show")
    check(bool(p) and not p["verdict"]["right"], "Show reveals step 2, not counted right (%s)" % (p and p["verdict"]))
    score = b.eval("document.getElementById('predict-score').textContent")
    check("reduce0" in score, "the score table names reduce0 (%r)" % score[:80])
    d = b.eval("window.rs.predict.download()")
    ok = d and d["lesson"] == "harris" and len(d["answers"]) == 2 and d["answers"][0]["right"] and \
        not d["answers"][0]["first_try"] and d["answers"][0]["tries"] == 2 and not d["answers"][1]["right"] and d["gpu"]
    check(bool(ok), "the downloaded answers: the lesson, the GPU, 2 answers, the first right after 2 tries (%s)"
          % (d and [(a["step"], a["right"], a["first_try"], a["tries"]) for a in d["answers"]]))
    b.call("Page.reload")
    wait_for(lambda: (state(b) or {}).get("ready"), "the page to be ready again", 60)
    n = b.eval("window.rs.predict.state().answers")
    check(n == 2, "the answers are still there after a reload (localStorage: %s)" % n)
    b.eval("window.rs.predict.clear(); window.rs.predict.set(false, '')")
    b.open(page)  # the same document without the hash: reloaded, as the checks after this one expect it
    b.call("Page.reload")
    wait_for(lambda: (lambda x: x if x and x["ready"] and not x["loading"] else None)(state(b)), "the page again", 60)


def check_class_report(b, page, reducescope, lang, students=20, questions=3):
    """A class of `students` drives the page through harris's first `questions` questions, each in its own way (right
    at once; wrong, then right; wrong, then Show), types a name and downloads its answers; lesson-report reads the
    files and its misconception table counts each wrong answer by the students who gave it (issue 39, item 6)."""
    work = tempfile.mkdtemp(prefix="rs-class-")
    expected = {}  # question number -> {wrong answer: students}
    firsts = [0] * questions
    try:
        for i in range(students):
            b.eval("window.rs.predict.clear(); window.rs.predict.set(false, '')")
            b.eval("document.getElementById('predict-name').value = 'student %02d'" % i)
            b.eval("window.rs.predict.set(true, 'harris')")
            wait_for(lambda: (lambda x: x if x and x["ready"] and x["kernel"] == "reduce0" and not x["loading"] and
                              x["step"] == 0 else None)(state(b)), "reduce0 at step 0 for student %d" % i, 60)
            for j in range(questions):
                b.key("ArrowRight", "ArrowRight", 39)
                p = wait_for(lambda: (b.eval("window.rs.predict.state()") or {}).get("pending"),
                             "question %d for student %d" % (j + 1, i))
                if not p:
                    return
                kind, key, text = p["kind"], p["key"], p["text"]
                if kind == "warps":
                    wrong, right = (key[:-1] or [len(key) + 1]), key
                elif kind == "value":
                    wrong, right = None, None
                else:  # three wrong answers, one per student in turn, never the key
                    picks = [v for v in (key[0] * 2, 32, 1, 2) if v != key[0]]
                    wrong, right = [picks[(i // 2) % 3]], [key[0]]
                way = (i + j) % 3
                said = ",".join(str(v) for v in wrong) if wrong is not None else "1234567"
                if way == 0:
                    b.eval("window.rs.predict.answer(%s, %s)" % (json.dumps(right or []), json.dumps(text)))
                    firsts[j] += 1
                else:
                    b.eval("window.rs.predict.answer(%s, %s)" % (json.dumps(wrong or []),
                                                                 json.dumps("" if wrong is not None else said)))
                    expected.setdefault(j, {}).setdefault(said, 0)
                    expected[j][said] += 1
                    if way == 1:
                        b.eval("window.rs.predict.answer(%s, %s)" % (json.dumps(right or []), json.dumps(text)))
                    else:
                        b.eval("window.rs.predict.show()")
                wait_for(lambda: not (b.eval("window.rs.predict.state()") or {}).get("pending"),
                         "the step after question %d" % (j + 1))
            d = b.eval("window.rs.predict.download()")
            with open(os.path.join(work, "answers-%02d.json" % i), "w") as f:
                json.dump(d, f)
        b.eval("window.rs.predict.clear(); window.rs.predict.set(false, '')")
        b.open(page)
        b.call("Page.reload")
        wait_for(lambda: (lambda x: x if x and x["ready"] and not x["loading"] else None)(state(b)), "the page again", 60)
        files = sorted(glob.glob(os.path.join(work, "*.json")))
        r = subprocess.run([reducescope, "lesson-report"] + files + ["--csv", os.path.join(work, "class.csv")],
                           capture_output=True, text=True, timeout=60)
        out = r.stdout
        check(r.returncode == 0 and ("%d students, %d questions" % (students, questions)) in out,
              "lesson-report reads %d answers files the page saved (%s) [%s]" % (students, out.splitlines()[:1],
                                                                                 lang))
        table = out.split("Misconception table")[-1].split("Students:")[0].strip().splitlines()[2:]
        ok = len(table) == questions
        for j in range(questions):
            row = table[j] if j < len(table) else ""
            want = expected.get(j, {})
            top = max(want.values()) if want else 0
            said = re.findall(r"(\S+) \((\d+)(?: students?)?\)", row.split("%", 1)[-1])
            # the first is a most common one; each printed count is the students who gave that answer
            ok &= bool(said) and int(said[0][1]) == top and all(want.get(a) == int(n) for a, n in said)
            ok &= len(said) == min(3, len(want))
            ok &= ("%.0f%%" % (100.0 * firsts[j] / students)) in row
        check(ok, "the misconception table counts each wrong answer by the students who gave it and the first-try "
                  "rate (%s) [%s]" % (" | ".join(t.strip() for t in table), lang))
        print("  lesson-report over %d answers files from the page:\n    " % students +
              "\n    ".join(table))
        with open(os.path.join(work, "class.csv")) as f:
            rows = f.read().splitlines()
        check(len(rows) == students + 1 and rows[1].startswith("student 00,"),
              "the CSV has one row per student, named as typed on the page (%d rows; %r)" % (len(rows), rows[1][:40]))
    finally:
        shutil.rmtree(work, ignore_errors=True)


SESSION_KINDS = {"fastest", "speedup", "bits", "bits_blocks", "part", "runs_right", "race_line",
                 "distinct_sums", "ring_chunk", "ring_bytes"}  # explain::is_session_kind


def check_lessons_complete(b, page, lang, out=None):
    """Issue 39, done when: every bundled lesson can be completed on the page, with no GPU, at 1280x720. For each lesson
    and each kernel, block size and type its items name (but CUB's library kernels and a kernel file, which this
    session's page does not hold as such), the page holds the trace; Predict mode from step 0 to the last step stops
    at each question, the trace's key answers it, and the lesson's every item was asked at least once."""
    set_viewport(b, 1280, 720)
    lessons = b.eval("window.rs.predict.lessons()") or []
    names = []
    for lesson in lessons:
        b.eval("window.rs.predict.clear(); window.rs.predict.set(true, %s)" % json.dumps(lesson["name"]))
        groups = []
        for it in lesson["items"]:
            g = (it["kernel"], it["bs"], it.get("type") or "")
            if it["ask"] not in SESSION_KINDS and g not in groups:
                groups.append(g)
        asked_items = set()
        missing = []
        answered = 0
        for kernel, bs, dtype in groups:
            if kernel == "yours":
                continue  # a kernel file: check_yours_lesson
            if bs not in (b.eval("window.rs.held(%s)" % json.dumps(kernel)) or []):
                missing.append("%s@%d" % (kernel, bs))
                continue
            b.eval("window.rs.select(%s, %d)" % (json.dumps(kernel), bs))
            s = wait_for(lambda: (lambda x: x if x and x["kernel"] == kernel and x["bs"] == bs and not x["loading"]
                                  else None)(state(b)), "%s at %d" % (kernel, bs), 60)
            if s and dtype and s["dtype"] != dtype:
                b.key("d", "KeyD", 68)
                s = wait_for(lambda: (lambda x: x if x and x["dtype"] == dtype and not x["loading"] else None)(state(b)),
                             "%s in %s" % (kernel, dtype), 30)
            if not s:
                missing.append("%s@%d %s did not open" % (kernel, bs, dtype))
                continue
            b.key("Home", "Home", 36)
            last = s["steps"] - 1
            for _ in range(200):
                b.key("End", "End", 35)
                p = wait_for(lambda: (lambda x: x if x and (x["pending"] or x["step"] == last) else None)(
                    b.eval("window.rs.predict.state()")), "a question or the last step of %s" % kernel, 10)
                if not p or not p["pending"]:
                    break
                q = p["pending"]
                if q.get("kernel") != kernel:  # a question left waiting from the kernel before (fixed: dropped)
                    missing.append("%s: the question waiting is %s's" % (kernel, q.get("kernel")))
                nums = q["key"] if q["kind"] == "warps" else [] if q["kind"] == "value" else q["key"][:1]
                if q["step"] == p["step"]:  # a question before step 0: the step's views are out of sight
                    hidden = b.eval("getComputedStyle(document.getElementById('step-summary')).visibility")
                    if hidden != "hidden":
                        missing.append("%s step 0 shown before its question was answered" % kernel)
                ok = b.eval("window.rs.predict.answer(%s, %s)" % (json.dumps(nums),
                                                                  json.dumps(q["text"] if q["kind"] == "value" else "")))
                if not ok:
                    missing.append("%s step %d: the key %s was not graded right" % (kernel, q["step"], q["key"]))
                    b.eval("window.rs.predict.show()")
                answered += 1
                for i, it in enumerate(lesson["items"]):
                    if it["kernel"] == kernel and it["bs"] == bs and it["ask"] == q["kind"] and \
                            (not it["steps"] or q["step"] in it["steps"]):
                        asked_items.add(i)
                        break
            if state(b)["step"] != last:
                missing.append("%s did not reach its last step" % kernel)
        # The lesson's questions about the session, each asked when its kernel is on screen: in the timings or bits
        # panel, whose tables wait behind them; each answered wrong first (still waiting, "Not yet"), then by its key.
        quiz = []
        for i, it in enumerate(lesson["items"]):
            if it["ask"] not in SESSION_KINDS or it["kernel"] == "yours":
                continue
            if it["kernel"] != "multigpu":  # the ring's questions wait in the multi-GPU panel, whatever is on screen
                b.eval("window.rs.select(%s, %d)" % (json.dumps(it["kernel"]), it["bs"]))
                wait_for(lambda: (lambda x: x if x and x["kernel"] == it["kernel"] and not x["loading"] else None)(state(b)),
                         "%s for its session question" % it["kernel"], 60)
            mine = [q for q in (b.eval("window.rs.predict.quiz()") or []) if q["id"] == "%s#%d" % (lesson["name"], i)]
            if not mine:
                missing.append("%s#%d (%s of %s) not asked with its kernel on screen" % (lesson["name"], i, it["ask"], it["kernel"]))
            quiz += mine
            for n, q in enumerate(mine):
                if not q["blank"]:
                    missing.append("%s's %s panel shown before its question was answered" % (q["kernel"], q["kind"]))
                if n == 0:
                    # A yes/no question by a real click on the wrong one; the others through the hook.
                    if q["kind"].startswith("bits"):
                        b.click('#%s .quiz-q[data-quiz="%s"] [data-n="%d"]' % (q["panel"], q["id"], 1 - q["key"][0]))
                        ok = b.eval("window.rs.predict.quiz().filter(function (x) { return x.id === %s; })[0].answered"
                                    % json.dumps(q["id"]))
                    else:
                        # outside any range a count is graded within (ring_bytes: 1 percent of the key)
                        wrong = ([], "100") if q["kind"] == "speedup" else ([q["key"][0] * 2 + 1000], "")
                        ok = b.eval("window.rs.predict.quizAnswer(%s, %s, %s)" % (json.dumps(q["id"]), json.dumps(wrong[0]),
                                                                                 json.dumps(wrong[1])))
                    if ok is not False:
                        missing.append("%s: a wrong answer was graded right" % q["id"])
                    box = b.eval("document.querySelector('#%s .quiz-box').textContent" % q["panel"]) or ""
                    if ("还不对" if lang == "zh" else "Not yet") not in box:
                        missing.append("%s: no 'not yet' after a wrong answer: %r" % (q["id"], box[:200]))
                    # Readable: the verdict's text not in its own background's colour (the WRONG badge's style once hid it).
                    cs = b.eval("(function(){var e=document.querySelector('#%s .quiz-box .predict-verdict'), s=getComputedStyle(e);"
                                "return [s.color, s.backgroundColor];})()" % q["panel"])
                    if not cs or cs[0] == cs[1]:
                        missing.append("%s: the verdict's text is in its background's colour %s" % (q["id"], cs))
                    if lesson["name"] == "float" and q["kind"] == "bits" and out:
                        b.eval("document.getElementById('bits-panel').scrollIntoView()")
                        b.screenshot(os.path.join(out, "predict-quiz-bits-%s.png" % lang))
                    if lesson["name"] == "multigpu" and q["kind"] == "ring_chunk" and out:
                        b.eval("document.getElementById('multigpu-panel').scrollIntoView()")
                        b.screenshot(os.path.join(out, "predict-quiz-ring-%s.png" % lang))
                    if lesson["name"] == "pitfalls" and q["kind"] == "race_line" and out:
                        b.eval("document.getElementById('timing-panel').scrollIntoView()")
                        b.screenshot(os.path.join(out, "predict-quiz-race-%s-%s.png" % (q["kernel"], lang)))
                race_marks = "document.querySelectorAll('#source .ln.race').length"
                if q["kind"] == "race_line" and b.eval(race_marks):
                    missing.append("%s: racecheck's marks on the listing before the race question is answered" % q["id"])
                nums, text = ([], q["text"]) if q["kind"] == "speedup" else ([q["key"][0]], "")
                if not b.eval("window.rs.predict.quizAnswer(%s, %s, %s)" % (json.dumps(q["id"]), json.dumps(nums), json.dumps(text))):
                    missing.append("%s: the key %s was not graded right" % (q["id"], q["key"]))
                    b.eval("window.rs.predict.quizShow(%s)" % json.dumps(q["id"]))
                answered += 1
                asked_items.add(int(q["id"].rsplit("#", 1)[1]))
                if q["kind"] == "race_line" and not b.eval(race_marks):
                    missing.append("%s: no race marks on the listing after the race question was answered" % q["id"])
                now = b.eval("window.rs.predict.quiz()") or []
                after = [x for x in now if x["id"] == q["id"]]
                # The panel's tables stay behind its questions while another of them waits (the pitfalls lesson asks
                # two of one kernel in the timings panel).
                others = [x for x in now if x["panel"] == q["panel"] and x["id"] != q["id"] and not x["answered"]]
                if not after or not after[0]["answered"] or (after[0]["blank"] and not others):
                    missing.append("%s still waiting after its answer (%s)" % (q["id"], after))
        if all(it["kernel"] == "yours" for it in lesson["items"]):
            continue  # the kernel file's lesson: check_yours_lesson
        expected = {i for i, it in enumerate(lesson["items"]) if it["kernel"] != "yours"}
        never = sorted(expected - asked_items)
        done = not missing and not never and answered > 0
        check(done, "lesson %s can be completed on the page at 1280x720 [%s]: %d questions answered by the trace's keys%s"
              % (lesson["name"], lang, answered, "" if done else "; missing %s, items never asked %s" % (missing, never)))
        names.append(lesson["name"])
    b.eval("window.rs.predict.clear(); window.rs.predict.set(false, '')")
    set_viewport(b, 1600, 1200)  # the size the later checks were written for
    check(len(names) >= 9 and "pitfalls" in names and "multigpu" in names,
          "every bundled lesson tried (%s)" % ", ".join(names))


def check_yours_lesson(b, reducescope, lang):
    """A kernel file predicts too (issue 39, item 5): the page of a session `record --kernel-file` made on the H100
    (tests/fixtures/yours), opened at #lesson=yours, asks of the student's kernel, whatever its name, and the trace
    grades the answer."""
    work = tempfile.mkdtemp(prefix="rs-yours-")
    try:
        src = os.path.join(os.path.dirname(os.path.abspath(__file__)), "fixtures", "yours", "my_reduce1.rssession")
        page = os.path.join(work, "yours.html")
        r = subprocess.run([reducescope, "export", src, "--html", page, "--lang", lang], capture_output=True, text=True)
        if not check(r.returncode == 0, "export of a kernel file's session (%s)" % r.stderr.strip()[:200]):
            return
        b.open(page + "#lesson=yours")
        s = wait_for(lambda: (lambda x: x if x and x["ready"] and x["kernel"] == "my_reduce1" and not x["loading"]
                              else None)(state(b)), "my_reduce1 to open from #lesson=yours", 60)
        if not check(bool(s) and s["bs"] == 256, "#lesson=yours opens the kernel file's kernel, my_reduce1, at 256 (%s)"
                     % ((s and (s["kernel"], s["bs"])),)):
            return
        # Step 0's question first, with step 0 out of sight; answered, the step shows; then step 1's.
        p = wait_for(lambda: (b.eval("window.rs.predict.state()") or {}).get("pending"), "step 0's question")
        hidden = b.eval("getComputedStyle(document.getElementById('step-summary')).visibility")
        check(bool(p) and p["step"] == 0 and hidden == "hidden",
              "a question before step 0, the step out of sight until the answer (%s, %s)" % (p, hidden))
        b.eval("window.rs.predict.answer(%s, '')" % json.dumps((p or {}).get("key", [])[:1]))
        wait_for(lambda: not (b.eval("window.rs.predict.state()") or {}).get("pending"), "step 0 after its answer")
        b.key("ArrowRight", "ArrowRight", 39)
        p = wait_for(lambda: (b.eval("window.rs.predict.state()") or {}).get("pending"), "a question on my_reduce1")
        words = b.eval("(document.querySelector('.predict-say') || {}).textContent || ''")
        want = {"en": "Your kernel, before the GPU shows this step: think of the addresses its lanes touch.",
                "zh": "你的内核，在 GPU 展示这一步之前：想一想各个 lane 访问的地址。"}[lang]  # assets/lessons/yours.json
        check(bool(p) and p["step"] == 1 and p["kind"] == "conflict",
              "the lesson asks of the student's kernel before step 1: its conflict (%s)" % p)
        check(words == want, "with the lesson's words for a kernel file (%r)" % words[:80])
        b.eval("window.rs.predict.answer(%s, '')" % json.dumps(p["key"] if p else []))
        p = wait_for(lambda: (lambda x: x if x and not x["pending"] and x["step"] == 1 else None)(
            b.eval("window.rs.predict.state()")), "step 1 after the right answer")
        check(bool(p) and p["verdict"]["right"], "the key from the kernel file's trace is graded right (%s)"
              % (p and p["verdict"]))
        b.eval("window.rs.predict.clear(); window.rs.predict.set(false, '')")
    finally:
        shutil.rmtree(work, ignore_errors=True)


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--reducescope", required=True)
    ap.add_argument("--session", required=True)
    ap.add_argument("--out", default=os.environ.get("RS_WEB_SCREENSHOTS", "web-screenshots"))
    ap.add_argument("--chromium", default=shutil.which("chromium") or shutil.which("chromium-browser"))
    ap.add_argument("--lang", default="en", choices=["en", "zh"], help="the page's language (export --html --lang)")
    ap.add_argument("--facts", help="rs_page_facts (tests/page_facts.cpp): check every step's sentences against it")
    a = ap.parse_args()
    if not a.chromium:
        print("web_chromium: no chromium on the PATH (scripts/setup.sh installs Debian's chromium)", file=sys.stderr)
        return 1
    os.makedirs(a.out, exist_ok=True)
    work = tempfile.mkdtemp(prefix="rs-web-")
    page = os.path.join(work, "replay.html")
    r = subprocess.run([a.reducescope, "export", a.session, "--html", page, "--lang", a.lang], capture_output=True, text=True)
    print(r.stdout.strip())
    if not check(r.returncode == 0 and os.path.getsize(page) > 0, "reducescope export --html exits 0 and writes the page"):
        print(r.stderr)
        return 1
    check(os.path.getsize(page) <= 3_500_000, "the page is at most 3.5 MB (%d bytes)" % os.path.getsize(page))
    # What the session holds, as the export says it: "web page of GPU (date) ..., N of M traces[, the multi-GPU
    # recording]". A page of a multi-GPU recording alone has no trace to replay, only its panel.
    gpu = r.stdout.split("web page of ", 1)[-1].split(" (", 1)[0]
    has_traces = " 0 of 0 traces" not in r.stdout
    expect_mg = "the multi-GPU recording" in r.stdout

    damaged = write_damaged_pages(page, work)
    facts = None
    if a.facts and has_traces:
        facts = os.path.join(work, "facts.json")
        fr = subprocess.run([a.facts, a.session, facts], capture_output=True, text=True)
        if not check(fr.returncode == 0, "rs_page_facts writes the session's step facts (%s)" % fr.stderr.strip()):
            facts = None

    b = Browser(a.chromium, work)
    try:
        b.open(page)
        s = wait_for(lambda: (state(b) or {}).get("ready") and state(b), "the page to be ready", 60)
        check(bool(s) and not s["error"] and (s["kernel"] or not has_traces),
              "the page loads and opens its first kernel (%s)" % (s and s["kernel"]))
        if not s:
            print("\n".join(b.errors()))
            return 1
        if facts:
            check_page_claims(b, facts, a.lang)
        if has_traces and not a.session.endswith(".rstrace"):
            check_predict(b, page, a.out, a.lang)
            check_class_report(b, page, a.reducescope, a.lang)
            check_yours_lesson(b, a.reducescope, a.lang)
            b.open(page)
            b.call("Page.reload")
            wait_for(lambda: (lambda x: x if x and x["ready"] and not x["loading"] else None)(state(b)), "the page", 60)
            check_lessons_complete(b, page, a.lang, a.out)
            b.open(page)
            b.call("Page.reload")
            wait_for(lambda: (lambda x: x if x and x["ready"] and not x["loading"] else None)(state(b)), "the page", 60)
        if a.lang == "zh":
            if has_traces:
                check_chinese(b, a.out)
            if expect_mg:
                set_viewport(b, 1280, 720)
                check_chinese_multigpu(b)
            errs = b.errors()
            check(not errs, "no JavaScript exception or console error (%s)" % ("; ".join(errs[:5]) or "none"))
            print("\nweb_chromium: %d passed, %d failed" % (PASSES, len(FAILURES)))
            for f in FAILURES:
                print("  failed: " + f)
            return 1 if FAILURES else 0
        banner = b.eval("document.getElementById('banner').innerText")
        check("RECORDING" in banner and "recorded" in banner and gpu and gpu in banner,
              "the banner says it is a recording, from which GPU (%s)" % gpu)
        urls = b.requested_urls()
        remote = [u for u in urls if u.startswith("http:") or u.startswith("https:")]
        check(not remote, "no http(s) request (%d requests: %s)" % (len(urls), ", ".join(sorted(set(u.split(':')[0] for u in urls)))))
        if a.session.endswith(".rstrace"):  # one trace, not a session: a binary trace's page (issue 28)
            check_binary_trace(b, a.out)
        else:
            if has_traces:
                check_replay(b, a.out)
                check_float_trace(b, a.out)
                check_type_switch(b, a.out)
                check_cub_traces(b, a.out)
            check_multigpu(b, a.out, expect_mg, has_traces)
        errs = b.errors()
        check(not errs, "no JavaScript exception or console error (%s)" % ("; ".join(errs[:5]) or "none"))

        # Damaged pages: a visible error, not a blank page.
        for name, words in (("corrupt", ["corrupt"]), ("truncated", ["truncated"]), ("cut", ["truncated"])):
            b.open(damaged[name])
            text = visible_error(b, words)
            check(bool(text), "a %s data block shows a visible error (%s)" % (name, (text or "none").splitlines()[0][:100]))
            b.screenshot(os.path.join(a.out, "web-error-%s.png" % name))
    finally:
        b.close()
        shutil.rmtree(work, ignore_errors=True)

    print("\nweb_chromium: %d passed, %d failed" % (PASSES, len(FAILURES)))
    for f in FAILURES:
        print("  failed: " + f)
    return 1 if FAILURES else 0


if __name__ == "__main__":
    sys.exit(main())
