#!/usr/bin/env bash
# Collects every message of the window, the page and the teaching notes with GNU xgettext (keywords _ and N_
# in the C++, t in the page's script and data-t in replay.html) into po/reducescope.pot, and merges it into
# po/zh_CN.po (msgmerge). Usage:
#   po/update.sh           update po/reducescope.pot and po/zh_CN.po (new messages arrive untranslated)
#   po/update.sh --check   change nothing; exit 1 unless every collected message has a translation in
#                          po/zh_CN.po that is neither missing nor fuzzy (msgfmt --statistics), and the
#                          catalogue passes msgfmt --check (formats, header)
set -euo pipefail
cd "$(dirname "$0")/.."
tmp=$(mktemp -d); trap 'rm -rf "$tmp"' EXIT
cxx=(app/*.cpp app/*.hpp app/grading/*.cpp app/grading/*.hpp app/lessons/*.cpp app/lessons/*.hpp app/profiling/*.cpp app/profiling/*.hpp app/explain/*.cpp app/explain/*.hpp app/explain/*.def app/serve/*.cpp app/serve/*.hpp app/gui/*.cpp app/gui/*.hpp app/export/*.cpp app/export/*.hpp kernels/*.cpp kernels/*.hpp tracing/*.cpp tracing/*.hpp)
common=(--from-code=UTF-8 --no-wrap --add-location=file --sort-by-file --package-name=ReduceScope --msgid-bugs-address=none)
xgettext "${common[@]}" -L C++ -k_ -kN_ -o "$tmp/cxx.pot" "${cxx[@]}"
xgettext "${common[@]}" -L JavaScript -kt -o "$tmp/js.pot" web/js/*.js web/serve/*.js
# replay.html: each data-t, data-t-html and data-t-title value as a JavaScript call so xgettext reads it (in a file
# named web/replay.html under $tmp, so the catalogue's locations name the page).
mkdir -p "$tmp/web"
grep -o 'data-t\(-html\|-title\)\?="[^"]*"' web/replay.html | sed 's/^data-t[a-z-]*=\(.*\)$/t(\1);/' > "$tmp/web/replay.html" || true
(cd "$tmp" && xgettext "${common[@]}" -L JavaScript -kt -o html.pot web/replay.html)
pots=()
for p in "$tmp"/cxx.pot "$tmp"/js.pot "$tmp"/html.pot; do [ -s "$p" ] && pots+=("$p"); done
msgcat --no-wrap --use-first -o "$tmp/all.pot" "${pots[@]}"
if [ "${1:-}" = --check ]; then
  msgfmt --check -o /dev/null po/zh_CN.po
  msgmerge --quiet --no-wrap --no-fuzzy-matching -o "$tmp/merged.po" po/zh_CN.po "$tmp/all.pot"
  stats=$(LC_ALL=C msgfmt --statistics -o /dev/null "$tmp/merged.po" 2>&1)
  echo "po/zh_CN.po against the sources' messages: $stats"
  if grep -Eq "untranslated|fuzzy" <<<"$stats"; then
    echo "untranslated or fuzzy messages (run po/update.sh, then translate them in po/zh_CN.po):"
    msgattrib --untranslated --only-fuzzy --no-wrap "$tmp/merged.po" 2>/dev/null | grep '^msgid' | head -20 || true
    msgattrib --untranslated --no-wrap "$tmp/merged.po" | grep '^msgid' | grep -v '^msgid ""$' | head -40
    exit 1
  fi
  exit 0
fi
cp "$tmp/all.pot" po/reducescope.pot
if [ -f po/zh_CN.po ]; then
  msgmerge --quiet --update --backup=none --no-wrap --no-fuzzy-matching po/zh_CN.po po/reducescope.pot
  msgattrib --no-wrap --no-obsolete -o po/zh_CN.po po/zh_CN.po  # messages no source holds any more go
else
  msginit --no-translator --no-wrap -l zh_CN.UTF-8 -i po/reducescope.pot -o po/zh_CN.po
fi
LC_ALL=C msgfmt --statistics -o /dev/null po/zh_CN.po
