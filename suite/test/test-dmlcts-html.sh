#!/bin/sh
# test-dmlcts-html.sh BUILD/bin/dmlref -- the --html report (and dmlcts report's
# page of any --json report, several side by side): its structure
# (header, the operator x data type grid, one table row per case that did
# not pass, details with mismatches and reproducers), a heat map that puts
# the flaky mutant's "every 4th element" in column 0, hostile case names
# escaped, the whole corpus under 3 MB; then the page rendered by Debian's
# headless Chromium: it loads with no console error and no script error
# (a sentinel the page writes into its DOM), the grid and a heat map are in
# the rendered DOM, and the screenshot is kept as BUILD/dmlcts-report.png.
# Without Chromium (not root, no apt) the browser part is skipped, saying so.
set -u
BUILD=$(dirname "$(dirname "${1:-build/bin/dmlref}")")
CTS=$BUILD/bin/dmlcts
LIB=$BUILD/lib
PY=/usr/bin/python3
T=$(mktemp -d "${TMPDIR:-/tmp}/test-dmlcts-html.XXXXXX")
trap 'rm -rf "$T"' EXIT INT TERM
pass=0
fail=0
ok() { pass=$((pass + 1)); }
bad() { fail=$((fail + 1)); echo "FAIL: $*"; }
for f in "$CTS" "$LIB/dmlcts_mutant_axis_off_by_one.so" "$LIB/dmlcts_mutant_flaky.so"; do
    [ -e "$f" ] || { echo "FAIL: $f is missing (make; make mutants)"; exit 1; }
done
# run EXPECTED_RC ARGS...
run() {
    want=$1
    shift
    "$CTS" --no-progress -q "$@" >"$T/out" 2>"$T/err"
    rc=$?
    [ "$rc" -eq "$want" ] && ok || { bad "dmlcts $*: exit $rc, expected $want"; tail -n 3 "$T/err"; }
}

# 1. A mutant with failures of several operators: the page holds what the JSON says.
run 1 --no-rerun --backend "plugin:$LIB/dmlcts_mutant_axis_off_by_one.so" --html "$T/r.html" \
    --json "$T/r.json" goldens/doc goldens/dmlcts-selftest
$PY - "$T/r.html" "$T/r.json" <<'EOF' && ok || bad "the page does not hold what --json says"
import json, re, sys
from html.parser import HTMLParser
page, j = open(sys.argv[1]).read(), json.load(open(sys.argv[2]))
class P(HTMLParser):
    def __init__(s):
        super().__init__(); s.stack = []; s.rows = []; s.svgs = 0; s.grid_cells = []
    def handle_starttag(s, tag, a):
        a = dict(a)
        if tag not in ("meta", "br", "rect", "input", "option"):
            s.stack.append(tag)
        if tag == "tr" and "data-status" in a: s.rows.append((a["data-status"], a["data-op"]))
        if tag == "div" and a.get("class") == "map": s.svgs += 1  # a heat map's data
        if tag == "td" and "data-op" in a: s.grid_cells.append((a["data-op"], a["class"]))
    def handle_endtag(s, tag):
        if tag in ("rect", "option"): return
        assert s.stack and s.stack[-1] == tag, (tag, s.stack[-5:])
        s.stack.pop()
p = P(); p.feed(page); p.close()
assert p.stack == [], p.stack
for k in ("backend", "device", "feature level", "date", "dmlcts", "command"):
    assert "<tr><td>%s</td>" % k in page, k
assert j["backend"]["name"] in page
not_passed = [c for c in j["cases"] if c["status"] != "PASS"]
assert sorted(p.rows) == sorted((c["status"], c["operator"]) for c in not_passed), p.rows
# Grid: one coloured cell per operator x data type present, coloured by its worst status.
cells = {(c["operator"], c["data_type"]) for c in j["cases"]}
assert len(p.grid_cells) == len(cells), (len(p.grid_cells), len(cells))
assert any("st-FAIL" in c for _, c in p.grid_cells) and any("st-PASS" in c for _, c in p.grid_cells)
failing = [c for c in j["cases"] if c["status"] == "FAIL"]
assert p.svgs >= 1 and p.svgs >= len([c for c in failing if c["mismatch_count"]]) , p.svgs
assert page.count("reproduce: <code") == len([c for c in j["cases"] if c["status"] in
    ("FAIL", "CRASH", "TIMEOUT", "OOB_WRITE", "ERROR", "FLAKE") and not c["negative"]])
m = failing[0]["mismatches"][0]
assert "<td>%s</td><td>%s</td>" % (m["expected"], m["expected_bits"]) in page, m
EOF

# 2. The map's data says where: the flaky mutant flips every 4th element of
# doc/cumulative_product.example2 (Sizes [1,1,3,4]): column 0 of each of the
# 3 rows, and nothing else (the drawing is checked in Chromium, below).
run 0 --backend "plugin:$LIB/dmlcts_mutant_flaky.so" --html "$T/f.html" --json "$T/f.json" goldens/doc
$PY - "$T/f.html" <<'EOF' && ok || bad "the heat map of every 4th element is not column 0 of 3 rows"
import re, sys
page = open(sys.argv[1]).read()
maps = re.findall(r'<div class="map" data-tensor="OutputTensor" data-sizes="1,1,3,4" '
                  r'data-extent="1,3,4" data-bins="1,3,4" data-cells="([^"]*)"', page)
assert maps == ["1,0*3,1,0*3,1,0*3"], maps
assert "FLAKE" in page and "passed when rerun on a fresh worker" in page
EOF
# dmlcts report renders the same page from the --json report (the label aside).
"$CTS" report "$T/f.json" --html "$T/f2.html" >"$T/out" 2>&1 && ok || bad "dmlcts report: $(cat "$T/out")"
sed "s|<td>$T/f.json</td>|<td>this run</td>|" "$T/f2.html" | cmp -s - "$T/f.html" && ok ||
    bad "dmlcts report's page differs from the run's own --html"

# 3. Case names and messages are untrusted: escaped everywhere.
mkdir -p "$T/hostile"
$PY - "$T/hostile" <<'EOF' || bad "could not write the hostile cases"
import json, sys
c = json.load(open("goldens/doc/gather.example1.json"))
json.dump(c, open(sys.argv[1] + "/a.json", "w"))
c = json.load(open("goldens/doc/cumulative_product.example2.json"))
c["name"] = "<script>window.dmlctsErrors++</script><img src=x onerror=alert(1)>\"'&"
json.dump(c, open(sys.argv[1] + "/b.json", "w"))
EOF
run 1 --no-rerun --backend "plugin:$LIB/dmlcts_mutant_flaky.so" --html "$T/hostile.html" "$T/hostile"
if grep -qF -e "<script>window.dmlctsErrors++</script>" -e "<img src=x" "$T/hostile.html"; then bad "a hostile case name reached the page unescaped"; else ok; fi
grep -q "&lt;script&gt;window.dmlctsErrors++&lt;/script&gt;&lt;img src=x onerror=alert(1)&gt;&quot;&#39;&amp;" \
    "$T/hostile.html" && ok || bad "the hostile name is not on the page, escaped"

# 4. The whole corpus against a mutant that fails most of it: every failure in detail, under 3 MB.
run 1 --no-rerun --backend "plugin:$LIB/dmlcts_mutant_axis_off_by_one.so" --html "$T/all.html" \
    --json "$T/all.json" goldens
size=$(wc -c <"$T/all.html")
[ "$size" -lt 3000000 ] && ok || bad "the corpus report is $size bytes"
$PY - "$T/all.html" "$T/all.json" <<'EOF' && ok || bad "the corpus page does not detail every failure"
import json, sys
page, j = open(sys.argv[1]).read(), json.load(open(sys.argv[2]))
n = len([c for c in j["cases"] if c["status"] in ("FAIL", "CRASH", "TIMEOUT", "OOB_WRITE", "ERROR",
         "FLAKE") and not c["negative"]])
assert n > 300 and page.count('<details class="failure') == n, (n, page.count('<details class="failure'))
EOF
# A page of 10,000 failures: the corpus's failures repeated under new names, rendered by dmlcts report.
$PY - "$T/all.json" "$T/10k.json" <<'EOF' || bad "could not write the 10,000-failure report"
import json, sys
j = json.load(open(sys.argv[1]))
fails = [c for c in j["cases"] if c["status"] == "FAIL"]
j["cases"] = [dict(fails[i % len(fails)], name="%s#%d" % (fails[i % len(fails)]["name"], i))
              for i in range(10000)]
json.dump(j, open(sys.argv[2], "w"))
EOF
"$CTS" report "$T/10k.json" --html "$T/10k.html" >"$T/out" 2>&1 && ok || bad "report of 10,000 failures: $(cat "$T/out")"
[ "$(grep -c '^<details class="failure' "$T/10k.html")" -eq 10000 ] && ok || bad "the 10,000-failure page lacks details"

# 5. Details: a bound-judged failure shows its judge mode and bound, an integer one its
# difference, each a `dmlref explain` line that runs.
BOUNDCASE=goldens/known/cumulative_product_float16_repeated_6_5_middle_axis.json
run 1 --no-rerun --backend "plugin:$LIB/dmlcts_mutant_bf16_accumulator.so" --html "$T/b.html" \
    --json "$T/b.json" "$BOUNDCASE"
run 1 --no-rerun --backend "plugin:$LIB/dmlcts_mutant_sum_saturates.so" --html "$T/i.html" \
    --json "$T/i.json" goldens/cumulative_summation/int32_wraps.json
$PY - "$T/b.html" "$T/b.json" "$T/i.html" "$T/i.json" <<'EOF' && ok || bad "judge mode, bound, difference or explain missing"
import json, sys
bp, bj, ip, ij = open(sys.argv[1]).read(), json.load(open(sys.argv[2])), open(sys.argv[3]).read(), json.load(open(sys.argv[4]))
m = bj["cases"][0]["mismatches"][0]
assert m["judge"] == "cumulative_product_bound" and m["bound"] > 0, m
# the bound is what the element missed: |got - expected| is beyond it
assert abs(float(m["got"]) - float(m["expected"])) > m["bound"], m
assert "<th>judge</th><th>bound</th>" in bp and "<td>cumulative_product_bound</td><td>%.6g</td>" % m["bound"] in bp
d = ij["cases"][0]["mismatches"]
for x in d:  # integer differences, checked against a naive subtraction
    assert int(x["difference"]) == int(x["got"]) - int(x["expected"]), x
assert "<th>difference</th>" in ip and "<td>%s</td>" % d[0]["difference"] in ip
for j, page in ((bj, bp), (ij, ip)):
    e = j["cases"][0]["explain"]
    assert e and " explain " in e and "explain: <code class=\"repro\">" in page, e
open(sys.argv[1] + ".explain", "w").write(ij["cases"][0]["explain"])
EOF
sh -c "$(cat "$T/b.html.explain" 2>/dev/null)" >"$T/explain.out" 2>&1
grep -q "OutputTensor\[1\]" "$T/explain.out" && ok || bad "the explain line does not run: $(head -c 300 "$T/explain.out")"

# 6. Side by side: the flaky run, the reference and the axis mutant on goldens/doc; the
# cases whose status differs come first, grouped by operator x data type; a missing run
# is "absent".
"$CTS" --no-progress -q --json "$T/ref_doc.json" goldens/doc >/dev/null 2>&1
"$CTS" report "$T/f.json" "$T/ref_doc.json" "$T/r.json" --html "$T/side.html" >"$T/out" 2>&1 && ok ||
    bad "report of three runs: $(cat "$T/out")"
$PY - "$T/side.html" "$T/f.json" "$T/ref_doc.json" "$T/r.json" <<'EOF' && ok || bad "the side-by-side page"
import json, re, sys
page = open(sys.argv[1]).read()
runs = [json.load(open(p)) for p in sys.argv[2:5]]
for p in sys.argv[2:5]:
    assert "<th>%s</th>" % p in page, p
status = [{c["name"]: c["status"] for c in r["cases"]} for r in runs]
names = set().union(*status)
differ = {n for n in names if len({s.get(n, "absent") for s in status}) > 1}
rows = re.findall(r'<tr(?: class="off")? data-status="(\w+)" data-op="[^"]*" data-dt="[^"]*" '
                  r'data-differ="(\d)">((?:<td[^>]*>.*?</td>){3})<td>([^<]*)</td>', page)
flags = [int(f) for _, f, _, _ in rows]
assert flags == sorted(flags, reverse=True) and sum(flags) == len(differ) > 0, (sum(flags), len(differ))
for _, f, cells, name in rows:
    got = re.findall(r'>(?:<a [^>]*>)?(absent|[A-Z_]+)', cells)
    assert got == [s.get(name, "absent") for s in status], (name, got)
assert '<tr class="group"' in page
EOF

# 5. Chromium: renders the page with no console or script error; grid and map in the DOM.
CHROMIUM=$(command -v chromium || command -v chromium-browser || true)
if [ -z "$CHROMIUM" ] && [ "$(id -u)" -eq 0 ]; then
    sh scripts/deps.sh >/dev/null 2>&1
    CHROMIUM=$(command -v chromium || true)
fi
if [ -z "$CHROMIUM" ]; then
    echo "test-dmlcts-html: SKIP the browser checks: no chromium (as root: sh scripts/deps.sh)"
else
    # browse PAGE NAME ARGS...: stderr (console) in $T/NAME.log, output in $T/NAME.out
    browse() {
        page=$1 name=$2
        shift 2
        rm -rf "$T/profile"
        timeout 120 "$CHROMIUM" --headless --no-sandbox --disable-gpu --disable-quic --no-first-run \
            --disable-background-networking --disable-component-update --disable-sync \
            --disable-dev-shm-usage --user-data-dir="$T/profile" --enable-logging=stderr --v=0 \
            --hide-scrollbars "$@" "file://$page" >"$T/$name.out" 2>"$T/$name.log"
    }
    console_errors() { grep -E 'CONSOLE|Uncaught' "$T/$1.log"; }
    # The detectors themselves: a page whose script throws is caught by both.
    printf '<!DOCTYPE html><html><body><p id="js-status">script ok</p><script>%s</script><script>nosuchfunction();</script></body></html>\n' \
        "window.addEventListener('error',function(e){document.getElementById('js-status').textContent='script error'});" >"$T/broken.html"
    browse "$T/broken.html" broken --dump-dom
    console_errors broken >/dev/null && ok || bad "chromium's log shows no console error for a throwing page"
    grep -q 'script error' "$T/broken.out" && ok || bad "the error sentinel missed a throwing page"
    for p in r hostile side; do
        browse "$T/$p.html" "dom_$p" --dump-dom
        grep -q '<p class="small" id="js-status">script ok</p>' "$T/dom_$p.out" && ok ||
            bad "$p.html: the page's script did not run clean: $(grep -o 'id="js-status">[^<]*' "$T/dom_$p.out")"
        if console_errors "dom_$p"; then bad "$p.html: console errors (above)"; else ok; fi
    done
    grep -q '<table class="grid" id="grid">' "$T/dom_r.out" && grep -q '<svg class="heatmap"' "$T/dom_r.out" &&
        ok || bad "the rendered DOM lacks the grid or a heat map"
    grep -q 'id="f-count">[0-9]* shown<' "$T/dom_r.out" && ok || bad "the filter script did not count the rows"
    # The flaky map, drawn: column 0 of 3 rows hot, a cell grid, each run of cells titled
    # with its coordinates (the hover text).
    browse "$T/f.html" dom_f --dump-dom
    $PY - "$T/dom_f.out" <<'EOF' && ok || bad "the drawn heat map of every 4th element"
import re, sys
dom = open(sys.argv[1]).read()
svgs = re.findall(r'<svg class="heatmap".*?</svg>', dom, re.S)
assert len(svgs) == 1, len(svgs)
bg = re.search(r'<rect x="0" y="0" width="(\d+)" height="(\d+)" fill="#dcedc8"', svgs[0])
w, h = int(bg.group(1)), int(bg.group(2))
s = w // 4
assert w == 4 * s and h == 3 * s, (w, h)
hot = re.findall(r'<rect x="(\d+)" y="(\d+)" width="(\d+)" height="\d+" fill="#b71c1c"[^>]*>'
                 r'<title>([^<]*)</title>', svgs[0])
assert [(int(x), int(y), int(ww)) for x, y, ww, _ in hot] == [(0, 0, s), (0, s, s), (0, 2 * s, s)], hot
assert [t for *_, t in hot] == ["OutputTensor rows %d, columns 0: 1 of 1 element(s) differ" % y
                                for y in range(3)], hot
assert "OutputTensor rows 0, columns 1\u20133: 0 of 3 element(s) differ" in svgs[0]
assert 'class="cellgrid"' in svgs[0]
EOF
    # 10,000 failures: the page loads (navigation to the load event, as the page itself
    # measures it) within 30 s: room for a loaded CI machine, not for a page that draws
    # every failure at once.
    browse "$T/10k.html" dom_10k --dump-dom
    ms=$(grep -o 'id="js-time">loaded in [0-9]* ms' "$T/dom_10k.out" | grep -o '[0-9]*' | head -n 1)
    echo "test-dmlcts-html: the 10,000-failure page ($(wc -c <"$T/10k.html") bytes) loaded in ${ms:-?} ms"
    [ -n "$ms" ] && [ "$ms" -lt 30000 ] && ok || bad "the 10,000-failure page loaded in ${ms:-(never)} ms, limit 30000"
    grep -q 'id="js-status">script ok<' "$T/dom_10k.out" && ok || bad "the 10,000-failure page's script failed"
    # A link to the 1000th failure (page 20) shows its page: its body, kept inert until then,
    # becomes elements (the mismatch table), and no other page is shown.
    id=$(grep -o '^<details class="failure off" id="case-[0-9]*"' "$T/10k.html" | sed -n 950p | grep -o 'case-[0-9]*')
    browse "$T/10k.html#$id" dom_10k_link --dump-dom
    $PY - "$T/dom_10k_link.out" "$id" <<'EOF' && ok || bad "a link to a failure on a later page does not show it"
import re, sys
dom, id = open(sys.argv[1]).read(), sys.argv[2]
shown = re.findall(r'<details class="failure" id="(case-\d+)" open="">(.*?)</details>', dom, re.S)
assert len(shown) == 50 and id in [i for i, _ in shown], len(shown)
body = dict(shown)[id]
assert '<table class="mono">' in body and 'type="text/html"' not in body and "reproduce:" in body
EOF
    browse "$T/r.html" shot --screenshot="$T/shot.png" --window-size=1000,1300
    if [ -s "$T/shot.png" ] && [ "$(head -c 4 "$T/shot.png" | od -An -c | tr -d ' ')" = "211PNG" ]; then
        cp "$T/shot.png" "$BUILD/dmlcts-report.png" && ok
        echo "test-dmlcts-html: screenshot in $BUILD/dmlcts-report.png"
    else
        bad "no PNG screenshot: $(tail -n 2 "$T/shot.log")"
    fi
fi

echo "test-dmlcts-html: $pass passed, $fail failed"
[ "$fail" -eq 0 ]
