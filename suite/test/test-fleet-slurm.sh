#!/bin/sh
# test-fleet-slurm.sh BUILD/bin/dmlref -- docs/fleet.md's Slurm path for real:
# a one-node Slurm of Debian's packages (slurmctld, slurmd, slurm-client,
# munge; installed here when missing, as root) on this machine, declared with
# 32 CPUs and 8 stand-in GPUs so that the array script's --cpus-per-task=4
# and --gres=gpu:1 schedule; the doc's sbatch script and its submit block run
# as written (DMLCTS_PLUGIN, DMLCTS_CORPUS: the reference plugin, goldens/doc),
# and the merged report must be the report of one unsharded run.  Not root,
# no apt, or daemons that do not start: skipped with one line saying why.
# Everything it starts (munged only when none runs, slurmctld, slurmd) is
# stopped by its pid at the end.
set -u
BUILD=$(dirname "$(dirname "${1:-build/bin/dmlref}")")
ROOT=$(pwd)
BIN=$(cd "$BUILD/bin" && pwd)
LIB=$(cd "$BUILD/lib" && pwd)
PY=/usr/bin/python3
skip() { echo "test-fleet-slurm: SKIP: $*"; exit 0; }
[ "$(id -u)" -eq 0 ] || skip "needs root (slurmd, munged)"
t0=$(date +%s)
if ! command -v slurmctld >/dev/null || ! command -v slurmd >/dev/null || ! command -v sbatch >/dev/null ||
    [ ! -x /usr/sbin/munged ]; then
    command -v apt-get >/dev/null || skip "no slurmctld, slurmd, sbatch or munged, and no apt-get"
    DEBIAN_FRONTEND=noninteractive apt-get install -y -q --no-install-recommends slurmctld slurmd \
        slurm-client munge >/dev/null 2>&1 ||
        { apt-get update -q >/dev/null 2>&1 && DEBIAN_FRONTEND=noninteractive apt-get install -y -q \
              --no-install-recommends slurmctld slurmd slurm-client munge >/dev/null 2>&1; } ||
        skip "apt-get install slurmctld slurmd slurm-client munge failed"
fi
t1=$(date +%s)
T=$(mktemp -d "${TMPDIR:-/tmp}/test-fleet-slurm.XXXXXX")
chmod 755 "$T"
pids=""
stop() {
    for f in "$T/slurmd.pid" "$T/slurmctld.pid" $pids; do
        [ -s "$f" ] && kill "$(cat "$f")" 2>/dev/null
    done
    sleep 1
    rm -rf "$T"
}
trap stop EXIT INT TERM
pass=0
fail=0
ok() { pass=$((pass + 1)); }
bad() { fail=$((fail + 1)); echo "FAIL: $*"; }

# munge: the one running, else ours (as the munge user, as its service runs it).
if ! munge -n </dev/null >/dev/null 2>&1; then
    mkdir -p /run/munge /var/log/munge /var/lib/munge
    chown munge:munge /run/munge /var/log/munge /var/lib/munge 2>/dev/null
    [ -s /etc/munge/munge.key ] || mungekey --create >/dev/null 2>&1 || skip "no munge key"
    runuser -u munge -- /usr/sbin/munged >"$T/munged.out" 2>&1 || skip "munged does not start: $(tail -n 1 "$T/munged.out")"
    cp /run/munge/munged.pid "$T/munged.pid" 2>/dev/null && pids="$T/munged.pid"
fi

mkdir -p "$T/state" "$T/spool" "$T/work"
cat >"$T/slurm.conf" <<EOF
ClusterName=dmlcts-test
SlurmctldHost=$(hostname)(127.0.0.1)
SlurmUser=root
SlurmctldPort=16817
SlurmdPort=16818
AuthType=auth/munge
StateSaveLocation=$T/state
SlurmdSpoolDir=$T/spool
SlurmctldPidFile=$T/slurmctld.pid
SlurmdPidFile=$T/slurmd.pid
SlurmctldLogFile=$T/slurmctld.log
SlurmdLogFile=$T/slurmd.log
ProctrackType=proctrack/linuxproc
TaskPlugin=task/none
SelectType=select/cons_tres
SelectTypeParameters=CR_Core
GresTypes=gpu
MpiDefault=none
ReturnToService=2
SlurmdParameters=config_overrides
JobCompType=jobcomp/none
AccountingStorageType=accounting_storage/none
NodeName=dmlcts-node NodeHostname=$(hostname) NodeAddr=127.0.0.1 CPUs=32 Gres=gpu:8 State=UNKNOWN
PartitionName=test Nodes=dmlcts-node Default=YES MaxTime=INFINITE State=UP
EOF
# Slurm drops GPUs without device files; eight stand-ins (task/none binds nothing to them).
touch "$T/gpu0" "$T/gpu1" "$T/gpu2" "$T/gpu3" "$T/gpu4" "$T/gpu5" "$T/gpu6" "$T/gpu7"
echo "NodeName=dmlcts-node Name=gpu File=$T/gpu[0-7]" >"$T/gres.conf"
export SLURM_CONF="$T/slurm.conf"
slurmctld -f "$SLURM_CONF" >"$T/slurmctld.out" 2>&1 || skip "slurmctld does not start: $(tail -n 1 "$T/slurmctld.out")"
slurmd -f "$SLURM_CONF" -N dmlcts-node >"$T/slurmd.out" 2>&1 || skip "slurmd does not start: $(tail -n 1 "$T/slurmd.out")"
n=0
until sinfo -h -N -o '%t' 2>/dev/null | grep -q idle; do
    n=$((n + 1))
    [ "$n" -lt 60 ] || { skip "the node is not idle after 30 s: $(sinfo -h -N -o '%t %E' 2>&1 | head -n 1)"; }
    sleep 0.5
done
t2=$(date +%s)

# The doc's two blocks, as written, from the work directory.
$PY - docs/fleet.md "$T/work" <<'EOF' || bad "docs/fleet.md lost its Slurm blocks"
import re, sys
doc = open(sys.argv[1]).read()
script = re.search(r"`dmlcts-array.sbatch`:\n\n```sh\n(.*?)```", doc, re.S).group(1)
submit = re.search(r"```sh\n(jid=\$\(sbatch --parsable dmlcts-array.sbatch\).*?)```", doc, re.S).group(1)
open(sys.argv[2] + "/dmlcts-array.sbatch", "w").write(script)
open(sys.argv[2] + "/submit.sh", "w").write(submit + 'echo "$jid" >jid\n')
EOF
(cd "$T/work" && PATH="$BIN:$PATH" DMLCTS_PLUGIN="$LIB/dmlcts_ref_plugin.so" DMLCTS_CORPUS="$ROOT/goldens/doc" \
    sh submit.sh >submit.out 2>&1) && ok || bad "the doc's submit block: $(cat "$T/work/submit.out")"
jid=$(cat "$T/work/jid" 2>/dev/null)
n=0
while [ -n "$(squeue -h -o %i 2>/dev/null)" ]; do
    n=$((n + 1))
    [ "$n" -lt 240 ] || { bad "jobs still queued after 120 s: $(squeue -h 2>&1 | head -n 3)"; break; }
    sleep 0.5
done
t3=$(date +%s)
ls "$T/work/results/$jid"/shard-*.json 2>/dev/null | wc -l | grep -qx 8 && ok ||
    bad "not 8 shard reports in results/$jid: $(ls "$T/work/results/$jid" 2>&1; tail -n 3 "$T"/work/dmlcts-*.log 2>/dev/null)"
"$BIN/dmlcts" --no-progress -q --backend "plugin:$LIB/dmlcts_ref_plugin.so" --json "$T/whole.json" \
    "$ROOT/goldens/doc" >/dev/null 2>&1
$PY - "$T/whole.json" "$T/work/results/$jid/all.json" "$jid" <<'EOF' && ok || bad "the merged Slurm run is not the unsharded run: $(cat "$T"/work/dmlcts-merge-*.log 2>/dev/null)"
import json, sys
w, m = (json.load(open(p)) for p in sys.argv[1:3])
strip = lambda c: {k: v for k, v in c.items() if k not in ("time_ms", "reproduce", "explain")}
assert [strip(c) for c in w["cases"]] == [strip(c) for c in m["cases"]]
assert w["totals"] == m["totals"] and len(m["shards"]) == 8
assert m["run"]["id"] == sys.argv[3] and m["run"]["id_from"] == "SLURM_ARRAY_JOB_ID", m["run"]
assert all(s["shard"]["from"].startswith("Slurm job array") for s in m["shards"])
EOF
echo "test-fleet-slurm: apt $((t1 - t0)) s, daemons up $((t2 - t1)) s, array and merge $((t3 - t2)) s"
echo "test-fleet-slurm: $pass passed, $fail failed"
[ "$fail" -eq 0 ]
