# mk/install.mk -- `make install`: the commands, the library and the headers
# a plugin author builds against, found with pkg-config.
#
#   make install PREFIX=/usr/local DESTDIR=/tmp/stage
#
# installs under $(DESTDIR)$(PREFIX):
#   bin/dmlref, bin/dmlcts
#   lib/libdmlref.a, lib/libdmlfast.a (the engine), lib/libdmlref.so.$(DMLREF_SOVERSION)
#   (the oracle and the engine; + the libdmlref.so link)
#   lib/dmlref/dmlcts_ref_plugin.so      the reference as a plugin (a known-good control)
#   include/dmlref.h, include/dmlfast.h, include/dmlcts_backend.h
#   lib/pkgconfig/dmlref.pc
#   share/dmlref/goldens/                the golden corpus (what a fleet runs; not tools/)
#   share/dmlref/python/                 the cmd-backend adapters (backends/python), importable
#                                        from there: ref_client.py, dmlcts_cmd.py, torch_backend.py, ...
#   share/dmlref/dxdispatch/             run-dxdispatch.ps1 (what `dmlcts export --dxdispatch` names)
#   share/doc/dmlref/                    README.md, docs/dmlcts.md, docs/fleet.md, docs/cmd-protocol.md
#                                        and every file they link to (scripts/doc-links.sh), in
#                                        the checkout's layout, so no installed link is broken
# dmlref.pc's Libs carry an rpath to LIBDIR (written out: a sysroot does not
# move it), so a program built with pkg-config runs without ldconfig; a root
# install without DESTDIR runs ldconfig as well.
# DESTDIR only stages: the paths inside dmlref.pc name PREFIX.  To build
# against a staged tree, point pkg-config at it with a sysroot:
#   PKG_CONFIG_LIBDIR=$DESTDIR$PREFIX/lib/pkgconfig PKG_CONFIG_SYSROOT_DIR=$DESTDIR pkg-config ...
PREFIX     ?= /usr/local
DESTDIR    ?=
BINDIR     ?= $(PREFIX)/bin
LIBDIR     ?= $(PREFIX)/lib
INCLUDEDIR ?= $(PREFIX)/include
DATADIR    ?= $(PREFIX)/share/dmlref
DOCDIR     ?= $(PREFIX)/share/doc/dmlref
INSTALL    ?= install
DMLREF_VERSION   := 0.1.0
DMLREF_SOVERSION := 0

SHLIB := $(BUILD)/lib/libdmlref.so.$(DMLREF_SOVERSION)

# The same objects as libdmlref.a (all -fPIC); what OpenMP needs at link time
# goes into the .so itself and, for static linking, into dmlref.pc's Libs.private.
$(SHLIB): $(LIB_OBJ) $(FAST_OBJ)
	@mkdir -p $(@D)
	$(CC) $(LDFLAGS) -shared -Wl,-soname,libdmlref.so.$(DMLREF_SOVERSION) -o $@ $^ $(LDLIBS)

all: $(SHLIB)
test-build: $(SHLIB)

.PHONY: install
install: all
	$(INSTALL) -d $(DESTDIR)$(BINDIR) $(DESTDIR)$(LIBDIR)/pkgconfig $(DESTDIR)$(LIBDIR)/dmlref \
		$(DESTDIR)$(INCLUDEDIR) $(DESTDIR)$(DOCDIR)
	$(INSTALL) -m 755 $(CLI) $(DMLCTS) $(DESTDIR)$(BINDIR)/
	$(INSTALL) -m 644 $(LIB) $(FAST_LIB) $(DESTDIR)$(LIBDIR)/
	$(INSTALL) -m 755 $(SHLIB) $(DESTDIR)$(LIBDIR)/
	ln -sf libdmlref.so.$(DMLREF_SOVERSION) $(DESTDIR)$(LIBDIR)/libdmlref.so
	$(INSTALL) -m 755 $(REF_PLUGIN) $(DESTDIR)$(LIBDIR)/dmlref/
	$(INSTALL) -m 644 ref/include/dmlref.h ref/fast/include/dmlfast.h suite/dmlcts_backend.h \
		$(DESTDIR)$(INCLUDEDIR)/
	printf '%s\n' 'prefix=$(PREFIX)' 'libdir=$(LIBDIR)' 'includedir=$(INCLUDEDIR)' '' \
		'Name: dmlref' \
		'Description: reference DirectML data-movement and scan operators; dmlcts plugin header' \
		'Version: $(DMLREF_VERSION)' \
		'Cflags: -I$${includedir}' \
		'Libs: -L$${libdir} -Wl,-rpath,$(LIBDIR) -ldmlref' \
		'Libs.private: $(if $(filter 1,$(OPENMP)),-fopenmp )-lm' \
		>$(DESTDIR)$(LIBDIR)/pkgconfig/dmlref.pc
	rm -rf $(DESTDIR)$(DATADIR)/goldens
	$(INSTALL) -d $(DESTDIR)$(DATADIR)
	cp -R goldens $(DESTDIR)$(DATADIR)/
	rm -rf $(DESTDIR)$(DATADIR)/goldens/tools
	for f in $$(sh scripts/doc-links.sh README.md docs/dmlcts.md docs/fleet.md docs/cmd-protocol.md); do \
		$(INSTALL) -D -m 644 "$$f" "$(DESTDIR)$(DOCDIR)/$$f" || exit 1; done
	$(INSTALL) -d $(DESTDIR)$(DATADIR)/python $(DESTDIR)$(DATADIR)/dxdispatch
	$(INSTALL) -m 644 $(wildcard backends/python/*.py) $(DESTDIR)$(DATADIR)/python/
	$(INSTALL) -m 644 scripts/dxdispatch/run-dxdispatch.ps1 $(DESTDIR)$(DATADIR)/dxdispatch/
	if [ -z "$(DESTDIR)" ] && [ "$$(id -u)" = 0 ] && command -v ldconfig >/dev/null; then \
		ldconfig; fi
