# Foundation benchmarks (issue 2): framing cost over plain pipes, and aresample against sox
# and libsamplerate called directly, on the same 10 minutes of audio in the same run.
BENCH_TARGETS += bench-foundation

bench-foundation: build
	mkdir -p bench/work
	gcc -O2 -o bench/work/src-direct bench/foundation/src_direct.c $$(pkg-config --cflags --libs samplerate)
	APIPE_BIN=$(CURDIR)/$(BIN) python3 bench/foundation/run.py bench/work
