#!/bin/sh
# Make sure the Debian packages dmlref builds and tests with are installed.
# As root: installs what is missing with apt-get.  Otherwise: prints the exact
# command and exits 2.  Packages: the compilers (g++: the CUDA backend's kernels
# emulated on the CPU, make cuda-emu) and make, pkg-config, cJSON,
# Check, nettle (SHA-256), numpy (scripts and the cmd-backend client), clang with
# libFuzzer (the fuzz smoke of scripts/test.sh), procps (ps, for whoever looks at a run).
# Optional: chromium, for the --html report's browser test (it skips without);
# python3-jsonschema, for the DxDispatch models' schema check (skips without);
# python3-onnx, for the ONNX Runtime adapter's stand-in (skips without);
# python3-pytest (+ -xdist), for the Python package and its pytest plugin, and python3-setuptools + python3-pip,
# for its `pip install --no-build-isolation` test (each skips without);
# python3-yaml, for the Kubernetes kit's manifest checks (skips without);
# installed as root when missing, and its failure does not stop the build.
set -eu
PACKAGES="gcc g++ make pkg-config libcjson-dev check nettle-dev python3-numpy clang libclang-rt-14-dev procps"
OPTIONAL="chromium python3-jsonschema python3-onnx python3-pytest python3-pytest-xdist python3-yaml python3-setuptools python3-pip"
installed() { dpkg-query -W -f='${Status}' "$1" 2>/dev/null | grep -q "install ok installed"; }
missing=""
for p in $PACKAGES; do
    installed "$p" || missing="$missing $p"
done
if [ "$(id -u)" -eq 0 ]; then
    for p in $OPTIONAL; do
        installed "$p" && continue
        echo "deps: installing $p (optional)"
        DEBIAN_FRONTEND=noninteractive apt-get install -y -q "$p" >/dev/null 2>&1 ||
            { apt-get update -q >/dev/null 2>&1 &&
              DEBIAN_FRONTEND=noninteractive apt-get install -y -q "$p" >/dev/null 2>&1; } ||
            echo "deps: $p could not be installed; the tests that need it skip"
    done
fi
[ -z "$missing" ] && exit 0
if [ "$(id -u)" -eq 0 ]; then
    echo "deps: installing$missing"
    export DEBIAN_FRONTEND=noninteractive
    apt-get install -y -q $missing >/dev/null 2>&1 ||
        { apt-get update -q >/dev/null && apt-get install -y -q $missing >/dev/null; }
else
    echo "deps: missing Debian packages:$missing" >&2
    # A command that works as written: sudo only where there is one.
    if command -v sudo >/dev/null 2>&1; then
        echo "deps: run: sudo apt-get install -y$missing" >&2
    else
        echo "deps: run as root: su -c 'apt-get install -y$missing'" >&2
    fi
    exit 2
fi
