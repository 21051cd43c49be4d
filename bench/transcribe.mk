# atranscribe's queue: segments per second against the ideal jobs / delay, with an engine that
# answers after a fixed delay (a sleeping engine, and the openai engine against an in-process
# HTTP server on 127.0.0.1), at 3 and 32 jobs. BENCH_DELAY_MS (default 50) and BENCH_SECONDS
# (default 4, the ideal run time per case) tune it. Then atranscribe --engine openai, as a
# process, against a local server that answers at once, with --jobs 1 and 3, beside curl
# sending the same segments in the same run: ms per request, the ratio, connections used
# (BENCH_SEGMENTS, default 40).
BENCH_TARGETS += bench-transcribe

.PHONY: bench-transcribe
bench-transcribe:
	$(SWIFT) build $(CONFIG) --product apipe-transcribe-bench
	$(SWIFT) build $(CONFIG) --product atranscribe
	@command -v curl >/dev/null || ($(SUDO) apt-get install -y -qq curl >/dev/null)
	$(BIN)/apipe-transcribe-bench $(CURDIR)/$(BIN)/atranscribe
