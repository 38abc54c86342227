#!/usr/bin/env bash
# prepare-carry.sh [DIR] -- build here everything the GPU machine cannot, into
# ONE folder (default build/gpu-carry, at most 60 MiB) that travels with the
# working tree to the device, where scripts/gpu/run-on-device.sh uses it.
#
# The device (Ubuntu 24.04, gcc 13, nvcc 13.0, no network) lacks libcjson,
# nettle and Check, so dmlcts and dmlref are built here (Debian 12, glibc 2.36:
# they run on glibc 2.39) and carried with their two shared libraries.  The
# CUDA backend is built on the device itself (`make cuda` needs only nvcc);
# a copy built here with `make cuda` is carried too, as a fallback should the
# device's build fail.
#
#   DIR/bin/dmlcts, DIR/bin/dmlref          built by `make`
#   DIR/lib/libcjson.so.1, libnettle.so.8   their libraries (LD_LIBRARY_PATH)
#   DIR/lib/libdmlcase.a                the case loader, for the CUDA bench's --case
#   DIR/lib-fallback/libgomp.so.1           only if the device lacks one
#   DIR/prebuilt/                           make cuda's outputs (sm_90), fallback
#                                           or BUILD=prebuilt; PREBUILT names them
#   DIR/MANIFEST                            what was built from what, sizes, sha256
set -eu
cd "$(dirname "$0")/../.."
DIR=${1:-build/gpu-carry}
LIMIT_MIB=60
# Which of make cuda's outputs go into prebuilt/ (all four together exceed the limit:
# name the ones the device steps need, e.g. for BUILD=prebuilt).
PREBUILT=${PREBUILT:-dmlcts_cuda_plugin.so dmlcts_cuda_memcheck_control.so dmlref-cuda-bench dmlref-cuda-selftest}
export PATH=/usr/local/cuda/bin:$PATH

echo "prepare-carry: make (dmlcts, dmlref, the case loader)"
make -j"$(nproc)" all build/lib/libdmlcase.a >/dev/null
if command -v nvcc >/dev/null 2>&1; then
    echo "prepare-carry: make cuda (the fallback copy of the CUDA backend)"
    make -j"$(nproc)" cuda >/dev/null
else
    echo "prepare-carry: no nvcc here: no fallback CUDA build carried"
fi

rm -rf "$DIR"
mkdir -p "$DIR/bin" "$DIR/lib" "$DIR/lib-fallback" "$DIR/prebuilt"
cp build/bin/dmlcts build/bin/dmlref "$DIR/bin/"
cp build/lib/libdmlcase.a "$DIR/lib/"
# The libraries the two binaries need beyond glibc and libgomp (which gcc
# brings on the device): resolved through ldd, copied under their sonames.
for so in libcjson.so.1 libnettle.so.8; do
    path=$(ldd build/bin/dmlcts | awk -v so="$so" '$1 == so { print $3 }')
    if [ -z "$path" ] || [ ! -e "$path" ]; then
        echo "prepare-carry: $so not found by ldd build/bin/dmlcts" >&2
        exit 1
    fi
    cp -L "$path" "$DIR/lib/$so"
done
gomp=$(ldd build/bin/dmlcts | awk '$1 == "libgomp.so.1" { print $3 }')
[ -n "$gomp" ] && cp -L "$gomp" "$DIR/lib-fallback/libgomp.so.1"
for f in $PREBUILT; do # libraries in build/lib, programs in build/bin (as run-on-device.sh puts them back)
    case $f in *.so) p=build/lib/$f ;; *) p=build/bin/$f ;; esac
    [ ! -e "$p" ] || cp "$p" "$DIR/prebuilt/"
done
# Host debug sections only (the CUDA binaries are ~13 MiB each with them): the
# device code keeps its -lineinfo, so the sanitizers still name source lines.
# (find, not a glob: prebuilt/ is empty where there is no nvcc)
find "$DIR/bin" "$DIR/prebuilt" -type f -exec strip --strip-debug {} +

{
    echo "built: $(date -u +%Y-%m-%dT%H:%M:%SZ) on $(. /etc/os-release && echo "$PRETTY_NAME"), $(cc --version | head -1)"
    echo "tree: $(git describe --always --dirty 2>/dev/null || echo unknown)"
    command -v nvcc >/dev/null 2>&1 && echo "nvcc: $(nvcc --version | tail -1)"
    echo
    (cd "$DIR" && find . -type f ! -name MANIFEST | sort | xargs sha256sum)
} >"$DIR/MANIFEST"

size_kib=$(du -sk "$DIR" | cut -f1)
echo "prepare-carry: $DIR holds $(find "$DIR" -type f | wc -l) files, $((size_kib / 1024)) MiB ($size_kib KiB)"
if [ "$size_kib" -gt $((LIMIT_MIB * 1024)) ]; then
    echo "prepare-carry: over the $LIMIT_MIB MiB limit" >&2
    exit 1
fi
echo "prepare-carry: carry it with the working tree, then on the device: bash scripts/gpu/run-on-device.sh \"\$OUT\""
