#!/bin/sh
# test-bench-rounds.sh -- bench/bench_rounds.py pairs every x column by round: the
# peers' ratios and the yardsticks' (x mcpy, x roof, x reads), each the median of the
# rounds' own ratios, not a ratio of two medians taken in different rounds; and so are
# the targets that compare two rows' times (here strided over packed); a row whose
# rounds fall on both sides of the roofline target is listed as unsettled.  Three made-up
# rounds, whose ratios of medians differ from the medians of ratios.  Run by `make test`;
# its argument (the build's dmlref) is not used.
set -u
PY=/usr/bin/python3
T=$(mktemp -d "${TMPDIR:-/tmp}/test-bench-rounds.XXXXXX")
trap 'rm -rf "$T"' EXIT INT TERM
pass=0
fail=0

# round R MS MEMCPY_GBPS ROOFLINE_GBPS READS_MS NUMPY_MS: round R's report of one case
round() {
    $PY - "$T/r$1.json" "$@" <<'PY'
import json, sys
out, r, ms, mc, roof, reads, npy = sys.argv[1], sys.argv[2], *map(float, sys.argv[3:])
case = {"name": "gather.rows", "threads": 1, "ms": ms, "bytes": 1e9, "elements": 1000,
        "gbps": 1e3 / ms, "memcpy_ms": 1, "memcpy_gbps": mc, "roofline_ms": 1,
        "roofline_gbps": roof, "reads_ms": reads, "peak_rss_mib": 1, "tensor_mib": 1,
        "rss_ratio": 1.0, "verified": True, "numpy_ms": npy}
# a packed row and its strided one: strided over packed 1.5, 1.0 and 2.5 by round, 2.0 of
# the medians (20 / 10)
pair = {"1": (10, 15), "2": (20, 20), "3": (10, 25)}[r]
rows = [dict(case, name=n, ms=m, gbps=1e3 / m, reads_ms=None)
        for n, m in zip(("gather.random", "gather.random.strided"), pair)]
json.dump({"runs": 5, "machine": {}, "numpy": "test", "peers": [], "commit": "c" + r,
           "date": "d" + r, "cases": [case] + rows}, open(out, "w"))
PY
}
# x roof by round 1.25, 0.625, 1.5 (of the medians, ms 11 and roofline 80: 1.136)
round 1 10 50 80 8 30
round 2 20 40 80 30 30
round 3 11 60 60.60606 6.6 33
if ! (cd bench && $PY bench_rounds.py "$T/out.json" "$T/r1.json" "$T/r2.json" "$T/r3.json") \
    >"$T/out.txt" 2>&1; then
    echo "FAIL: bench_rounds.py exited $?:"
    cat "$T/out.txt"
    exit 1
fi
# check WHAT GOT WANT: one comparison, counted
check() {
    if [ "$2" = "$3" ]; then
        pass=$((pass + 1))
    else
        fail=$((fail + 1))
        echo "FAIL: $1 is $2, the median of the rounds' own ratios is $3"
    fi
}
# field KEY: the combined case's KEY; target PREFIX: the measure of the target so named
field() {
    $PY -c 'import json, sys
print("%.3f" % json.load(open(sys.argv[1]))["cases"][0][sys.argv[2]])' "$T/out.json" "$1"
}
target() {
    $PY -c 'import json, sys
print(["%.3f" % t["measured"] for t in json.load(open(sys.argv[1]))["targets"]
       if t["target"].startswith(sys.argv[2])][0])' "$T/out.json" "$1"
}
check x_roofline "$(field x_roofline)" 1.250 # not 1.136
check x_memcpy "$(field x_memcpy)" 1.515     # rounds 2.0, 1.25, 1.515; of the medians 1.818
check x_reads "$(field x_reads)" 0.800       # rounds 0.8, 1.5, 0.6; of the medians 8 / 11: 0.727
check x_numpy "$(field x_numpy)" 3.000       # rounds 3.0, 1.5, 3.0
check ms "$(field ms)" 11.000
check x_roofline_min "$(field x_roofline_min)" 0.625
check x_roofline_max "$(field x_roofline_max)" 1.500
# rounds on both sides of the roofline target: listed as unsettled against it
sed -n '/^unsettled against 0.8 x roofline/,/^$/p' "$T/out.txt" >"$T/roof.txt"
check "the row unsettled against the roofline" \
    "$(grep -c '^  gather.rows  *1  1.25 (0.62-1.50)$' "$T/roof.txt")" 1
check "strided over packed" "$(target "gather.random at 1 threads: strided")" 1.500 # not 2.0
grep -q "^gather.rows  *1  *11.0 .* 1.51 *1.25 *0.80 " "$T/out.txt" && pass=$((pass + 1)) || {
    fail=$((fail + 1))
    echo "FAIL: the printed row does not carry the paired ratios:"
    grep "^gather.rows" "$T/out.txt"
}
echo "test-bench-rounds: $pass passed, $fail failed"
[ "$fail" -eq 0 ]
