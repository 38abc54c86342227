#!/bin/sh
# fuzz/run.sh TARGET...: run the libFuzzer targets of build-fuzz/fuzz (make fuzz), side by side
# (FUZZ_SERIAL=1: one at a time, for a long run's figures), each for FUZZ_SECONDS seconds
# (default 60), or FUZZ_RUNS executions when that is set and comes first, under nice -n
# FUZZ_NICE (default 10),
# from its seeds (fuzz/seeds/TARGET, where crashes found stay as regression inputs; the case target
# also the hand-written goldens, one generated golden in 8 and the issue's reproductions, the npy
# target the goldens' .npy files) with its dictionary (fuzz/TARGET.dict).
# New inputs go to build-fuzz/corpus/TARGET, crashes to build-fuzz/crash-TARGET-*; a crash fails the
# run with the tail of the log.  Prints one line per target: executions, seconds, corpus size.
# FUZZ_JOBS=N (default 1) runs N processes per target that share its corpus (libFuzzer's -jobs, for a
# long run on many cores); FUZZ_RUNS is then the target's total, split between them.
# The case and cmd-reply targets write every input to a file under TMPDIR: /dev/shm when it is
# writable and TMPDIR is unset, since on a disk the writes would set the pace.
set -u
cd "$(dirname "$0")/.."
if [ -z "${TMPDIR:-}" ] && [ -d /dev/shm ] && [ -w /dev/shm ]; then
    export TMPDIR=/dev/shm
fi
jobs=${FUZZ_JOBS:-1}
B=${FUZZ_BUILD:-build-fuzz}
secs=${FUZZ_SECONDS:-60}
run_one() {
    t=$1
    bin=$B/fuzz/fuzz_$t
    corpus=$B/corpus/$t
    seeds=$B/seeds/$t
    log=$B/fuzz_$t.log
    bad=
    logs=
    [ -x "$bin" ] || { echo "fuzz/run.sh: $bin is not built (make fuzz)"; exit 2; }
    rm -rf "$seeds"
    mkdir -p "$corpus" "$seeds"
    [ -d "fuzz/seeds/$t" ] && cp fuzz/seeds/"$t"/* "$seeds"/
    n=0
    files=
    if [ "$t" = case ]; then # the hand-written goldens and reproductions, one generated golden in 8
        files="$(find goldens ref/case/test/hostile -path goldens/gen -prune -o -name '*.json' -print)"
        files="$files $(find goldens/gen -name '*.json' -size -64k | sort | awk 'NR % 8 == 1')"
    elif [ "$t" = npy ]; then
        files=$(find goldens -name '*.npy' -size -256k)
    fi
    for f in $files; do
        n=$((n + 1))
        cp "$f" "$seeds/golden$n"
    done
    dict=
    [ -f "fuzz/$t.dict" ] && dict=-dict=fuzz/$t.dict
    runs=${FUZZ_RUNS:+$((FUZZ_RUNS / jobs + (FUZZ_RUNS % jobs > 0)))}
    limit="-max_total_time=$secs${runs:+ -runs=$runs}"
    start=$(date +%s)
    if [ "$jobs" -gt 1 ]; then # each job logs to fuzz-J.log in the current directory
        logs=$B/jobs-$t
        rm -rf "$logs"
        mkdir -p "$logs"
        top=$PWD
        case $B in /*) b=$B ;; *) b=$top/$B ;; esac
        (cd "$logs" && nice -n "${FUZZ_NICE:-10}" "$b/fuzz/fuzz_$t" ${dict:+-dict=$top/fuzz/$t.dict} $limit \
            -timeout=20 -rss_limit_mb=2560 -max_len=65536 -jobs="$jobs" -workers="$jobs" \
            -artifact_prefix="$b/crash-$t-" -print_final_stats=1 "$b/corpus/$t" "$b/seeds/$t") \
            >"$log" 2>&1
        bad=$(grep -l "ERROR:\|==ERROR\|runtime error\|deadly signal\|ERROR: libFuzzer: timeout" "$logs"/fuzz-*.log)
    else
        nice -n "${FUZZ_NICE:-10}" "$bin" $dict $limit -timeout=20 -rss_limit_mb=2560 -max_len=65536 \
            -artifact_prefix="$B/crash-$t-" -print_final_stats=1 "$corpus" "$seeds" >"$log" 2>&1 || bad=$log
    fi
    if [ -n "${bad:-}" ]; then
        echo "fuzz_$t: FAILED (log $log; reproduce with $bin $B/crash-$t-...)"
        grep -A25 "ERROR:\|==ERROR\|runtime error\|deadly signal\|timeout" "$log" | head -40
        return 1
    fi
    # with jobs, the parent's log repeats each job's: count the jobs' own logs
    execs=$(sed -n 's/^stat::number_of_executed_units: *//p' "${logs:-$log}"${logs:+/fuzz-*.log} |
        awk '{n += $1} END {print n}')
    echo "fuzz_$t: ${execs:-?} executions in $(($(date +%s) - start)) s (${jobs} process(es)), no crash ($(ls "$corpus" | wc -l) inputs in $corpus)"
}

failed=0
if [ "${FUZZ_SERIAL:-0}" = 1 ]; then
    for t in "$@"; do run_one "$t" || failed=$((failed + 1)); done
else # side by side: the smoke run costs FUZZ_SECONDS of wall time, not one per target
    for t in "$@"; do (run_one "$t" >"$B/fuzz_$t.result" 2>&1; echo $? >"$B/fuzz_$t.rc") & done
    wait
    for t in "$@"; do
        cat "$B/fuzz_$t.result"
        [ "$(cat "$B/fuzz_$t.rc" 2>/dev/null)" = 0 ] || failed=$((failed + 1))
    done
fi
[ "$failed" -eq 0 ]
