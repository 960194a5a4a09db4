#!/usr/bin/env bash
# chromium_study.sh SYLVA SYLVA_GEN POLICIES — study.html in a real browser:
# headless Chromium (Debian's `chromium`, installed by setup.sh --dev) loads the
# report of a study on CPU workers, takes a screenshot (a PNG, checked), and
# dumps the DOM after its script ran; every policy's bar, the table rows,
# the tree of the best run (with fronts) and the timeline must be in it, the
# table of numbers must fit a 1400 px window (not clipped), the
# page's script must have run (data-ready) and the page must have recorded
# no error (data-errors, set by any script error or console.error), and the
# browser must have logged no console error. Exit 77 (skipped) only when no
# Chromium binary exists at all (and SYLVA_TEST_REQUIRE_ALL, CI's, is not
# set); a browser that exists but fails is a failure. SYLVA_STUDY_SHOT=FILE
# keeps the screenshot.
set -u
sylva=$1 gen=$2 policies=$3
browser=""
for b in chromium chromium-browser google-chrome; do
  if command -v "$b" >/dev/null 2>&1; then browser=$(command -v "$b"); break; fi
done
if [ -z "$browser" ]; then
  # CI (SYLVA_TEST_REQUIRE_ALL set; `setup.sh --dev` installs chromium) runs every test.
  if [ -n "${SYLVA_TEST_REQUIRE_ALL:-}" ]; then
    echo "chromium_study: no chromium on PATH, and SYLVA_TEST_REQUIRE_ALL is set: failed"; exit 1
  fi
  echo "chromium_study: no chromium on PATH (a developer's tool: bash setup.sh --dev installs it): skipped"
  exit 77
fi
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
fails=0 checks=0
ok() { checks=$((checks + 1)); if ! "$@"; then echo "FAIL: $*"; fails=$((fails + 1)); fi; }

"$gen" lap3d7 11 -o "$tmp/a.mtx" >/dev/null
ok "$sylva" study "$tmp/a.mtx" --threads 2 --repeat 2 -o "$tmp/s" -q
flags=(--headless --no-sandbox --disable-gpu --hide-scrollbars --no-first-run --disable-extensions
       --user-data-dir="$tmp/profile" --enable-logging=stderr --v=0)
url="file://$tmp/s/study.html"
timeout 120 "$browser" "${flags[@]}" --window-size=1100,3600 --screenshot="$tmp/shot.png" "$url" \
  >"$tmp/shot.log" 2>&1
ok test -s "$tmp/shot.png"
ok python3 - "$tmp/shot.png" <<'PY'
import struct, sys
data = open(sys.argv[1], "rb").read()
assert data[:8] == b"\x89PNG\r\n\x1a\n", "not a PNG"
w, h = struct.unpack(">II", data[16:24])
assert w >= 1000 and h >= 1000 and len(data) > 20000, (w, h, len(data))
PY
timeout 120 "$browser" "${flags[@]}" --window-size=1400,900 --dump-dom "$url" >"$tmp/dom.html" 2>"$tmp/dom.log"
ok test -s "$tmp/dom.html"
ok python3 - "$tmp/dom.html" "$policies" <<'PY'
import re, sys
dom = open(sys.argv[1], encoding="utf-8").read()
head = re.search(r"<html[^>]*>", dom).group(0)
assert 'data-ready="1"' in head, "the page's script did not run: " + head
assert "data-errors" not in head, "the page recorded errors: " + head
over = re.search(r'data-table-overflow="(-?\d+)"', head)
assert over and int(over.group(1)) <= 0, "the table is clipped in a 1400 px window: " + head
for p in sys.argv[2].split(","):
    assert re.search(r'<rect class="bar[^"]*" id="bar-%s"' % re.escape(p), dom), "no bar for " + p
    assert 'id="row-%s"' % p in dom, "no table row for " + p
tree = re.search(r'<svg id="tree-best".*?</svg>', dom, re.S)
assert tree and tree.group(0).count('class="front"') >= 1, "no tree with fronts"
assert 'id="timeline-best"' in dom, "no timeline"
print("DOM: bars for %s, tree with %d fronts" % (sys.argv[2], tree.group(0).count('class="front"')))
PY
# Console errors as Chromium logs them (--enable-logging=stderr).
ok bash -c "! grep -h 'CONSOLE' '$tmp/shot.log' '$tmp/dom.log' | grep -iE 'error|uncaught'"
[ -n "${SYLVA_STUDY_SHOT:-}" ] && cp "$tmp/shot.png" "$SYLVA_STUDY_SHOT"
echo "chromium_study: $checks checks, $fails failures"
[ "$fails" = 0 ]
