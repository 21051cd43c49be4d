# aindex: a synthetic library of 100 000 sessions and 1 000 000 transcribed segments; ingest rate,
# query latency and peak memory of the built binary, beside a plain LIKE '%word%' scan.
BENCH_TARGETS += bench-index

INDEX_BENCH_DIR ?= $(CURDIR)/.build/bench-index

bench-index:
	$(SWIFT) build $(CONFIG) --product aindex
	python3 bench/index/bench.py --aindex $(BIN)/aindex --dir $(INDEX_BENCH_DIR)
