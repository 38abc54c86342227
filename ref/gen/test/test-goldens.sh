#!/bin/sh
# GOLDENS-8: the generated golden corpus regenerates byte for byte (SPEC_NOTES.md).
# Usage: sh ref/gen/test/test-goldens.sh path/to/dmlref [--all]
#   default (make test, also under ASan): everything but the large cases,
#     compared with goldens/gen and goldens/COVERAGE.md, then checked with
#     the reference;
#   --all (make check-goldens): everything, generated at one thread and at
#     two, both compared with the committed files, then all of goldens/gen
#     checked.
set -u
B=${1:?usage: test-goldens.sh path/to/dmlref [--all]}
case $B in /*) ;; *) B=$PWD/$B ;; esac
cd "$(dirname "$0")/../../.." || exit 3
T=$(mktemp -d "${TMPDIR:-/tmp}/test-goldens.XXXXXX") || exit 3
trap 'rm -rf "$T"' EXIT INT TERM
failed=0

fail() {
    echo "test-goldens: FAIL: $*"
    failed=$((failed + 1))
}

# gen THREADS DIR [ARGS]: regenerate into DIR with OMP_NUM_THREADS=THREADS.
gen() {
    threads=$1 dir=$2
    shift 2
    OMP_NUM_THREADS=$threads "$B" gen --out "$dir" --coverage "$dir.COVERAGE.md" --known goldens/known "$@" \
        >"$T/out" 2>"$T/err" || fail "dmlref gen $*: $(head -c 400 "$T/err")"
}

# same DIR [DIFF ARGS]: DIR holds exactly goldens/gen (and the report).
same() {
    dir=$1
    shift
    diff -r "$@" goldens/gen "$dir" >"$T/diff" 2>&1 ||
        fail "$dir differs from goldens/gen (make goldens, then review): $(head -c 600 "$T/diff")"
    cmp -s goldens/COVERAGE.md "$dir.COVERAGE.md" ||
        fail "goldens/COVERAGE.md differs from the regenerated report"
}

# The command line: usage errors are exit 2 and write nothing.
"$B" gen --help >"$T/out" 2>&1 && grep -q 'usage: dmlref gen' "$T/out" || fail "gen --help"
"$B" gen >"$T/out" 2>&1
[ $? -eq 2 ] && grep -q 'no --out directory given' "$T/out" || fail "gen without --out: $(cat "$T/out")"
"$B" gen --out "$T/none" --frobnicate >"$T/out" 2>&1
[ $? -eq 2 ] && [ ! -e "$T/none" ] || fail "gen with an unknown option"
"$B" gen --out "$T/k" --coverage "$T/k.md" --known "$T/no-such-dir" --only 'none' >"$T/out" 2>&1
[ $? -eq 2 ] && grep -q "no-such-dir" "$T/out" && [ ! -e "$T/k.md" ] ||
    fail "gen --known with a missing directory: $(cat "$T/out")"
"$B" gen --list --only 'gen/split/*.r8.*' >"$T/out" 2>&1 || fail "gen --list"
[ "$(grep -c '^gen/split/.*\.r8\.' "$T/out")" -eq "$(wc -l <"$T/out")" ] && [ -s "$T/out" ] ||
    fail "gen --list --only lists other names"

# --random N: N more sets of the small positive cases under DIR/K/, named random/K/..., each
# passing the reference, with other values than goldens/gen's; no negative or large case.
"$B" gen --out "$T/none" --random 0 >"$T/out" 2>&1
[ $? -eq 2 ] && [ ! -e "$T/none" ] || fail "gen --random 0 is a usage error"
"$B" gen --out "$T/rnd" --random 2 --only 'random/*/join/*' >"$T/out" 2>&1 || fail "gen --random 2: $(cat "$T/out")"
n1=$(find "$T/rnd/1/join" -name '*.json' | wc -l) n2=$(find "$T/rnd/2/join" -name '*.json' | wc -l)
ng=$(find goldens/gen/join -name '*.json' ! -name '*.large.*' | wc -l)
[ "$n1" -eq "$ng" ] && [ "$n2" -eq "$ng" ] && [ ! -e "$T/rnd/negative" ] ||
    fail "gen --random 2 wrote $n1 and $n2 JOIN cases, not $ng each"
grep -q '"name": "random/2/join/' "$T/rnd/2/join/"*.000.json || fail "gen --random: names"
"$B" check --quiet "$T/rnd" >"$T/out" 2>&1 || fail "gen --random: the cases fail the reference: $(tail -3 "$T/out")"
differ=0
for f in "$T/rnd/1/join/"*.json; do  # all but the format, name and description lines
    sed 1,3d "goldens/gen/join/${f##*/}" >"$T/g" && sed 1,3d "$f" | cmp -s - "$T/g" ||
        differ=$((differ + 1))
done
[ "$differ" -eq "$ng" ] || fail "gen --random: $((ng - differ)) of $ng JOIN cases equal goldens/gen's"

if [ "${2:-}" = --all ]; then
    gen 1 "$T/one"
    gen 2 "$T/two"
    same "$T/one"
    same "$T/two"
    "$B" check --quiet goldens/gen >"$T/out" 2>&1 || fail "dmlref check goldens/gen: $(tail -5 "$T/out")"
else
    gen 2 "$T/gen" --skip-large
    same "$T/gen" -x '*.large.*'
    "$B" check --quiet "$T/gen" >"$T/out" 2>&1 || fail "dmlref check: $(tail -5 "$T/out")"
fi
[ "$failed" -eq 0 ] && echo "test-goldens: ok" >&2
[ "$failed" -eq 0 ]
