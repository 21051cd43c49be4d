#!/usr/bin/env python3
"""Side-by-side benchmark: apipe's Swift Whisper engine vs faster-whisper (CTranslate2).

Both read the same CTranslate2 tiny.en directory, decode greedily (beam 1) with the same
thread count, on espeak-ng speech of known sentences (several voices and rates), resampled
to 16 kHz by sox. Reports real-time factor (processing seconds / audio seconds), WER and
peak RSS of each side, and the ratios apipe / faster-whisper. With --base-model, the
multilingual base model is run the same way beside it, the language left to detection on
both sides (the files detected as English are counted).
"""
import argparse, json, os, re, resource, subprocess, sys, time

SENTENCES = [
    "The birch canoe slid on the smooth planks.",
    "Glue the sheet to the dark blue background.",
    "It is easy to tell the depth of a well.",
    "These days a chicken leg is a rare dish.",
    "Rice is often served in round bowls.",
    "The juice of lemons makes fine punch.",
    "The box was thrown beside the parked truck.",
    "The hogs were fed chopped corn and garbage.",
    "Four hours of steady work faced us.",
    "A large size in stockings is hard to sell.",
    "The boy was there when the sun rose.",
    "A rod is used to catch pink salmon.",
    "The source of the huge river is the clear spring.",
    "Kick the ball straight and follow through.",
    "Help the woman get back to her feet.",
    "A pot of tea helps to pass the evening.",
    "Smoky fires lack flame and heat.",
    "The soft cushion broke the man's fall.",
    "The salt breeze came across from the sea.",
    "The girl at the booth sold fifty bonds.",
    "The small pup gnawed a hole in the sock.",
    "The fish twisted and turned on the bent hook.",
    "Press the pants and sew a button on the vest.",
    "The swan dive was far short of perfect.",
]
VOICES = [("en-us", 160), ("en", 175), ("en-us+f3", 145), ("en-gb-x-rp", 190)]


def run(cmd, **kw):
    return subprocess.run(cmd, check=True, capture_output=True, text=True, **kw)


def synthesise(work, name, text, voice, rate):
    raw, wav = os.path.join(work, name + ".22k.wav"), os.path.join(work, name + ".wav")
    if not os.path.exists(wav):
        run(["espeak-ng", "-v", voice, "-s", str(rate), "-w", raw, text])
        run(["sox", raw, "-r", "16000", "-b", "16", "-c", "1", wav])
        os.remove(raw)
    return wav


def duration(wav):
    return float(run(["soxi", "-D", wav]).stdout)


def words(text):
    text = text.lower().replace("'", "")
    return re.sub(r"[^a-z0-9 ]+", " ", text).split()


def wer(refs, hyps):
    errors = total = 0
    for ref, hyp in zip(refs, hyps):
        r, h = words(ref), words(hyp)
        d = list(range(len(h) + 1))
        for i in range(1, len(r) + 1):
            prev, d[0] = d[0], i
            for j in range(1, len(h) + 1):
                cur = min(d[j] + 1, d[j - 1] + 1, prev + (r[i - 1] != h[j - 1]))
                prev, d[j] = d[j], cur
        errors += d[len(h)]
        total += len(r)
    return 100.0 * errors / max(1, total)


def apipe(driver, model, threads, files, extra=()):
    out = run([driver, model, "--threads", str(threads), *extra, *files]).stdout.splitlines()
    rows = [json.loads(line) for line in out]
    summary = rows[-1]
    return [r["text"] for r in rows[:-1]], [r["language"] for r in rows[:-1]], summary["seconds"], summary["peak_rss_kib"]


FW_SCRIPT = r"""
import json, resource, sys, time
from faster_whisper import WhisperModel
model_dir, threads, compute, language, files = sys.argv[1], int(sys.argv[2]), sys.argv[3], sys.argv[4], sys.argv[5:]
model = WhisperModel(model_dir, device="cpu", compute_type=compute, cpu_threads=threads)
from faster_whisper.audio import decode_audio
texts, languages, total = [], [], 0.0
for f in files:
    audio = decode_audio(f, 16000)
    start = time.perf_counter()
    segments, info = model.transcribe(audio, beam_size=1, language=None if language == "auto" else language)
    texts.append(" ".join(s.text.strip() for s in segments))
    languages.append(info.language)
    total += time.perf_counter() - start
print(json.dumps({"texts": texts, "languages": languages, "seconds": total, "peak_rss_kib": resource.getrusage(resource.RUSAGE_SELF).ru_maxrss}))
"""


def faster_whisper(model, threads, compute, files, language="en"):
    out = json.loads(run([sys.executable, "-c", FW_SCRIPT, model, str(threads), compute, language, *files]).stdout)
    return out["texts"], out["languages"], out["seconds"], out["peak_rss_kib"]


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--model", required=True)
    ap.add_argument("--driver", required=True)
    ap.add_argument("--work", required=True)
    ap.add_argument("--threads", type=int, default=os.cpu_count())
    ap.add_argument("--long-minutes", type=float, default=10)
    ap.add_argument("--base-model", help="multilingual base model directory, benchmarked beside the main one")
    args = ap.parse_args()
    os.makedirs(args.work, exist_ok=True)

    short, refs = [], []
    for v, (voice, rate) in enumerate(VOICES):
        for s in range(v, len(SENTENCES), 2):
            text = " ".join(SENTENCES[s:s + 2]) if (s + v) % 3 == 0 else SENTENCES[s]
            short.append(synthesise(args.work, f"short-{v}-{s}", text, voice, rate))
            refs.append(text)
    short_audio = sum(duration(f) for f in short)

    long_wav = os.path.join(args.work, "long.wav")
    long_ref = []
    if args.long_minutes <= 0:
        long_wav = None
    elif not os.path.exists(long_wav):
        pieces, total, i = [], 0.0, 0
        while total < args.long_minutes * 60:
            voice, rate = VOICES[i % len(VOICES)]
            text = " ".join(SENTENCES[(i * 3 + k) % len(SENTENCES)] for k in range(3))
            wav = synthesise(args.work, f"long-{i}", text, voice, rate)
            pieces.append(wav)
            total += duration(wav) + 0.5
            i += 1
        silence = os.path.join(args.work, "gap.wav")
        run(["sox", "-n", "-r", "16000", "-b", "16", "-c", "1", silence, "trim", "0", "0.5"])
        run(["sox", *[p for w in pieces for p in (w, silence)], long_wav])
    i = 0
    long_audio = duration(long_wav) if long_wav else 0
    while long_wav and len(long_ref) < 10000:
        path = os.path.join(args.work, f"long-{i}.wav")
        if not os.path.exists(path):
            break
        long_ref.append(" ".join(SENTENCES[(i * 3 + k) % len(SENTENCES)] for k in range(3)))
        i += 1
    long_ref = [" ".join(long_ref)]

    base = args.base_model if args.base_model and os.path.exists(os.path.join(args.base_model, "model.bin")) else None
    names = [os.path.basename(args.model.rstrip("/"))] + ([os.path.basename(base.rstrip("/"))] if base else [])
    print(f"bench-whisper: {', '.join(names)}, beam 1, {args.threads} threads; short: {len(short)} files, "
          f"{short_audio:.1f} s; long: {long_audio / 60:.1f} min")
    print(f"{'case':<33}{'RTF':>9}{'WER %':>8}{'peak MiB':>10}{'lang en':>9}")
    results = {}
    cases = []
    for label, model, fw_language in [("", args.model, "en")] + ([("base ", base, "auto")] if base else []):
        for kind, files in (("short", short), ("long", [long_wav] if long_wav else [])):
            if not files:
                continue
            cases += [
                (kind, label + "apipe", lambda m=model, f=files: apipe(args.driver, m, args.threads, f)),
                (kind, label + "faster-whisper float32", lambda m=model, f=files, l=fw_language: faster_whisper(m, args.threads, "float32", f, l)),
                (kind, label + "faster-whisper int8", lambda m=model, f=files, l=fw_language: faster_whisper(m, args.threads, "int8", f, l)),
            ]
            if kind == "short" and not label:
                cases.insert(-2, (kind, "apipe --shorten", lambda f=files: apipe(args.driver, args.model, args.threads, f, ["--shorten"])))
    for kind, name, fn in cases:
        texts, languages, seconds, rss = fn()
        audio = short_audio if kind == "short" else long_audio
        rtf = seconds / audio
        w = wer(refs if kind == "short" else long_ref, texts)
        results[(kind, name)] = (rtf, w, rss)
        english = f"{languages.count('en')}/{len(languages)}"
        print(f"{kind + ' ' + name:<33}{rtf:>9.4f}{w:>8.2f}{rss / 1024:>10.0f}{english:>9}", flush=True)
    print("ratios apipe / faster-whisper (RTF lower is faster; WER difference in points; memory)")
    for label in ("", "base ") if base else ("",):
        for kind in ("short", "long"):
            if (kind, label + "apipe") not in results:
                continue
            a = results[(kind, label + "apipe")]
            for anchor in ("faster-whisper float32", "faster-whisper int8"):
                f = results[(kind, label + anchor)]
                print(f"  {kind:<6} {label + 'apipe':<10} vs {label + anchor:<29} RTF x{a[0] / f[0]:.2f}  "
                      f"WER {a[1] - f[1]:+.2f} pt  peak RSS x{a[2] / f[2]:.2f}")
            if kind == "short" and not label:
                s = results[("short", "apipe --shorten")]
                print(f"  short  apipe --shorten vs apipe     RTF x{s[0] / a[0]:.2f}  WER {s[1] - a[1]:+.2f} pt")

if __name__ == "__main__":
    main()
