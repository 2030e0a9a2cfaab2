# A thin front over CMake. The two set-up commands:
#   make judge   installs what is missing (as root), builds, grades every problem's solution
#   make test    builds and runs the tests (ctest)
#   make bench   times every problem's baseline, fast reference and vendor anchor side by side (bench/results/)
BUILD ?= build
JOBS ?= $(shell nproc)
CMAKE_FLAGS ?=

.PHONY: judge test bench build deps test-deps clean

deps:
	@tools/install-deps.sh

test-deps:
	@tools/install-deps.sh --test

$(BUILD)/CMakeCache.txt:
	cmake -S . -B $(BUILD) -DCMAKE_BUILD_TYPE=Release $(CMAKE_FLAGS)

build: deps $(BUILD)/CMakeCache.txt
	cmake --build $(BUILD) -j $(JOBS)

judge: build
	@./judge/judge all || true

test: test-deps build
	cd $(BUILD) && ctest --output-on-failure -j $(JOBS)

bench: build
	./judge/judge bench

clean:
	rm -rf $(BUILD)
