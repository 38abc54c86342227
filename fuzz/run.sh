#!/bin/sh
# fuzz/run.sh TARGET...: run the libFuzzer targets of build-fuzz/fuzz (make fuzz) one at a time,
# each for FUZZ_SECONDS seconds (default 60), or FUZZ_RUNS executions when that is set, under nice,
# from its seeds (fuzz/seeds/TARGET; the case target also every golden under 64 KiB and the issue's
# reproductions, the npy target the goldens' .npy files) with its dictionary (fuzz/TARGET.dict).
# New inputs go to build-fuzz/corpus/TARGET, crashes to build-fuzz/crash-TARGET-*; a crash fails the
# run with the tail of the log.  Prints one line per target: executions, seconds, corpus size.
set -u
cd "$(dirname "$0")/.."
B=build-fuzz
secs=${FUZZ_SECONDS:-60}
failed=0
for t in "$@"; do
    bin=$B/fuzz/fuzz_$t
    corpus=$B/corpus/$t
    seeds=$B/seeds/$t
    log=$B/fuzz_$t.log
    [ -x "$bin" ] || { echo "fuzz/run.sh: $bin is not built (make fuzz)"; exit 2; }
    rm -rf "$seeds"
    mkdir -p "$corpus" "$seeds"
    [ -d "fuzz/seeds/$t" ] && cp fuzz/seeds/"$t"/* "$seeds"/
    n=0
    case $t in
    case) files=$(find goldens ref/case/test/hostile -name '*.json' -size -64k) ;;
    npy) files=$(find goldens -name '*.npy' -size -256k) ;;
    *) files= ;;
    esac
    for f in $files; do
        n=$((n + 1))
        cp "$f" "$seeds/golden$n"
    done
    dict=
    [ -f "fuzz/$t.dict" ] && dict=-dict=fuzz/$t.dict
    if [ -n "${FUZZ_RUNS:-}" ]; then limit=-runs=$FUZZ_RUNS; else limit=-max_total_time=$secs; fi
    start=$(date +%s)
    if ! nice -n 10 "$bin" $dict $limit -timeout=20 -rss_limit_mb=2560 -max_len=65536 \
        -artifact_prefix="$B/crash-$t-" -print_final_stats=1 "$corpus" "$seeds" >"$log" 2>&1; then
        echo "fuzz_$t: FAILED (log $log; reproduce with $bin $B/crash-$t-...)"
        grep -A25 "ERROR:\|==ERROR\|runtime error\|deadly signal\|timeout" "$log" | head -40
        failed=$((failed + 1))
        continue
    fi
    execs=$(sed -n 's/^stat::number_of_executed_units: *//p' "$log")
    echo "fuzz_$t: ${execs:-?} executions in $(($(date +%s) - start)) s, no crash ($(ls "$corpus" | wc -l) inputs in $corpus)"
done
[ "$failed" -eq 0 ]
