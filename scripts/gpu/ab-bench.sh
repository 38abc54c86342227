#!/usr/bin/env bash
# ab-bench.sh [--rounds N] NAME='VAR=value ...' [NAME2='...' ...] -- [dmlref-bench args]
# An A/B benchmark of engine configurations on this machine's cores (the GPU
# machine's 16, or any Linux host): builds one dmlref-bench from this tree
# into build/ab (CFLAGS = $CFLAGS or -O2 -g) and runs it once per variant with
# that variant's environment (e.g. DMLREF_ENGINE=<row of ref/fast/config.c>;
# an empty one keeps the CPU's own row), for N rounds (default 3; each round
# starts with the next variant, so drift and order fall on all alike), keeps
# each run's table and JSON in OUT/ab (OUT: $OUT or build/gpu-out), and prints
# per case and thread count every variant's times, their median and least,
# each over the first variant's (/ A: below 1 is faster).  A noisy host shows
# as a wide spread within one variant; the least is then the less disturbed
# figure.  To compare two revisions, run it in two worktrees.
#   scripts/gpu/ab-bench.sh --rounds 5 cpu='' plain='DMLREF_ENGINE=intel' \
#       -- --filter split.4 --runs 5
set -u
cd "$(dirname "$0")/../.."
OUT=${OUT:-build/gpu-out}
ROUNDS=3
if [ "${1:-}" = --rounds ]; then ROUNDS=$2; shift 2; fi
NAMES=() FLAGS=()
while [ $# -gt 0 ] && [ "$1" != -- ]; do
    case $1 in
    [A-Za-z0-9_]*=*) NAMES+=("${1%%=*}") FLAGS+=("${1#*=}") ;;
    *) echo "usage: $0 [--rounds N] NAME='VAR=value ...'... -- [dmlref-bench args]" >&2; exit 2 ;;
    esac
    shift
done
[ "${1:-}" = -- ] && shift
[ ${#NAMES[@]} -ge 1 ] || { echo "$0: no variant (NAME='VAR=value ...')" >&2; exit 2; }
mkdir -p "$OUT/ab"
B=build/ab F="${CFLAGS:--O2 -g}"
# make sees changed sources, not changed flags: a build with other flags starts afresh
[ "$(cat "$B/cflags" 2>/dev/null)" = "$F" ] || rm -rf "$B"
mkdir -p "$B" && printf '%s\n' "$F" >"$B/cflags"
echo "== build: $F"
make -s -j"$(nproc)" BUILD="$B" CFLAGS="$F" "$B/bin/dmlref-bench" \
    >"$B/build.log" 2>&1 || { tail -n 20 "$B/build.log"; exit 1; }
echo "== $(date -u +%FT%TZ) $(nproc) cores:$(grep -m1 'model name' /proc/cpuinfo | cut -d: -f2)"
echo "== load before: $(cut -d' ' -f1-3 /proc/loadavg)"
V=${#NAMES[@]}
for r in $(seq 1 "$ROUNDS"); do
    for j in $(seq 0 $((V - 1))); do
        i=$(((j + r - 1) % V)) N=${NAMES[$i]}
        echo "-- round $r: $N"
        # shellcheck disable=SC2086 # a variant is a list of VAR=value words
        env ${FLAGS[$i]} "$B/bin/dmlref-bench" "$@" --json "$OUT/ab/$N-$r.json" >"$OUT/ab/$N-$r.txt" 2>&1 ||
            echo "   exit $?: see $OUT/ab/$N-$r.txt"
    done
done
echo "== load after: $(cut -d' ' -f1-3 /proc/loadavg)"
# The tables: "case thr ms ..." lines; per (case, thr) each variant's ms in round order.
for i in "${!NAMES[@]}"; do
    for r in $(seq 1 "$ROUNDS"); do
        awk -v v="$i" -v n="${NAMES[$i]}" '$2 ~ /^[0-9]+$/ && $3 ~ /^[0-9.]+$/ { print $1, $2, v, n, $3 }
            $3 == "FAILED" { print $1, $2, v, n, "FAILED" }' "$OUT/ab/${NAMES[$i]}-$r.txt"
    done
done | awk '
    { key = $1 " " $2; if (!(key in seen)) { seen[key] = 1; order[++nk] = key }
      vk = key SUBSEP $3; name[$3] = $4; if ($3 + 1 > nv) nv = $3 + 1
      t[vk] = t[vk] " " $5; cnt[vk]++; if ($5 == "FAILED") bad[vk] = 1 }
    function sort(s, a,   n, i, j, x) {
        n = split(s, a, " ")
        for (i = 2; i <= n; i++) { x = a[i] + 0; for (j = i - 1; j >= 1 && a[j] + 0 > x; j--) a[j + 1] = a[j]; a[j + 1] = x }
        return n }
    function median(s,   a, n) { n = sort(s, a); return n % 2 ? a[(n + 1) / 2] : (a[n / 2] + a[n / 2 + 1]) / 2 }
    function least(s,   a) { sort(s, a); return a[1] }
    END {
        printf "%-24s %3s %-12s %9s %6s %7s %6s  %s\n", "case", "thr", "variant", "median ms", "/ A",
            "min ms", "/ A", "ms per round"
        for (k = 1; k <= nk; k++) {
            split(order[k], c, " "); base = lbase = ""
            for (v = 0; v < nv; v++) {
                vk = order[k] SUBSEP v
                if (!(vk in t)) continue
                m = (vk in bad) ? "FAILED" : median(t[vk]); l = (vk in bad) ? "-" : least(t[vk])
                if (base == "" && !(vk in bad)) base = m; if (lbase == "" && !(vk in bad)) lbase = l
                printf "%-24s %3s %-12s %9s %6s %7s %6s %s\n", c[1], c[2], name[v], m,
                    (vk in bad || base == "" || base == 0) ? "-" : sprintf("%.3f", m / base), l,
                    (vk in bad || lbase == "" || lbase == 0) ? "-" : sprintf("%.3f", l / lbase), t[vk]
            }
        }
    }' | tee "$OUT/ab/summary.txt"
