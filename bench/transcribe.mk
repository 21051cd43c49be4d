# atranscribe's queue: segments per second against the ideal jobs / delay, with an engine that
# answers after a fixed delay (a sleeping engine, and the openai engine against an in-process
# HTTP server on 127.0.0.1), at 3 and 32 jobs. BENCH_DELAY_MS (default 50) and BENCH_SECONDS
# (default 4, the ideal run time per case) tune it.
BENCH_TARGETS += bench-transcribe

.PHONY: bench-transcribe
bench-transcribe:
	$(SWIFT) build $(CONFIG) --product apipe-transcribe-bench
	$(BIN)/apipe-transcribe-bench
