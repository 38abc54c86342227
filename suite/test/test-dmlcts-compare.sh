#!/bin/sh
# test-dmlcts-compare.sh BUILD/bin/dmlref -- run-to-run reporting: dmlcts
# compare (new failures, fixes, status changes, added and removed cases, its
# exit code, JUnit and HTML), --results-csv, --baseline (only deviations
# fail), the rerun of failing cases on a fresh worker (FLAKE, with the flaky
# mutant) and --flakes; list files and reports that are not regular files
# refused, reports written all or nothing.  One line per failed check; a
# closing count.
set -u
BUILD=$(dirname "$(dirname "${1:-build/bin/dmlref}")")
CTS=$BUILD/bin/dmlcts
LIB=$BUILD/lib
PY=/usr/bin/python3
T=$(mktemp -d "${TMPDIR:-/tmp}/test-dmlcts-compare.XXXXXX")
[ -n "${KEEP:-}" ] || trap 'rm -rf "$T"' EXIT INT TERM
pass=0
fail=0
SMALL="goldens/doc goldens/dmlcts-selftest"
CRASHER="plugin:$LIB/dmlcts_mutant_crash.so"
FLAKY="plugin:$LIB/dmlcts_mutant_flaky.so"
VICTIM=dmlcts-selftest/gather.nan_payloads

ok() { pass=$((pass + 1)); }
bad() { fail=$((fail + 1)); echo "FAIL: $*"; }

# run NAME EXPECTED_RC ARGS...: output in $T/NAME.out, stderr in $T/NAME.err
run() {
    name=$1 want=$2
    shift 2
    "$CTS" "$@" >"$T/$name.out" 2>"$T/$name.err"
    rc=$?
    if [ "$rc" -eq "$want" ]; then ok; else bad "$name: exit $rc, expected $want"; tail -n 5 "$T/$name.out" "$T/$name.err"; fi
}
has() { if grep -Eq -- "$2" "$T/$1.out"; then ok; else bad "$1: no line matches /$2/"; fi; }
hasnt() { if grep -Eq -- "$2" "$T/$1.out"; then bad "$1: a line matches /$2/"; else ok; fi; }
err_has() { if grep -Eq -- "$2" "$T/$1.err"; then ok; else bad "$1: stderr has no /$2/: $(head -c 300 "$T/$1.err")"; fi; }

for f in "$CTS" "$LIB/dmlcts_mutant_crash.so" "$LIB/dmlcts_mutant_flaky.so"; do
    [ -e "$f" ] || { echo "FAIL: $f is missing (make; make mutants)"; exit 1; }
done

# 1. Two runs to compare: the reference, and a backend that crashes on one case.
run ref 0 --no-progress --json "$T/ref.json" --results-csv "$T/ref.csv" $SMALL
run crash 1 --no-progress --timeout 5 --backend "$CRASHER" --json "$T/crash.json" \
    --results-csv "$T/crash.csv" $SMALL
run ref_doc 0 --no-progress --json "$T/ref_doc.json" goldens/doc

# 2. compare: a new failure exits 1 and names the case and both statuses.
run cmp_regress 1 compare "$T/ref.json" "$T/crash.json" --junit "$T/cmp.xml" --html "$T/cmp.html"
has cmp_regress "^== new failures \(1\) ==$"
has cmp_regress "^CRASH $VICTIM \(was PASS\): the backend process died of signal 11"
has cmp_regress "^dmlcts compare: 1 new failure\(s\), 0 fixed, 0 status change\(s\), 0 added, 0 removed$"
$PY - "$T/cmp.xml" <<'EOF' && ok || bad "compare --junit: not one failure for the one regression"
import sys, xml.etree.ElementTree as ET
x = ET.parse(sys.argv[1]).getroot()
assert x.get("failures") == "1", x.get("failures")
f = x.findall(".//failure")
assert len(f) == 1 and f[0].get("type") == "CRASH", [e.attrib for e in f]
EOF
grep -q "dmlcts-selftest/gather.nan_payloads" "$T/cmp.html" && grep -q "<h2>new failures (1)</h2>" "$T/cmp.html" &&
    ok || bad "compare --html lacks the new failure"
# Grouped by operator x data type, each change with its reproduce line (text and page); the page
# also holds both runs side by side, the crashed case first, with its details.
has cmp_regress "^-- GATHER x FLOAT32 --$"
grep -A1 "^CRASH $VICTIM " "$T/cmp_regress.out" | grep -q "^  reproduce: .*dmlcts .*--backend plugin:.*gather.nan_payloads.json -v$" &&
    ok || bad "compare: no reproduce line under the new failure"
$PY - "$T/cmp.html" "$T/ref.json" "$T/crash.json" <<'EOF' && ok || bad "compare --html: sections, reproduce lines, the runs side by side"
import re, sys
page = open(sys.argv[1]).read()
assert '<tr class="section"><th colspan="6">GATHER &times; FLOAT32</th></tr>' in page
assert "<br>reproduce: <code class=\"repro\">" in page
assert "<th>%s</th><th>%s</th>" % (sys.argv[2], sys.argv[3]) in page
first = re.search(r'<tr data-status="(\w+)"[^>]*data-differ="1"><td class="st-PASS">PASS</td>'
                  r'<td class="st-CRASH"><a href="#case-(\d+)">CRASH</a></td><td>([^<]*)</td>', page)
assert first and "gather.nan_payloads" in first.group(3), first
assert 'id="case-%s"' % first.group(2) in page
EOF
# ... the other way round it is a fix, exit 0; a run against itself shows nothing.
run cmp_fixed 0 compare "$T/crash.json" "$T/ref.json"
has cmp_fixed "^PASS $VICTIM \(was CRASH\)$"
has cmp_fixed "0 new failure\(s\), 1 fixed,"
run cmp_same 0 compare "$T/ref.json" "$T/ref.json"
has cmp_same "0 new failure\(s\), 0 fixed, 0 status change\(s\), 0 added, 0 removed$"
# Added cases: passing ones are listed only; a failing one is a new failure too.
n_self=$("$CTS" list goldens/dmlcts-selftest 2>/dev/null | wc -l)
run cmp_added 0 compare "$T/ref_doc.json" "$T/ref.json"
has cmp_added "^== added \($n_self\) ==$"
run cmp_added_fail 1 compare "$T/ref_doc.json" "$T/crash.json"
has cmp_added_fail "^CRASH $VICTIM \(added\): "
run cmp_removed 0 compare "$T/ref.json" "$T/ref_doc.json"
has cmp_removed "^== removed \($n_self\) ==$"
# Status changes among failing or among passing statuses; waived failures do not regress.
$PY - "$T/ref.json" "$T/crash.json" "$T/edited.json" "$T/waived.json" "$T/hostile.json" <<'EOF' || bad "could not edit the reports"
import json, sys
old, new = json.load(open(sys.argv[1])), json.load(open(sys.argv[2]))
for c in new["cases"]:
    if c["name"] == "doc/gather.example1":
        c["status"] = "NOT_SUPPORTED"
json.dump(new, open(sys.argv[3], "w"))
for c in new["cases"]:
    if c["status"] == "CRASH":
        c["waived"] = True
json.dump(new, open(sys.argv[4], "w"))
new["cases"][0]["name"] = "<script>alert(1)</script>&'\""
new["cases"][0]["message"] = "</td><b>x</b>"
new["cases"][0]["status"] = "FAIL"
json.dump(new, open(sys.argv[5], "w"))
EOF
run cmp_edited 0 compare "$T/crash.json" "$T/edited.json"
has cmp_edited "^NOT_SUPPORTED doc/gather.example1 \(was PASS\)$"
has cmp_edited "0 new failure\(s\), 0 fixed, 1 status change\(s\)"
run cmp_waived 0 compare "$T/ref.json" "$T/waived.json"
has cmp_waived "0 new failure\(s\), 0 fixed, 2 status change\(s\)"
run cmp_hostile 1 compare "$T/ref.json" "$T/hostile.json" --html "$T/hostile.html"
if grep -q "<script>alert\|<b>x</b>" "$T/hostile.html"; then bad "compare --html: a case name or message not escaped"; else ok; fi
grep -q "&lt;script&gt;alert(1)&lt;/script&gt;&amp;&#39;&quot;" "$T/hostile.html" && ok ||
    bad "compare --html: the hostile name is not there, escaped"
# Bad input: exit 2 and a line that names the file.
printf 'not json' >"$T/bad.json"
run cmp_bad 2 compare "$T/ref.json" "$T/bad.json"
err_has cmp_bad "bad.json is not valid JSON"
run cmp_missing 2 compare "$T/ref.json" "$T/none.json"
err_has cmp_missing "none.json: No such file"
run cmp_one 2 compare "$T/ref.json"
printf '{"format":"dmlcts-report-1","cases":[{"name":"a","status":"FAIL"},{"name":"a","status":"PASS"}]}' >"$T/dup.json"
run cmp_dup 2 compare "$T/ref.json" "$T/dup.json"
err_has cmp_dup "two cases are named a"
# INPUT-3: a report that is not a regular file is refused, never read (a FIFO hung in fopen);
# INPUT-6: a name from a report reaches stderr sanitised.
mkfifo "$T/cmp.fifo"
timeout 20 "$CTS" compare "$T/ref.json" "$T/cmp.fifo" >"$T/cmp_fifo.out" 2>"$T/cmp_fifo.err"
rc=$?
[ "$rc" -eq 2 ] && [ "$(wc -l <"$T/cmp_fifo.err")" -eq 1 ] && ok || bad "compare of a FIFO: exit $rc: $(cat "$T/cmp_fifo.err")"
err_has cmp_fifo "^dmlcts compare: cannot read $T/cmp.fifo: a FIFO, not a regular file$"
printf '{"format":"dmlcts-report-1","cases":[{"name":"\\u001b[2J","status":"FAIL"},{"name":"\\u001b[2J","status":"PASS"}]}' >"$T/dup_esc.json"
run cmp_dup_esc 2 compare "$T/ref.json" "$T/dup_esc.json"
if grep -q "$(printf '\033')" "$T/cmp_dup_esc.err"; then bad "cmp_dup_esc: a raw ESC on stderr"; else ok; fi
err_has cmp_dup_esc 'two cases are named \\x1b\[2J$'
printf '{"format":"dmlcts-report-1","cases":[{"name":"a","status":"BROKEN"}]}' >"$T/st.json"
run cmp_status 2 compare "$T/ref.json" "$T/st.json"
err_has cmp_status "cases\[0\].status is not a dmlcts status"

# Reports all or nothing: when one cannot be written (a folder in its place, a missing folder),
# exit 2 with one line, and no other report of the command is left (an earlier one in place stays).
mkdir -p "$T/rep/dir"
printf 'old\n' >"$T/rep/old.json"
run rep_dir 2 --no-progress --json "$T/rep/old.json" --junit "$T/rep/j.xml" --results-csv "$T/rep/c.csv" \
    --html "$T/rep/dir" goldens/doc/gather.example1.json
err_has rep_dir "^dmlcts: cannot write --html $T/rep/dir: Is a directory$"
run rep_nodir 2 --no-progress --json "$T/rep/x.json" --html "$T/rep/none/x.html" goldens/doc/gather.example1.json
err_has rep_nodir "^dmlcts: cannot write --html $T/rep/none/x.html$"
run cmp_nojunit 2 compare "$T/ref.json" "$T/crash.json" --junit "$T/rep/none/c.xml" --html "$T/rep/c.html"
err_has cmp_nojunit "^dmlcts compare: cannot write --junit $T/rep/none/c.xml$"
run cmp_nohtml 2 compare "$T/ref.json" "$T/crash.json" --junit "$T/rep/c.xml" --html "$T/rep/dir"
run report_dir 2 report "$T/ref.json" --html "$T/rep/dir"
for f in rep_dir rep_nodir cmp_nojunit cmp_nohtml report_dir; do
    [ "$(wc -l <"$T/$f.err")" -eq 1 ] && ok || bad "$f: not one line on stderr: $(cat "$T/$f.err")"
done
# ... also when the last rename fails (a shim makes the .html one fail): the renamed ones go again,
# an older report is put back.
if printf '%s\n' '#define _GNU_SOURCE' '#include <dlfcn.h>' '#include <errno.h>' '#include <string.h>' \
    'int rename(const char *a, const char *b) {' \
    '    static int (*real)(const char *, const char *);' \
    '    size_t n = strlen(b);' \
    '    if (n >= 5 && strcmp(b + n - 5, ".html") == 0) { errno = EIO; return -1; }' \
    '    if (!real) real = (int (*)(const char *, const char *))dlsym(RTLD_NEXT, "rename");' \
    '    return real(a, b);' '}' >"$T/shim.c" &&
    ${CC:-cc} -shared -fPIC -o "$T/shim.so" "$T/shim.c" -ldl 2>"$T/shim.err"; then
    printf 'old\n' >"$T/rep/y.xml"
    LD_PRELOAD="$T/shim.so" ASAN_OPTIONS="${ASAN_OPTIONS:+$ASAN_OPTIONS:}verify_asan_link_order=0" \
        "$CTS" --no-progress --json "$T/rep/y.json" --junit "$T/rep/y.xml" --html "$T/rep/y.html" \
        goldens/doc/gather.example1.json >"$T/rep_rename.out" 2>"$T/rep_rename.err"
    rc=$?
    [ "$rc" -eq 2 ] && ok || bad "rep_rename: exit $rc, expected 2"
    err_has rep_rename "^dmlcts: cannot write $T/rep/y.html: Input/output error$"
    [ "$(cat "$T/rep/y.xml")" = old ] && rm "$T/rep/y.xml" && ok || bad "rep_rename: the older y.xml not put back"
else
    echo "test-dmlcts-compare: no C compiler for the rename shim (${CC:-cc}): the rename rollback is not tested"
fi
[ "$(ls -A "$T/rep" | tr '\n' ' ')" = "dir old.json " ] && [ "$(cat "$T/rep/old.json")" = old ] && ok ||
    bad "a failed report write left: $(ls -A "$T/rep" | tr '\n' ' ')(old.json: $(head -c 20 "$T/rep/old.json"))"

# 3. --results-csv: the header CASE,STATUS,DURATION, then one line per case, agreeing with --json.
$PY - "$T/crash.csv" "$T/crash.json" <<'EOF' && ok || bad "--results-csv disagrees with --json"
import csv, json, sys
rows = list(csv.reader(open(sys.argv[1])))
assert rows.pop(0) == ["CASE", "STATUS", "DURATION"], "no header"
j = json.load(open(sys.argv[2]))
assert len(rows) == len(j["cases"]) == j["totals"]["cases"], (len(rows), len(j["cases"]))
assert all(len(r) == 3 and float(r[2]) >= 0 for r in rows)
assert {r[0]: r[1] for r in rows} == {c["name"]: c["status"] for c in j["cases"]}
EOF

# 4. --baseline: the crashing run against its own failures passes; the
# reference against the same baseline deviates (the crash is gone) and fails.
grep -v ',PASS,' "$T/crash.csv" >"$T/baseline.csv"
run base_same 0 --no-progress --timeout 5 --backend "$CRASHER" --baseline "$T/baseline.csv" $SMALL
has base_same "^CRASH $VICTIM \(waived\)"
has base_same "; 0 deviation\(s\) from the baseline$"
hasnt base_same "^rerunning"
run base_fixed 1 --no-progress --baseline "$T/baseline.csv" $SMALL
has base_fixed "^PASS $VICTIM \(baseline: CRASH\)"
has base_fixed "; 1 deviation\(s\) from the baseline$"
# The closing line counts the deviation, and the fixed case says how to refresh the baseline.
has base_fixed "^dmlcts: [0-9]+ passed, 0 failed, 0 skipped, 1 deviation\(s\) from the baseline$"
has base_fixed "^dmlcts: 1 case\(s\) that --baseline $T/baseline.csv expects to fail now pass; refresh the baseline: rerun with --results-csv NEW.csv and use NEW.csv as --baseline$"
run base_fixed_csv 1 --no-progress --baseline "$T/baseline.csv" --results-csv "$T/new.csv" $SMALL
has base_fixed_csv "refresh the baseline: cp $T/new.csv $T/baseline.csv$"
run base_refreshed 0 --no-progress --baseline "$T/new.csv" $SMALL
has base_refreshed "^dmlcts: [0-9]+ passed, 0 failed, 0 skipped, 0 deviation\(s\) from the baseline$"
hasnt base_same "refresh the baseline"
# An unlisted failure deviates; statuses are read as deqp-runner writes them;
# a quoted name is one field; FLAKE in the baseline also accepts PASS.
printf '# deqp-runner style\n"doc/gather.example1",Pass\n' >"$T/other.csv"
run base_unlisted 1 --no-progress --timeout 5 --backend "$CRASHER" --baseline "$T/other.csv" $SMALL
has base_unlisted "^CRASH $VICTIM \(baseline: PASS\)"
printf '%s,Flake\n' "$VICTIM" >"$T/flake.csv"
run base_flake 0 --no-progress --baseline "$T/flake.csv" $SMALL
run base_json 0 --no-progress --baseline "$T/baseline.csv" --timeout 5 --backend "$CRASHER" \
    --json "$T/base.json" $SMALL
$PY - "$T/base.json" <<'EOF' && ok || bad "--json lacks baseline and deviation"
import json, sys
c = [c for c in json.load(open(sys.argv[1]))["cases"] if c["status"] == "CRASH"][0]
assert c["baseline"] == "CRASH" and c["deviation"] is False and c["waived"] is True, c
EOF
# A name with a comma and quotes survives --results-csv and comes back as a baseline.
mkdir -p "$T/odd"
$PY - "$T/odd" <<'EOF' || bad "could not write the odd cases"
import json, sys
json.dump(json.load(open("goldens/doc/gather.example1.json")), open(sys.argv[1] + "/a.json", "w"))
c = json.load(open("goldens/doc/cumulative_product.example2.json"))
c["name"] = 'odd, "quoted" name'
json.dump(c, open(sys.argv[1] + "/b.json", "w"))
EOF
run odd 1 --no-progress --no-rerun --backend "$FLAKY" --results-csv "$T/odd.csv" "$T/odd"
$PY - "$T/odd.csv" <<'EOF' && ok || bad "--results-csv: the odd name does not read back"
import csv, sys
rows = {r[0]: r[1] for r in csv.reader(open(sys.argv[1]))}
assert rows['odd, "quoted" name'] == "FAIL", rows
EOF
run odd_base 0 --no-progress --no-rerun --backend "$FLAKY" --baseline "$T/odd.csv" "$T/odd"
has odd_base '^FAIL odd, "quoted" name \(waived\)'
printf 'doc/gather.example1,BROKEN\n' >"$T/badstatus.csv"
run base_badstatus 2 --no-progress --baseline "$T/badstatus.csv" goldens/doc
err_has base_badstatus "badstatus.csv:1: \"BROKEN\" is not a status"
printf 'doc/gather.example1\n' >"$T/nocomma.csv"
run base_nocomma 2 --no-progress --baseline "$T/nocomma.csv" goldens/doc
err_has base_nocomma "nocomma.csv:1: expected CASE,STATUS"
printf 'a,FAIL\na,PASS\n' >"$T/twice.csv"
run base_twice 2 --no-progress --baseline "$T/twice.csv" goldens/doc
err_has base_twice "a is listed twice"
run base_missing 2 --no-progress --baseline "$T/none.csv" goldens/doc
# INPUT-3: --baseline and --flakes are read as --expected-failures is: a directory, a FIFO, a
# device, a file over 16 MiB or one with a NUL byte is refused before any case runs (one line,
# exit 2, nothing on stdout; they were an empty list, a hang, an endless read).
mkfifo "$T/fifo"
truncate -s 17M "$T/big"
printf 'a,FAIL\000\n' >"$T/nul.csv"
i=0
for opt in --baseline --flakes; do
    for f in "$T" "$T/fifo" /dev/zero "$T/big" "$T/nul.csv"; do
        i=$((i + 1))
        timeout 20 "$CTS" --no-progress "$opt" "$f" goldens/doc/gather.example1.json \
            >"$T/list$i.out" 2>"$T/list$i.err"
        rc=$?
        if [ "$rc" -eq 2 ] && [ "$(wc -l <"$T/list$i.err")" -eq 1 ] && [ ! -s "$T/list$i.out" ] &&
            grep -Fq "dmlcts: $opt" "$T/list$i.err" && grep -Fq "$f" "$T/list$i.err"; then ok
        else bad "$opt $f: exit $rc, expected 2 and one line naming it: $(head -c 300 "$T/list$i.err")"; fi
    done
done
# INPUT-6: a baseline's bytes reach stderr sanitised, never as a raw escape sequence.
ESC=$(printf '\033')
printf 'x\033[31mRED,FAIL\nx\033[31mRED,FAIL\n' >"$T/esc_twice.csv"
printf 'a,FA\033[2J\n' >"$T/esc_status.csv"
for f in esc_twice esc_status; do
    run "$f" 2 --no-progress --baseline "$T/$f.csv" goldens/doc
    if grep -q "$ESC" "$T/$f.err"; then bad "$f: a raw ESC on stderr"; else ok; fi
done
err_has esc_twice 'esc_twice.csv: x\\x1b\[31mRED is listed twice$'
err_has esc_status 'esc_status.csv:1: "FA\\x1b\[2J" is not a status'

# 5. Rerun: the flaky mutant is wrong only on the second case a process runs,
# so that case fails, passes alone on a fresh worker, and is FLAKE: reported,
# not failing.  A crash that repeats stays CRASH, with the rerun noted.
run flaky 0 --no-progress --backend "$FLAKY" --json "$T/flaky.json" --results-csv "$T/flaky.csv" \
    --junit "$T/flaky.xml" goldens/doc
has flaky "^rerunning 1 failing case\(s\) on a fresh worker$"
has flaky "^FLAKE [^ ]+: FAIL when first run \([0-9]+ of [0-9]+ compared element\(s\) differ\), passed when rerun on a fresh worker$"
has flaky ", 0 failed, 0 skipped, 1 flaky$"
grep -q ',FLAKE,' "$T/flaky.csv" && ok || bad "--results-csv has no FLAKE line"
$PY - "$T/flaky.json" "$T/flaky.xml" <<'EOF' && ok || bad "FLAKE in --json / --junit"
import json, sys, xml.etree.ElementTree as ET
j = json.load(open(sys.argv[1]))
assert j["totals"]["FLAKE"] == 1 and j["exit_code"] == 0
c = [c for c in j["cases"] if c["status"] == "FLAKE"][0]
assert c["mismatch_count"] > 0 and c["mismatches"] and c["known_flake"] is False
x = ET.parse(sys.argv[2]).getroot()
assert x.get("failures") == "0" and len(x.findall(".//flakyFailure")) == 1
EOF
run flaky_cmp 0 compare "$T/ref_doc.json" "$T/flaky.json"
has flaky_cmp "^FLAKE [^ ]+ \(was PASS\)$"
run norerun 1 --no-progress --no-rerun --backend "$FLAKY" goldens/doc
has norerun "^FAIL "
hasnt norerun "^rerunning"
# --flakes: a listed case is rerun even with --no-rerun, and said to be known.
flaky_case=$(grep -o '^FLAKE [^:]*' "$T/flaky.out" | cut -d' ' -f2)
printf '# known flaky\n^%s$\n' "$(printf '%s' "$flaky_case" | sed 's/[.]/[.]/g')" >"$T/flakes"
run known 0 --no-progress --no-rerun --flakes "$T/flakes" --backend "$FLAKY" goldens/doc
has known "^FLAKE $flaky_case: .*; a known flake \(--flakes\)$"
hasnt known "baseline"
printf 'gather(\n' >"$T/badre"
run badre 2 --no-progress --flakes "$T/badre" goldens/doc
err_has badre "badre:1: not an extended regular expression"
run crash_rerun 1 --no-progress --timeout 5 --backend "$CRASHER" $SMALL
has crash_rerun "^  rerun on a fresh worker: CRASH: the backend process died of signal 11"
has crash_rerun "^dmlcts: [0-9]+ passed, 1 failed, 0 skipped$"
# cmd: backends too: a program that crashes on one case the first time only.
cat >"$T/flaky_cmd.sh" <<EOF
#!/bin/sh
if grep -q '"doc/gather.example1"' "\$1/request.json" && [ ! -e "$T/flaked" ]; then
    touch "$T/flaked"
    kill -SEGV \$\$
fi
exec $PY backends/python/ref_client.py "\$1"
EOF
run cmd_flaky 0 --no-progress --backend "cmd:sh $T/flaky_cmd.sh" --batch 1 goldens/doc
has cmd_flaky "^CRASH doc/gather.example1: the command died of signal 11"
has cmd_flaky "^FLAKE doc/gather.example1: CRASH when first run \(the command died of signal 11"
# TAP: a FLAKE is ok, with its story as diagnostics.
run flaky_tap 0 --tap --backend "$FLAKY" goldens/doc
has flaky_tap "^# FLAKE: FAIL when first run"
hasnt flaky_tap "^not ok"

echo "test-dmlcts-compare: $pass passed, $fail failed"
[ "$fail" -eq 0 ]
