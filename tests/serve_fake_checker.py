#!/usr/bin/env python3
"""Test double of `reducescope check` for tests/serve_test.py (no GPU in CI): serve runs it as --checker.

It never runs a kernel. It answers as check would, from recorded output:
  - a line containing SYNTAX_ERROR: "kernel.cu:LINE:COL: error: ..." at that line, exit 2 (as NVRTC's diagnostics);
  - "// sleep: S": waits S seconds after "compiling" (a kernel that takes its time on the GPU);
  - "// hang": never ends (the server's wall limit stops it);
  - with --json: the check --json recorded on a GPU named by "// fixture: NAME" (tests/fixtures/serve/NAME.json;
    default first_add-right-h200-old.json, recorded on the H200 before check --json carried ids);
  - without --json: one line of sums, as check gives them;
  - `trace --kernel-file FILE --out OUT`: a trace recorded on the H200 (tests/fixtures/binary/shuffle.rstrace).
The product never uses it: only the test passes --checker.
"""
import os
import re
import sys
import time

HERE = os.path.dirname(os.path.abspath(__file__))


def trace(argv):
    """`trace --kernel-file FILE ... --out OUT`: the binary tracer's trace of a shuffle reduction recorded on the
    H200 (tests/fixtures/binary/shuffle.rstrace), as the trace of any file."""
    out = argv[argv.index("--out") + 1]
    src = open(argv[argv.index("--kernel-file") + 1], encoding="utf-8", errors="replace").read()
    if "// no trace" in src:
        print("reducescope trace: the Compute Sanitizer API is not here (test double)", file=sys.stderr)
        return 1
    with open(os.path.join(HERE, "fixtures", "binary", "shuffle.rstrace"), "rb") as f, open(out, "wb") as g:
        g.write(f.read())
    return 0


def main(argv):
    if len(argv) > 1 and argv[1] == "trace":
        return trace(argv)
    if len(argv) < 3 or argv[1] != "check":
        print("serve_fake_checker: expected `check FILE ...`", file=sys.stderr)
        return 2
    path = argv[2]
    name = os.path.basename(path)
    src = open(path, encoding="utf-8", errors="replace").read()
    for i, line in enumerate(src.split("\n"), 1):
        col = line.find("SYNTAX_ERROR")
        if col >= 0:
            print("%s:%d:%d: error: identifier \"SYNTAX_ERROR\" is undefined" % (path, i, col + 1), file=sys.stderr)
            print("%s: does not compile" % path, file=sys.stderr)
            return 2
    print("%s: OK: NVRTC 12.9 compiled it (plain CUDA: the binary tracer traces it as compiled) for sm_90" % path,
          file=sys.stderr, flush=True)
    if "// hang" in src:
        while True:
            time.sleep(1)
    m = re.search(r"// sleep: ([0-9.]+)", src)
    if m:
        time.sleep(float(m.group(1)))
    if "--compile-only" in argv:
        return 0
    if "--json" in argv:
        m = re.search(r"// fixture: ([A-Za-z0-9_.-]+)", src)
        fixture = (m.group(1) if m else "first_add-right-h200-old") + ".json"
        text = open(os.path.join(HERE, "fixtures", "serve", fixture), encoding="utf-8").read()
        sys.stdout.write(text)
        return 0 if '"passed": true' in text else 1
    print("  int32  N = 1000003  B = 256  1 launch  right: 1000003")
    print("%s: all 60 sums right on the GPU (sm_90)" % path)
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv))
