#!/usr/bin/env python3
"""Fits the VAD's logistic weights on the tuning set (never on the report set).

usage: fit.py TUNEDIR --driver PATH
Runs the driver with --features on each tuning file, labels 10 ms frames from the reference,
rebuilds the model inputs VADDecision uses (four features now, their ~30 ms and ~100 ms
exponential averages, the relative level), fits logistic regression (Newton steps, small ridge),
then picks the release time and hangover that give the best F1 with aggressiveness 1's
thresholds. Prints Swift lines to paste into VADDecision.swift. The relative level depends on
the decisions, so run it again after pasting (two rounds settle).
"""
import argparse
import glob
import subprocess

import numpy as np

HOP = 0.01


def load(setdir, driver):
    xs, ys = [], []
    for raw in sorted(glob.glob(f"{setdir}/*.raw")):
        out = subprocess.run([driver, "--rate", "16000", "--features", raw], check=True,
                             capture_output=True, text=True).stdout
        rows = np.array([[float(v) for v in line.split()[3:9]] for line in out.splitlines()])
        centres = (np.arange(len(rows)) + 0.5) * HOP
        y = np.zeros(len(rows), bool)
        for line in open(raw[:-4] + ".txt"):
            a, b = map(float, line.split())
            y |= (centres >= a) & (centres < b)
        xs.append(rows)
        ys.append(y)
    return xs, ys


def ema(x, tau):
    rate = 1 - np.exp(-HOP / tau)
    out = np.empty_like(x)
    s = x[0].copy()
    for i in range(len(x)):
        s += rate * (x[i] - s)
        out[i] = s
    return out


def inputs(rows):
    core = rows[:, :4]
    return np.hstack([core, ema(core, 0.03), ema(core, 0.1), rows[:, 5:6]])


def fit(x, y, ridge=200.0):
    """Ridge-penalised on standardised inputs (so the averages do not trade huge opposite
    weights), then mapped back to raw inputs."""
    mean, std = x.mean(0), x.std(0) + 1e-9
    a = np.hstack([(x - mean) / std, np.ones((len(x), 1))])
    w = np.zeros(a.shape[1])
    penalty = ridge * np.eye(len(w))
    penalty[-1, -1] = 0
    for _ in range(40):
        p = 1 / (1 + np.exp(-np.clip(a @ w, -30, 30)))
        g = a.T @ (p - y) + penalty @ w
        h = (a * (p * (1 - p))[:, None]).T @ a + penalty
        w -= np.linalg.solve(h, g)
    raw = w[:-1] / std
    return np.append(raw, w[-1] - np.sum(raw * mean))


def decide(raw, release_tau, hangover, on=0.5, off=0.35, attack_tau=0.01):
    att, rel = 1 - np.exp(-HOP / attack_tau), 1 - np.exp(-HOP / release_tau)
    out = np.zeros(len(raw), bool)
    p, speech, below = 0.0, False, 0
    for i, r in enumerate(raw):
        p += (att if r > p else rel) * (r - p)
        if speech:
            below = below + 1 if p < off else 0
            if below > hangover:
                speech = False
        elif p >= on:
            speech, below = True, 0
        out[i] = speech
    return out


def f1(hyps, ys):
    tp = sum(np.sum(h & y) for h, y in zip(hyps, ys))
    fp = sum(np.sum(h & ~y) for h, y in zip(hyps, ys))
    fn = sum(np.sum(~h & y) for h, y in zip(hyps, ys))
    return 200 * tp / max(1, 2 * tp + fp + fn)


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("setdir")
    parser.add_argument("--driver", required=True)
    args = parser.parse_args()
    rows, ys = load(args.setdir, args.driver)
    xs = [inputs(r) for r in rows]
    w = fit(np.vstack(xs), np.concatenate(ys).astype(float))
    raws = [1 / (1 + np.exp(-np.clip(np.hstack([x, np.ones((len(x), 1))]) @ w, -30, 30))) for x in xs]
    best = max(((f1([decide(r, tau, hang) for r in raws], ys), tau, hang)
                for tau in (0.03, 0.05, 0.08) for hang in (0, 3, 6, 10)))
    print(f"// tuning-set F1 {best[0]:.1f} with release {best[1]} s, hangover {best[2]} frames")
    v = ", ".join
    print(f"static let weightsNow: SIMD4<Float> = [{v(f'{c:.4f}' for c in w[0:4])}]")
    print(f"static let weightsFast: SIMD4<Float> = [{v(f'{c:.4f}' for c in w[4:8])}]")
    print(f"static let weightsSlow: SIMD4<Float> = [{v(f'{c:.4f}' for c in w[8:12])}]")
    print(f"static let weightRelativeLevel: Float = {w[12]:.4f}")
    print(f"static let bias: Float = {w[13]:.4f}")


if __name__ == "__main__":
    main()
