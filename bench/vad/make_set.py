#!/usr/bin/env python3
"""Builds a labelled VAD evaluation set: espeak-ng speech joined by gaps, over noise beds.

usage: make_set.py OUTDIR --set tune|report [--utterances N]

For each noise type (white, pink, brown, babble) and SNR (20, 10, 5, 0 dB) it writes
OUTDIR/<noise>_<snr>.raw (s16le, 16 kHz, mono) and OUTDIR/<noise>_<snr>.txt (reference speech
intervals "start end" in seconds, exact: each utterance trimmed to its first and last sample
above -50 dB of its peak). Utterances use several voices, variants, pitches and rates; gaps last
0.3-2.5 s. The noise bed runs under everything at the SNR against the mean speech power, except
in "silence" gaps (a third of them) where it fades to -70 dBFS dither for the middle of the gap.
Babble is 6 other utterances summed (other sentences and voices). The tune and report sets differ
in seed and in sentences, so tuning never sees the reported audio.
"""
import argparse
import os
import subprocess
import tempfile
import wave

import numpy as np
from scipy.signal import resample_poly

RATE = 16000
SNRS = [20, 10, 5, 0]
NOISES = ["white", "pink", "brown", "babble"]
VOICES = ["en-us", "en-gb", "en-gb-scotland", "en-029", "en-us-nyc", "en-gb-x-rp", "en-gb-x-gbclan"]
VARIANTS = ["", "+f1", "+f2", "+f3", "+f4", "+m1", "+m2", "+m3", "+m4", "+m5", "+klatt", "+Andy", "+Annie"]

TUNE = """we will meet again after the budget review on thursday morning
please send the final report to everyone in the research group
the weather has been unusually warm for this time of the year
our team finished the migration two weeks ahead of schedule
could you move the quarterly planning session to next friday
the new office is close to the station and has plenty of light
i think we should revisit the pricing model before the launch
most of the customers asked for a simpler way to export data
the server logs show a spike in traffic just after midnight
let us keep the discussion short and focus on the open issues
she explained the results slowly so that everyone could follow
the library closes early on sundays during the summer months""".splitlines()

REPORT = """the committee approved the proposal after a long debate
several engineers will join the project in the coming weeks
remember to back up your files before installing the update
the train to the airport leaves every fifteen minutes
he read the instructions twice but still missed a step
a small change in the design saved a lot of money
our museum opens a new exhibition about ancient maps
the children planted tomatoes and beans in the garden
please call me back when you have a free moment today
the river rose quickly after three days of heavy rain
this recipe needs fresh basil and a little lemon juice
the conference will be streamed live for remote attendees""".splitlines()

BABBLE = """people were talking in the corridor about the football match
the coffee machine on the third floor is broken again
nobody knows where the spare keys to the storage room are
they ordered pizza for the whole department on friday
my brother is moving to a small town near the coast
the printer keeps jamming whenever someone prints labels
did you see the message about the parking changes
the meeting ran late so we missed the last bus home""".splitlines()


def speak(text, voice, rate, pitch, tmp):
    path = os.path.join(tmp, "u.wav")
    subprocess.run(["espeak-ng", "-v", voice, "-s", str(rate), "-p", str(pitch), "-w", path, text],
                   check=True, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    with wave.open(path) as w:
        src = w.getframerate()
        x = np.frombuffer(w.readframes(w.getnframes()), dtype=np.int16).astype(np.float64) / 32768
    x = resample_poly(x, RATE, src)
    peak = np.max(np.abs(x)) + 1e-12
    active = np.nonzero(np.abs(x) > peak * 10 ** (-50 / 20))[0]
    return x[active[0]:active[-1] + 1]


def random_voice(rng):
    return rng.choice(VOICES) + rng.choice(VARIANTS), int(rng.integers(120, 221)), int(rng.integers(25, 76))


def coloured(kind, n, rng):
    white = rng.standard_normal(n)
    if kind == "white":
        return white
    spectrum = np.fft.rfft(white)
    f = np.fft.rfftfreq(n, 1 / RATE)
    f[0] = f[1]
    shape = 1 / np.sqrt(f) if kind == "pink" else 1 / np.maximum(f, 20.0)
    return np.fft.irfft(spectrum * shape, n)


def babble(n, rng, tmp):
    out = np.zeros(n)
    for _ in range(6):
        parts = []
        while sum(len(p) for p in parts) < n:
            voice, rate, pitch = random_voice(rng)
            u = speak(BABBLE[int(rng.integers(len(BABBLE)))], voice, rate, pitch, tmp)
            parts.append(u / (np.sqrt(np.mean(u ** 2)) + 1e-12))
            parts.append(np.zeros(int(rng.integers(0, RATE // 4))))
        stream = np.concatenate(parts)
        start = int(rng.integers(0, len(stream) - n + 1))
        out += stream[start:start + n]
    return out


def build(noise, snr, sentences, count, rng, tmp):
    pieces, labels, gaps = [], [], []
    t = int(RATE * rng.uniform(0.8, 1.5))
    pieces.append(np.zeros(t))
    gaps.append((0, t))
    for i in range(count):
        voice, rate, pitch = random_voice(rng)
        u = speak(sentences[(i + int(rng.integers(len(sentences)))) % len(sentences)], voice, rate, pitch, tmp)
        gain = 10 ** (rng.uniform(-29, -23) / 20) / (np.sqrt(np.mean(u ** 2)) + 1e-12)
        pieces.append(u * gain)
        labels.append((t, t + len(u)))
        t += len(u)
        g = int(RATE * rng.uniform(0.3, 2.5)) if i < count - 1 else int(RATE * 1.2)
        pieces.append(np.zeros(g))
        gaps.append((t, t + g))
        t += g
    speech = np.concatenate(pieces)
    n = len(speech)
    mask = np.zeros(n, bool)
    for a, b in labels:
        mask[a:b] = True
    speech_power = np.mean(speech[mask] ** 2)
    bed = babble(n, rng, tmp) if noise == "babble" else coloured(noise, n, rng)
    bed *= np.sqrt(speech_power / 10 ** (snr / 10) / np.mean(bed ** 2))
    envelope = np.ones(n)
    fade = int(0.05 * RATE)
    for a, b in gaps[1:-1]:
        if b - a > int(0.9 * RATE) and rng.random() < 0.34:
            lo, hi = a + (b - a) // 4, b - (b - a) // 4
            ramp = np.linspace(1, 0, fade)
            envelope[lo:lo + fade] = ramp
            envelope[lo + fade:hi - fade] = 0
            envelope[hi - fade:hi] = ramp[::-1]
    dither = rng.standard_normal(n) * 10 ** (-70 / 20)
    mix = speech + bed * envelope + dither
    mix = np.clip(mix, -1, 32767 / 32768)
    return (mix * 32768).astype(np.int16), [(a / RATE, b / RATE) for a, b in labels]


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("outdir")
    parser.add_argument("--set", choices=["tune", "report"], required=True)
    parser.add_argument("--utterances", type=int, default=12)
    args = parser.parse_args()
    os.makedirs(args.outdir, exist_ok=True)
    sentences = TUNE if args.set == "tune" else REPORT
    seed = 1 if args.set == "tune" else 2
    with tempfile.TemporaryDirectory() as tmp:
        for ni, noise in enumerate(NOISES):
            for snr in SNRS:
                rng = np.random.default_rng([seed, ni, snr])
                audio, labels = build(noise, snr, sentences, args.utterances, rng, tmp)
                stem = os.path.join(args.outdir, f"{noise}_{snr}")
                audio.tofile(stem + ".raw")
                with open(stem + ".txt", "w") as f:
                    for a, b in labels:
                        f.write(f"{a:.6f} {b:.6f}\n")


if __name__ == "__main__":
    main()
