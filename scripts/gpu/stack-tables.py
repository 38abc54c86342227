#!/usr/bin/python3
"""stack-tables.py REPORT.json... -- the tables of docs/gpu-results/<stack>.md
from dmlcts --json reports of one backend (shards of one run are summed):
the totals, counts per operator x data type, and every case that did not
pass with its status and message.  Standard library only."""
import collections
import json
import sys

STATUSES = ["PASS", "FAIL", "NOT_SUPPORTED", "ERROR", "CRASH", "TIMEOUT", "OOB_WRITE", "SKIPPED"]


def main(paths):
    cases = []
    for p in paths:
        with open(p) as f:
            cases += json.load(f)["cases"]
    total = collections.Counter(c["status"] for c in cases)
    print("| cases | " + " | ".join(STATUSES) + " |")
    print("| ---: |" + " ---: |" * len(STATUSES))
    print("| %d | %s |" % (len(cases), " | ".join(str(total[s]) for s in STATUSES)))
    print()
    cells = collections.defaultdict(collections.Counter)
    for c in cases:
        cells[(c["operator"], c["data_type"] or "-")][c["status"]] += 1
    print("| operator | data type | " + " | ".join(STATUSES) + " |")
    print("| --- | --- |" + " ---: |" * len(STATUSES))
    for (op, dt), n in sorted(cells.items()):
        print("| %s | %s | %s |" % (op, dt, " | ".join(str(n[s]) if n[s] else "" for s in STATUSES)))
    bad = [c for c in cases if c["status"] not in ("PASS", "SKIPPED")]
    if bad:
        print()
        print("Cases that did not pass (%d):" % len(bad))
        print()
        for c in sorted(bad, key=lambda c: c["name"]):
            first = ""
            if c.get("mismatches"):
                m = c["mismatches"][0]
                first = "; first: %s" % json.dumps(m)[:200]
            print("- `%s` %s: %s%s" % (c["name"], c["status"], (c.get("message") or "").strip()[:240],
                                        first))


if __name__ == "__main__":
    main(sys.argv[1:])
