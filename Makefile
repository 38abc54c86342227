# dmlref -- out-of-tree build under build/.
#   make            library, CLI (build/bin/dmlref), conformance harness
#                   (build/bin/dmlcts) and its reference plugin
#   make mutants    deliberately wrong plugins that prove dmlcts judges
#   make test       all Check tests (SANITIZE=1: ASan + UBSan build in build-asan/)
#   make test-asan  the same as make test SANITIZE=1
#   make OPENMP=0   the scalar reference (no -fopenmp)
#   make goldens    regenerate goldens/gen and goldens/COVERAGE.md (dmlref gen)
#   make check-goldens  regeneration reproduces them byte for byte
#   make cuda       the optional CUDA backend (backends/cuda/cuda.mk; needs nvcc)
CC      ?= cc
OPENMP  ?= 1
SANITIZE ?= 0
BUILD   ?= $(if $(filter 1,$(SANITIZE)),build-asan,build)

PKGS      := libcjson check nettle
PKG_CFLAGS := $(shell pkg-config --cflags $(PKGS) 2>/dev/null)
CJSON_LIBS := $(shell pkg-config --libs libcjson nettle 2>/dev/null)
CHECK_LIBS := $(shell pkg-config --libs check 2>/dev/null)

CFLAGS  ?= -O2 -g
# -fPIC everywhere: the library is linked into plugins (shared objects) too.
CFLAGS  += -fPIC -std=c11 -ffp-contract=off -Wall -Wextra -Wshadow -Wno-unused-parameter \
           -D_POSIX_C_SOURCE=200809L -MMD -MP -Iref/include -Iref/src $(PKG_CFLAGS)
LDLIBS  += -lm
ifeq ($(OPENMP),1)
CFLAGS  += -fopenmp
LDFLAGS += -fopenmp
endif
ifeq ($(SANITIZE),1)
CFLAGS  += -fsanitize=address,undefined -fno-sanitize-recover=undefined -fno-omit-frame-pointer
LDFLAGS += -fsanitize=address,undefined
endif

LIB_SRC  := $(wildcard ref/src/*.c ref/src/ops/*.c)
CLI_SRC  := $(wildcard ref/cli/*.c)
TEST_SRC := $(wildcard ref/test/check_*.c)
TESTUTIL := $(wildcard ref/test/testutil*.c)

LIB_OBJ  := $(LIB_SRC:%.c=$(BUILD)/obj/%.o)
CLI_OBJ  := $(CLI_SRC:%.c=$(BUILD)/obj/%.o)
# The CLI's objects but main: the case loader etc., linked into the tests too.
CASE_OBJ := $(filter-out $(BUILD)/obj/ref/cli/main.o,$(CLI_OBJ))
TU_OBJ   := $(TESTUTIL:%.c=$(BUILD)/obj/%.o)
TESTS    := $(TEST_SRC:ref/test/%.c=$(BUILD)/test/%)

LIB      := $(BUILD)/lib/libdmlref.a
CLI      := $(BUILD)/bin/dmlref

# dmlcts: suite/*.c plus the reference plugin linked in as --backend ref.
SUITE_OBJ  := $(patsubst %.c,$(BUILD)/obj/%.o,$(wildcard suite/*.c) suite/plugins/ref_plugin.c)
DMLCTS     := $(BUILD)/bin/dmlcts
REF_PLUGIN := $(BUILD)/lib/dmlcts_ref_plugin.so
MUTANT_NAMES := ignore_strides axis_off_by_one reversed_direction exclusive_off_by_one \
                f16_truncate negative_index_clamp write_past_end narrow_offsets \
                nan_canonical crash hang input_write
MUTANTS    := $(MUTANT_NAMES:%=$(BUILD)/lib/dmlcts_mutant_%.so)

.PHONY: all test test-asan clean check-cases bench mutants
all: $(LIB) $(CLI) $(DMLCTS) $(REF_PLUGIN)

$(BUILD)/obj/suite/%.o: CFLAGS += -Isuite -pthread

$(DMLCTS): $(SUITE_OBJ) $(CASE_OBJ) $(LIB)
	@mkdir -p $(@D)
	$(CC) $(LDFLAGS) -pthread -o $@ $(SUITE_OBJ) $(CASE_OBJ) $(LIB) $(CJSON_LIBS) -ldl $(LDLIBS)

$(REF_PLUGIN): $(BUILD)/obj/suite/plugins/ref_plugin.o $(LIB)
	@mkdir -p $(@D)
	$(CC) $(LDFLAGS) -shared -o $@ $< $(LIB) $(LDLIBS)

mutants: $(MUTANTS)

$(BUILD)/lib/dmlcts_mutant_%.so: suite/mutants/mutant_plugin.c suite/dmlcts_backend.h \
                                  ref/include/dmlref.h $(LIB)
	@mkdir -p $(@D)
	$(CC) $(filter-out -MMD -MP,$(CFLAGS)) -Isuite -DMUTANT=M_$* $(LDFLAGS) -shared -o $@ $< \
		$(LIB) $(LDLIBS)

BENCH    := $(BUILD)/bin/dmlref-bench
BENCH_OBJ := $(patsubst %.c,$(BUILD)/obj/%.o,$(wildcard bench/*.c))
# The flags that shape the code, recorded in the benchmark's JSON.
BENCH_FLAGS := $(filter -O% -f% -m% -g% -std=% -D_%,$(CFLAGS))
$(BUILD)/obj/bench/bench.o: CFLAGS += -DDMLR_BENCH_FLAGS='"$(BENCH_FLAGS)"'
$(BENCH): $(BENCH_OBJ) $(LIB)
	@mkdir -p $(@D)
	$(CC) $(LDFLAGS) -o $@ $(BENCH_OBJ) $(LIB) $(LDLIBS)

# A benchmark, not a test: prints a table and writes build/bench.json, then
# numpy on the same shapes and the targets in build/bench-report.json
# (numpy needs Debian's /usr/bin/python3: the python3 first on PATH may lack it).
bench: $(BENCH)
	$(BENCH) --json $(BUILD)/bench.json
	@if [ -x /usr/bin/python3 ]; then \
		/usr/bin/python3 bench/bench_numpy.py $(BUILD)/bench.json $(BUILD)/bench-report.json; \
	else echo "bench: /usr/bin/python3 absent: numpy comparison skipped"; fi

$(LIB): $(LIB_OBJ)
	@mkdir -p $(@D)
	$(AR) rcs $@ $^

$(CLI): $(CLI_OBJ) $(LIB)
	@mkdir -p $(@D)
	$(CC) $(LDFLAGS) -o $@ $(CLI_OBJ) $(LIB) $(CJSON_LIBS) $(LDLIBS)

$(BUILD)/test/%: $(BUILD)/obj/ref/test/%.o $(TU_OBJ) $(CASE_OBJ) $(LIB)
	@mkdir -p $(@D)
	$(CC) $(LDFLAGS) -o $@ $< $(TU_OBJ) $(CASE_OBJ) $(LIB) $(CJSON_LIBS) $(CHECK_LIBS) $(LDLIBS)

$(BUILD)/obj/%.o: %.c
	@mkdir -p $(@D)
	$(CC) $(CFLAGS) -c -o $@ $<

# Check forks a child per test; OpenMP must not start in the parent first, so
# every test program runs OpenMP only inside the tests (see machine notes).
test: $(TESTS) $(CLI) $(DMLCTS) $(REF_PLUGIN) $(MUTANTS)
	@BUILD=$(BUILD) sh scripts/run-tests.sh $(TESTS)

test-asan:
	$(MAKE) test SANITIZE=1

check-cases: $(CLI)
	$(CLI) check --quiet goldens

# The generated golden corpus (notes/GOLDENS.md): goldens/gen belongs to make goldens alone.
.PHONY: goldens check-goldens
goldens: $(CLI)
	rm -rf goldens/gen
	$(CLI) gen --out goldens/gen --coverage goldens/COVERAGE.md

# Regenerate everything at 1 and 2 threads: byte-identical to the committed files.
check-goldens: $(CLI)
	@sh scripts/test-goldens.sh $(CLI) --all

clean:
	rm -rf build build-asan

# Optional: never a dependency of all or test (backends/cuda/README.md).
-include backends/cuda/cuda.mk

-include $(shell find $(BUILD)/obj -name '*.d' 2>/dev/null)
