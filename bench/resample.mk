# Resampler bench: APipeDSP's Resampler beside libsamplerate, soxr (PyPI) and `sox rate`, same signals.
BENCH_TARGETS += bench-resample

bench-resample:
	$(SWIFT) build $(CONFIG) --product apipe-resample-bench
	python3 -m pip install -q soxr samplerate numpy 2>/dev/null || python3 -m pip install -q --break-system-packages soxr samplerate numpy
	cd bench/resample && python3 run.py $(CURDIR)/$(BIN)/apipe-resample-bench
