#!/bin/sh
# dmlcts-k8s.sh -- one run of docs/fleet.md's Kubernetes kit.
#   sh scripts/k8s/dmlcts-k8s.sh run [RUN]     the PVC (once), the shards' Job, then the merge's
#   sh scripts/k8s/dmlcts-k8s.sh render [RUN]  the two Jobs of RUN, as applied
# RUN (default: the UTC date and time, 20261128-0200) names both Jobs (dmlcts-shards-RUN,
# dmlcts-merge-RUN), the results folder /results/RUN on the volume and every report's run id:
# lowercase letters, digits and '-', at most 49.  Each wait fails as soon as its Job fails
# (its pods' last lines are printed), else after DMLCTS_K8S_TIMEOUT seconds (default 7200);
# the exit status is the merge's: 0, or 1 when a case failed or anything went wrong.
set -eu
here=$(dirname "$0")
KUBECTL=${KUBECTL:-kubectl}
timeout=${DMLCTS_K8S_TIMEOUT:-7200}
poll=${DMLCTS_K8S_POLL:-10}
what=${1:-}
run=${2:-$(date -u +%Y%m%d-%H%M)}
case $run in
    '' | *[!a-z0-9-]* | -* | *-) echo "dmlcts-k8s: run '$run': expected lowercase letters, digits and '-'" >&2; exit 2 ;;
esac
[ ${#run} -le 49 ] || { echo "dmlcts-k8s: run '$run': at most 49 characters (Job names)" >&2; exit 2; }

render() { sed "s/@RUN@/$run/g" "$here/dmlcts-job.yaml"; }
# doc N: the N-th document of the rendered Jobs (1: shards, 2: merge)
doc() { render | awk -v n="$1" 'BEGIN { d = 1 } /^---$/ { d++; next } d == n'; }

# wait_job NAME: 0 when the Job completes; its pods' last lines and exit 1 as soon as it fails.
wait_job() {
    start=$(date +%s)
    while :; do
        st=$($KUBECTL get job "$1" -o 'jsonpath={range .status.conditions[?(@.status=="True")]}{.type}{" "}{end}') ||
            { echo "dmlcts-k8s: cannot read job/$1" >&2; return 1; }
        case " $st " in
            *" Complete "*) return 0 ;;
            *" Failed "* | *" FailureTarget "*)
                echo "dmlcts-k8s: job/$1 failed; its pods' last lines:" >&2
                $KUBECTL logs "job/$1" --all-containers --tail=20 >&2 || true
                return 1 ;;
        esac
        if [ $(($(date +%s) - start)) -ge "$timeout" ]; then
            echo "dmlcts-k8s: job/$1 did not finish in $timeout s" >&2
            return 1
        fi
        sleep "$poll"
    done
}

case $what in
    render) render ;;
    run)
        $KUBECTL apply -f "$here/dmlcts-pvc.yaml"
        doc 1 | $KUBECTL apply -f -
        wait_job "dmlcts-shards-$run" || echo "dmlcts-k8s: merging what the shards left (merge names the gaps)" >&2
        doc 2 | $KUBECTL apply -f -
        wait_job "dmlcts-merge-$run" && rc=0 || rc=1
        $KUBECTL logs "job/dmlcts-merge-$run" --tail=5 || true
        echo "dmlcts-k8s: run $run: /results/$run/all.json and all.html on the volume dmlcts-results"
        exit "$rc" ;;
    *) echo "usage: sh scripts/k8s/dmlcts-k8s.sh run|render [RUN]" >&2; exit 2 ;;
esac
