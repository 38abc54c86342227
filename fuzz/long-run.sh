#!/bin/sh
# fuzz/long-run.sh [RUNS [SECONDS]]: the long run the README records.  Every target side by side,
# each until RUNS executions (default 10000000) or SECONDS (default 3600), whichever comes first,
# with the machine's cores shared out by their cost per input: the value, npy and recipe targets
# one process each (over 10^5 inputs a second), the cmd-reply target a fifth of the cores, the
# case target (loads, validates, executes and shows every input) the rest.  Prints fuzz/run.sh's line per target and the
# machine; fails if any target crashed or stopped short of RUNS.
set -u
cd "$(dirname "$0")/.."
runs=${1:-10000000}
secs=${2:-3600}
B=${FUZZ_BUILD:-build-fuzz}
n=$(nproc)
cmd=$((n / 5)); [ "$cmd" -ge 1 ] || cmd=1
rest=$((n - 3 - cmd)); [ "$rest" -ge 1 ] || rest=1
echo "long run: $runs executions or $secs s per target, $n cores, $(uname -m), $(date -u +%Y-%m-%dT%H:%MZ)"
for t in case values npy recipe cmd_reply; do
    case $t in case) j=$rest ;; cmd_reply) j=$cmd ;; *) j=1 ;; esac
    (FUZZ_JOBS=$j FUZZ_RUNS=$runs FUZZ_SECONDS=$secs FUZZ_NICE=${FUZZ_NICE:-0} FUZZ_SERIAL=1 \
        sh fuzz/run.sh "$t" >"$B/long_$t.txt" 2>&1; echo $? >"$B/long_$t.rc") &
done
wait
failed=0
for t in case values npy recipe cmd_reply; do
    cat "$B/long_$t.txt"
    [ "$(cat "$B/long_$t.rc")" = 0 ] || failed=1
    execs=$(sed -n 's/^fuzz_[a-z_]*: \([0-9]*\) executions.*/\1/p' "$B/long_$t.txt")
    [ "${execs:-0}" -ge "$runs" ] || { echo "fuzz_$t: stopped at ${execs:-0} of $runs executions"; failed=1; }
done
exit $failed
