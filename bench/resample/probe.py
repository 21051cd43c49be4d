"""Probe signals and the quality figures computed from a resampler's output (frames per channel)."""
import numpy as np

AMP = 0.5
GAP = 0.05  # seconds of silence between segments, so filter tails never overlap


def _tone(f, dur, fs):
    t = np.arange(int(round(dur * fs))) / fs
    w = np.ones_like(t)
    ramp = min(len(t) // 4, int(0.005 * fs))
    if ramp:
        r = 0.5 - 0.5 * np.cos(np.pi * np.arange(ramp) / ramp)
        w[:ramp] = r
        w[-ramp:] = r[::-1]
    return AMP * np.sin(2 * np.pi * f * t) * w


class Probe:
    """One input signal made of segments: SNR tones, a gain grid, and an alias sweep."""

    def __init__(self, fs_in, fs_out):
        self.fs_in, self.fs_out = fs_in, fs_out
        nyq = min(fs_in, fs_out) / 2
        self.nyq = nyq
        self.segments = []  # (kind, freq or (f0, f1), start_s, dur_s)
        parts, t = [], 0.0

        def add(kind, sig, param):
            nonlocal t
            dur = len(sig) / fs_in
            self.segments.append((kind, param, t, dur))
            parts.append(sig)
            gap = np.zeros(int(round(GAP * fs_in)))
            parts.append(gap)
            t += dur + len(gap) / fs_in

        for frac in np.linspace(0.02, 0.80, 12):
            add("snr", _tone(frac * nyq, 0.5, fs_in), frac * nyq)
        for frac in np.concatenate([np.linspace(0.0, 0.70, 15)[1:], np.arange(0.70, 1.0001, 0.0025)]):
            add("gain", _tone(frac * nyq, 0.1, fs_in), frac * nyq)
        if fs_out < fs_in:
            f0, f1 = 1.0 * nyq, 0.98 * fs_in / 2
            dur = 2.0
            tt = np.arange(int(dur * fs_in)) / fs_in
            k = (f1 - f0) / dur
            sweep = AMP * np.sin(2 * np.pi * (f0 * tt + 0.5 * k * tt * tt))
            add("alias", sweep, (f0, f1))
        else:
            for frac in np.linspace(0.05, 0.95, 10):
                add("image", _tone(frac * nyq, 0.2, fs_in), frac * nyq)
        self.signal = np.concatenate(parts).astype(np.float32)

    def _cut(self, y, start, dur, margin=0.012):
        a = int(round((start + margin) * self.fs_out))
        b = int(round((start + dur - margin) * self.fs_out))
        return y[a:b].astype(np.float64)

    def _fit(self, seg, f):
        n = np.arange(len(seg))
        w = 2 * np.pi * f / self.fs_out
        basis = np.stack([np.sin(w * n), np.cos(w * n)], axis=1)
        coef, *_ = np.linalg.lstsq(basis, seg, rcond=None)
        fit = basis @ coef
        return np.hypot(*coef), fit

    def figures(self, y, pass_edge):
        """Quality figures of output y: min SNR, -3 dB point, ripple up to pass_edge, worst alias/image."""
        snrs, gains = [], []
        alias = None
        for kind, p, start, dur in self.segments:
            if kind == "snr":
                seg = self._cut(y, start, dur, 0.03)
                _, fit = self._fit(seg, p)
                res = seg - fit
                snrs.append(10 * np.log10(np.sum(fit ** 2) / max(np.sum(res ** 2), 1e-300)))
            elif kind == "gain":
                seg = self._cut(y, start, dur)
                amp, _ = self._fit(seg, p)
                gains.append((p / self.nyq, 20 * np.log10(max(amp / AMP, 1e-20))))
            elif kind == "alias":
                seg = self._cut(y, start, dur, 0.02)
                hop = int(0.01 * self.fs_out)
                frames = seg[: len(seg) // hop * hop].reshape(-1, hop)
                rms = np.sqrt(np.mean(frames ** 2, axis=1)).max()
                alias = 20 * np.log10(max(rms * np.sqrt(2) / AMP, 1e-20))
            elif kind == "image":
                seg = self._cut(y, start, dur, 0.03)
                spec = np.abs(np.fft.rfft(seg * np.hanning(len(seg)))) ** 2
                freqs = np.fft.rfftfreq(len(seg), 1 / self.fs_out)
                hi = spec[freqs > self.nyq * 1.0].sum()
                lvl = 10 * np.log10(max(hi / spec.sum(), 1e-30))
                alias = lvl if alias is None else max(alias, lvl)
        gains = np.array(gains)
        below = gains[gains[:, 1] < -3.0]
        f3 = below[0, 0] if len(below) else 1.0
        band = gains[gains[:, 0] <= pass_edge + 1e-9, 1]
        ripple = band.max() - band.min()
        return dict(snr=min(snrs), f3db=f3, ripple=ripple, alias=alias)
