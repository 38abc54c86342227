# mk/directml.mk -- the real DirectML as a dmlcts backend (docs/directml.md):
#   make directml          scripts/directml/setup.sh (packages, private Mesa, DirectML.dll, prefix) + the runner
#   make directml-runner   build/directml/dmlrun.exe only (x86_64-w64-mingw32-gcc, static)
#   make directml-corpus   the whole corpus through DirectML (DMLREF_DIRECTML_ORT picks the DLL;
#                          DML_FLAGS="--feature-level 6_3" for DirectML 1.14, which stops at 6_3)
MINGW_CC     ?= x86_64-w64-mingw32-gcc
DML_RUNNER   := $(BUILD)/directml/dmlrun.exe
DML_SRC      := $(wildcard backends/directml/*.c)
DML_BACKEND  := directml
DML_REPORTS  ?= $(BUILD)/directml
DML_FLAGS    ?=

$(DML_RUNNER): $(DML_SRC) $(wildcard backends/directml/*.h)
	@mkdir -p $(@D)
	$(MINGW_CC) -std=c11 -O2 -Wall -Wextra -Werror -Wno-cast-function-type -static -o $@ $(DML_SRC) -ld3d12

.PHONY: directml directml-runner directml-corpus
directml-runner: $(DML_RUNNER)
directml:
	sh scripts/directml/setup.sh
directml-corpus: $(DMLCTS) $(DML_RUNNER)
	@mkdir -p $(DML_REPORTS)
	$(DMLCTS) --backend "$(DML_BACKEND)" --batch 400 $(DML_FLAGS) --json $(DML_REPORTS)/corpus.json \
		--html $(DML_REPORTS)/corpus.html goldens
