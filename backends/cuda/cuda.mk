# backends/cuda/cuda.mk -- the optional CUDA backend, included by the Makefile.
#   make cuda    build/lib/dmlcts_cuda_plugin.so   the dmlcts plugin
#                build/lib/dmlcts_cuda_memcheck_control.so   the same, plus one
#                                  planted out-of-bounds write (memcheck's control)
#                build/bin/dmlref-cuda-bench       kernels vs cudaMemcpy, GB/s
#                build/bin/dmlref-cuda-selftest    random cases vs libdmlref
# Never a dependency of all or test: CI and the default build need no CUDA.
# The plugin and self-test need nvcc only: they link libdmlref.a, which the
# Makefile already compiles with -fPIC.  The bench also reads golden case
# files (--case), so it links the case loader (CUDA_CASE_LIB) with cJSON and
# nettle (CUDA_CASE_LIBS); where those are missing (the GPU machine), point
# both at copies built elsewhere (scripts/gpu/prepare-carry.sh does).  The device code is for sm_90 (H100,
# H200); CUDA_ARCH overrides it.
NVCC      ?= nvcc
CUDA_ARCH ?= -gencode arch=compute_90,code=sm_90
NVCCFLAGS ?= -O3 -g -lineinfo
# --fmad=false: no multiply-add contraction anywhere (the reference has none).
CUDA_FLAGS := $(CUDA_ARCH) -std=c++17 --fmad=false -Xcompiler -fPIC,-Wall \
              -Iref/include -Iref/case/include -Isuite -Ibackends/cuda
CUDA_DIR  := $(BUILD)/obj/backends/cuda
CUDA_CORE := $(CUDA_DIR)/common.o $(CUDA_DIR)/gather.o $(CUDA_DIR)/gather_nd.o $(CUDA_DIR)/move.o $(CUDA_DIR)/scan.o \
             $(CUDA_DIR)/scan_onepass.o $(CUDA_DIR)/scan_lookback.o $(CUDA_DIR)/scan_lane.o $(CUDA_DIR)/scan_lane_scratch.o $(CUDA_DIR)/scan_cub.o \
             $(CUDA_DIR)/scatter_slabs.o $(CUDA_DIR)/scatter_chunks.o
CUDA_HDR  := $(wildcard backends/cuda/*.h backends/cuda/*.cuh) ref/include/dmlref.h \
             suite/dmlcts_backend.h
# The bench's and the self-test's sources, one concern a file: the nvcc and the emulated
# build both list them from here.
CUDA_BENCH_SRC    := bench_cuda bench_cases bench_timing bench_report bench_golden bench_roofline
CUDA_SELFTEST_SRC := selftest_cuda selftest_tensors selftest_cases selftest_judge
# libdmlref.a is built with -fopenmp unless OPENMP=0.
CUDA_LIBS := $(if $(filter 1,$(OPENMP)),-lgomp) -lm

CUDA_CASE_LIB  ?= $(BUILD)/lib/libdmlcase.a
CUDA_CASE_LIBS ?= $(CJSON_LIBS)

CUDA_PLUGIN   := $(BUILD)/lib/dmlcts_cuda_plugin.so
CUDA_BENCH    := $(BUILD)/bin/dmlref-cuda-bench
CUDA_SELFTEST := $(BUILD)/bin/dmlref-cuda-selftest
CUDA_CONTROL  := $(BUILD)/lib/dmlcts_cuda_memcheck_control.so
CUDA_BENCH_OBJ    := $(CUDA_BENCH_SRC:%=$(CUDA_DIR)/%.o)
CUDA_SELFTEST_OBJ := $(CUDA_SELFTEST_SRC:%=$(CUDA_DIR)/%.o)

.PHONY: cuda
cuda: $(CUDA_PLUGIN) $(CUDA_BENCH) $(CUDA_SELFTEST) $(CUDA_CONTROL)

$(CUDA_DIR)/%.o: backends/cuda/%.cu $(CUDA_HDR)
	@mkdir -p $(@D)
	$(NVCC) $(CUDA_FLAGS) $(NVCCFLAGS) -c -o $@ $<

$(CUDA_PLUGIN): $(CUDA_DIR)/plugin.o $(CUDA_CORE) $(LIB)
	@mkdir -p $(@D)
	$(NVCC) $(CUDA_ARCH) -shared -o $@ $(CUDA_DIR)/plugin.o $(CUDA_CORE) $(LIB) $(CUDA_LIBS)

$(CUDA_DIR)/plugin_control.o: backends/cuda/plugin.cu $(CUDA_HDR)
	@mkdir -p $(@D)
	$(NVCC) $(CUDA_FLAGS) $(NVCCFLAGS) -DDMLCU_MEMCHECK_CONTROL -c -o $@ $<

$(CUDA_CONTROL): $(CUDA_DIR)/plugin_control.o $(CUDA_CORE) $(LIB)
	@mkdir -p $(@D)
	$(NVCC) $(CUDA_ARCH) -shared -o $@ $< $(CUDA_CORE) $(LIB) $(CUDA_LIBS)

# Both judge CUMULATIVE_PRODUCT with the cases' own tolerance (ref/case/tolerance.c).
$(CUDA_BENCH): $(CUDA_BENCH_OBJ) $(CUDA_CORE) $(CUDA_CASE_LIB) $(LIB)
	@mkdir -p $(@D)
	$(NVCC) $(CUDA_ARCH) -o $@ $(CUDA_BENCH_OBJ) $(CUDA_CORE) \
		$(CUDA_CASE_LIB) $(LIB) $(CUDA_CASE_LIBS) $(CUDA_LIBS)

$(CUDA_SELFTEST): $(CUDA_SELFTEST_OBJ) $(CUDA_CORE) $(CUDA_CASE_LIB) $(LIB)
	@mkdir -p $(@D)
	$(NVCC) $(CUDA_ARCH) -o $@ $(CUDA_SELFTEST_OBJ) $(CUDA_CORE) \
		$(CUDA_CASE_LIB) $(LIB) $(CUDA_CASE_LIBS) $(CUDA_LIBS)

# `make cuda-emu`: the same kernel sources compiled with the host C++ compiler
# against emu/ (a CPU stand-in for the CUDA runtime: one fiber per thread,
# real barriers and shuffles) and the self-test run on them.  No GPU, no nvcc.
CUDA_EMU_DIR  := $(BUILD)/obj/backends/cuda-emu
CUDA_EMU_FLAGS := -x c++ -std=c++17 -O1 -g -fPIC -DDMLCU_EMULATION -ffp-contract=off -Wall \
                  -Wno-unused-function -Wno-unknown-pragmas -Ibackends/cuda/emu -Iref/include -Iref/case/include -Isuite -Ibackends/cuda
CUDA_EMU_OBJ  := $(CUDA_EMU_DIR)/common.o $(CUDA_EMU_DIR)/gather.o $(CUDA_EMU_DIR)/gather_nd.o $(CUDA_EMU_DIR)/move.o \
                 $(CUDA_EMU_DIR)/scan.o $(CUDA_EMU_DIR)/scan_onepass.o $(CUDA_EMU_DIR)/scan_lookback.o $(CUDA_EMU_DIR)/scan_lane.o $(CUDA_EMU_DIR)/scan_lane_scratch.o \
                 $(CUDA_EMU_DIR)/scatter_slabs.o $(CUDA_EMU_DIR)/scatter_chunks.o $(CUDA_EMU_DIR)/emu.o
CUDA_EMU_BENCH_OBJ    := $(CUDA_BENCH_SRC:%=$(CUDA_EMU_DIR)/%.o)
CUDA_EMU_SELFTEST_OBJ := $(CUDA_SELFTEST_SRC:%=$(CUDA_EMU_DIR)/%.o)
CUDA_EMU_TEST := $(BUILD)/bin/dmlref-cuda-emu-selftest
CUDA_EMU_BENCH := $(BUILD)/bin/dmlref-cuda-emu-bench
# The plugin too, so that dmlcts runs plugin.cu's buffer handling on the CPU:
#   build/bin/dmlcts --backend plugin:build/lib/dmlcts_cuda_emu_plugin.so goldens
CUDA_EMU_PLUGIN := $(BUILD)/lib/dmlcts_cuda_emu_plugin.so
CXX ?= c++

.PHONY: cuda-emu cuda-emu-build
# Then the scans again with the blocks run last first: the look-back's tiles
# come from an atomic ticket, never from block order (emu.cpp).
cuda-emu: cuda-emu-build $(DMLCTS)
	$(CUDA_EMU_TEST) --cases 500 --big 10
	DMLCU_EMU_REVERSE_BLOCKS=1 $(CUDA_EMU_TEST) --op CUMULATIVE_SUMMATION --cases 40 --big 2 --seed 2
	DMLCU_SCATTER_CHUNKS=64 $(DMLCTS) -q --backend plugin:$(CUDA_EMU_PLUGIN) --op SCATTER goldens
	DMLCU_SCATTER_CHUNKS=64 DMLCU_EMU_SCRATCH_LIMIT=0 $(DMLCTS) -q \
	    --backend plugin:$(CUDA_EMU_PLUGIN) --op SCATTER goldens # no room for the buckets
cuda-emu-build: $(CUDA_EMU_TEST) $(CUDA_EMU_PLUGIN) $(CUDA_EMU_BENCH)

# The bench too: its cases' descs and checks, not its timings, mean something here.
$(CUDA_EMU_BENCH): $(CUDA_EMU_BENCH_OBJ) $(CUDA_EMU_OBJ) $(CUDA_CASE_LIB) $(LIB)
	@mkdir -p $(@D)
	$(CXX) $(LDFLAGS) -o $@ $(filter %.o,$^) $(CUDA_CASE_LIB) $(LIB) $(CUDA_CASE_LIBS) $(LDLIBS)

$(CUDA_EMU_PLUGIN): $(CUDA_EMU_DIR)/plugin.o $(CUDA_EMU_OBJ) $(LIB)
	@mkdir -p $(@D)
	$(CXX) $(LDFLAGS) -shared -o $@ $(filter %.o,$^) $(LIB) $(LDLIBS)

$(CUDA_EMU_DIR)/%.o: backends/cuda/%.cu $(CUDA_HDR) $(wildcard backends/cuda/emu/*.h)
	@mkdir -p $(@D)
	$(CXX) $(CUDA_EMU_FLAGS) -c -o $@ $<

$(CUDA_EMU_DIR)/emu.o: backends/cuda/emu/emu.cpp backends/cuda/emu/cuda_runtime.h
	@mkdir -p $(@D)
	$(CXX) $(filter-out -x c++,$(CUDA_EMU_FLAGS)) -U_FORTIFY_SOURCE -c -o $@ $<

$(CUDA_EMU_TEST): $(CUDA_EMU_SELFTEST_OBJ) $(CUDA_EMU_OBJ) $(CASE_LIB) $(LIB)
	@mkdir -p $(@D)
	$(CXX) $(LDFLAGS) -o $@ $(CUDA_EMU_SELFTEST_OBJ) $(CUDA_EMU_OBJ) $(CASE_LIB) $(LIB) $(LDLIBS)
