"""Resampler bench: apipe's Resampler against libsamplerate, soxr and `sox rate`, same signals, one run.

Quality: figures from probe.py on 44.1k->16k, 48k->16k and 16k->48k. Speed: 10 minutes of mono
and stereo noise, single thread; rates in input frames per second (Mfr/s).
"""
import os
import subprocess
import sys
import tempfile
import time

os.environ.setdefault("OMP_NUM_THREADS", "1")
import numpy as np  # noqa: E402
import samplerate  # noqa: E402
import soxr  # noqa: E402

from probe import Probe  # noqa: E402

DRIVER = sys.argv[1] if len(sys.argv) > 1 else ".build/release/apipe-resample-bench"
PRESETS = {  # apipe preset: (ripple band edge, libsamplerate converter, soxr preset, sox rate option)
    "low": (0.74, "sinc_fastest", "LQ", "-l"),
    "medium": (0.92, "sinc_medium", "MQ", "-m"),
    "high": (0.94, "sinc_best", "HQ", "-h"),
    "best": (0.95, "sinc_best", "VHQ", "-v"),
}
RATIOS = [(44100, 16000), (48000, 16000), (16000, 48000)]
SECONDS = 600
LSR_SECONDS = 60  # libsamplerate is timed on the first minute (it is 10-100x slower); rates compare
TMP = tempfile.mkdtemp(prefix="apipe-resample-bench-")


def write(x):
    """Writes x as raw f32 for the driver and sox; returns the path."""
    src = os.path.join(TMP, "in.f32")
    x.astype(np.float32).tofile(src)
    return src


def apipe(src, fi, fo, ch, preset):
    dst = os.path.join(TMP, "out.f32")
    out = subprocess.run([DRIVER, str(fi), str(fo), str(ch), preset, src, dst], check=True,
                         capture_output=True, text=True).stdout.split()
    y = np.fromfile(dst, dtype=np.float32)
    return (y.reshape(-1, ch) if ch > 1 else y), float(out[2])


def timed(fn):
    t = time.perf_counter()
    y = fn()
    return y, time.perf_counter() - t


def sox_time(src, fi, fo, ch, opt):
    cmd = ["sox", "-t", "f32", "-r", str(fi), "-c", str(ch), src, "-t", "f32",
           os.path.join(TMP, "sox.f32"), "rate", opt, str(fo)]
    _, dt = timed(lambda: subprocess.run(cmd, check=True))
    return dt


def fmt(f):
    return f"SNR {f['snr']:6.1f}  -3dB {f['f3db']:.4f}  ripple {f['ripple']:.5f}  alias {f['alias']:7.1f}"


def verdict(a, b):
    """Figures where apipe trails reference b."""
    worse = []
    if a["snr"] < b["snr"] - 0.05:
        worse.append("snr")
    if a["f3db"] < b["f3db"] - 1e-9:
        worse.append("-3dB")
    if a["ripple"] > b["ripple"] + 1e-5:
        worse.append("ripple")
    if a["alias"] > b["alias"] + 0.05:
        worse.append("alias")
    return ",".join(worse) or "none"


def quality():
    print("== quality (SNR: worst of 12 sines 2-80% of the lower Nyquist, dB; -3dB: fraction of the lower")
    print("   Nyquist; ripple: peak-to-peak dB up to the preset's pass edge; alias: worst 10 ms level of a")
    print("   sweep above the new Nyquist (down) or worst image energy above the old Nyquist (up), dB)")
    for fi, fo in RATIOS:
        probe = Probe(fi, fo)
        src = write(probe.signal)
        print(f"-- {fi} -> {fo}")
        for preset, (edge, lsr, sq, _) in PRESETS.items():
            ya, _ = apipe(src, fi, fo, 1, preset)
            fa = probe.figures(ya, edge)
            fl = probe.figures(samplerate.resample(probe.signal, fo / fi, lsr), edge)
            fs = probe.figures(soxr.resample(probe.signal, fi, fo, quality=sq), edge)
            print(f"{preset:6s} apipe          | {fmt(fa)}")
            print(f"{'':6s} lsr {lsr:12s}| {fmt(fl)}   apipe trails on: {verdict(fa, fl)}")
            print(f"{'':6s} soxr {sq:11s}| {fmt(fs)}   apipe trails on: {verdict(fa, fs)}")


def speed():
    print(f"== speed: {SECONDS} s of noise, single thread, Mfr/s = million input frames per second")
    print("   (apipe: process+finish time in the driver; soxr/libsamplerate: Python call; sox: whole process)")
    print(f"{'ratio':>13s} ch | {'preset':6s} | {'apipe':>7s} | {'lsr':>7s} | {'soxr':>7s} | {'sox':>7s} |"
          " apipe/soxr  apipe/lsr  apipe/sox")
    rng = np.random.default_rng(1)
    for fi, fo in RATIOS:
        for ch in (1, 2):
            x = (rng.standard_normal((SECONDS * fi, ch)) * 0.1).astype(np.float32)
            xs = np.ascontiguousarray(x[: LSR_SECONDS * fi])
            flat = x if ch > 1 else x[:, 0]
            src = write(x)
            for preset, (_, lsr, sq, opt) in PRESETS.items():
                _, ta = apipe(src, fi, fo, ch, preset)
                _, tl = timed(lambda: samplerate.resample(xs if ch > 1 else xs[:, 0], fo / fi, lsr))
                _, ts = timed(lambda: soxr.resample(flat, fi, fo, quality=sq))
                tx = sox_time(src, fi, fo, ch, opt)
                n = len(x) / 1e6
                ra, rl, rs, rx = n / ta, LSR_SECONDS * fi / 1e6 / tl, n / ts, n / tx
                print(f"{fi:>6d}->{fo:<6d} {ch}  | {preset:6s} | {ra:7.1f} | {rl:7.2f} | {rs:7.1f} | {rx:7.1f} |"
                      f" {ra / rs:9.2f}x {ra / rl:9.1f}x {ra / rx:9.2f}x", flush=True)


if __name__ == "__main__":
    what = sys.argv[2] if len(sys.argv) > 2 else "all"
    if what in ("all", "quality"):
        quality()
    if what in ("all", "speed"):
        speed()
