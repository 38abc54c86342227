#!/bin/sh
# test-doc-links.sh -- every relative link of the checkout's Markdown files
# resolves, #anchors included (scripts/check-doc-links.py), and the checker
# itself catches a missing file and a missing heading and passes GitHub's
# anchors of a repeated heading and of one with punctuation.  Run by `make
# test`; its argument (the build's dmlref) is not used.
set -u
PY=/usr/bin/python3
cd "$(dirname "$0")/../.."
[ -x "$PY" ] || { echo "test-doc-links: $PY is missing (scripts/deps.sh installs it)"; exit 1; }
T=$(mktemp -d "${TMPDIR:-/tmp}/test-doc-links.XXXXXX")
trap 'rm -rf "$T"' EXIT INT TERM
fail=0
printf '# Hello, World!\n\n## Two words\n\n## Two words\n\n' >"$T/a.md"
printf '[a](b.md) [b](#two-words-1) [c](#hello-world) [d](https://example.org/x)\n' >>"$T/a.md"
: >"$T/b.md"
$PY scripts/check-doc-links.py "$T" >"$T/out" ||
    { echo "FAIL: good links reported broken:"; cat "$T/out"; fail=1; }
printf '[e](#nope) [f](gone.md#x)\n' >>"$T/a.md"
$PY scripts/check-doc-links.py "$T" >"$T/out" && { echo "FAIL: broken links passed"; fail=1; }
grep -q 'a.md:8: #nope: no heading' "$T/out" && grep -q 'a.md:8: gone.md#x: no such file' "$T/out" ||
    { echo "FAIL: the broken links not named:"; cat "$T/out"; fail=1; }
$PY scripts/check-doc-links.py . || { echo "FAIL: broken links in the checkout (above)"; fail=1; }
[ "$fail" -eq 0 ] && echo "test-doc-links: every Markdown link resolves; the checker catches both kinds"
exit "$fail"
