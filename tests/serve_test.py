#!/usr/bin/env python3
"""`reducescope serve` against the real process on loopback (issue 55; CI, no GPU).

The GPU stage is replaced by a test double: tests/serve_fake_checker.py, passed as --checker, answers as `check`
would from output recorded on a GPU (it is named here and nowhere in the product). Everything else is the real
server: its HTTP, its SQLite store, its queue and worker processes.

Checks:
  - the private links: printed once, kept in DATA/links.txt (mode 0600); every API request without a token, or
    with one that is not the class's, gets 401;
  - a Run and a Check come back with their verdict; a compile error names its line; the queue is fair (one running
    and one waiting per student: a third gets 429, with its line);
  - a student cannot read another's submission, by id (404, as a missing one) or in their list;
  - bad requests get a status and a line and never a crash: malformed JSON, a body over the limit, a 1 MB line,
    a path as the exercise, </script> in a source (stored as it is, served as JSON), a fuzz of request bodies;
  - a hung run is stopped by the wall limit and the next run of the same student goes on;
  - kill -9 of the server mid-queue: after a restart every acknowledged submission is there and the pending ones
    run to their verdict;
  - a bounded load test: N simulated students submitting for S seconds (default 50 for 60 s): p50/p95 of
    submission-to-result, and the server's own time per request (/api/stats), printed as figures;
  - in headless Chromium (--chromium): two students' pages and the instructor's; the editor (CodeMirror) marks a
    compile error at its line; a check's verdict is drawn as a table; the instructor's page lists both students'
    latest verdicts, live; screenshots in OUT.

usage: serve_test.py --reducescope BIN --out DIR [--load-students N --load-seconds S] [--chromium PATH] [--only NAME]
"""
import argparse
import json
import os
import random
import re
import shutil
import signal
import stat
import subprocess
import sys
import threading
import time
import urllib.error
import urllib.request

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, HERE)
from web_chromium import Browser, wait_for  # noqa: E402 (the page tests' DevTools client and polling wait)

FAKE = os.path.join(HERE, "serve_fake_checker.py")
FAILURES = []


def check(cond, what):
    print(("ok   " if cond else "FAIL ") + what, flush=True)
    if not cond:
        FAILURES.append(what)
    return cond


class ServerProcess:
    def __init__(self, exe, data, roster=None, extra=()):
        args = [exe, "serve", "--data", data, "--port", "0", "--gpus", "0,1", "--checker", FAKE] + list(extra)
        if roster:
            args += ["--roster", roster]
        self.log = open(os.path.join(data + ".log"), "a")
        self.proc = subprocess.Popen(args, stdout=subprocess.PIPE, stderr=self.log, text=True)
        self.lines = []
        self.base = None
        while True:
            line = self.proc.stdout.readline()
            if not line:
                raise RuntimeError("serve exited before serving: see " + data + ".log")
            self.lines.append(line.rstrip("\n"))
            m = re.match(r"serving on (http://127\.0\.0\.1:\d+)", line)
            if m:
                self.base = m.group(1)
                break
        threading.Thread(target=self._drain, daemon=True).start()

    def _drain(self):
        for line in self.proc.stdout:
            self.lines.append(line.rstrip("\n"))

    def links(self):
        out = {}
        for line in self.lines:
            m = re.match(r"(student|instructor)\s+(\S+)\s+(http://\S+/(?:s|i)/([0-9a-f]{32}))", line)
            if m:
                out[m.group(2)] = (m.group(3), m.group(4))
        return out

    def kill9(self):
        self.proc.send_signal(signal.SIGKILL)
        self.proc.wait()

    def stop(self):
        if self.proc.poll() is None:
            self.proc.send_signal(signal.SIGTERM)
            try:
                self.proc.wait(timeout=20)
            except subprocess.TimeoutExpired:
                self.proc.kill()
                self.proc.wait()
        return self.proc.returncode


def class_server(exe, out, name, roster_text, extra=()):
    """A fresh store OUT/NAME for the roster `roster_text` (OUT/NAME.csv), and the server on it: (server, data dir)."""
    data = os.path.join(out, name)
    shutil.rmtree(data, ignore_errors=True)
    roster = os.path.join(out, name + ".csv")
    with open(roster, "w") as f:
        f.write(roster_text)
    return ServerProcess(exe, data, roster, extra), data


def request(base, path, token=None, body=None, raw=None, method=None, timeout=30):
    data = raw if raw is not None else (json.dumps(body).encode() if body is not None else None)
    req = urllib.request.Request(base + path, data=data, method=method or ("POST" if data is not None else "GET"))
    if token:
        req.add_header("Authorization", "Bearer " + token)
    if data is not None:
        req.add_header("Content-Type", "application/json")
    try:
        with urllib.request.urlopen(req, timeout=timeout) as r:
            text = r.read().decode()
            return r.status, (json.loads(text) if text.startswith("{") else text)
    except urllib.error.HTTPError as e:
        text = e.read().decode(errors="replace")
        try:
            return e.code, json.loads(text)
        except ValueError:
            return e.code, text


def source(extra="", exercise="first_add"):
    return "// a student's kernel for %s\n%s\n__global__ void user_kernel() {}\n" % (exercise, extra)


def wait_done(base, token, sid, timeout=60):
    def done():
        st, s = request(base, "/api/submissions/%d" % sid, token)
        return s if st == 200 and s.get("state") == "done" else None
    return wait_for(done, "submission %d's verdict" % sid, timeout=timeout)


def test_api(exe, out):
    srv, data = class_server(exe, out, "class", "id,name\nalice,Alice A\nbob,\"Bob, B\"\ncarol,Carol\n")
    try:
        links = srv.links()
        check(set(links) == {"alice", "bob", "carol", "instructor"}, "a private link printed for each student and the instructor")
        mode = stat.S_IMODE(os.stat(os.path.join(data, "links.txt")).st_mode)
        check(mode == 0o600, "DATA/links.txt is readable by its owner only (mode %o)" % mode)
        ta, tb, ti = links["alice"][1], links["bob"][1], links["instructor"][1]
        base = srv.base
        st, j = request(base, "/api/me")
        check(st == 401 and "token" in j.get("error", ""), "no token: 401 with its line (%s)" % j)
        st, j = request(base, "/api/me", "0" * 32)
        check(st == 401, "a token that is not the class's: 401")
        st, j = request(base, "/api/me", ta)
        check(st == 200 and j["id"] == "alice" and j["role"] == "student", "the student's token names her")
        st, page = request(base, "/s/" + "f" * 32)
        check(st == 404, "an unknown link's page: 404")
        st, page = request(base, "/s/" + ta)
        check(st == 200 and "serve.js" in page, "the student's page")
        st, page = request(base, "/i/" + ta)
        check(st == 404, "a student's token does not open the instructor's page")
        st, j = request(base, "/api/start?exercise=first_add", ta)
        check(st == 200 and "user_kernel" in j.get("source", ""), "the exercise's starting file")
        # A compile error names its line.
        st, j = request(base, "/api/submit", ta, {"exercise": "first_add", "kind": "check",
                                                   "source": "int a;\nint b;\nSYNTAX_ERROR here;\n"})
        check(st == 202 and j.get("id"), "a submission is acknowledged with its id (202)")
        s = wait_done(base, ta, j["id"])
        d = (s or {}).get("result", {}).get("diagnostics", [])
        check(bool(d) and d[0]["line"] == 3 and d[0]["severity"] == "error", "the compile error at line 3 (%s)" % d[:1])
        check("does not compile" in (s or {}).get("line", ""), "its line says it does not compile")
        # A check comes back with its verdict.
        st, j = request(base, "/api/submit", ta, {"exercise": "first_add", "kind": "check", "source": source()})
        s = wait_done(base, ta, j["id"])
        c = ((s or {}).get("result") or {}).get("check") or {}
        check(len(c.get("checks", [])) == 3 and s.get("passed") == 3 and s.get("checks") == 3,
              "a check's verdict: 3 of 3 checks (%s)" % (s or {}).get("line"))
        first_check = j["id"]
        # The same file checked again: the verdict it got, said as such; a changed file is checked anew.
        st, j = request(base, "/api/submit", ta, {"exercise": "first_add", "kind": "check", "source": source()})
        s = wait_done(base, ta, j["id"])
        check(s and s["result"].get("cached_from") == first_check and ("the same file as #%d" % first_check) in s["line"]
              and s.get("passed") == 3, "the same file again: its verdict at once, said as such (%s)" % (s or {}).get("line"))
        st, j = request(base, "/api/submit", ta, {"exercise": "first_add", "kind": "check", "source": source("// changed")})
        s = wait_done(base, ta, j["id"])
        check(s and "cached_from" not in s["result"], "a changed file is checked anew")
        st, j = request(base, "/api/submit", ta, {"exercise": "first_add", "kind": "run", "source": source()})
        s = wait_done(base, ta, j["id"])
        check("sums right" in ((s or {}).get("line") or ""), "a run's verdict: its sums (%s)" % (s or {}).get("line"))
        # Another student's submission: not found, by id and in the list.
        st, jj = request(base, "/api/submissions/%d" % j["id"], tb)
        check(st == 404, "bob cannot read alice's submission by id (404)")
        st, jj = request(base, "/api/submissions", tb)
        check(st == 200 and all(x["student"] == "bob" for x in jj["submissions"]), "bob's list holds only his own")
        st, jj = request(base, "/api/submissions", ti)
        check(st == 200 and {x["student"] for x in jj["submissions"]} == {"alice"} and len(jj["students"]) == 3,
              "the instructor sees every student's submissions and the roster")
        st, jj = request(base, "/api/stats", ta)
        check(st == 403, "a student cannot read the server's figures")
        # Fair queue: one running and one waiting per student.
        ids = []
        for k in range(3):
            st, jj = request(base, "/api/submit", tb, {"exercise": "first_add", "kind": "check", "source": source("// sleep: 1.5")})
            ids.append((st, jj))
        check(ids[0][0] == 202 and ids[1][0] == 202 and ids[2][0] == 429 and "one run in flight" in ids[2][1].get("error", ""),
              "a third run while one runs and one waits: 429 with its line (%s)" % ids[2][1])
        # Bad requests: a status and a line each.
        bad = [
            ("malformed JSON", dict(raw=b"{\"exercise\": ")),
            ("not an object", dict(raw=b"[1, 2]")),
            ("a path as the exercise", dict(body={"exercise": "../../etc/passwd", "kind": "check", "source": "x"})),
            ("an unknown kind", dict(body={"exercise": "first_add", "kind": "rm -rf", "source": "x"})),
            ("an empty source", dict(body={"exercise": "first_add", "kind": "run", "source": ""})),
            ("a source over the limit", dict(body={"exercise": "first_add", "kind": "run", "source": "x" * 70000})),
            ("a 1 MB line", dict(raw=b"{\"exercise\": \"first_add\", \"kind\": \"run\", \"source\": \"" + b"y" * (1 << 20) + b"\"}")),
        ]
        for what, kw in bad:
            st, jj = request(base, "/api/submit", tc := links["carol"][1], **kw)
            check(400 <= st < 500 and isinstance(jj, dict) and jj.get("error"), "%s: %d, \"%s\"" % (what, st, (jj or {}).get("error", jj) if isinstance(jj, dict) else jj))
        # </script> in a source: stored as it is, and the API gives it as JSON (the page sets it as text).
        evil = source("// </script><script>alert(1)</script> <img src=x onerror=alert(2)>")
        st, jj = request(base, "/api/submit", tc, {"exercise": "shuffle", "kind": "run", "source": evil})
        s = wait_done(base, tc, jj["id"])
        check(s and s["source"] == evil, "a source with </script> comes back as it was sent, as JSON")
        # Fuzz the API's bodies: random bytes and mangled JSON never crash the server.
        rnd = random.Random(55)
        statuses = set()
        for k in range(200):
            kind = rnd.randrange(4)
            if kind == 0:
                raw = bytes(rnd.randrange(256) for _ in range(rnd.randrange(1, 300)))
            elif kind == 1:
                raw = json.dumps({"exercise": rnd.choice(["first_add", "", "x" * 100, None, 7]),
                                  "kind": rnd.choice(["run", "check", 3, None]),
                                  "source": rnd.choice(["", "a", None, ["x"], {"a": 1}])}).encode()
            elif kind == 2:
                raw = json.dumps({"exercise": "first_add", "kind": "check", "source": source()}).encode()
                cut = rnd.randrange(len(raw))
                raw = raw[:cut] + bytes([rnd.randrange(256)]) + raw[cut + 1:]
            else:
                raw = b"\"" + b"\\u0000" * rnd.randrange(100) + b"\""
            st, jj = request(base, "/api/submit", links["carol"][1], raw=raw)
            statuses.add(st)
            while st == 202 and request(base, "/api/submissions", links["carol"][1])[1]["submissions"][0]["state"] != "done":
                time.sleep(0.05)
        st, jj = request(base, "/api/me", links["carol"][1])
        check(st == 200 and srv.proc.poll() is None, "200 fuzzed bodies: the server still answers (statuses %s)" % sorted(statuses))
        # A run that never ends: stopped by the wall limit (--run-limit here), and the next one goes on.
        srv.stop()
        srv = ServerProcess(exe, data, extra=["--run-limit", "3"])
        base = srv.base
        st, jj = request(base, "/api/submit", ta, {"exercise": "first_add", "kind": "check", "source": source("// hang")})
        s = wait_done(base, ta, jj["id"], timeout=30)
        check(s and "stopped after 3 s" in s.get("line", ""), "a hung run is stopped at the wall limit (%s)" % (s or {}).get("line"))
        st, jj = request(base, "/api/submit", ta, {"exercise": "first_add", "kind": "check", "source": source()})
        s = wait_done(base, ta, jj["id"])
        check(s and s.get("passed") == 3, "the next run of that student goes on")
        # A worker killed with SIGKILL mid-run: that run alone ends, with its line; the next goes on.
        st, jj = request(base, "/api/submit", tb, {"exercise": "first_add", "kind": "check", "source": source("// sleep: 30")})
        victim = jj["id"]
        marker = ("/runs/%d/kernel.cu" % victim).encode()

        def worker_pid():
            for pid in os.listdir("/proc"):
                if pid.isdigit():
                    try:
                        if marker in open("/proc/%s/cmdline" % pid, "rb").read():
                            return int(pid)
                    except OSError:
                        pass
            return None
        pid = wait_for(worker_pid, "the run's worker process", timeout=20)
        if pid:
            os.kill(pid, signal.SIGKILL)
        s = wait_done(base, tb, victim, timeout=30)
        check(pid and s and "died (signal 9" in s.get("line", "") and s.get("checks") is None,
              "a worker killed mid-run: that run ends with its line (%s)" % (s or {}).get("line"))
        st, jj = request(base, "/api/submit", tb, {"exercise": "first_add", "kind": "check", "source": source("// after the kill")})
        s = wait_done(base, tb, jj["id"])
        check(s and s.get("passed") == 3, "and the next run goes on")
        # kill -9 mid-queue: every acknowledged submission survives, the pending ones run.
        acked = []
        for who in ("alice", "bob", "carol"):
            for k in range(2):
                st, jj = request(base, "/api/submit", links[who][1],
                                 {"exercise": "first_add", "kind": "check", "source": source("// sleep: 2 (%s %d)" % (who, k))})
                if st == 202:
                    acked.append((who, jj["id"]))
        time.sleep(0.5)
        srv.kill9()
        srv = ServerProcess(exe, data)
        base = srv.base
        check(any("queued again" in l for l in srv.lines), "restarted after kill -9, the runs it killed queued again")
        missing = []
        for who, sid in acked:
            s = wait_done(base, links[who][1], sid, timeout=60)
            if not s or s.get("passed") != 3:
                missing.append(sid)
        check(len(acked) == 6 and not missing, "kill -9 mid-queue: all %d acknowledged submissions there and run (%s missing)" % (len(acked), missing))
        srv.stop()
        check(srv.proc.returncode == 0, "SIGTERM stops the server (exit %s)" % srv.proc.returncode)
        # grade --from-server: each student's latest Check of the exercise, graded as a class (compile only here).
        gout = os.path.join(out, "grade-from-server")
        g = subprocess.run([exe, "grade", "--from-server", data, "--exercise", "first_add", "--out", gout,
                            "--compile-only"], capture_output=True, text=True, timeout=240)
        rows = open(os.path.join(gout, "class.csv")).read().splitlines()[1:] if os.path.exists(os.path.join(gout, "class.csv")) else []
        graded = sorted(r.split(",")[0] for r in rows)
        check(g.returncode == 0 and graded == ["alice", "bob", "carol"] and
              "sleep: 2 (alice 1)" in open(os.path.join(gout, "from-server", "alice.cu")).read(),
              "grade --from-server grades each student's latest Check (%s; exit %d %s)" % (graded, g.returncode, g.stderr[-200:]))
    finally:
        srv.stop()
    return links, data


def test_load(exe, out, students, seconds):
    srv, data = class_server(exe, out, "load", "".join("s%03d,Student %d\n" % (k, k) for k in range(students)),
                             extra=["--gpus", "0,1,2,3"])
    try:
        links = srv.links()
        lat, errors = [], []
        lock = threading.Lock()
        end = time.monotonic() + seconds

        def student(k):
            tok = links["s%03d" % k][1]
            rnd = random.Random(k)
            while time.monotonic() < end:
                t0 = time.monotonic()
                st, j = request(srv.base, "/api/submit", tok, {"exercise": "first_add", "kind": "check",
                                                              "source": source("// student %d %f" % (k, rnd.random()))})
                if st != 202:
                    with lock:
                        errors.append(st)
                    time.sleep(1)
                    continue
                s = wait_done(srv.base, tok, j["id"], timeout=120)
                with lock:
                    if s:
                        lat.append(time.monotonic() - t0)
                    else:
                        errors.append("lost %d" % j["id"])
                time.sleep(rnd.uniform(0.5, 2.0))
        threads = [threading.Thread(target=student, args=(k,)) for k in range(students)]
        for t in threads:
            t.start()
        for t in threads:
            t.join()
        lat.sort()
        st, stats = request(srv.base, "/api/stats", links["instructor"][1])
        p = lambda q: lat[min(len(lat) - 1, int(q * len(lat)))] if lat else float("nan")
        print("figure: load: %d students for %d s on loopback, 4 workers of the test double: %d results, "
              "submission-to-result p50 %.2f s, p95 %.2f s; server time per request p50 %.2f ms, p95 %.2f ms "
              "(%d requests); %d submissions refused by the per-student limits (429), %d other errors" % (
                  students, seconds, len(lat), p(0.5), p(0.95), stats["server"]["p50_ms"], stats["server"]["p95_ms"],
                  stats["server"]["requests"], errors.count(429), len([e for e in errors if e != 429])), flush=True)
        check(lat and not [e for e in errors if e != 429], "load: no result lost and no error but the limits' 429 (%d results)" % len(lat))
    finally:
        srv.stop()


def test_pages(exe, out, chromium):
    srv, data = class_server(exe, out, "pages", "alice,Alice A\nbob,Bob B\n")
    browsers = []
    try:
        links = srv.links()
        b = Browser(chromium, out)
        browsers.append(b)
        # A 1280x720 screen: the screenshots are that size, as a student's laptop or a projector shows the page.
        b.call("Emulation.setDeviceMetricsOverride", width=1280, height=720, deviceScaleFactor=1, mobile=False)

        def goto(url):
            b.events.clear()
            b.call("Page.navigate", url=url)
            return wait_for(lambda: b.eval("document.readyState") == "complete", "the page")

        def state():
            return b.eval("window.rsServe ? window.rsServe.state() : null")

        goto(links["alice"][0])
        check(wait_for(lambda: b.eval("!!document.querySelector('.CodeMirror') && window.rsServe.state().me !== null"),
                       "the editor"), "alice's page opens with the CodeMirror editor")
        check(wait_for(lambda: "user_kernel" in b.eval("document.querySelector('.CodeMirror').CodeMirror.getValue()"),
                       "the starting file"), "it starts from the exercise's starting file")
        b.eval("document.getElementById('exercise').value = 'first_add'")
        b.eval("document.querySelector('.CodeMirror').CodeMirror.setValue('int a;\\nint b;\\nint c;\\nSYNTAX_ERROR x;\\n')")
        b.click("#check")
        marked = wait_for(lambda: b.eval("(function(){var c=document.querySelector('.CodeMirror').CodeMirror;"
                                         "var i=c.lineInfo(3); return i && (i.bgClass||'').indexOf('cm-error-line')>=0;})()"),
                          "the error line's mark")
        check(marked, "the compile error is marked at its line (line 4) in the editor")
        check(wait_for(lambda: "line 4" in b.eval("document.getElementById('diagnostics').textContent"), "the list"),
              "the error is listed with its line")
        b.screenshot(os.path.join(out, "serve-compile-error.png"))
        b.eval("document.querySelector('.CodeMirror').CodeMirror.setValue(%s)" % json.dumps(source("// fixture: first_add-right-h200-old")))
        b.click("#check")
        rows = wait_for(lambda: b.eval("document.querySelectorAll('#checks tr').length") == 3, "the checks' rows")
        check(rows, "a check's verdict comes back as a table of its 3 checks")
        check(b.eval("document.querySelectorAll('#checks td.pass').length") == 3, "each check ticked")
        check(b.eval("document.querySelector('.CodeMirror').CodeMirror.lineInfo(3) === null || "
                     "(document.querySelector('.CodeMirror').CodeMirror.lineInfo(3).bgClass||'').indexOf('cm-error') < 0"),
              "the error mark is gone with the error")
        b.screenshot(os.path.join(out, "serve-check.png"))
        errs = b.errors()
        check(not errs, "no JavaScript error on the student's page (%s)" % errs[:3])
        # Bob's page: his own list only.
        goto(links["bob"][0])
        check(wait_for(lambda: b.eval("window.rsServe.state().me && window.rsServe.state().me.id") == "bob" and
                       b.eval("!!document.querySelector('.CodeMirror')"), "bob"), "bob's page is his")
        check(b.eval("window.rsServe.state().mine.length") == 0, "bob's page lists none of alice's submissions")
        b.eval("document.querySelector('.CodeMirror').CodeMirror.setValue(%s)" % json.dumps(source("// sleep: 1")))
        b.eval("document.getElementById('exercise').value = 'first_add'")
        # The instructor's page, live: bob's run arrives while it is open.
        i = Browser(chromium, out)
        browsers.append(i)
        i.call("Emulation.setDeviceMetricsOverride", width=1280, height=720, deviceScaleFactor=1, mobile=False)
        i.call("Page.navigate", url=links["instructor"][0])
        check(wait_for(lambda: i.eval("document.querySelectorAll('#class tr').length") == 3, "the class table"),
              "the instructor's page lists the class (2 students)")
        b.click("#check")
        live = wait_for(lambda: "3 of 3" in i.eval("document.querySelector('#class tr[data-student=bob]').textContent"),
                        "bob's verdict on the instructor's page", timeout=30)
        check(live, "bob's verdict reaches the instructor's page live")
        check("3 of 3" in i.eval("document.querySelector('#class tr[data-student=alice]').textContent"),
              "alice's latest verdict is there too")
        i.screenshot(os.path.join(out, "serve-instructor.png"))
        # A Run comes back with its trace, drawn by the exported page's own views in a frame.
        b.eval("document.getElementById('exercise').value = 'first_add'")
        b.eval("document.querySelector('.CodeMirror').CodeMirror.setValue(%s)" % json.dumps(source("// run me")))
        b.click("#run")
        drawn = wait_for(lambda: b.eval("(function(){var f=document.getElementById('trace-frame'); try {"
                                        "var s=f.contentWindow.rs && f.contentWindow.rs.state && f.contentWindow.rs.state();"
                                        "return !!(s && f.contentDocument.querySelector('canvas'));} catch(e) {return false;}})()"),
                         "the trace's page in its frame", timeout=60)
        check(drawn, "a Run's trace opens in the page's own views (the export's page, in a frame)")
        check("N = 4097, 256 threads" in (b.eval("document.getElementById('trace-note').textContent") or ""),
              "the trace says which block, N and block size")
        b.eval("document.getElementById('trace').scrollIntoView()")
        b.screenshot(os.path.join(out, "serve-run-trace.png"))
        b.eval("window.scrollTo(0, 0)")
        owner = b.eval("window.rsServe.state().me.id")  # this page is bob's here
        stranger = "alice" if owner == "bob" else "bob"
        st, other = request(srv.base, "/api/submissions/%d/trace.html" % b.eval("window.rsServe.state().current.id"),
                            links[stranger][1])
        check(st == 404, "another student cannot open that trace (404; %s %s)" % (st, str(other)[:100]))
        # Chinese: the checks' words from their ids (check --json recorded on the H100, with "said").
        goto(links["alice"][0])
        wait_for(lambda: b.eval("!!document.querySelector('.CodeMirror') && !!window.rsServe.state().current"),
                 "the editor with alice's last submission")
        b.eval("document.getElementById('exercise').value = 'shuffle'")
        b.eval("document.querySelector('.CodeMirror').CodeMirror.setValue(%s)" %
               json.dumps(source("// fixture: shuffle-wrong_half_mask-h100", "shuffle")))
        b.click("#check")
        english = wait_for(lambda: (lambda t: t if "lanes 16-31 call the shuffle" in t else None)(
            b.eval("document.getElementById('checks').textContent")), "the mask's finding")
        check(english and b.eval("document.querySelectorAll('#checks tr').length") == 3,
              "the H100's verdict of a half-mask shuffle: 3 checks, the mask's finding said from its ids")
        b.click("#lang")
        zh = wait_for(lambda: re.search(u"[\u4e00-\u9fff]", b.eval("document.getElementById('check').textContent") or ""),
                      "the page in Chinese")
        check(zh, "the page switches to Chinese (the catalogue's words)")
        text = wait_for(lambda: (lambda t: t if re.search(u"[\u4e00-\u9fff]", t) else None)(
            b.eval("document.getElementById('checks').textContent")), "the checks in Chinese")
        check(text and "lanes 16-31 call" not in text and "16-31" in text and "0x0000ffff" in text,
              "the checks are said in Chinese from their ids, the figures kept (%s)" % (text or "")[:120])
        b.screenshot(os.path.join(out, "serve-check-zh.png"))
        b.click("#lang")
    finally:
        for x in browsers:
            x.close()
        srv.stop()


def test_room(exe, out, chromium):
    """Peer instruction (issue 56): the instructor's page and three students' pages in Chromium."""
    import sqlite3
    srv, data = class_server(exe, out, "room", "ann,Ann\nben,Ben\ncy,Cy\ndee,Dee\n")
    pages = {}
    try:
        links = srv.links()

        def page(who):
            b = Browser(chromium, out)
            pages[who] = b
            b.call("Emulation.setDeviceMetricsOverride", width=1280, height=720, deviceScaleFactor=1, mobile=False)
            b.call("Page.navigate", url=links[who][0])
            wait_for(lambda: b.eval("document.readyState") == "complete", who + "'s page")
            return b
        inst = page("instructor")
        check(wait_for(lambda: inst.eval("document.querySelectorAll('#room-lesson option').length") > 3, "the lessons"),
              "the instructor's page lists the lessons the session answers")
        studs = [page(w) for w in ("ann", "ben", "cy")]
        check(wait_for(lambda: inst.eval("(window.rsServe.state().room||{}).present") == 3, "3 present"),
              "the instructor's page counts the 3 students present")
        inst.eval("document.getElementById('room-lesson').value = 'harris'")
        inst.click("#room-open")
        for b, who in zip(studs, ("ann", "ben", "cy")):
            check(wait_for(lambda: "lanes of warp 0" in (b.eval("document.getElementById('room-ask').textContent") or ""),
                           who + "'s question"), "%s's page shows the question at once" % who)
        st, j = request(srv.base, "/api/room", links["ann"][1])
        check(st == 200 and "key" not in j and "key" not in j["question"], "a student's page is not given the key before the reveal")
        key = inst.eval("window.rsServe.state().room.key")
        check(key == "16", "the question's key comes from the trace (reduce0, 256 threads, step 1: 16 lanes; %s)" % key)

        def answer(b, value, vote=1):
            wait_for(lambda: b.eval("!!document.getElementById('room-answer') && "
                                    "document.getElementById('room-input').dataset.poll === '1/%d'" % vote),
                     "the answer box of vote %d" % vote)
            # A real click; again if the page had not drawn its box where the click landed (a loaded machine), until
            # the page says the answer was taken.
            for attempt in range(3):
                b.eval("document.getElementById('room-answer') && (document.getElementById('room-answer').value = %s)"
                       % json.dumps(value))
                b.click("#room-send")
                if wait_for(lambda: ("Your answer: " + value) in (b.eval("document.getElementById('room-status').textContent") or ""),
                            "the answer taken", timeout=5):
                    return
            check(False, "the answer %s was taken by the page (%s)" % (value, b.eval("document.getElementById('error').textContent")))
        answer(studs[0], "8")
        answer(studs[1], "8")
        answer(studs[2], "16")

        def bars(vote):
            return inst.eval("Array.prototype.map.call(document.querySelectorAll('.vote[data-vote=\"%d\"] .bar'),"
                             "function(b){return b.dataset.answer+':'+b.dataset.count;}).sort().join(' ')" % vote)
        check(wait_for(lambda: bars(1) == "16:1 8:2", "the first vote's bars", timeout=10),
              "the distribution shows 2 and 1 (%s)" % bars(1))
        inst.screenshot(os.path.join(out, "room-first-vote.png"))
        check("3 of 3" in inst.eval("document.getElementById('room-dist').textContent"), "3 of 3 present answered")
        st, j = request(srv.base, "/api/room/answer", links["ann"][1],
                        {"poll": 1, "vote": 1, "numbers": [16]})
        check(st == 409, "a second answer to the same vote is refused (409: %s)" % j.get("error"))
        # A page that reconnects shows the answer given, not a new box.
        studs[0].call("Page.reload")
        check(wait_for(lambda: "Your answer: 8" in (studs[0].eval("document.getElementById('room-status').textContent") or ""),
                       "ann's answer after a reload"), "a page that reconnects shows its answer and does not vote again")
        inst.click("#room-vote2")
        for b in studs:
            answer(b, "16", vote=2)
        check(wait_for(lambda: bars(2) == "16:3", "the second vote's bars", timeout=10) and bars(1) == "16:1 8:2",
              "the second vote beside the first (%s | %s)" % (bars(1), bars(2)))
        inst.click("#room-reveal")
        for b, who, right in zip(studs, ("ann", "ben", "cy"), (True, True, True)):
            check(wait_for(lambda: "The answer: 16" in (b.eval("document.getElementById('room-status').textContent") or ""),
                           who + "'s reveal"), "the reveal reaches %s's page" % who)
        late = page("dee")
        check(wait_for(lambda: "The answer: 16" in (late.eval("document.getElementById('room-status').textContent") or ""),
                       "the late joiner"), "a late joiner sees the room's question and its answer")
        inst.screenshot(os.path.join(out, "room-reveal.png"))
        # The projector: Chinese, and the page at scale 1.5 (a 1280x720 projector at 150%).
        inst.click("#lang")
        zh = wait_for(lambda: (lambda t: t if re.search(u"[\u4e00-\u9fff]", t) and "16" in t else None)(
            inst.eval("document.getElementById('room').textContent")), "the room in Chinese")
        check(zh and "lanes of warp" not in zh, "the room's question and reveal in Chinese on the instructor's page")
        inst.screenshot(os.path.join(out, "room-reveal-zh.png"))
        inst.call("Emulation.setDeviceMetricsOverride", width=853, height=480, deviceScaleFactor=1.5, mobile=False)
        inst.screenshot(os.path.join(out, "room-reveal-zh-1.5x.png"))
        inst.click("#lang")
        rows = sqlite3.connect(os.path.join(data, "class.sqlite")).execute(
            "SELECT student, vote, answer, correct FROM answers ORDER BY vote, student").fetchall()
        check(len(rows) == 6 and sum(r[3] for r in rows) == 4, "the store holds the 6 answers, 4 right (%s)" % rows)
        rep = subprocess.run([exe, "lesson-report", "--from-server", data, "--csv", os.path.join(out, "room-report.csv")],
                             capture_output=True, text=True)
        check(rep.returncode == 0 and "8 (2 students)" in rep.stdout and "the trace's answer 16" in rep.stdout,
              "lesson-report --from-server: the misconception (8, 2 students) beside the trace's answer 16")
        errs = [e for b in pages.values() for e in b.errors()]
        check(not errs, "no JavaScript error on the room's pages (%s)" % errs[:3])
    finally:
        for b in pages.values():
            b.close()
        srv.stop()


def test_room_load(exe, out, students, seconds):
    """A room of N (300): every student's page holds the event stream open, and answers at a random moment within
    S seconds; the instructor's page follows the events. Figures: how long after each answer the instructor's
    distribution counted it (p50/p95), and after the last answer until it was complete; no answer lost or counted
    twice."""
    import http.client
    srv, data = class_server(exe, out, "room-load", "".join("r%03d,Student %d\n" % (k, k) for k in range(students)))
    stop = threading.Event()
    try:
        links = srv.links()
        host, port = srv.base.replace("http://", "").split(":")

        def stream(token, on_event=None):
            c = http.client.HTTPConnection(host, int(port), timeout=60)
            c.request("GET", "/api/events?token=" + token)
            r = c.getresponse()
            while not stop.is_set():
                line = r.fp.readline()
                if not line:
                    break
                if on_event and line.startswith(b"event: room"):
                    on_event()
            c.close()
        streams = [threading.Thread(target=stream, args=(links["r%03d" % k][1],), daemon=True) for k in range(students)]
        for t in streams:
            t.start()
        ti = links["instructor"][1]
        present = wait_for(lambda: request(srv.base, "/api/room", ti)[1].get("present") == students, "every page's stream",
                           timeout=60)
        check(present, "%d students' event streams open at once" % students)
        st, j = request(srv.base, "/api/room/open", ti, {"lesson": "harris"})
        poll = j["poll"]
        seen = []  # (time, answers counted) as the instructor's page saw them
        lock = threading.Lock()

        def on_room():
            st, j = request(srv.base, "/api/room", ti)
            with lock:
                seen.append((time.monotonic(), j["votes"][-1]["answers"]))
        threading.Thread(target=stream, args=(ti, on_room), daemon=True).start()
        time.sleep(0.5)
        acked, statuses = [], []
        t0 = time.monotonic()

        def answer(k):
            rnd = random.Random(k)
            time.sleep(rnd.uniform(0, seconds))
            st, j = request(srv.base, "/api/room/answer", links["r%03d" % k][1],
                            {"poll": poll, "vote": 1, "numbers": [rnd.choice([8, 16, 16, 32])]})
            with lock:
                statuses.append(st)
                if st == 200:
                    acked.append(time.monotonic())
        ts = [threading.Thread(target=answer, args=(k,)) for k in range(students)]
        for t in ts:
            t.start()
        for t in ts:
            t.join()
        last = max(acked) if acked else t0
        done = wait_for(lambda: any(n == students for _, n in list(seen)), "the complete distribution", timeout=10)
        acked.sort()
        with lock:
            views = sorted(seen)
        lat = []
        for i, ta in enumerate(acked):  # the i-th answer is counted when the instructor first sees i+1 answers
            tv = next((tv for tv, n in views if n >= i + 1 and tv >= ta - 0.001), None)
            if tv is not None:
                lat.append(tv - ta)
        lat.sort()
        complete_at = next((tv for tv, n in views if n == students), None)
        st, j = request(srv.base, "/api/room", ti)
        counted = j["votes"][-1]["answers"]
        p = lambda q: lat[min(len(lat) - 1, int(q * len(lat)))] if lat else float("nan")
        print("figure: room: %d students answering within %d s on loopback (every page's event stream open): "
              "the instructor's distribution counted each answer after p50 %.3f s, p95 %.3f s; complete %.3f s "
              "after the last answer's reply (0: before its student read it)" % (students, seconds, p(0.5), p(0.95),
                                          max(0.0, complete_at - last) if complete_at else float("nan")), flush=True)
        check(done and counted == students and statuses.count(200) == students,
              "no answer lost or counted twice (%d acknowledged, %d counted)" % (statuses.count(200), counted))
        check(lat and p(0.95) < 1.0, "the distribution complete within 1 s of the answers (p95 %.3f s)" % p(0.95))
    finally:
        stop.set()
        srv.stop()


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--reducescope", required=True)
    ap.add_argument("--out", required=True)
    ap.add_argument("--chromium", default=shutil.which("chromium") or shutil.which("chromium-browser"))
    ap.add_argument("--load-students", type=int, default=50)
    ap.add_argument("--load-seconds", type=int, default=60)
    ap.add_argument("--only", choices=["api", "load", "pages", "room", "roomload"])
    ap.add_argument("--room-students", type=int, default=300)
    a = ap.parse_args()
    os.makedirs(a.out, exist_ok=True)
    if a.only in (None, "api"):
        test_api(a.reducescope, a.out)
    if a.only in (None, "pages"):
        if a.chromium:
            test_pages(a.reducescope, a.out, a.chromium)
        else:
            check(False, "Chromium is missing (scripts/setup.sh installs it)")
    if a.only in (None, "room"):
        test_room(a.reducescope, a.out, a.chromium)
    if a.only in (None, "roomload"):
        test_room_load(a.reducescope, a.out, a.room_students, 10)
    if a.only in (None, "load"):
        test_load(a.reducescope, a.out, a.load_students, a.load_seconds)
    if FAILURES:
        print("%d failed:\n  " % len(FAILURES) + "\n  ".join(FAILURES))
        return 1
    print("serve_test: every check passed")
    return 0


if __name__ == "__main__":
    sys.exit(main())
