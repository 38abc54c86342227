# mk/python.mk -- the Python package (python/dmlref, docs/python.md): the shared
# case library it loads beside libdmlref.so, its tests and its install block.
#
#   build/lib/libdmlcase.so.0   the case layer (libdmlcase's objects) and the flat
#                               API of python/capi/ for ctypes, linked against
#                               libdmlref.so.0 (found beside it: rpath $ORIGIN)
# make install adds $(PYDIR)/dmlref, where Debian's /usr/bin/python3 looks
# (PREFIX/lib/python3/dist-packages), with _install.py naming LIBDIR, BINDIR and DATADIR.
CASE_SHLIB := $(BUILD)/lib/libdmlcase.so.$(DMLREF_SOVERSION)
PY_CAPI_OBJ := $(call objs,$(wildcard python/capi/*.c))
$(BUILD)/obj/python/capi/%.o: CFLAGS_ROOM = $(INC_CASE)

$(CASE_SHLIB): $(CASE_OBJ) $(PY_CAPI_OBJ) $(SHLIB)
	@mkdir -p $(@D)
	$(CC) $(LDFLAGS) -shared -Wl,-soname,libdmlcase.so.$(DMLREF_SOVERSION) \
		-Wl,-rpath,'$$ORIGIN' -Wl,--no-undefined -o $@ $(CASE_OBJ) $(PY_CAPI_OBJ) \
		-L$(@D) -l:libdmlref.so.$(DMLREF_SOVERSION) $(CJSON_LIBS) $(LDLIBS)

all: $(CASE_SHLIB)
test-build: $(CASE_SHLIB)
bench: $(CASE_SHLIB) # bench/bench_python.py: the package's cost per call
SCRIPT_TESTS += $(wildcard python/test/test-*.sh)

PYDIR ?= $(PREFIX)/lib/python3/dist-packages
.PHONY: install-python
install: install-python
install-python: $(CASE_SHLIB)
	$(INSTALL) -d $(DESTDIR)$(LIBDIR) $(DESTDIR)$(PYDIR)/dmlref
	$(INSTALL) -m 755 $(CASE_SHLIB) $(DESTDIR)$(LIBDIR)/
	$(INSTALL) -m 644 python/dmlref/*.py $(DESTDIR)$(PYDIR)/dmlref/
	printf '%s\n' '"""Written by make install: where the libraries, dmlref and goldens went."""' \
		'LIBDIR = "$(LIBDIR)"' 'BINDIR = "$(BINDIR)"' 'DATADIR = "$(DATADIR)"' \
		>$(DESTDIR)$(PYDIR)/dmlref/_install.py
