#!/usr/bin/env python3
"""A simulated class against `reducescope serve` on the GPU machine (issue 55's done-when; stdlib only).

Each of the links' students submits one kernel file (right and wrong exercise files of tests/fixtures/user/corpus,
one per student in turn) as a Check every EVERY seconds for MINUTES minutes, first at a random moment of the first
period, and waits for its verdict. Every verdict is compared with `check --json` of that file run alone before
(REF/NAME.json): the same checks passed and failed. At KILL seconds one running worker process (a `check` of
RUNS/ID/kernel.cu) is killed with SIGKILL: that run alone must end without a verdict, and every other one have
its verdict. Prints the figures (submission-to-result p50/p95/max, per-minute throughput) and the mismatches.

usage: serve_class.py --base URL --links DATA/links.txt --files LIST --ref DIR [--minutes 3] [--every 30]
                      [--kill 60] [--out FILE.json]
LIST: lines "EXERCISE PATH".
"""
import argparse
import json
import os
import random
import signal
import threading
import time
import urllib.error
import urllib.request


def request(base, path, token, body=None):
    data = json.dumps(body).encode() if body is not None else None
    req = urllib.request.Request(base + path, data=data, method="POST" if data else "GET")
    req.add_header("Authorization", "Bearer " + token)
    if data:
        req.add_header("Content-Type", "application/json")
    try:
        with urllib.request.urlopen(req, timeout=60) as r:
            return r.status, json.loads(r.read().decode())
    except urllib.error.HTTPError as e:
        try:
            return e.code, json.loads(e.read().decode())
        except ValueError:
            return e.code, {}


def verdict(check_json):
    return [(c.get("name"), bool(c.get("pass")), c.get("ran", True) is not False) for c in check_json.get("checks", [])]


def running_workers():
    """pid -> submission id of the `check RUNS/ID/kernel.cu` processes that the server started (not the worker that
    check starts of itself, whose parent is a check too)."""
    out, parent = {}, {}
    for pid in os.listdir("/proc"):
        if not pid.isdigit():
            continue
        try:
            args = open("/proc/%s/cmdline" % pid, "rb").read().split(b"\0")
        except OSError:
            continue
        if len(args) > 2 and args[1] == b"check" and args[2].endswith(b"/kernel.cu") and b"/runs/" in args[2]:
            try:
                out[int(pid)] = int(args[2].split(b"/")[-2])
                parent[int(pid)] = int(open("/proc/%s/stat" % pid).read().rsplit(")", 1)[1].split()[1])
            except (ValueError, OSError):
                pass
    return {p: s for p, s in out.items() if parent.get(p) not in out}


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--base", required=True)
    ap.add_argument("--links", required=True)
    ap.add_argument("--files", required=True)
    ap.add_argument("--ref", required=True)
    ap.add_argument("--minutes", type=float, default=3)
    ap.add_argument("--every", type=float, default=30)
    ap.add_argument("--kill", type=float, default=60)
    ap.add_argument("--out", default="")
    ap.add_argument("--unique", action="store_true",
                    help="every submission a different file (a comment naming it appended), so none is answered from "
                         "the server's reuse of a verdict")
    a = ap.parse_args()
    students = []
    for line in open(a.links):
        parts = line.split()
        if len(parts) >= 2 and "/s/" in parts[0]:
            students.append((parts[1], parts[0].rsplit("/", 1)[1]))
    files = [l.split() for l in open(a.files) if l.strip()]
    ref = {}
    for ex, path in files:
        name = os.path.basename(path)[:-3]
        ref[path] = verdict(json.load(open(os.path.join(a.ref, ex + "-" + name + ".json"))))
    lock = threading.Lock()
    results, mismatches, errors, killed = [], [], [], {}
    t_start = time.monotonic()
    end = t_start + a.minutes * 60

    def student(k, sid, token):
        ex, path = files[k % len(files)]
        src = open(path).read()
        rnd = random.Random(k)
        next_at = t_start + rnd.uniform(0, a.every)
        while next_at < end:
            time.sleep(max(0, next_at - time.monotonic()))
            t0 = time.monotonic()
            body = src + ("\n// submission at %.3f of %s\n" % (t0, sid) if a.unique else "")
            st, j = request(a.base, "/api/submit", token, {"exercise": ex, "kind": "check", "source": body})
            if st != 202:
                with lock:
                    errors.append("%s: submit %d %s" % (sid, st, j.get("error")))
                next_at += a.every
                continue
            while True:
                st, s = request(a.base, "/api/submissions/%d" % j["id"], token)
                if st == 200 and s.get("state") == "done":
                    break
                time.sleep(0.1)
            dt = time.monotonic() - t0
            r = s.get("result") or {}
            got = verdict(r.get("check") or {})
            with lock:
                results.append({"student": sid, "id": j["id"], "file": path, "seconds": dt, "at": t0 - t_start,
                                "line": s.get("line"), "end": r.get("end"), "reused": "cached_from" in r})
                if j["id"] in killed.values():
                    pass  # judged below
                elif got != ref[path]:
                    mismatches.append({"id": j["id"], "file": path, "got": got, "want": ref[path], "line": s.get("line")})
            next_at += a.every

    def killer():
        if t_start + a.kill >= end:
            return  # no kill in this run
        time.sleep(max(0, t_start + a.kill - time.monotonic()))
        while time.monotonic() < end:
            w = running_workers()
            if w:
                # The newest: it has just begun (the oldest may be done and not yet reaped, a zombie that a kill
                # does not touch: the first H100 run killed such a one and its verdict came anyway).
                pid, sub = sorted(w.items())[-1]
                time.sleep(0.5)  # mid-run
                try:
                    if open("/proc/%d/stat" % pid).read().rsplit(")", 1)[1].split()[0] == "Z":
                        continue
                    os.kill(pid, signal.SIGKILL)
                    killed[pid] = sub
                    print("killed worker pid %d (submission %d) at %.0f s" % (pid, sub, time.monotonic() - t_start), flush=True)
                except (ProcessLookupError, FileNotFoundError):
                    continue
                return
            time.sleep(0.1)

    threads = [threading.Thread(target=student, args=(k, sid, tok)) for k, (sid, tok) in enumerate(students)]
    kt = threading.Thread(target=killer)
    for t in threads + [kt]:
        t.start()
    for t in threads + [kt]:
        t.join()
    lat = sorted(r["seconds"] for r in results if r["id"] not in killed.values())
    q = lambda p: lat[min(len(lat) - 1, int(p * len(lat)))] if lat else float("nan")
    print("class: %d students, every %.0f s for %.1f min: %d verdicts; submission-to-result median %.2f s, p95 %.2f s, "
          "max %.2f s" % (len(students), a.every, a.minutes, len(lat), q(0.5), q(0.95), lat[-1] if lat else float("nan")))
    for pid, sub in killed.items():
        r = [x for x in results if x["id"] == sub]
        print("the killed run %d: %s" % (sub, r[0]["line"] if r else "no verdict recorded"))
    print("verdicts equal to check's alone: %d of %d; %d of them the server's reuse of an earlier verdict of the same file"
          % (len(lat) - len(mismatches), len(lat), sum(1 for r in results if r.get("reused"))))
    fresh = sorted(r["seconds"] for r in results if not r.get("reused") and r["id"] not in killed.values())
    if fresh:
        print("checks run (not reused): %d, submission-to-result median %.2f s, p95 %.2f s" %
              (len(fresh), fresh[len(fresh) // 2], fresh[min(len(fresh) - 1, int(0.95 * len(fresh)))]))
    for m in mismatches:
        print("MISMATCH %s" % json.dumps(m))
    for e in errors:
        print("ERROR " + e)
    if a.out:
        json.dump({"results": results, "mismatches": mismatches, "errors": errors, "killed": killed}, open(a.out, "w"), indent=1)
    return 0 if not mismatches and not errors else 1


if __name__ == "__main__":
    raise SystemExit(main())
