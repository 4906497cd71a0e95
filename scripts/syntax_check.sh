#!/usr/bin/env bash
# Compiles the given C++ files for syntax and types only (-fsyntax-only), with the flags of a configured build
# tree (compile_commands.json; default build90), without touching that tree's ninja state: safe to run beside
# a build. Usage: scripts/syntax_check.sh [-B BUILD_DIR] FILE.cpp...
set -euo pipefail
cd "$(dirname "$0")/.."
build=build90
if [ "${1:-}" = -B ]; then build=$2; shift 2; fi
for f in "$@"; do
  python3 - "$build/compile_commands.json" "$(realpath "$f")" <<'PY' | bash
import json, shlex, sys
db, f = json.load(open(sys.argv[1])), sys.argv[2]
for e in db:
    if e["file"] == f:
        args = shlex.split(e["command"])
        out, skip = [], False
        for a in args:
            if skip: skip = False; continue
            if a == "-o": skip = True; continue
            if a == "-c" or a.startswith("-MF") or a in ("-MD", "-MT", "-MMD"): continue
            out.append(a)
        if out[0].endswith("ccache"): out = out[1:]
        print("cd %s && %s -fsyntax-only" % (shlex.quote(e["directory"]), " ".join(shlex.quote(a) for a in out)))
        break
else:
    print("echo 'syntax_check: %s is not in %s' >&2; exit 1" % (f, sys.argv[1]))
PY
done
