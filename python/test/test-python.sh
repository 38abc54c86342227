#!/bin/sh
# test-python.sh BUILD/bin/dmlref -- the Python package (python/dmlref) on this
# build's libdmlref.so.0 and libdmlcase.so.0, with Debian's /usr/bin/python3,
# numpy and pytest: the operator functions (views, strides, out=, errors), the
# whole corpus through them, the errors and their rules, and the pytest plugin
# (python/test/test_*.py).  Skipped
# with the reason when python3, numpy or pytest is missing (scripts/deps.sh
# installs python3-pytest as root).
set -u
DMLREF=${1:-build/bin/dmlref}
PY=/usr/bin/python3
for m in numpy pytest; do
    if ! $PY -c "import $m" 2>/dev/null; then
        echo "test-python: skipped: $PY has no $m (apt-get install python3-$m)"
        exit 0
    fi
done
LIBDIR=$(cd "$(dirname "$DMLREF")/../lib" && pwd) || exit 1
DMLREF=$(cd "$(dirname "$DMLREF")" && pwd)/dmlref
# -p no:cacheprovider: nothing written into the tree; the plugin's --lf test has its own.
DMLREF_LIBDIR=$LIBDIR DMLREF=$DMLREF PYTHONPATH=python${PYTHONPATH:+:$PYTHONPATH} \
    $PY -m pytest -q -p no:cacheprovider python/test
