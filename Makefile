# pirogue — build, test, run, install, sanitizer and bench targets.
# GNU make. Out-of-tree builds: make O=/some/dir (objects and binaries there).
# Libraries through pkg-config. User CPPFLAGS/CFLAGS/LDFLAGS are appended last.

O        ?= .
BUILD    := $(O)/build
CC       ?= cc
PKG      ?= pkg-config
PREFIX   ?= /usr/local
BINDIR   ?= $(PREFIX)/bin
DATADIR  ?= $(PREFIX)/share/pirogue
SBINDIR  ?= $(PREFIX)/sbin
DOCDIR   ?= $(PREFIX)/share/doc/pirogue
UNITDIR  ?= $(PREFIX)/lib/systemd/system
VERSION  := $(shell cat VERSION 2>/dev/null || echo 0.0.0)

# Cross build for another Debian architecture (needs its gcc and :ARCH -dev
# packages), e.g. make CROSS=aarch64-linux-gnu O=build/aarch64 LDFLAGS=-static
CROSS    ?=
ifneq ($(CROSS),)
CC       := $(CROSS)-gcc
AR       := $(CROSS)-ar
PKG      := env PKG_CONFIG_LIBDIR=/usr/lib/$(CROSS)/pkgconfig:/usr/share/pkgconfig pkg-config
endif

# Backends that need hardware libraries; set to 0 to build without them.
WITH_DRM   ?= 1
WITH_EVDEV ?= 1

# The project's warning set (documented in README "Building"):
WARN := -Wall -Wextra -Werror -Wshadow -Wstrict-prototypes -Wmissing-prototypes \
        -Wpointer-arith -Wformat=2 -Wundef -Wvla -Wcast-align -Wwrite-strings \
        -Wno-unused-parameter
OPT  ?= -O2 -g
PKGS := stb zlib
ifeq ($(WITH_DRM),1)
PKGS += libdrm
endif
ifeq ($(WITH_EVDEV),1)
PKGS += libevdev
endif
PKG_CFLAGS := $(shell $(PKG) --cflags $(PKGS) 2>/dev/null)
PKG_LIBS   := $(shell $(PKG) --libs $(PKGS) 2>/dev/null)
BASE_CFLAGS := -std=c11 -D_GNU_SOURCE -Isrc $(WARN) $(OPT) -MMD -MP \
        -DPIROGUE_VERSION=\"$(VERSION)\" -DPIROGUE_DATADIR=\"$(DATADIR)\" \
        -DWITH_DRM=$(WITH_DRM) -DWITH_EVDEV=$(WITH_EVDEV) $(PKG_CFLAGS)
# Hardening (tests/test_hardening.sh reads the ELF): fortified libc calls,
# stack canaries, a position-independent executable, full RELRO. A packager's
# CPPFLAGS come after ours; one that sets _FORTIFY_SOURCE itself replaces ours.
# HARDEN=0 turns it off (the fuzzers build without it).
HARDEN ?= 1
ifeq ($(HARDEN),1)
ifeq ($(findstring _FORTIFY_SOURCE,$(CPPFLAGS) $(CFLAGS) $(EXTRA_CFLAGS)),)
ifneq ($(filter -O1 -O2 -O3 -Os -Og -Ofast,$(OPT)),)
HARDEN_CFLAGS := -D_FORTIFY_SOURCE=2
endif
endif
HARDEN_CFLAGS += -fstack-protector-strong -fPIE
HARDEN_LDFLAGS := -Wl,-z,relro,-z,now
ifeq ($(findstring -static,$(LDFLAGS)),)
HARDEN_LDFLAGS += -pie
endif
endif
ALL_CFLAGS  = $(BASE_CFLAGS) $(HARDEN_CFLAGS) $(EXTRA_CFLAGS) $(CPPFLAGS) $(CFLAGS)
ALL_LDFLAGS = $(HARDEN_LDFLAGS) $(EXTRA_LDFLAGS) $(LDFLAGS)
LIBS        = $(PKG_LIBS) -lm -pthread

# Every .c under src/ except main.c goes into libpirogue.a. Hardware backends
# are left out when their switch is off.
SRCS := $(sort $(shell find src -name '*.c' ! -name main.c))
ifneq ($(WITH_DRM),1)
SRCS := $(filter-out src/platform/drm%.c,$(SRCS))
endif
ifneq ($(WITH_EVDEV),1)
SRCS := $(filter-out src/platform/evdev%.c,$(SRCS))
endif
OBJS := $(SRCS:%.c=$(BUILD)/%.o)
LIB  := $(BUILD)/libpirogue.a
BIN  := $(O)/pirogue

TEST_SRCS  := $(sort $(wildcard tests/test_*.c))
TEST_BINS  := $(TEST_SRCS:tests/%.c=$(BUILD)/tests/%)
BENCH_SRCS := $(sort $(wildcard bench/bench_*.c))
BENCH_BINS := $(BENCH_SRCS:bench/%.c=$(BUILD)/bench/%)
# The benchmarks with an instruction-count mode (--ir, bench_ir_mode): the
# only ones make bench-ir runs under callgrind.
BENCH_IR_BINS := $(patsubst bench/%.c,$(BUILD)/bench/%,$(shell grep -l bench_ir_mode $(BENCH_SRCS)))

.PHONY: tools all run test unit-test asan bench bench-ir perf-tables check-bench-deps deps install uninstall clean check-deps vm-test deb
# (a recipe, so that an up-to-date make all says nothing: ./run's second run)
all: $(BIN)
	@:

# make V=1 shows the full command lines.
V ?= 0
ifeq ($(V),0)
Q := @
else
Q :=
endif

$(BUILD)/%.o: %.c
	@mkdir -p $(dir $@)
	@$(if $(Q),echo "  CC      $<")
	$(Q)$(CC) $(ALL_CFLAGS) -c $< -o $@

$(LIB): $(OBJS)
	@rm -f $@
	$(Q)$(AR) rcs $@ $^

$(BIN): $(BUILD)/src/main.o $(LIB)
	@$(if $(Q),echo "  LINK    $@")
	$(Q)$(CC) $(ALL_LDFLAGS) -o $@ $^ $(LIBS)

$(BUILD)/tests/%: tests/%.c $(LIB) tests/testutil.h
	@mkdir -p $(dir $@)
	@$(if $(Q),echo "  TEST    $@")
	$(Q)$(CC) $(ALL_CFLAGS) -Itests -o $@ $< $(LIB) $(ALL_LDFLAGS) $(LIBS) $(shell $(PKG) --libs cmocka)

$(BUILD)/bench/%: bench/%.c $(LIB)
	@mkdir -p $(dir $@)
	@$(if $(Q),echo "  BENCH   $@")
	$(Q)$(CC) $(ALL_CFLAGS) -Ibench -o $@ $< $(LIB) $(ALL_LDFLAGS) $(LIBS)

# bench_tcod also links Debian's libtcod (a benchmark-only dependency: the
# game never links it).
$(BUILD)/bench/bench_tcod: bench/bench_tcod.c $(LIB)
	@mkdir -p $(dir $@)
	@$(if $(Q),echo "  BENCH   $@")
	$(Q)$(CC) $(ALL_CFLAGS) -Ibench $(shell $(PKG) --cflags libtcod) -o $@ $< $(LIB) $(ALL_LDFLAGS) $(LIBS) $(shell $(PKG) --libs libtcod)

# Developer tools (tools/*.c) linked against the library, e.g. mkrec.
TOOL_SRCS := $(sort $(wildcard tools/*.c))
TOOL_BINS := $(TOOL_SRCS:tools/%.c=$(BUILD)/tools/%)
tools: $(TOOL_BINS)
$(BUILD)/tools/%: tools/%.c $(LIB)
	@mkdir -p $(dir $@)
	@$(if $(Q),echo "  TOOL    $@")
	$(Q)$(CC) $(ALL_CFLAGS) -o $@ $< $(LIB) $(ALL_LDFLAGS) $(LIBS)

# make run: build (installing missing build dependencies first) and play.
run: check-deps
	@$(MAKE) --no-print-directory all
	$(BIN) $(ARGS)

# make test: install the test set (tools/deps), build everything and run
# every test; the last line of output is "N passed, N failed, N skipped".
test: check-test-deps
	@$(MAKE) --no-print-directory test-programs
	@tools/run-tests $(BUILD) $(BIN)
# (test-programs, what it builds, is with the package sets below: after
# FUZZ_REPLAY is defined)

# The test suite under AddressSanitizer + UndefinedBehaviorSanitizer (the VM
# rig, tests/test_vm.sh, runs in the plain make test only, and so do the
# checks that run nothing built with the sanitizers: each says so in a line
# "# make asan: not rerun: WHY", and is one skip line here).
asan:
	@PIROGUE_VM=0 PIROGUE_TEST_SANITIZED=1 $(MAKE) --no-print-directory O=$(O)/asan OPT="-O1 -g -fno-omit-frame-pointer" \
	  EXTRA_CFLAGS="-fsanitize=address,undefined -fno-sanitize-recover=all" \
	  EXTRA_LDFLAGS="-fsanitize=address,undefined" test

bench: check-bench-deps
	@$(MAKE) --no-print-directory all $(BENCH_BINS)
	@for b in $(BENCH_BINS); do echo "== $$b"; $$b || exit 1; done

# The same benchmarks as instruction counts under callgrind (deterministic,
# for a noisy machine): bench/ir.sh prints instructions per call and ratios.
bench-ir: check-bench-deps
	@$(MAKE) --no-print-directory all $(BENCH_BINS)
	@bench/ir.sh $(BENCH_IR_BINS) --timed-only $(filter-out $(BENCH_IR_BINS),$(BENCH_BINS))

# The tables of docs/perf.md that come from a benchmark run (tools/perf-tables):
# regenerated in place.
perf-tables: check-deps check-bench-deps
	@$(MAKE) --no-print-directory all $(BUILD)/bench/bench_ai $(BUILD)/bench/bench_turn
	@BUILD=$(BUILD) tools/perf-tables --write docs/perf.md

# The soak: the monkey bot (tests/test_monkey.c) for SOAK_SEEDS x SOAK_TURNS
# turns (default 100 x 10,000 = 1,000,000) under ASan+UBSan, every world
# invariant checked each turn, the live heap checked flat between games;
# prints the figures. make test plays 200,000 turns of it.
SOAK_SEEDS ?= 100
SOAK_TURNS ?= 10000
.PHONY: soak
soak: check-test-deps
	@$(MAKE) --no-print-directory O=$(O)/asan OPT="-O1 -g -fno-omit-frame-pointer" \
	  EXTRA_CFLAGS="-fsanitize=address,undefined -fno-sanitize-recover=all" \
	  EXTRA_LDFLAGS="-fsanitize=address,undefined" $(O)/asan/build/tests/test_monkey
	@echo "soak: $(SOAK_SEEDS) seeds x $(SOAK_TURNS) turns under ASan+UBSan"
	@start=$$(date +%s); MONKEY_SEEDS=$(SOAK_SEEDS) MONKEY_TURNS=$(SOAK_TURNS) CMOCKA_MESSAGE_OUTPUT=stdout \
	  $(O)/asan/build/tests/test_monkey || { echo "soak: FAILED"; exit 1; }; \
	  echo "soak: passed, $$(( $(SOAK_SEEDS) * $(SOAK_TURNS) )) turns in $$(( $$(date +%s) - start )) s"

# Fuzzing (docs/fuzz.md): one libFuzzer target per parser of outside data,
# tests/fuzz/fuzz_*.c, built with clang under ASan+UBSan in $(O)/fuzz;
# make fuzz FUZZ_TIME=60 runs each for that many seconds. make test replays
# their seeds and the crashes kept in tests/fuzz/regress/ without libFuzzer.
FUZZ_TARGETS := $(sort $(patsubst tests/fuzz/fuzz_%.c,%,$(wildcard tests/fuzz/fuzz_*.c)))
FUZZ_REPLAY  := $(FUZZ_TARGETS:%=$(BUILD)/fuzz-replay/%)
FUZZ_BINS    := $(FUZZ_TARGETS:%=$(BUILD)/fuzz/%)
FUZZ_TIME    ?= 10
$(BUILD)/fuzz-replay/%: tests/fuzz/fuzz_%.c tests/fuzz/replay.c $(wildcard tests/fuzz/*.h) $(LIB)
	@mkdir -p $(dir $@)
	@$(if $(Q),echo "  FUZZREP $@")
	$(Q)$(CC) $(ALL_CFLAGS) -Itests/fuzz -o $@ $< tests/fuzz/replay.c $(LIB) $(ALL_LDFLAGS) $(LIBS)
$(BUILD)/fuzz/%: tests/fuzz/fuzz_%.c $(wildcard tests/fuzz/*.h) $(LIB)
	@mkdir -p $(dir $@)
	@$(if $(Q),echo "  FUZZ    $@")
	$(Q)$(CC) $(ALL_CFLAGS) -fsanitize=fuzzer -Itests/fuzz -o $@ $< $(LIB) $(ALL_LDFLAGS) -fsanitize=fuzzer $(LIBS)
.PHONY: fuzz fuzz-bins
fuzz-bins: $(FUZZ_BINS)
fuzz: check-deps
	@command -v clang >/dev/null || { echo "make fuzz needs clang with libFuzzer: apt-get install clang"; exit 1; }
	@$(MAKE) --no-print-directory O=$(O)/fuzz CC=clang HARDEN=0 OPT="-O1 -g -fno-omit-frame-pointer" \
	  EXTRA_CFLAGS="-fsanitize=fuzzer-no-link,address,undefined -fno-sanitize-recover=all" \
	  EXTRA_LDFLAGS="-fsanitize=address,undefined" fuzz-bins
	@tools/fuzz run $(O)/fuzz/build/fuzz $(FUZZ_TIME) $(FUZZ_TARGETS)

# Static analysis (CI runs it): cppcheck, then the clang static analyzer over
# a full build; either finding anything fails. A suppression is an inline
# comment where it stands (/* cppcheck-suppress ID */ with the reason).
CPPCHECK_FLAGS := --std=c11 -q --enable=warning,portability,performance --inline-suppr --error-exitcode=1 \
	-D_GNU_SOURCE -DWITH_DRM=$(WITH_DRM) -DWITH_EVDEV=$(WITH_EVDEV) -Isrc
.PHONY: analyze
analyze: check-deps
	@command -v cppcheck >/dev/null && command -v scan-build >/dev/null || \
	  { echo "make analyze needs cppcheck and scan-build: apt-get install cppcheck clang-tools"; exit 1; }
	@echo "== cppcheck"
	@cppcheck $(CPPCHECK_FLAGS) -j2 src
	@echo "== scan-build (clang static analyzer)"
	@rm -rf $(O)/analyze
	@scan-build --status-bugs -o $(O)/analyze/report make --no-print-directory O=$(O)/analyze -j2 all
	@echo "static analysis: clean"

# ---- package sets (setup): tools/deps holds the three sets' lists and is
# their one installer (through sudo when not root, only what is missing;
# README "Setting up" gives each set's measured size). build: ./run, make,
# make deps; test: make test (and make soak); bench: make bench, make bench-ir.
# apt-get waits up to APT_WAIT seconds for another package manager's locks.
APT_WAIT ?= 300
# With CROSS=: its gcc and the libraries for that Debian architecture, through
# tools/apt-foreign (it pins Multi-Arch: same packages when the mirror's
# indexes for the two architectures are out of step).
ifneq ($(CROSS),)
CROSS_ARCH := $(shell dpkg-architecture -qDEB_HOST_ARCH -t$(CROSS) 2>/dev/null)
CROSS_DEBS := gcc-$(CROSS) $(addsuffix :$(CROSS_ARCH),libc6-dev libdrm-dev libevdev-dev libstb-dev zlib1g-dev)
endif
CROSS_CHECK = $(if $(CROSS),@missing=; for p in $(CROSS_DEBS); do dpkg-query -W -f='$${Status}\n' $$p 2>/dev/null | grep -q 'ok installed' || missing="$$missing $$p"; done; \
	[ -z "$$missing" ] || { SUDO=; [ "$$(id -u)" = 0 ] || SUDO=sudo; echo "pirogue: installing the $(CROSS) cross build's packages:$$missing"; $$SUDO tools/apt-foreign --update $(CROSS_DEBS); })
.PHONY: deps deps-test deps-bench deps-all check-test-deps
deps check-deps:
	@tools/deps --wait $(APT_WAIT) build
	$(CROSS_CHECK)
deps-test check-test-deps:
	@tools/deps --wait $(APT_WAIT) build test
	$(CROSS_CHECK)
deps-bench check-bench-deps:
	@tools/deps --wait $(APT_WAIT) build bench
deps-all:
	@tools/deps --wait $(APT_WAIT) all
	$(CROSS_CHECK)
# What make test builds: a rule here, after every list it names is defined
# (prerequisites are expanded as they are read), with a recipe so that
# nothing to build says nothing.
.PHONY: test-programs
test-programs: all $(TEST_BINS) $(filter-out %/bench_tcod,$(BENCH_BINS)) $(TOOL_BINS) $(FUZZ_REPLAY)
	@:
# ---- end of the package sets

install: $(BIN)
	install -D -m 0755 $(BIN) $(DESTDIR)$(BINDIR)/pirogue
	install -d $(DESTDIR)$(DATADIR)/fonts
	install -m 0644 fonts/*.png fonts/LICENSE* fonts/README.md $(DESTDIR)$(DATADIR)/fonts/
	install -d $(DESTDIR)$(DATADIR)/tiles
	install -m 0644 tiles/*.png tiles/LICENSE* tiles/README.md tiles/index.txt $(DESTDIR)$(DATADIR)/tiles/
	install -d $(DESTDIR)$(DATADIR)/gamepads
	install -m 0644 gamepads/gamecontrollerdb.txt gamepads/LICENSE* gamepads/README.md $(DESTDIR)$(DATADIR)/gamepads/
	install -D -m 0644 README.md $(DESTDIR)$(DOCDIR)/README.md
	install -m 0644 docs/kiosk.md $(DESTDIR)$(DOCDIR)/
	@# the kiosk: the unit (installed, not enabled) and pirogue-kiosk, which enables it
	install -d $(DESTDIR)$(DATADIR)/board $(DESTDIR)$(UNITDIR) $(DESTDIR)$(SBINDIR)
	install -m 0644 board/config.txt board/cmdline.txt $(DESTDIR)$(DATADIR)/board/
	sed 's|@bindir@|$(BINDIR)|g; s|@sbindir@|$(SBINDIR)|g; s|@docdir@|$(DOCDIR)|g' \
	  systemd/pirogue.service.in >$(DESTDIR)$(UNITDIR)/pirogue.service
	chmod 0644 $(DESTDIR)$(UNITDIR)/pirogue.service
	sed 's|@datadir@|$(DATADIR)|' board/pirogue-kiosk >$(DESTDIR)$(SBINDIR)/pirogue-kiosk
	chmod 0755 $(DESTDIR)$(SBINDIR)/pirogue-kiosk

uninstall:
	rm -f $(DESTDIR)$(BINDIR)/pirogue $(DESTDIR)$(SBINDIR)/pirogue-kiosk $(DESTDIR)$(UNITDIR)/pirogue.service
	rm -rf $(DESTDIR)$(DATADIR) $(DESTDIR)$(DOCDIR)

# The VM rig: Debian's kernels in QEMU, the game as PID 1's child (tests/vm/,
# docs/vmrig.md). make test runs it too through tests/test_vm.sh.
vm-test: check-deps
	@$(MAKE) --no-print-directory all
	@tests/vm/run.sh $(BIN) $(VM_CONFIGS)

# Debian packages for amd64, arm64 and armhf (debian/, tools/make-deb, lintian);
# into build/deb/ (DEB_ARCHS=amd64 for one). docs/kiosk.md says what is in them.
DEB_ARCHS ?= amd64 arm64 armhf
deb:
	@tools/make-deb $(O)/build/deb $(DEB_ARCHS)

# make image: the Raspberry Pi card image for arm64 (Pi 3, Pi 4, Pi Zero 2 W),
# from Debian packages only, into build/image/pirogue-pi-arm64.img
# (board/make-image; docs/image.md says how it is laid out and how to flash
# it). As root. The arm64 package is rebuilt only when a file it is made
# of changed, the Debian base system only when its package list did: a
# rebuild with nothing changed takes seconds.
IMAGE_DEB := $(BUILD)/deb/pirogue_$(VERSION)_arm64.deb
.PHONY: image
image:
	@if [ ! -f $(IMAGE_DEB) ] || [ -n "$$(find src debian board/config.txt board/cmdline.txt board/pirogue-kiosk \
	  fonts tiles gamepads systemd Makefile VERSION -newer $(IMAGE_DEB) -print -quit)" ]; then \
	  tools/make-deb $(BUILD)/deb arm64 || exit $$?; fi
	@board/make-image $(BUILD)/image $(IMAGE_DEB)

clean:
	rm -rf $(BUILD) $(BIN) $(O)/asan $(O)/fuzz $(O)/analyze

-include $(OBJS:.o=.d) $(BUILD)/src/main.d $(TEST_BINS:%=%.d) $(BENCH_BINS:%=%.d)
