#!/bin/sh
# scripts/directml/setup.sh [ORT_VERSION... | all] -- what the DirectML backend needs
# (docs/directml.md), idempotent, and quick once done (nothing is fetched twice):
#  1. Debian packages: Wine (64-bit), Xvfb, mingw-w64, Mesa's Vulkan drivers and their libraries.
#     As root they are installed; otherwise the exact command is printed and the script stops.
#  2. Mesa 25.0 (bookworm-backports) unpacked into the cache with dpkg-deb -x, beside the system's
#     Mesa 22.3 (whose lavapipe lacks VK_EXT_descriptor_indexing): selected by VK_ICD_FILENAMES +
#     LD_LIBRARY_PATH in the backend only.
#  3. DirectML.dll of each onnxruntime-node release asked for (default 1.30.0 = DirectML 1.15.4;
#     `all`: every release in scripts/directml/pins), by `npm pack`, checked against its pinned sha256.
#  4. The Wine prefix, and the runner build/directml/dmlrun.exe (make directml-runner).
#  5. Every version in use, printed.
# The cache is ${XDG_CACHE_HOME:-$HOME/.cache}/dmlref, outside the clone.
set -eu
cd "$(dirname "$0")/../.."
CACHE="${XDG_CACHE_HOME:-$HOME/.cache}/dmlref"
PINS=scripts/directml/pins
PY=/usr/bin/python3
if [ "${1:-}" = all ]; then
    versions=$(awk '$1 == "dll" { print $2 }' "$PINS")
else
    versions="${*:-1.30.0}"
fi

pinned_sha() { awk -v v="$1" '$1 == "dll" && $2 == v { print $4 }' "$PINS"; }
have_dll() { [ -f "$CACHE/dml/$1/DirectML.dll" ] && [ "$(sha256sum <"$CACHE/dml/$1/DirectML.dll" | cut -c1-64)" = "$(pinned_sha "$1")" ]; }

missing_dlls=""
for v in $versions; do
    [ -n "$(pinned_sha "$v")" ] || { echo "setup.sh: onnxruntime-node $v is not pinned in $PINS" >&2; exit 2; }
    have_dll "$v" || missing_dlls="$missing_dlls $v"
done

# 1. Debian packages (wine32 is not needed: the runner is a 64-bit program).
need=""
for p in wine wine64 xvfb gcc-mingw-w64-x86-64 mingw-w64-x86-64-dev mesa-vulkan-drivers libvulkan1 \
    libllvm15 python3 curl ca-certificates make; do
    dpkg-query -W -f='${Status}\n' "$p" 2>/dev/null | grep -q 'ok installed' || need="$need $p"
done
if [ -n "$missing_dlls" ] && ! command -v npm >/dev/null 2>&1; then
    need="$need npm"
fi
if [ -n "$need" ]; then
    if [ "$(id -u)" -ne 0 ]; then
        echo "setup.sh: missing Debian packages:$need. As root, run:"
        echo "  apt-get update && DEBIAN_FRONTEND=noninteractive apt-get install -y$need"
        echo "then run sh scripts/directml/setup.sh again."
        exit 1
    fi
    echo "setup.sh: installing$need"
    apt-get update -q >/dev/null
    DEBIAN_FRONTEND=noninteractive apt-get install -y -q $need >/dev/null
fi

# 2. The private Mesa.
mkdir -p "$CACHE/debs" "$CACHE/dml"
stamp="$CACHE/mesa/.pins"
if [ "$(cat "$stamp" 2>/dev/null)" != "$(grep '^deb ' "$PINS")" ]; then
    rm -rf "$CACHE/mesa"
    mkdir -p "$CACHE/mesa"
    grep '^deb ' "$PINS" | while read -r _ path sha256 sha1; do
        deb="$CACHE/debs/$(basename "$path")"
        if [ "$( (sha256sum <"$deb") 2>/dev/null | cut -c1-64)" != "$sha256" ]; then
            curl -fsSL -o "$deb" "https://deb.debian.org/debian/$path" ||
                curl -fsSL -o "$deb" "https://snapshot.debian.org/file/$sha1" || true
        fi
        [ "$( (sha256sum <"$deb") 2>/dev/null | cut -c1-64)" = "$sha256" ] ||
            { echo "setup.sh: $deb: missing, or not the pinned sha256 $sha256" >&2; rm -f "$deb"; exit 1; }
        dpkg-deb -x "$deb" "$CACHE/mesa"
    done
    printf '{\n  "ICD": { "api_version": "1.4.305", "library_path": "%s" },\n  "file_format_version": "1.0.0"\n}\n' \
        "$CACHE/mesa/usr/lib/x86_64-linux-gnu/libvulkan_lvp.so" >"$CACHE/mesa/lvp_icd.json"
    grep '^deb ' "$PINS" >"$stamp"
fi

# 3. DirectML.dll, from the npm package that ships it.
for v in $missing_dlls; do
    tmp=$(mktemp -d "$CACHE/npm.XXXXXX")
    (cd "$tmp" && npm pack --silent "onnxruntime-node@$v" >/dev/null)
    mkdir -p "$CACHE/dml/$v"
    tar -xzf "$tmp"/onnxruntime-node-"$v".tgz -O --wildcards 'package/bin/napi-v*/win32/x64/DirectML.dll' \
        >"$CACHE/dml/$v/DirectML.dll.part"
    rm -rf "$tmp"
    mv "$CACHE/dml/$v/DirectML.dll.part" "$CACHE/dml/$v/DirectML.dll"
    have_dll "$v" || { echo "setup.sh: onnxruntime-node $v: DirectML.dll is not the pinned sha256 $(pinned_sha "$v")" >&2;
        rm -f "$CACHE/dml/$v/DirectML.dll"; exit 1; }
done

# 4. The Wine prefix (a minute the first time) and the runner.
if [ ! -f "$CACHE/wineprefix/system.reg" ]; then
    echo "setup.sh: creating the Wine prefix $CACHE/wineprefix"
    WINEPREFIX="$CACHE/wineprefix" WINEDEBUG=-all WINEDLLOVERRIDES="mscoree=;mshtml=" \
        /usr/lib/wine/wine64 wineboot -i >/dev/null 2>&1 || true
    WINEPREFIX="$CACHE/wineprefix" /usr/lib/wine/wineserver -w || true
fi
make -s directml-runner

# 5. Versions.
echo "setup.sh: ready in $CACHE"
echo "  Wine:     $(/usr/lib/wine/wine64 --version 2>/dev/null) ($(dpkg-query -W -f='${Version}' wine64))"
echo "  vkd3d:    $(grep -a -o 'vkd3d [0-9][0-9.]* (git [0-9a-f]*)' /usr/lib/x86_64-linux-gnu/wine/x86_64-windows/wined3d.dll | head -n 1) (inside Wine's wined3d.dll)"
echo "  Mesa:     lavapipe $(dpkg-deb -f "$CACHE/debs/$(basename "$(awk '$1 == "deb" && /mesa-vulkan/ { print $2 }' "$PINS")")" Version) (private), system $(dpkg-query -W -f='${Version}' mesa-vulkan-drivers)"
echo "  Xvfb:     $(dpkg-query -W -f='${Version}' xvfb)"
echo "  mingw:    $(x86_64-w64-mingw32-gcc -dumpversion)"
for v in $versions; do
    echo "  DirectML: $($PY scripts/directml/dll_version.py "$CACHE/dml/$v/DirectML.dll" | awk '{ print $2 }') (onnxruntime-node $v, sha256 $(pinned_sha "$v" | cut -c1-16)...)"
done
