#!/usr/bin/python3
"""How long a student's check takes (issue 40: a sum exercise's full check in under 3 s on the H100).

For each exercise, one right file of the corpus in plain CUDA and, where the corpus has one, one that includes CUB or
cooperative groups (tests/fixtures/user/corpus/), runs `reducescope check FILE --exercise NAME` RUNS times, one after
another on an idle GPU, and prints the whole command's wall time (process start to exit: compiling with NVRTC, the
sums against the CPU, the traces, the timing) as median (min-max), with the check's own split of one run. Each run
must pass (exit 0); a run that does not is printed and the benchmark exits 1. Figures only; no time is asserted
(docs/grading.md's figures come from here). Needs a CUDA GPU.

  /usr/bin/python3 bench/check_time.py --reducescope build/reducescope [--runs 5] [--only KIND] [--compare NAME=VALUE]...

--only KIND keeps the files of that kind ("CUB/cg", "plain"). --compare NAME=VALUE runs each check again in turn with
the environment variable NAME=VALUE (REDUCESCOPE_WARM_CONTEXT=0, say), and prints the medians of each; given several
times, one more run per value, each with that variable alone.
"""
import argparse
import json
import os
import statistics
import subprocess
import sys
import time

CORPUS = os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "tests", "fixtures", "user", "corpus")
LIBRARY = ("cub", "_cg", "cg_", "cuda_atomic_ref")  # the files whose headers NVRTC takes seconds to compile


def chosen():
    """(exercise, file, kind) for the first right plain file and the first right library file of each exercise."""
    out = []
    seen = set()
    for e in json.load(open(os.path.join(CORPUS, "expected.json"))):
        if not e["right"]:
            continue
        kind = "CUB/cg" if any(m in os.path.basename(e["file"]) for m in LIBRARY) else "plain"
        if e["exercise"] == "histogram":
            kind = "histogram, " + kind  # not a sum: its check is the bins and one timing
        if (e["exercise"], kind) in seen:
            continue
        seen.add((e["exercise"], kind))
        out.append((e["exercise"], e["file"], kind))
    return sorted(out)


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--reducescope", required=True)
    ap.add_argument("--runs", type=int, default=5)
    ap.add_argument("--only", default="", help="only the files of this kind: CUB/cg, plain")
    ap.add_argument("--compare", action="append", default=[],
                    help="NAME=VALUE: each run also with this environment variable set (repeatable)")
    a = ap.parse_args()
    envs = [("", None)]
    for c in a.compare:
        name, _, value = c.partition("=")
        envs.append((c, dict(os.environ, **{name: value})))
    failed = 0
    by_kind = {}
    print("check FILE --exercise NAME, %d runs each: wall time median (min-max); the check's split of its last run" % a.runs)
    for exercise, f, kind in chosen():
        if a.only and kind != a.only:
            continue
        times = {label: [] for label, _ in envs}
        split = ""
        for _ in range(a.runs):
            for label, env in envs:  # in turn, so that a slow spell of the machine falls on both
                t0 = time.monotonic()
                p = subprocess.run([a.reducescope, "check", os.path.join(CORPUS, f), "--exercise", exercise],
                                   capture_output=True, text=True, env=env)
                times[label].append(time.monotonic() - t0)
                if p.returncode != 0:
                    failed += 1
                    print("  FAILED (exit %d): %s\n%s" % (p.returncode, f, (p.stdout + p.stderr)[-800:]))
                if not label:
                    split = next((l.strip() for l in p.stdout.splitlines() if l.strip().startswith("(time:")), split)
        for label, ts in times.items():
            by_kind.setdefault((kind, label), []).extend(ts)
            print("  %-16s %-17s %-40s %.2f s (%.2f-%.2f) %s" % (exercise, kind, os.path.basename(f), statistics.median(ts),
                                                            min(ts), max(ts), ("with " + label) if label else split))
    for (kind, label), ts in sorted(by_kind.items()):
        print("%s files%s: %.2f s median (%.2f-%.2f, %d runs)" % (kind, " with " + label if label else "",
                                                               statistics.median(ts), min(ts), max(ts), len(ts)))
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main())
