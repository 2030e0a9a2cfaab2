# A thin front over CMake. The two set-up commands:
#   make judge   installs what judging needs (as root), builds the judge, grades every problem's starter
#   make test    installs what the tests need too, builds everything and runs the tests (ctest)
#   make bench   times every problem's baseline, fast reference and vendor anchor side by side (bench/results/)
# Before the first command: make and a C++ compiler (and the CUDA toolkit for GPU problems).
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

# Everything, the tests included where Catch2 v3 is found.
build: deps $(BUILD)/CMakeCache.txt
	cmake --build $(BUILD) -j $(JOBS)

# Only what judging needs: the judge and its runner.
judge: deps $(BUILD)/CMakeCache.txt
	cmake --build $(BUILD) --target hpcjudge -j $(JOBS)
	@# A second, empty pass merges the compiler's dependency files (CMake does it on the next build), so that
	@# users who can only read this build (a shared install) can run ./judge/judge on it.
	@cmake --build $(BUILD) --target hpcjudge -j $(JOBS) > /dev/null
	@echo
	@echo "Grading every problem's starter solution (problems/<slug>/solution.*). The starters are"
	@echo "unsolved, so WA (or RE) is expected; without an NVIDIA GPU, GPU problems are graded by CPU emulation:"
	@echo "the point is that the judge runs. Edit a starter, then ./judge/judge <slug>."
	@echo
	@./judge/judge all || true

# Configured again with the tests required, so a build from `make judge` gains them.
test: test-deps
	cmake -S . -B $(BUILD) -DCMAKE_BUILD_TYPE=Release -DHPCJUDGE_TESTS=ON -DHPCJUDGE_SERVER=ON $(CMAKE_FLAGS)
	cmake --build $(BUILD) -j $(JOBS)
	@cmake --build $(BUILD) -j $(JOBS) > /dev/null  # the dependency files merged (see judge:)
	@# A test still running after 15 minutes has hung (the longest, which set their own TIMEOUT, take 4): it fails
	@# with its output, and the rest go on, rather than CI's time running out with nothing said.
	cd $(BUILD) && ctest --output-on-failure --no-tests=error -j $(JOBS) --timeout 900

bench: build
	./judge/judge bench

clean:
	rm -rf $(BUILD)
