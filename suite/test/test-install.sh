#!/bin/sh
# test-install.sh BUILD/bin/dmlref -- `make install` gives a plugin author
# what docs/dmlcts.md promises: into a temporary DESTDIR it installs dmlref,
# dmlcts, libdmlref (.a, .so), dmlref.h, dmlcts_backend.h, the reference
# plugin and dmlref.pc; pkg-config, pointed at the staged tree with a
# sysroot, builds the example plugin (suite/plugins/ref_plugin.c) against
# it; the installed dmlcts loads that plugin and it passes the installed
# goldens/doc.  Also: every installed page's links resolve; the Python
# adapters import from share/dmlref/python and drive the installed dmlcts;
# export --dxdispatch names the installed run-dxdispatch.ps1; a program built
# with pkg-config against a real install runs without ldconfig (rpath).
set -u
BUILD=$(dirname "$(dirname "${1:-build/bin/dmlref}")")
PY=/usr/bin/python3
case $BUILD in *asan*) SAN=1 ;; *) SAN=0 ;; esac
T=$(mktemp -d "${TMPDIR:-/tmp}/test-install.XXXXXX")
trap 'rm -rf "$T"' EXIT INT TERM
pass=0
fail=0
ok() { pass=$((pass + 1)); }
bad() { fail=$((fail + 1)); echo "FAIL: $*"; }

STAGE=$T/stage
P=$STAGE/usr/local
# The test runs under make: a make of its own, with none of the outer one's jobserver.
if env -u MAKEFLAGS -u MFLAGS -u MAKELEVEL make -s install BUILD="$BUILD" SANITIZE=$SAN \
        PREFIX=/usr/local DESTDIR="$STAGE" >"$T/install.log" 2>&1; then ok; else
    bad "make install failed:"; tail -n 20 "$T/install.log"
fi
for f in bin/dmlref bin/dmlcts lib/libdmlref.a lib/libdmlref.so lib/libdmlref.so.0 \
         lib/dmlref/dmlcts_ref_plugin.so include/dmlref.h include/dmlcts_backend.h \
         lib/pkgconfig/dmlref.pc share/doc/dmlref/README.md share/doc/dmlref/docs/dmlcts.md \
         share/doc/dmlref/docs/fleet.md share/doc/dmlref/docs/cmd-protocol.md share/dmlref/goldens/doc \
         share/dmlref/python/ref_client.py share/dmlref/python/dmlcts_cmd.py \
         share/dmlref/dxdispatch/run-dxdispatch.ps1; do
    [ -e "$P/$f" ] && ok || bad "not installed: \$DESTDIR/usr/local/$f"
done
[ -x "$P/bin/dmlcts" ] && ok || bad "dmlcts is not executable"
grep -qx 'prefix=/usr/local' "$P/lib/pkgconfig/dmlref.pc" && ok ||
    bad "dmlref.pc names the staging directory, not PREFIX: $(head -n 1 "$P/lib/pkgconfig/dmlref.pc")"

# pkg-config over the staged tree: only its .pc files, paths under the sysroot.
export PKG_CONFIG_LIBDIR="$P/lib/pkgconfig" PKG_CONFIG_SYSROOT_DIR="$STAGE"
unset PKG_CONFIG_PATH
cflags=$(pkg-config --cflags dmlref) && libs=$(pkg-config --libs dmlref) && ok ||
    bad "pkg-config does not find dmlref in the staged tree"
cflags=$(echo $cflags) libs=$(echo $libs) # one space between words, none at the ends
[ "$cflags" = "-I$P/include" ] && ok || bad "pkg-config --cflags dmlref: '$cflags', expected '-I$P/include'"
case " $libs " in *" -L$P/lib "*"-ldmlref "*) ok ;; *) bad "pkg-config --libs dmlref: '$libs'" ;; esac
case " $(pkg-config --static --libs dmlref) " in *" -lm "*) ok ;; *) bad "pkg-config --static lacks -lm" ;; esac

# The example plugin, outside the source tree's include paths.
cp suite/plugins/ref_plugin.c "$T/my_plugin.c"
# shellcheck disable=SC2086 # pkg-config output is a list of words
if cc -std=c11 -Wall -Werror -fPIC -shared $cflags -o "$T/my_plugin.so" "$T/my_plugin.c" $libs \
        >"$T/cc.log" 2>&1; then ok; else bad "the example plugin does not build against the install:"; cat "$T/cc.log"; fi
readelf -d "$T/my_plugin.so" 2>/dev/null | grep -q 'NEEDED.*\[libdmlref\.so\.0\]' && ok ||
    bad "my_plugin.so does not link the installed libdmlref.so.0"
readelf -d "$T/my_plugin.so" 2>/dev/null | grep -Eq '(RUNPATH|RPATH).*\[/usr/local/lib\]' && ok ||
    bad "my_plugin.so's rpath is not PREFIX/lib (the sysroot must not leak into it)"
LD_LIBRARY_PATH="$P/lib${LD_LIBRARY_PATH:+:$LD_LIBRARY_PATH}" "$P/bin/dmlcts" --no-progress \
    --backend "plugin:$T/my_plugin.so" "$P/share/dmlref/goldens/doc" >"$T/run.out" 2>&1
rc=$?
[ "$rc" -eq 0 ] && grep -Eq '^dmlcts: [1-9][0-9]* passed, 0 failed' "$T/run.out" && ok ||
    { bad "the installed dmlcts with the plugin built against the install: exit $rc"; tail -n 5 "$T/run.out"; }
"$P/bin/dmlcts" --no-progress --backend "plugin:$P/lib/dmlref/dmlcts_ref_plugin.so" goldens/doc \
    >"$T/run2.out" 2>&1 && ok || bad "the installed reference plugin does not pass goldens/doc"
"$P/bin/dmlref" check goldens/doc >/dev/null 2>&1 && ok || bad "the installed dmlref check goldens/doc fails"

# docs/library.md's command for a staged tree, as written there (the stage swapped for this test's).
readme=$(grep -o '`PKG_CONFIG_LIBDIR=/tmp/stage[^`]*`' docs/library.md | tr -d '`' | sed "s|/tmp/stage|$STAGE|g")
case " $(env -u PKG_CONFIG_PATH sh -c "$readme" 2>&1) " in
    *" -I$P/include -L$P/lib "*) ok ;;
    *) bad "docs/library.md's staged-tree command ('$readme') does not give the stage's paths: $(sh -c "$readme" 2>&1)" ;;
esac
# The installed pages link only to installed files (measurements, .txt, .diff and folders, stay in the checkout).
$PY - "$P/share/doc/dmlref" <<'EOF' && ok || bad "an installed page links to a file that was not installed"
import os, re, sys
root, broken = sys.argv[1], []
for d, _, files in os.walk(root):
    for f in files:
        if f.endswith(".md"):
            for l in re.findall(r"\]\(([^)#: ]+)", open(os.path.join(d, f)).read()):
                t = os.path.normpath(os.path.join(d, l))
                if not l.endswith((".txt", ".diff", "/")) and not os.path.exists(t):
                    broken.append("%s -> %s" % (os.path.relpath(os.path.join(d, f), root), l))
assert not broken, broken
EOF
# The Python adapters import from where they are installed, and the installed dmlcts runs the
# reference one as its cmd: backend (its create step finds the installed dmlref).
$PY -c "import sys; sys.path.insert(0, '$P/share/dmlref/python'); import dmlcts_cmd, dmlref_create, ref_client" \
    && ok || bad "the installed Python adapters do not import"
(cd "$T" && env -u DMLREF "$P/bin/dmlcts" --no-progress -q --backend "cmd:$PY $P/share/dmlref/python/ref_client.py" \
    "$P/share/dmlref/goldens/doc" "$P/share/dmlref/goldens/gen/negative/gather" >"$T/py.out" 2>&1) &&
    grep -Eq '^dmlcts: [1-9][0-9]* passed, 0 failed, 0 skipped' "$T/py.out" && ok ||
    { bad "the installed dmlcts with the installed ref_client.py:"; tail -n 3 "$T/py.out"; }
# export --dxdispatch names the installed script.
"$P/bin/dmlcts" export --dxdispatch "$T/dxd" "$P/share/dmlref/goldens/doc/gather.example1.json" >"$T/dxd.out" 2>&1
grep -q "next, on Windows: $P/share/dmlref/dxdispatch/run-dxdispatch.ps1 -Dir" "$T/dxd.out" && ok ||
    bad "export --dxdispatch does not name the installed script: $(cat "$T/dxd.out")"
# A real install (no DESTDIR): a program built with pkg-config runs without ldconfig or
# LD_LIBRARY_PATH, by the rpath dmlref.pc gives.
if env -u MAKEFLAGS -u MFLAGS -u MAKELEVEL make -s install BUILD="$BUILD" SANITIZE=$SAN \
        PREFIX="$T/prefix" >"$T/install2.log" 2>&1; then ok; else bad "make install PREFIX=$T/prefix failed"; fi
printf '#include <dmlref.h>\n#include <stdio.h>\nint main(void) { printf("%%u\\n", dmlr_data_type_size(DMLR_FLOAT16)); return 0; }\n' >"$T/prog.c"
# shellcheck disable=SC2046
cc -std=c11 -o "$T/prog" "$T/prog.c" $(env -u PKG_CONFIG_SYSROOT_DIR PKG_CONFIG_LIBDIR="$T/prefix/lib/pkgconfig" \
    pkg-config --cflags --libs dmlref) >"$T/prog.log" 2>&1 || bad "a program does not build with pkg-config: $(cat "$T/prog.log")"
[ "$(env -u LD_LIBRARY_PATH "$T/prog" 2>&1)" = 2 ] && ok || bad "the installed program does not run: $(env -u LD_LIBRARY_PATH "$T/prog" 2>&1)"
readelf -d "$T/prog" 2>/dev/null | grep -Eq "(RUNPATH|RPATH).*\[$T/prefix/lib\]" && ok || bad "no rpath to $T/prefix/lib"

echo "test-install: $pass passed, $fail failed"
[ "$fail" -eq 0 ]
