#!/bin/sh
# scripts/directml/smoke.sh -- scripts/test.sh's DirectML step: goldens/doc through the real
# DirectML.dll (docs/directml.md); every case must PASS.  It runs where the backend is already
# set up (scripts/directml/setup.sh has been run: Wine, Xvfb, mingw-w64, the cached Mesa and
# DirectML 1.15.4), or when DMLREF_DIRECTML=1 asks, which runs setup.sh first (as root it installs
# what is missing).  Otherwise it says in one line why it skipped: a fresh setup installs Wine and
# mingw-w64 and fetches a 113 MB npm package, too slow for CI's 15 minutes on two cores.
# DMLREF_DIRECTML=0 skips it.
set -eu
cd "$(dirname "$0")/../.."
CACHE="${XDG_CACHE_HOME:-$HOME/.cache}/dmlref"
ORT="${DMLREF_DIRECTML_ORT:-1.30.0}"
case "${DMLREF_DIRECTML:-}" in
0) echo "directml smoke: skipped: DMLREF_DIRECTML=0"; exit 0 ;;
1) sh scripts/directml/setup.sh "$ORT" >/dev/null ;;
esac
for need in /usr/lib/wine/wine64 /usr/bin/Xvfb "$CACHE/mesa/lvp_icd.json" "$CACHE/dml/$ORT/DirectML.dll" \
    "$CACHE/wineprefix/system.reg"; do
    if [ ! -e "$need" ]; then
        echo "directml smoke: skipped: not set up ($need missing); run sh scripts/directml/setup.sh or set DMLREF_DIRECTML=1 (a fresh setup is too slow for CI)"
        exit 0
    fi
done
command -v x86_64-w64-mingw32-gcc >/dev/null 2>&1 || {
    echo "directml smoke: skipped: no x86_64-w64-mingw32-gcc; run sh scripts/directml/setup.sh"
    exit 0
}
make -s directml-runner
start=$(date +%s)
mkdir -p build/directml
build/bin/dmlcts --backend "cmd:/usr/bin/python3 backends/directml/dml_backend.py --ort $ORT" --quiet goldens/doc \
    >build/directml/smoke.log 2>&1 || { cat build/directml/smoke.log; echo "directml smoke: FAILED"; exit 1; }
echo "directml smoke: goldens/doc through DirectML (onnxruntime-node $ORT): PASS in $(($(date +%s) - start)) s"
