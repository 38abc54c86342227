#!/bin/sh
# Make sure the Debian packages dmlref builds and tests with are installed.
# As root: installs what is missing with apt-get.  Otherwise: prints the exact
# command and exits 2.  Packages: the compiler and make, pkg-config, cJSON,
# Check, nettle (SHA-256), numpy (scripts and the cmd-backend client).
set -eu
PACKAGES="gcc make pkg-config libcjson-dev check nettle-dev python3-numpy"
missing=""
for p in $PACKAGES; do
    dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q "install ok installed" ||
        missing="$missing $p"
done
[ -z "$missing" ] && exit 0
if [ "$(id -u)" -eq 0 ]; then
    echo "deps: installing$missing"
    export DEBIAN_FRONTEND=noninteractive
    apt-get install -y -q $missing >/dev/null 2>&1 ||
        { apt-get update -q >/dev/null && apt-get install -y -q $missing >/dev/null; }
else
    echo "deps: missing Debian packages:$missing" >&2
    echo "deps: run: sudo apt-get install -y$missing" >&2
    exit 2
fi
