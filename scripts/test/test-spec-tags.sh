#!/bin/sh
# test-spec-tags.sh -- every rule of SPEC_NOTES.md is cited in code and in a test,
# and every tag cited in the tree is a rule (scripts/check-spec-tags.py); the
# checker itself catches an undefined tag, a rule without code, a rule without a
# test and a stale exemption, and reads ranges (`JOIN-1 .. JOIN-3`, `-1 … -2`).
# Run by `make test`; its argument (the build's dmlref) is not used.
set -u
PY=/usr/bin/python3
cd "$(dirname "$0")/../.."
[ -x "$PY" ] || { echo "test-spec-tags: $PY is missing (scripts/deps.sh installs it)"; exit 1; }
T=$(mktemp -d "${TMPDIR:-/tmp}/test-spec-tags.XXXXXX")
trap 'rm -rf "$T"' EXIT INT TERM
fail=0
mkdir -p "$T/ref/src/test" "$T/goldens/join"
printf -- '- **JOIN-1**: a.\n- **JOIN-2 … -3**: b.\n- **DML-2**: the environment.\n' >"$T/SPEC_NOTES.md"
printf '/* JOIN-1 .. JOIN-3 */\n' >"$T/ref/src/join.c"
printf 'x = 1  # DML-2: exempt from tests\n' >"$T/ref/src/dml.py"
printf '/* JOIN-1 */\n' >"$T/ref/src/test/check_join.c"
printf '{"tags": ["JOIN-2", "JOIN-3"]}\n' >"$T/goldens/join/a.json"
# check: the checker on the small tree, its lines in $T/out
check() {
    $PY scripts/check-spec-tags.py "$T" >"$T/out"
}
check || { echo "FAIL: a consistent tree reported:"; cat "$T/out"; fail=1; }
printf '/* JOIN-4 */\n' >>"$T/ref/src/join.c"
check && { echo "FAIL: an undefined tag passed"; fail=1; }
grep -q 'ref/src/join.c:2: JOIN-4: no such rule' "$T/out" || { echo "FAIL: JOIN-4 not named:"; cat "$T/out"; fail=1; }
printf '/* JOIN-1 */\n' >"$T/ref/src/join.c"
check && { echo "FAIL: rules without code passed"; fail=1; }
grep -q 'JOIN-2: cited in no code file' "$T/out" && grep -q 'JOIN-3: cited in no code file' "$T/out" ||
    { echo "FAIL: the rules without code not named:"; cat "$T/out"; fail=1; }
printf '/* JOIN-1 .. -3 */\n' >"$T/ref/src/join.c"
printf '{}\n' >"$T/goldens/join/a.json"
check && { echo "FAIL: rules without a test passed"; fail=1; }
grep -q 'JOIN-2: cited in no test file' "$T/out" || { echo "FAIL: the rule without a test not named:"; cat "$T/out"; fail=1; }
printf '{"tags": ["JOIN-2", "JOIN-3"]}\n' >"$T/goldens/join/a.json"
printf '/* JOIN-1, DML-2 */\n' >"$T/ref/src/test/check_join.c"
check && { echo "FAIL: a stale exemption passed"; fail=1; }
grep -q 'DML-2: exempt from test' "$T/out" || { echo "FAIL: the stale exemption not named:"; cat "$T/out"; fail=1; }
$PY scripts/check-spec-tags.py . || { echo "FAIL: SPEC_NOTES.md and the tree disagree (above)"; fail=1; }
[ "$fail" -eq 0 ] && echo "test-spec-tags: every rule cited in code and a test, every cited tag a rule; the checker catches all four"
exit "$fail"
