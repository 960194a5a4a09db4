#!/usr/bin/env bash
# study-shot.sh STUDY.HTML OUT.PNG [WIDTHxHEIGHT] — a screenshot of a
# `sylva study` report with headless Chromium (the page is self-contained:
# it loads nothing). Default size 1100x3600 (the whole report of a few
# runs). Exits non-zero when there is no chromium or no image came out.
set -eu
html=$(cd "$(dirname "$1")" && pwd)/$(basename "$1")
size=${3:-1100x3600}
browser=$(command -v chromium || command -v chromium-browser || command -v google-chrome) || {
  echo "study-shot: no chromium (apt-get install chromium)" >&2; exit 1; }
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
timeout 120 "$browser" --headless --no-sandbox --disable-gpu --hide-scrollbars --user-data-dir="$tmp" \
  --window-size="${size/x/,}" --screenshot="$tmp/shot.png" "file://$html" > /dev/null 2>&1 || true
[ -s "$tmp/shot.png" ] || { echo "study-shot: chromium made no image of $html" >&2; exit 1; }
cp "$tmp/shot.png" "$2"
echo "study-shot: $2"
