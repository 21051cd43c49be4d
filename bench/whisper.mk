# Whisper engine vs faster-whisper: same tiny.en weights, beam 1, same threads, espeak-ng speech;
# the multilingual base too when models/base is installed (`make bench-whisper MODEL=base`).
BENCH_TARGETS += bench-whisper
WHISPER_BENCH_DIR ?= .build/bench-whisper
WHISPER_THREADS ?= $(shell nproc)
WHISPER_LONG_MINUTES ?= 10

bench-whisper: model
	$(SWIFT) build $(CONFIG) --product apipe-whisper-bench
	python3 -m pip install -q faster-whisper
	python3 bench/whisper/run.py --model $(CURDIR)/$(MODELDIR) --driver $(CURDIR)/$(BIN)/apipe-whisper-bench \
	  --work $(WHISPER_BENCH_DIR) --threads $(WHISPER_THREADS) --long-minutes $(WHISPER_LONG_MINUTES) \
	  $$([ -f models/base/model.bin ] && echo --base-model $(CURDIR)/models/base)
