#!/bin/sh
# test-install.sh BUILD/bin/dmlref -- `make install` gives a plugin author
# what docs/dmlcts.md promises: into a temporary DESTDIR it installs dmlref,
# dmlcts, libdmlref (.a, .so), dmlref.h, dmlcts_backend.h, the reference
# plugin and dmlref.pc; pkg-config, pointed at the staged tree with a
# sysroot, builds the example plugin (suite/plugins/ref_plugin.c) against
# it; the installed dmlcts loads that plugin and it passes the installed
# goldens/doc.
set -u
BUILD=$(dirname "$(dirname "${1:-build/bin/dmlref}")")
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
         lib/pkgconfig/dmlref.pc share/doc/dmlref/dmlcts.md share/dmlref/goldens/doc; do
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
LD_LIBRARY_PATH="$P/lib${LD_LIBRARY_PATH:+:$LD_LIBRARY_PATH}" "$P/bin/dmlcts" --no-progress \
    --backend "plugin:$T/my_plugin.so" "$P/share/dmlref/goldens/doc" >"$T/run.out" 2>&1
rc=$?
[ "$rc" -eq 0 ] && grep -Eq '^dmlcts: [1-9][0-9]* passed, 0 failed' "$T/run.out" && ok ||
    { bad "the installed dmlcts with the plugin built against the install: exit $rc"; tail -n 5 "$T/run.out"; }
"$P/bin/dmlcts" --no-progress --backend "plugin:$P/lib/dmlref/dmlcts_ref_plugin.so" goldens/doc \
    >"$T/run2.out" 2>&1 && ok || bad "the installed reference plugin does not pass goldens/doc"
"$P/bin/dmlref" check goldens/doc >/dev/null 2>&1 && ok || bad "the installed dmlref check goldens/doc fails"

echo "test-install: $pass passed, $fail failed"
[ "$fail" -eq 0 ]
