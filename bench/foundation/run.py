"""Foundation benchmarks, printed side by side with ratios.

1. Framing: 10 minutes of 44.1 kHz s16 mono through `acapture | aresample | acat --raw`
   (same rate: the stream passes through) against `cat | cat | cat` on the same WAV bytes.
2. aresample 44.1 kHz -> 16 kHz on the same 10 minutes, per quality preset, with both
   engines, against
   `sox ... rate` and libsamplerate called directly (C, same converter), with the SNR of a
   1 kHz sine and the attenuation of a 12 kHz tone (above the new Nyquist), both computed
   from the output.
"""
import os
import subprocess
import sys
import time

import numpy as np

work = sys.argv[1]
bin_dir = os.environ["APIPE_BIN"]
env = dict(os.environ, PATH=bin_dir + ":" + os.environ["PATH"])
RUNS = 5


def sh(cmd):
    subprocess.run(["bash", "-o", "pipefail", "-c", cmd], check=True, env=env, cwd=work)


def best_time(cmd, runs=RUNS):
    times = []
    for _ in range(runs):
        start = time.perf_counter()
        sh(cmd)
        times.append(time.perf_counter() - start)
    return min(times)


sh("sox -n -r 44100 -c 1 -b 16 noise.wav synth 600 pinknoise vol 0.5")
sh("sox -n -r 44100 -c 1 -b 32 -e floating-point sine1k.wav synth 10 sine 1000 vol 0.5")
sh("sox -n -r 44100 -c 1 -b 32 -e floating-point tone12k.wav synth 10 sine 12000 vol 0.5")
sh("sox noise.wav -t f32 noise.f32")

print("== framing: 10 min of 44.1 kHz s16 mono through three processes (best of %d)" % RUNS)
cat = best_time("cat noise.wav | cat | cat > /dev/null")
apipe = best_time("acapture -i noise.wav | aresample | acat --raw > /dev/null")
mb = os.path.getsize(os.path.join(work, "noise.wav")) / 1e6
print(f"{'chain':<44}{'seconds':>9}{'MB/s':>9}")
print(f"{'cat | cat | cat':<44}{cat:>9.3f}{mb / cat:>9.0f}")
print(f"{'acapture | aresample | acat --raw':<44}{apipe:>9.3f}{mb / apipe:>9.0f}")
print(f"framing overhead: apipe/cat = {apipe / cat:.2f}x  (goal: under 1.20x)")
print()


def read_f32(name):
    return np.fromfile(os.path.join(work, name), dtype=np.float32)


def sine_snr(y, rate, freq):
    y = y[rate // 2: -rate // 2].astype(np.float64)
    t = np.arange(len(y)) / rate
    basis = np.stack([np.sin(2 * np.pi * freq * t), np.cos(2 * np.pi * freq * t), np.ones_like(t)], axis=1)
    coef, *_ = np.linalg.lstsq(basis, y, rcond=None)
    fit = basis @ coef
    noise = y - fit
    return 10 * np.log10(np.sum(fit ** 2) / max(np.sum(noise ** 2), 1e-30))


def tone_attenuation(y, level=0.5):
    y = y[8000:-8000].astype(np.float64)
    rms = np.sqrt(np.mean(y ** 2)) if len(y) else 0.0
    return -20 * np.log10(max(rms, 1e-12) / (level / np.sqrt(2)))


converters = {"low": 4, "medium": 2, "high": 1, "best": 0}
sox_quality = {"low": "-q", "medium": "-l", "high": "-m", "best": "-v"}
print("== aresample 44.1 kHz -> 16 kHz, 10 min mono (best of %d), same input for all" % RUNS)
print(f"{'preset':<8}{'engine':<28}{'seconds':>9}{'x realtime':>12}{'SNR 1k dB':>11}{'12k atten dB':>14}")
for preset, converter in converters.items():
    rows = []
    for engine in ["apipe", "libsamplerate"]:
        chain = f"aresample -r 16000 --quality {preset} --engine {engine}"
        t = best_time(f"acapture -i noise.wav | {chain} | acat --raw > /dev/null")
        sh(f"acapture -i sine1k.wav | {chain} --format f32 | acat --raw > a-sine.f32")
        sh(f"acapture -i tone12k.wav | {chain} --format f32 | acat --raw > a-tone.f32")
        rows.append((f"aresample --engine {engine}", t, read_f32("a-sine.f32"), read_f32("a-tone.f32")))
    t = best_time(f"./src-direct {converter} {16000 / 44100!r} < noise.f32 > /dev/null")
    sh(f"sox sine1k.wav -t f32 - | ./src-direct {converter} {16000 / 44100!r} > d-sine.f32")
    sh(f"sox tone12k.wav -t f32 - | ./src-direct {converter} {16000 / 44100!r} > d-tone.f32")
    rows.append((f"libsamplerate direct ({converter})", t, read_f32("d-sine.f32"), read_f32("d-tone.f32")))
    t = best_time(f"sox noise.wav -r 16000 -t s16 /dev/null rate {sox_quality[preset]}")
    sh(f"sox sine1k.wav -t f32 s-sine.f32 rate {sox_quality[preset]} 16000")
    sh(f"sox tone12k.wav -t f32 s-tone.f32 rate {sox_quality[preset]} 16000")
    rows.append((f"sox rate {sox_quality[preset]}", t, read_f32("s-sine.f32"), read_f32("s-tone.f32")))
    for name, seconds, sine, tone in rows:
        print(f"{preset:<8}{name:<28}{seconds:>9.3f}{600 / seconds:>12.0f}{sine_snr(sine, 16000, 1000):>11.1f}{tone_attenuation(tone):>14.1f}")
    print(f"{'':<8}time ratios: aresample (apipe engine) / libsamplerate direct {rows[0][1] / rows[2][1]:.2f}, / sox {rows[0][1] / rows[3][1]:.2f}")
