#!/usr/bin/env python3
"""Fits the VAD's logistic weights on the tuning set (never on the report set).

usage: fit.py TUNEDIR --driver PATH
Runs the driver with --features on each tuning file, labels 10 ms frames from the reference,
fits logistic regression (Newton steps, small ridge) on the features VADDecision uses, and prints
the weights and bias to paste into VADDecision.swift, with the F1 they give on the tuning set.
"""
import argparse
import glob
import subprocess

import numpy as np

NAMES = ["meanBandSNR", "totalSNR", "whitenedFlatness", "harmonicity"]


def load(setdir, driver):
    xs, ys = [], []
    for raw in sorted(glob.glob(f"{setdir}/*.raw")):
        out = subprocess.run([driver, "--rate", "16000", "--features", raw], check=True,
                             capture_output=True, text=True).stdout
        rows = np.array([[float(v) for v in line.split()[3:7]] for line in out.splitlines()])
        centres = (np.arange(len(rows)) + 0.5) * 0.01
        y = np.zeros(len(rows), bool)
        for line in open(raw[:-4] + ".txt"):
            a, b = map(float, line.split())
            y |= (centres >= a) & (centres < b)
        xs.append(rows)
        ys.append(y)
    return xs, ys


def fit(x, y, ridge=1e-3):
    a = np.hstack([x, np.ones((len(x), 1))])
    w = np.zeros(a.shape[1])
    for _ in range(30):
        p = 1 / (1 + np.exp(-a @ w))
        g = a.T @ (p - y) + ridge * w
        h = (a * (p * (1 - p))[:, None]).T @ a + ridge * np.eye(len(w))
        w -= np.linalg.solve(h, g)
    return w


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("setdir")
    parser.add_argument("--driver", required=True)
    args = parser.parse_args()
    xs, ys = load(args.setdir, args.driver)
    x, y = np.vstack(xs), np.concatenate(ys)
    for i, n in enumerate(NAMES):
        print(f"{n:18} speech {np.mean(x[y, i]):7.2f} +- {np.std(x[y, i]):5.2f}   non-speech {np.mean(x[~y, i]):7.2f} +- {np.std(x[~y, i]):5.2f}")
    w = fit(x, y.astype(float))
    print("weights", ", ".join(f"{v:.4f}" for v in w[:-1]), "bias", f"{w[-1]:.4f}")
    p = 1 / (1 + np.exp(-(np.hstack([x, np.ones((len(x), 1))]) @ w)))
    h = p >= 0.5
    tp, fp, fn = np.sum(h & y), np.sum(h & ~y), np.sum(~h & y)
    print(f"raw frame F1 {200 * tp / (2 * tp + fp + fn):.1f}")


if __name__ == "__main__":
    main()
