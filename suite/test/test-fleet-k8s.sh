#!/bin/sh
# test-fleet-k8s.sh BUILD/bin/dmlref -- docs/fleet.md's Kubernetes kit
# (scripts/k8s/) without a cluster (Debian has no offline Kubernetes
# validator: its kubectl needs an API server even for --dry-run=client):
#   1. the rendered Jobs and the PVC, parsed with Debian's python3-yaml and
#      checked against a JSON schema of what the kit relies on (python3-jsonschema),
#      and against each other (counts, names, run id, volume, results folder);
#   2. the pods' own commands, run here as Kubernetes would run them (index,
#      count and run id in the environment; /results, the plugin and the corpus
#      mapped to this test's files): the merge of 8 shards is the unsharded run,
#      and a second run whose pod 3 died reports the gap instead of taking the
#      first run's shard;
#   3. dmlcts-k8s.sh against a stand-in kubectl: a failed Job ends the wait at
#      once, a hung one at DMLCTS_K8S_TIMEOUT, complete ones give the merge's status.
# Without python3-yaml the checks of part 1 are skipped, saying so.
set -u
BUILD=$(dirname "$(dirname "${1:-build/bin/dmlref}")")
CTS=$BUILD/bin/dmlcts
LIB=$BUILD/lib
PY=/usr/bin/python3
KIT=scripts/k8s
T=$(mktemp -d "${TMPDIR:-/tmp}/test-fleet-k8s.XXXXXX")
trap 'rm -rf "$T"' EXIT INT TERM
pass=0
fail=0
ok() { pass=$((pass + 1)); }
bad() { fail=$((fail + 1)); echo "FAIL: $*"; }
unset SLURM_ARRAY_TASK_ID JOB_COMPLETION_INDEX DMLCTS_SHARD_COUNT DMLCTS_RUN_ID CI_NODE_INDEX \
      CIRCLE_NODE_INDEX BUILDKITE_PARALLEL_JOB
for f in "$CTS" "$LIB/dmlcts_ref_plugin.so" "$KIT/Containerfile" "$KIT/dmlcts-pvc.yaml" \
         "$KIT/dmlcts-job.yaml" "$KIT/dmlcts-k8s.sh"; do
    [ -e "$f" ] || { echo "FAIL: $f is missing"; exit 1; }
done
for f in Containerfile dmlcts-pvc.yaml dmlcts-job.yaml dmlcts-k8s.sh; do
    grep -q "scripts/k8s/$f" docs/fleet.md && ok || bad "docs/fleet.md does not name scripts/k8s/$f"
done
sh "$KIT/dmlcts-k8s.sh" render night-1 >"$T/night-1.yaml" && ok || bad "render night-1"
sh "$KIT/dmlcts-k8s.sh" render 'Bad_Name' >/dev/null 2>&1 && bad "render accepted a bad run name" || ok

# 1. The manifests: a schema of what the kit relies on, and their agreement.
if $PY -c 'import yaml' 2>/dev/null; then
    $PY - "$T/night-1.yaml" "$KIT/dmlcts-pvc.yaml" night-1 <<'EOF' && ok || bad "the kit's manifests"
import sys, yaml
jobs, pvc, run = list(yaml.safe_load_all(open(sys.argv[1]))), yaml.safe_load(open(sys.argv[2])), sys.argv[3]
try:
    import jsonschema
except ImportError:
    jsonschema = None
    print("test-fleet-k8s: python3-jsonschema missing: the schema part is skipped")
name = {"type": "string", "pattern": "^[a-z0-9]([-a-z0-9]*[a-z0-9])?$", "maxLength": 63}
container = {"type": "object", "required": ["name", "image", "command", "args"],
             "properties": {"name": name, "image": {"type": "string"},
                            "env": {"type": "array", "items": {"type": "object", "required": ["name", "value"],
                                    "properties": {"name": {"type": "string"}, "value": {"type": "string"}}}},
                            "command": {"type": "array", "items": {"type": "string"}},
                            "args": {"type": "array", "items": {"type": "string"}},
                            "volumeMounts": {"type": "array"}}}
job = {"type": "object", "required": ["apiVersion", "kind", "metadata", "spec"],
       "properties": {"apiVersion": {"const": "batch/v1"}, "kind": {"const": "Job"},
                      "metadata": {"type": "object", "required": ["name"], "properties": {"name": name}},
                      "spec": {"type": "object", "required": ["template", "backoffLimit"],
                               "properties": {"completions": {"type": "integer", "minimum": 1},
                                              "parallelism": {"type": "integer", "minimum": 1},
                                              "completionMode": {"enum": ["Indexed", "NonIndexed"]},
                                              "backoffLimit": {"const": 0},
                                              "template": {"type": "object", "required": ["spec"], "properties": {
                                                  "spec": {"type": "object", "required": ["restartPolicy", "containers"],
                                                           "properties": {"restartPolicy": {"const": "Never"},
                                                                          "containers": {"type": "array", "minItems": 1, "items": container}}}}}}}}}
claim = {"type": "object", "required": ["apiVersion", "kind", "metadata", "spec"],
         "properties": {"apiVersion": {"const": "v1"}, "kind": {"const": "PersistentVolumeClaim"},
                        "spec": {"required": ["accessModes", "resources"],
                                 "properties": {"accessModes": {"contains": {"const": "ReadWriteMany"}}}}}}
if jsonschema:
    for j in jobs:
        jsonschema.validate(j, job)
    jsonschema.validate(pvc, claim)
assert len(jobs) == 2
shards, merge = jobs
assert shards["metadata"]["name"] == "dmlcts-shards-" + run and merge["metadata"]["name"] == "dmlcts-merge-" + run
s = shards["spec"]
assert s["completionMode"] == "Indexed" and s["completions"] == s["parallelism"]
env = {e["name"]: e["value"] for e in s["template"]["spec"]["containers"][0]["env"]}
assert env["DMLCTS_SHARD_COUNT"] == str(s["completions"]) and env["DMLCTS_RUN_ID"] == run, env
menv = {e["name"]: e["value"] for e in merge["spec"]["template"]["spec"]["containers"][0]["env"]}
assert menv["DMLCTS_RUN_ID"] == run
for j in jobs:
    spec = j["spec"]["template"]["spec"]
    assert spec["volumes"][0]["persistentVolumeClaim"]["claimName"] == pvc["metadata"]["name"]
    assert spec["containers"][0]["volumeMounts"][0]["mountPath"] == "/results"
    assert "/results/$DMLCTS_RUN_ID" in spec["containers"][0]["args"][0]
# the pods' scripts, for part 2
open(sys.argv[1] + ".shard.sh", "w").write(s["template"]["spec"]["containers"][0]["args"][0])
open(sys.argv[1] + ".merge.sh", "w").write(merge["spec"]["template"]["spec"]["containers"][0]["args"][0])
open(sys.argv[1] + ".count", "w").write(str(s["completions"]))
EOF
else
    echo "test-fleet-k8s: SKIP the manifest checks: no python3-yaml (as root: apt-get install python3-yaml)"
fi

# 2. The pods' commands, as Kubernetes runs them: paths mapped to this test's.
if [ -s "$T/night-1.yaml.shard.sh" ]; then
    mkdir -p "$T/bin" "$T/results"
    ln -s "$(cd "$BUILD/bin" && pwd)/dmlcts" "$T/bin/dmlcts"
    map() {
        sed -e "s|/results|$T/results|g" -e "s|/opt/vendor/lib/dmlcts_vendor.so|$LIB/dmlcts_ref_plugin.so|g" \
            -e "s|/usr/local/share/dmlref/goldens|goldens/doc goldens/dmlcts-selftest|g" "$1"
    }
    # pods RUN SKIP: every index but SKIP, then the merge; the merge's exit status in $T/RUN.rc
    pods() {
        sh "$KIT/dmlcts-k8s.sh" render "$1" >"$T/$1.yaml"
        $PY - "$T/$1.yaml" <<'EOF'
import sys, yaml
s, m = list(yaml.safe_load_all(open(sys.argv[1])))
open(sys.argv[1] + ".shard.sh", "w").write(s["spec"]["template"]["spec"]["containers"][0]["args"][0])
open(sys.argv[1] + ".merge.sh", "w").write(m["spec"]["template"]["spec"]["containers"][0]["args"][0])
EOF
        n=$(cat "$T/night-1.yaml.count") i=0
        while [ "$i" -lt "$n" ]; do
            [ "$i" = "$2" ] || env PATH="$T/bin:$PATH" JOB_COMPLETION_INDEX=$i DMLCTS_SHARD_COUNT=$n \
                DMLCTS_RUN_ID="$1" sh -c "$(map "$T/$1.yaml.shard.sh")" >/dev/null 2>&1 ||
                bad "pod $i of $1 failed"
            i=$((i + 1))
        done
        env PATH="$T/bin:$PATH" DMLCTS_RUN_ID="$1" sh -c "$(map "$T/$1.yaml.merge.sh")" >"$T/$1.merge" 2>&1
        echo $? >"$T/$1.rc"
    }
    pods night-1 none
    [ "$(cat "$T/night-1.rc")" = 0 ] && ok || bad "night-1's merge: exit $(cat "$T/night-1.rc"): $(cat "$T/night-1.merge")"
    "$CTS" --no-progress -q --backend "plugin:$LIB/dmlcts_ref_plugin.so" --json "$T/whole.json" \
        goldens/doc goldens/dmlcts-selftest >/dev/null 2>&1
    $PY - "$T/whole.json" "$T/results/night-1/all.json" <<'EOF' && ok || bad "night-1's merged report is not the unsharded run's"
import json, sys
w, m = (json.load(open(p)) for p in sys.argv[1:])
strip = lambda c: {k: v for k, v in c.items() if k not in ("time_ms", "reproduce", "explain")}
assert [strip(c) for c in w["cases"]] == [strip(c) for c in m["cases"]]
assert m["run"]["id"] == "night-1" and len(m["shards"]) == 8, m["run"]
EOF
    [ -s "$T/results/night-1/all.html" ] && ok || bad "night-1: no all.html"
    # The second night's pod 3 dies: its folder has a gap; night-1's shard 3 is not taken.
    pods night-2 3
    [ "$(cat "$T/night-2.rc")" = 2 ] && grep -q "gap: no report of shard 4/8" "$T/night-2.merge" && ok ||
        bad "night-2 with pod 3 dead: exit $(cat "$T/night-2.rc"), expected 2 and the gap: $(cat "$T/night-2.merge")"
    # Even a shard copied over from night-1 is refused, by its run id.
    cp "$T/results/night-1/shard-3.json" "$T/results/night-2/"
    env PATH="$T/bin:$PATH" DMLCTS_RUN_ID=night-2 sh -c "$(map "$T/night-2.yaml.merge.sh")" >"$T/stale.out" 2>&1
    [ $? -eq 2 ] && grep -q "shard-3.json (run night-1) not of run night-2" "$T/stale.out" && ok ||
        bad "a stale shard in night-2's folder: $(cat "$T/stale.out")"
fi

# 3. dmlcts-k8s.sh run against a stand-in kubectl; the Jobs' states come from $T/state.
cat >"$T/kubectl" <<EOF
#!/bin/sh
echo "\$*" >>"$T/kubectl.log"
case "\$1 \$2" in
    "apply -f") [ "\$3" = - ] && cat >>"$T/applied.yaml"; exit 0 ;;
    "get job") grep "^\$3 " "$T/state" | cut -d' ' -f2-; exit 0 ;;
    "logs "*) echo "(the pod's last lines)"; exit 0 ;;
esac
exit 0
EOF
chmod +x "$T/kubectl"
# k8s RUN 'STATES' EXPECTED_RC: run with the Jobs in STATES; elapsed seconds in $T/RUN.s
k8s() {
    printf '%s\n' "$2" >"$T/state"
    start=$(date +%s)
    KUBECTL="$T/kubectl" DMLCTS_K8S_POLL=0.2 DMLCTS_K8S_TIMEOUT=1 sh "$KIT/dmlcts-k8s.sh" run "$1" >"$T/$1.out" 2>&1
    rc=$?
    echo $(($(date +%s) - start)) >"$T/$1.s"
    [ "$rc" -eq "$3" ] && ok || bad "dmlcts-k8s.sh run $1: exit $rc, expected $3: $(cat "$T/$1.out")"
}
k8s good "dmlcts-shards-good Complete
dmlcts-merge-good Complete" 0
grep -q "name: dmlcts-shards-good" "$T/applied.yaml" && grep -q "run good: /results/good/all.json" "$T/good.out" &&
    ok || bad "run good: $(cat "$T/good.out")"
k8s dead "dmlcts-shards-dead Failed
dmlcts-merge-dead Failed" 1
grep -q "job/dmlcts-shards-dead failed" "$T/dead.out" && [ "$(cat "$T/dead.s")" -le 1 ] && ok ||
    bad "a failed Job did not end the wait at once ($(cat "$T/dead.s") s): $(cat "$T/dead.out")"
k8s hung "" 1
grep -q "job/dmlcts-shards-hung did not finish in 1 s" "$T/hung.out" && ok || bad "a hung Job: $(cat "$T/hung.out")"

echo "test-fleet-k8s: $pass passed, $fail failed"
[ "$fail" -eq 0 ]
