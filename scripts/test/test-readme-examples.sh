#!/bin/sh
# test-readme-examples.sh BUILD/bin/dmlref -- every `build/bin/dmlref ...` line of
# the README's code blocks (the front page's examples: show, explain) runs as
# written with the build's dmlref: exit 0 and some output.  Lines naming a
# placeholder (my_backend, yesterday.json) are dmlcts' and not run here.
set -u
B=${1:?usage: test-readme-examples.sh path/to/dmlref}
case $B in /*) ;; *) B=$PWD/$B ;; esac
cd "$(dirname "$0")/../.."
T=$(mktemp -d "${TMPDIR:-/tmp}/test-readme.XXXXXX") || exit 3
trap 'rm -rf "$T"' EXIT INT TERM
# the example lines, their trailing comments dropped, from inside ``` fences only
awk '/^```/ { fence = !fence; next } fence && /^build\/bin\/dmlref / { sub(/[ \t]+#.*$/, ""); print }' \
    README.md >"$T/lines"
n=0 fail=0
while IFS= read -r line; do
    n=$((n + 1))
    eval "\"\$B\" ${line#build/bin/dmlref }" >"$T/out" 2>"$T/err"
    rc=$?
    [ "$rc" -eq 0 ] && [ -s "$T/out" ] ||
        { fail=$((fail + 1)); echo "FAIL: README: $line: exit $rc: $(head -c 300 "$T/err")"; }
done <"$T/lines"
[ "$n" -ge 3 ] || { echo "FAIL: only $n dmlref example(s) found in README.md"; fail=$((fail + 1)); }
[ "$fail" -eq 0 ] && echo "test-readme-examples: the README's $n dmlref examples run"
exit "$fail"
