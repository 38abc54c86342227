# dmlref -- out-of-tree build under build/, one archive per room:
#   ref/include, ref/src  libdmlref.a   the operators: the oracle (C11, plain loops)
#   ref/fast              libdmlfast.a  the tuned engine (OpenMP, per-CPU kernels), same bytes
#   ref/case              libdmlcase.a  case files, values, .npy, recipes, the judge
#                                       (the only user of cJSON and nettle)
#   ref/gen               libdmlgen.a   the golden generator
#   ref/cli               dmlref        the command
#   suite                 dmlcts        the conformance harness (libdmlcase + libdmlref)
# Targets:
#   make            libraries, build/bin/dmlref, build/bin/dmlcts, the reference plugin
#   make mutants    deliberately wrong plugins that prove dmlcts judges
#   make test       all Check programs and script tests (SANITIZE=1: ASan + UBSan in build-asan/)
#   make test-asan  the same as make test SANITIZE=1
#   make BUILD=build-noomp OPENMP=0   no -fopenmp, in a build folder of its own (flags are not tracked)
#   make goldens    regenerate goldens/gen and goldens/COVERAGE.md (dmlref gen; its known-bugs
#                   section lists goldens/known, written by goldens/tools/known_cases.py)
#   make check-goldens  regeneration reproduces them byte for byte
#   make bench      the benchmark (not a test)
#   make bench-dmlcts  how long a dmlcts worker restart takes (bench/dmlcts-restart.sh)
#   make cuda       the optional CUDA backend (backends/cuda/cuda.mk; needs nvcc)
#   make install    PREFIX=/usr/local DESTDIR=...: commands, libdmlref, headers, dmlref.pc (mk/install.mk)
CC      ?= cc
OPENMP  ?= 1
SANITIZE ?= 0
BUILD   ?= $(if $(filter 1,$(SANITIZE)),build-asan,build)

# CFLAGS is the user's (optimisation, debug info, warnings); what the code needs
# to mean what it says is kept apart in CFLAGS_ALL, after it, as musl does, so
# `make CFLAGS=-O0` still builds C11 without contraction.
CFLAGS  ?= -O2 -g
CFLAGS_STD := -std=c11 -ffp-contract=off -D_POSIX_C_SOURCE=200809L
CFLAGS_WARN := -Wall -Wextra -Wshadow
# -fPIC everywhere: the library is linked into plugins (shared objects) too.
CFLAGS_ALL = $(CFLAGS_WARN) $(CFLAGS) $(CFLAGS_STD) -fPIC -MMD -MP $(CFLAGS_OMP) $(CFLAGS_SAN) \
             $(CFLAGS_ROOM)
LDLIBS  += -lm
ifeq ($(OPENMP),1)
CFLAGS_OMP := -fopenmp
LDFLAGS += -fopenmp
endif
ifeq ($(SANITIZE),1)
CFLAGS_SAN := -fsanitize=address,undefined -fno-sanitize-recover=undefined -fno-omit-frame-pointer
LDFLAGS += -fsanitize=address,undefined
endif
ifeq ($(FUZZING),1) # make fuzz: clang, libFuzzer's coverage in every object
CFLAGS_SAN := -fsanitize=fuzzer-no-link,address,undefined -fno-sanitize-recover=undefined \
              -fno-omit-frame-pointer
LDFLAGS += -fsanitize=address,undefined
endif

# Package flags go only to the rooms that use them.
CJSON_CFLAGS := $(shell pkg-config --cflags libcjson nettle 2>/dev/null)
CJSON_LIBS   := $(shell pkg-config --libs libcjson nettle 2>/dev/null)
CHECK_CFLAGS := $(shell pkg-config --cflags check 2>/dev/null)
CHECK_LIBS   := $(shell pkg-config --libs check 2>/dev/null)

# Each room sees its own headers and the public headers of the rooms below it.
INC_LIB  := -Iref/include
INC_FAST := $(INC_LIB) -Iref/fast/include
INC_CASE := $(INC_LIB) -Iref/case/include
$(BUILD)/obj/ref/src/%.o:  CFLAGS_ROOM = $(INC_LIB) -Iref/src
$(BUILD)/obj/ref/fast/%.o: CFLAGS_ROOM = $(INC_FAST) -Iref/src -Iref/fast
$(BUILD)/obj/ref/case/%.o: CFLAGS_ROOM = $(INC_CASE) -Iref/case $(CJSON_CFLAGS)
$(BUILD)/obj/ref/gen/%.o:  CFLAGS_ROOM = $(INC_CASE) -Iref/gen
$(BUILD)/obj/ref/cli/%.o:  CFLAGS_ROOM = $(INC_CASE) -Iref/gen -Iref/cli
$(BUILD)/obj/suite/%.o:    CFLAGS_ROOM = $(INC_CASE) -Iref/fast/include -Isuite -pthread $(CJSON_CFLAGS)
$(BUILD)/obj/bench/%.o:    CFLAGS_ROOM = $(INC_FAST)
# Tests: their room's flags, the shared test helpers, Check.
$(BUILD)/obj/ref/src/test/%.o:  CFLAGS_ROOM = $(INC_LIB) -Iref/src -Iref/src/test $(CHECK_CFLAGS)
$(BUILD)/obj/ref/fast/test/%.o: CFLAGS_ROOM = $(INC_FAST) -Iref/src -Iref/src/test $(CHECK_CFLAGS)
$(BUILD)/obj/ref/case/test/%.o: CFLAGS_ROOM = $(INC_CASE) -Iref/src/test -Iref/case/test $(CHECK_CFLAGS)
$(BUILD)/obj/ref/gen/test/%.o:  CFLAGS_ROOM = $(INC_CASE) -Iref/src/test -Iref/case/test -Iref/gen \
                                              $(CHECK_CFLAGS)

objs = $(patsubst %.c,$(BUILD)/obj/%.o,$(1))

LIB_OBJ  := $(call objs,$(wildcard ref/src/*.c ref/src/ops/*.c))
FAST_OBJ := $(call objs,$(wildcard ref/fast/*.c))
CASE_OBJ := $(call objs,$(wildcard ref/case/*.c))
GEN_OBJ  := $(call objs,$(wildcard ref/gen/*.c))
CLI_OBJ  := $(call objs,$(wildcard ref/cli/*.c))
TU_OBJ   := $(call objs,ref/src/test/testutil.c)

LIB      := $(BUILD)/lib/libdmlref.a
FAST_LIB := $(BUILD)/lib/libdmlfast.a
CASE_LIB := $(BUILD)/lib/libdmlcase.a
GEN_LIB  := $(BUILD)/lib/libdmlgen.a
CLI      := $(BUILD)/bin/dmlref

# Test programs, one per unit, each linked with the rooms it needs and no higher.
LIB_TESTS  := $(patsubst ref/src/test/%.c,$(BUILD)/test/%,$(wildcard ref/src/test/check_*.c))
FAST_TESTS := $(patsubst ref/fast/test/%.c,$(BUILD)/test/%,$(wildcard ref/fast/test/check_*.c))
CASE_TESTS := $(patsubst ref/case/test/%.c,$(BUILD)/test/%,$(wildcard ref/case/test/check_*.c))
GEN_TESTS  := $(patsubst ref/gen/test/%.c,$(BUILD)/test/%,$(wildcard ref/gen/test/check_*.c))
TESTS      := $(LIB_TESTS) $(FAST_TESTS) $(CASE_TESTS) $(GEN_TESTS)
# Script tests: test-*.sh beside the room they test, each given the dmlref path.
SCRIPT_TESTS := $(sort $(wildcard ref/*/test/test-*.sh suite/test/test-*.sh backends/*/test/test-*.sh \
                                   bench/test/test-*.sh scripts/test/test-*.sh))

# dmlcts: suite/*.c plus the reference plugin linked in as --backend ref.
SUITE_OBJ  := $(call objs,$(wildcard suite/*.c) suite/plugins/ref_plugin.c)
DMLCTS     := $(BUILD)/bin/dmlcts
REF_PLUGIN := $(BUILD)/lib/dmlcts_ref_plugin.so
# The mutants: the enum of suite/mutants/mutant_plugin.c, the one list of them.
MUTANT_NAMES := $(filter-out none,$(patsubst M_%,%,$(shell \
                  sed -n 's/^    \(M_[a-z0-9_]*\)[ ,].*/\1/p' suite/mutants/mutant_plugin.c)))
# With them, the reference plugin as ABI version 1 (no create), which must keep working.
MUTANTS    := $(MUTANT_NAMES:%=$(BUILD)/lib/dmlcts_mutant_%.so) $(BUILD)/lib/dmlcts_ref_plugin_v1.so

.PHONY: all test test-asan clean check-cases bench mutants
all: $(LIB) $(CASE_LIB) $(CLI) $(DMLCTS) $(REF_PLUGIN)

$(LIB): $(LIB_OBJ)
$(FAST_LIB): $(FAST_OBJ)
$(CASE_LIB): $(CASE_OBJ)
$(GEN_LIB): $(GEN_OBJ)
$(LIB) $(FAST_LIB) $(CASE_LIB) $(GEN_LIB):
	@mkdir -p $(@D)
	rm -f $@ && $(AR) rcs $@ $^

$(CLI): $(CLI_OBJ) $(GEN_LIB) $(CASE_LIB) $(LIB)
	@mkdir -p $(@D)
	$(CC) $(LDFLAGS) -o $@ $^ $(CJSON_LIBS) $(LDLIBS)

# The commit dmlcts was built from, for its reports: git's answer in a clone, else the one
# `git archive` wrote into .git-commit (export-subst), else "unknown".
DMLREF_COMMIT := $(or $(shell git describe --always --dirty 2>/dev/null),$(shell \
                   sed -n 's/^\([0-9a-f]\{7,\}\)$$/\1/p' .git-commit 2>/dev/null),unknown)
$(BUILD)/obj/suite/report_html.o $(BUILD)/obj/suite/report_fmt.o: CFLAGS_ROOM += \
	-DDMLCTS_GIT='"$(DMLREF_COMMIT)"'
$(DMLCTS): $(SUITE_OBJ) $(CASE_LIB) $(FAST_LIB) $(LIB)
	@mkdir -p $(@D)
	$(CC) $(LDFLAGS) -pthread -o $@ $^ $(CJSON_LIBS) -ldl $(LDLIBS)

$(REF_PLUGIN): $(BUILD)/obj/suite/plugins/ref_plugin.o $(FAST_LIB) $(LIB)
	@mkdir -p $(@D)
	$(CC) $(LDFLAGS) -shared -o $@ $^ $(LDLIBS)

mutants: $(MUTANTS)

$(BUILD)/lib/dmlcts_ref_plugin_v1.so: suite/plugins/ref_plugin.c suite/dmlcts_backend.h \
                                      ref/include/dmlref.h $(FAST_LIB) $(LIB)
	@mkdir -p $(@D)
	$(CC) $(CFLAGS_WARN) $(CFLAGS) $(CFLAGS_STD) -fPIC $(CFLAGS_OMP) $(CFLAGS_SAN) $(INC_FAST) \
		-Isuite -DDMLCTS_REF_PLUGIN_V1 $(LDFLAGS) -shared -o $@ $< $(FAST_LIB) $(LIB) $(LDLIBS)

$(BUILD)/lib/dmlcts_mutant_%.so: suite/mutants/mutant_plugin.c suite/dmlcts_backend.h \
                                  ref/include/dmlref.h $(LIB)
	@mkdir -p $(@D)
	$(CC) $(CFLAGS_WARN) $(CFLAGS) $(CFLAGS_STD) -fPIC $(CFLAGS_OMP) $(CFLAGS_SAN) $(INC_LIB) \
		-Isuite -DMUTANT=M_$* $(LDFLAGS) -shared -o $@ $< $(LIB) $(LDLIBS)

$(LIB_TESTS): $(BUILD)/test/%: $(BUILD)/obj/ref/src/test/%.o $(TU_OBJ) $(LIB)
$(FAST_TESTS): $(BUILD)/test/%: $(BUILD)/obj/ref/fast/test/%.o $(TU_OBJ) $(FAST_LIB) $(LIB)
$(CASE_TESTS): $(BUILD)/test/%: $(BUILD)/obj/ref/case/test/%.o $(TU_OBJ) $(CASE_LIB) $(LIB)
$(GEN_TESTS): $(BUILD)/test/%: $(BUILD)/obj/ref/gen/test/%.o $(TU_OBJ) $(GEN_LIB) $(CASE_LIB) $(LIB)
$(TESTS):
	@mkdir -p $(@D)
	$(CC) $(LDFLAGS) -o $@ $^ $(CJSON_LIBS) $(CHECK_LIBS) $(LDLIBS)

$(BUILD)/obj/%.o: %.c
	@mkdir -p $(@D)
	$(CC) $(CFLAGS_ALL) -c -o $@ $<

BENCH    := $(BUILD)/bin/dmlref-bench
BENCH_OBJ := $(call objs,$(wildcard bench/*.c))
# The flags that shape the code, recorded in the benchmark's JSON.
BENCH_FLAGS := $(filter -O% -f% -m% -g% -std=% -D_% -DDMLR_%,$(CFLAGS) $(CFLAGS_STD) $(CFLAGS_OMP))
$(BUILD)/obj/bench/bench.o: CFLAGS_ROOM += -DDMLR_BENCH_FLAGS='"$(BENCH_FLAGS)"'
$(BENCH): $(BENCH_OBJ) $(FAST_LIB) $(LIB)
	@mkdir -p $(@D)
	$(CC) $(LDFLAGS) -o $@ $^ $(LDLIBS)

# A benchmark, not a test: prints a table and writes build/bench.json, then
# numpy on the same shapes and the targets in build/bench-report.json
# (numpy needs Debian's /usr/bin/python3: the python3 first on PATH may lack it).
bench: $(BENCH)
	$(BENCH) --json $(BUILD)/bench.json
	@if [ -x /usr/bin/python3 ]; then \
		/usr/bin/python3 bench/bench_numpy.py $(BUILD)/bench.json $(BUILD)/bench-report.json; \
	else echo "bench: /usr/bin/python3 absent: numpy comparison skipped"; fi
	@[ ! -x /usr/bin/python3 ] || /usr/bin/python3 bench/bench_python.py $(BUILD)

# Check forks a child per test; OpenMP must not start in the parent first, so
# every test program runs OpenMP only inside the tests (see machine notes).
# suite/test/test-dxdispatch.sh's stand-in for dxdispatch.exe: the reference, not DirectML.
DXD_STANDIN := $(BUILD)/test/dxdispatch-standin
$(DXD_STANDIN): $(BUILD)/obj/suite/test/dxdispatch_standin.o $(CASE_LIB) $(LIB)
	@mkdir -p $(@D)
	$(CC) $(LDFLAGS) -o $@ $^ $(CJSON_LIBS) $(LDLIBS)

# test-build: what test runs, built and not run (scripts/test.sh builds build-asan/ this
# way beside the normal build's tests).
.PHONY: test-build
test-build: $(TESTS) $(CLI) $(DMLCTS) $(REF_PLUGIN) $(MUTANTS) $(DXD_STANDIN)
test: test-build
	@BUILD=$(BUILD) sh scripts/run-tests.sh $(TESTS) -- $(SCRIPT_TESTS)

test-asan:
	$(MAKE) test SANITIZE=1

.PHONY: bench-dmlcts
bench-dmlcts: $(DMLCTS) $(MUTANTS)
	sh bench/dmlcts-restart.sh $(BUILD)

check-cases: $(CLI)
	$(CLI) check --quiet goldens

# The generated golden corpus (SPEC_NOTES, GOLDENS rules): goldens/gen belongs to make goldens alone.
.PHONY: goldens check-goldens
goldens: $(CLI)
	rm -rf goldens/gen
	$(CLI) gen --out goldens/gen --coverage goldens/COVERAGE.md --known goldens/known

# The cases too big for the default corpus (GOLDENS-10): outputs beyond 4 GiB, about
# 9 GiB of memory to generate or check, 13 GiB under dmlcts; run them with
# dmlcts --max-memory 24G --max-work 4G ... goldens-huge.
.PHONY: goldens-huge check-goldens-huge
goldens-huge: $(CLI)
	$(CLI) gen --huge --out goldens-huge
check-goldens-huge: $(CLI)
	@T=$$(mktemp -d) && $(CLI) gen --huge --out $$T >/dev/null && diff -r goldens-huge $$T && \
	$(CLI) check --quiet --max-memory 24G --max-work 4G goldens-huge; rc=$$?; rm -rf $$T; exit $$rc

# Regenerate everything at 1 and 2 threads: byte-identical to the committed files.
check-goldens: $(CLI)
	@sh ref/gen/test/test-goldens.sh $(CLI) --all

# Fuzzing (fuzz/README.md): libFuzzer targets built with clang under ASan + UBSan in build-fuzz/
# (scalar: no OpenMP); fuzz-smoke runs each FUZZ_SECONDS from its seeds and dictionary.
FUZZ_CC ?= clang
FUZZ_SECONDS ?= 60
FUZZ_NAMES := case values npy recipe cmd_reply
FUZZ_BUILD ?= build-fuzz
FUZZ_BIN := $(FUZZ_NAMES:%=$(FUZZ_BUILD)/fuzz/fuzz_%)
.PHONY: fuzz fuzz-targets fuzz-smoke
fuzz:
	@$(MAKE) -s BUILD=$(FUZZ_BUILD) CC=$(FUZZ_CC) OPENMP=0 FUZZING=1 fuzz-targets
fuzz-targets: $(FUZZ_BIN)
$(BUILD)/obj/fuzz/%.o: CFLAGS_ROOM = $(INC_CASE) -Iref/gen -Iref/cli -Isuite $(CJSON_CFLAGS)
$(FUZZ_BUILD)/fuzz/fuzz_case: $(BUILD)/obj/fuzz/fuzz_case.o $(filter-out %/main.o,$(CLI_OBJ)) \
                           $(GEN_LIB) $(CASE_LIB) $(LIB)
$(FUZZ_BUILD)/fuzz/fuzz_values $(FUZZ_BUILD)/fuzz/fuzz_npy $(FUZZ_BUILD)/fuzz/fuzz_recipe: \
$(FUZZ_BUILD)/fuzz/fuzz_%: $(BUILD)/obj/fuzz/fuzz_%.o $(CASE_LIB) $(LIB)
$(FUZZ_BUILD)/fuzz/fuzz_cmd_reply: $(BUILD)/obj/fuzz/fuzz_cmd_reply.o \
                                $(filter-out %/main.o,$(SUITE_OBJ)) $(CASE_LIB) $(FAST_LIB) $(LIB)
$(FUZZ_BIN):
	@mkdir -p $(@D)
	$(CC) $(LDFLAGS) -fsanitize=fuzzer -pthread -o $@ $^ $(CJSON_LIBS) -ldl $(LDLIBS)
fuzz-smoke: fuzz
	@FUZZ_BUILD=$(FUZZ_BUILD) FUZZ_SECONDS=$(FUZZ_SECONDS) sh fuzz/run.sh $(FUZZ_NAMES)

clean:
	rm -rf build build-asan $(FUZZ_BUILD)

# Optional: never a dependency of all or test (backends/cuda/README.md).
-include backends/cuda/cuda.mk
include mk/install.mk
include mk/python.mk
include mk/directml.mk

-include $(shell find $(BUILD)/obj -name '*.d' 2>/dev/null)
