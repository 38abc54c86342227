#!/bin/sh
# test-python-install.sh BUILD/bin/dmlref -- the Python package where a user gets
# it: `make install PREFIX=P` puts it in P/lib/python3/dist-packages, where it
# finds P/lib's libraries and P/bin/dmlref by itself (make install's _install.py)
# with no environment set, runs an operator and explains a case element; `pip
# install --no-build-isolation` of python/ (offline: Debian's setuptools) gives a
# package whose pytest plugin is loaded by its entry point, with no -p (and with
# -p as well, which finds it loaded).
set -u
BUILD=$(dirname "$(dirname "${1:-build/bin/dmlref}")")
case $BUILD in *asan*) echo "test-python-install: skipped under ASan"; exit 0 ;; esac
PY=/usr/bin/python3
for m in numpy pytest setuptools pip; do
    if ! $PY -c "import $m" 2>/dev/null; then
        echo "test-python-install: skipped: $PY has no $m (apt-get install python3-$m)"
        exit 0
    fi
done
T=$(mktemp -d "${TMPDIR:-/tmp}/test-python-install.XXXXXX")
trap 'rm -rf "$T"' EXIT INT TERM
pass=0
fail=0
ok() { pass=$((pass + 1)); }
bad() { fail=$((fail + 1)); echo "FAIL: $*"; }
ROOT=$(pwd)
unset DMLREF DMLREF_LIBDIR DMLREF_GOLDENS

P=$T/prefix
if env -u MAKEFLAGS -u MFLAGS -u MAKELEVEL make -s install BUILD="$BUILD" PREFIX="$P" \
        >"$T/install.log" 2>&1; then ok; else
    bad "make install failed:"; tail -n 20 "$T/install.log"
fi
# From elsewhere, so that nothing of the checkout is found by accident.
out=$(cd "$T" && PYTHONPATH="$P/lib/python3/dist-packages" $PY - "$P" 2>&1 <<'PY'
import sys
import numpy as np
import dmlref
p = sys.argv[1]
assert dmlref.library_found_by == "make install's LIBDIR", dmlref.library_found_by
assert dmlref.library_paths[0] == p + "/lib/libdmlref.so.0", dmlref.library_paths
print(list(dmlref.gather(np.array([1, 2, 3], np.int16), np.array([2, 0], np.uint32), axis=0,
                         index_dimensions=1)))
c = dmlref.Case.load(p + "/share/dmlref/goldens/doc/gather.example1.json")
print(c.explain("OutputTensor[1]").splitlines()[-1].strip())
try:
    dmlref.gather(np.zeros(2, np.float32), np.zeros(2, np.uint32), axis=3, index_dimensions=1)
except dmlref.Error as e:
    print(e.rule)
PY
)
[ "$out" = "[3, 1]
the case expects 12 (0x41400000): the same
GATHER-3" ] && ok || bad "the installed package: $out"

# pip, offline, from a copy of python/ (pip writes its build files beside the source).
cp -R python "$T/src"
rm -rf "$T/src/test"
if $PY -m pip install -q --no-build-isolation --no-index --no-deps --target "$T/pip" "$T/src" \
        >"$T/pip.log" 2>&1; then ok; else
    bad "pip install --no-build-isolation failed:"; tail -n 20 "$T/pip.log"
fi
out=$(cd "$T" && DMLREF_LIBDIR="$ROOT/$BUILD/lib" PYTHONPATH="$T/pip:$ROOT/python/test" \
    $PY -m pytest -q -p no:cacheprovider --rootdir="$T" --dmlref-backend=numpy_backend:run \
    "$ROOT/goldens/doc" 2>&1)
case $out in *"27 passed"*) ok ;; *) bad "the pip-installed plugin by its entry point: $out" ;; esac
out=$(cd "$T" && DMLREF_LIBDIR="$ROOT/$BUILD/lib" PYTHONPATH="$T/pip:$ROOT/python/test" \
    $PY -m pytest -q -p no:cacheprovider --rootdir="$T" -p dmlref.pytest_plugin \
    --dmlref-backend=numpy_backend:run "$ROOT/goldens/doc/join.example1.json" 2>&1)
case $out in *"1 passed"*) ok ;; *) bad "-p dmlref.pytest_plugin beside the entry point: $out" ;; esac

echo "test-python-install: $pass passed, $fail failed"
[ "$fail" -eq 0 ]
