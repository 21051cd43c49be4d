#!/usr/bin/env python3
"""aindex benchmark: generate a large library with direct SQL, then time the built binary.

Every figure is the median wall time of several runs of the real command (process start
included), with the peak resident memory of the slowest run. The anchor is what a user
without a full-text index would run: a LIKE '%word%' scan over the same table, timed in
the same run through Python's sqlite3 on the same database file.
"""
import argparse, json, os, random, shutil, sqlite3, struct, subprocess, sys, time

SESSIONS, SEGMENTS_PER_SESSION = 100_000, 10
RARE, COMMON, PHRASE = "zygomorphic", "budget", "quarterly review"
RUNS = 7


def measure(cmd, stdin=None, runs=RUNS):
    """Median seconds and peak RSS (MB) over runs, RSS taken from wait4 per child."""
    # GNU time reports the command's own peak RSS; a child forked straight from this (large)
    # Python process would count Python's pages too.
    times, peaks = [], []
    rss_file = os.path.join(os.environ.get("TMPDIR", "/tmp"), f"aindex-bench-rss-{os.getpid()}")
    for _ in range(runs):
        start = time.perf_counter()
        proc = subprocess.Popen(["/usr/bin/time", "-f", "%M", "-o", rss_file, *cmd],
                                stdin=subprocess.PIPE if stdin is not None else subprocess.DEVNULL,
                                stdout=subprocess.DEVNULL, stderr=subprocess.PIPE)
        _, err = proc.communicate(stdin)
        times.append(time.perf_counter() - start)
        if proc.returncode != 0:
            sys.exit(f"bench-index: {' '.join(cmd)} failed: {err.decode()}")
        with open(rss_file) as f:
            peaks.append(int(f.read().split()[-1]) / 1024)
    times.sort()
    return times[len(times) // 2], max(peaks)


def sql_time(db, sql, args, runs=RUNS):
    times = []
    for _ in range(runs):
        start = time.perf_counter()
        if isinstance(sql, SearchStatements):
            for rowid, _ in db.execute(sql.rank, (sql.expression,)).fetchall():
                db.execute(sql.snippet, (sql.expression, rowid)).fetchall()
            db.execute(sql.titles, (sql.expression,)).fetchall()
        else:
            db.execute(sql, args).fetchall()
        times.append(time.perf_counter() - start)
    times.sort()
    return times[len(times) // 2]


def vocabulary():
    rng = random.Random(7)
    letters = "abcdefghijklmnopqrstuvwxyz"
    words = sorted({"".join(rng.choice(letters) for _ in range(rng.randint(3, 9))) for _ in range(6000)})
    words = [w for w in words if w not in (RARE, COMMON, "quarterly", "review")][:5000]
    weights = [1 / (rank + 1) for rank in range(len(words))]
    return words, weights


def generate(aindex, library):
    if os.path.exists(library):
        shutil.rmtree(library)
    subprocess.run([aindex, "stats", "--library", library], check=True, stdout=subprocess.DEVNULL)
    db = sqlite3.connect(os.path.join(library, "library.sqlite"))
    db.execute("PRAGMA synchronous = OFF")
    triggers = db.execute("SELECT name, sql FROM sqlite_master WHERE type = 'trigger'").fetchall()
    for name, _ in triggers:
        db.execute(f"DROP TRIGGER {name}")
    rng = random.Random(42)
    words, weights = vocabulary()
    base = 1_700_000_000.0
    big = 500
    sessions, segments, texts = [], [], []
    segment_id = 0
    rare_left = 12
    for s in range(1, SESSIONS + 1):
        count = big if s == SESSIONS // 2 else SEGMENTS_PER_SESSION
        created = base + s * 600
        title = " ".join(rng.choices(words, weights, k=3))
        words_total = 0
        for i in range(count):
            segment_id += 1
            text = rng.choices(words, weights, k=12)
            if rng.random() < 0.16:
                text[rng.randrange(12)] = COMMON
            if rng.random() < 0.0026:
                text[3:5] = ["quarterly", "review"]
            if rare_left and rng.random() < 0.0001:
                text[7] = RARE
                rare_left -= 1
            words_total += 12
            segments.append((segment_id, s, i, i * 3.0, i * 3.0 + 2.5, 2.5, "completed"))
            texts.append((segment_id, segment_id, " ".join(text), "en", 0.9, "local-whisper", "apipe", "tiny.en", 0.2, 12, len(" ".join(text)), created, created))
        sessions.append((s, f"{rng.getrandbits(128):032x}"[:8] + "-0000-4000-8000-" + f"{s:012d}", title, created, created,
                         count * 3.0, 16000, 1, count, count, words_total))
        if len(texts) >= 100_000:
            flush(db, sessions, segments, texts)
    flush(db, sessions, segments, texts)
    db.execute("INSERT INTO transcription_fts(transcription_fts) VALUES ('rebuild')")
    db.execute("INSERT INTO session_fts(session_fts) VALUES ('rebuild')")
    for _, sql in triggers:
        db.execute(sql)
    db.commit()
    db.execute("PRAGMA optimize")
    db.execute("ANALYZE")
    db.commit()
    big_uuid = db.execute("SELECT uuid FROM session WHERE segment_count = ?", (big,)).fetchone()[0]
    db.close()
    return big_uuid


def flush(db, sessions, segments, texts):
    db.executemany("""INSERT INTO session (id, uuid, title, created_at, started_at, duration, sample_rate, channels,
                      segment_count, completed_count, word_count, finalized, completed) VALUES (?,?,?,?,?,?,?,?,?,?,?,1,1)""", sessions)
    db.executemany("INSERT INTO segment (id, session_id, idx, start_time, end_time, duration, status) VALUES (?,?,?,?,?,?,?)", segments)
    db.executemany("""INSERT INTO transcription (id, segment_id, text, language, confidence, method, provider, model,
                      processing_duration, word_count, character_count, created_at, updated_at) VALUES (?,?,?,?,?,?,?,?,?,?,?,?,?)""", texts)
    db.commit()
    sessions.clear(); segments.clear(); texts.clear()


def stream(segments, seconds=0.5, rate=16000):
    """An apipe stream: one session, `segments` segments of audio, each transcribed."""
    out = bytearray(b"\x89APIPE\r\n" + struct.pack("<HHI", 1, 0, 0))
    def packet(kind, payload):
        out.extend(struct.pack("<BBHI", kind, 0, 0, len(payload)) + payload)
    def event(obj):
        packet(0x45, json.dumps(obj, separators=(",", ":")).encode())
    uuid = "b0b0b0b0-0000-4000-8000-000000000001"
    packet(0x46, struct.pack("<BBHI", 1, 1, 0, rate))
    event({"type": "session.start", "session": uuid, "title": "ingest bench", "created": "2026-11-22T06:00:00Z", "t": 0,
           "preset": "low", "rate": rate, "bits": 16, "channels": 1, "format": "s16le", "source": "bench", "host": "h",
           "os": "linux", "app_version": "0"})
    frames = int(seconds * rate)
    audio = struct.pack("<h", 1000) * frames
    for i in range(segments):
        start = i * seconds
        event({"type": "segment.start", "session": uuid, "index": i, "t": start, "start": start})
        packet(0x41, struct.pack("<Q", i * frames) + audio)
        event({"type": "segment.end", "session": uuid, "index": i, "t": start + seconds, "start": start, "end": start + seconds,
               "probability": 0.9, "reason": "silence"})
        event({"type": "transcription", "session": uuid, "index": i, "t": start + seconds, "start": start, "end": start + seconds,
               "text": f"segment {i} says something about the quarterly budget", "language": "en", "confidence": 0.9,
               "method": "local-whisper", "provider": "apipe", "model": "tiny.en", "processing_time": 0.1, "words": 9,
               "characters": 50, "retries": 0})
    event({"type": "session.end", "session": uuid, "t": segments * seconds, "duration": segments * seconds,
           "frames": segments * frames, "interrupted": False})
    packet(0x5A, b"")
    return bytes(out)


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("--aindex", required=True)
    parser.add_argument("--dir", required=True)
    parser.add_argument("--reuse", action="store_true", help="keep a library generated by an earlier run")
    args = parser.parse_args()
    aindex = os.path.abspath(args.aindex)
    os.makedirs(args.dir, exist_ok=True)
    library = os.path.join(args.dir, "library")

    start = time.perf_counter()
    database = os.path.join(library, "library.sqlite")
    if args.reuse and os.path.exists(database):
        with sqlite3.connect(database) as db:
            big = db.execute("SELECT uuid FROM session WHERE segment_count = 500").fetchone()[0]
        how = "reused"
    else:
        big = generate(aindex, library)
        how = f"generated in {time.perf_counter() - start:.1f} s"
    print(f"bench-index: {SESSIONS} sessions, {SESSIONS * SEGMENTS_PER_SESSION + 490} segments with text, {how}")

    ingest_segments = 2000
    data = stream(ingest_segments)
    ingest_library = os.path.join(args.dir, "ingest")
    if os.path.exists(ingest_library):
        shutil.rmtree(ingest_library)
    seconds, peak = measure([aindex, "ingest", "--library", ingest_library], stdin=data, runs=1)
    print(f"ingest: {ingest_segments} segments (0.5 s of 16 kHz audio each, one WAV per segment, transcribed) "
          f"in {seconds * 1000:.0f} ms = {ingest_segments / seconds:.0f} segments/s, peak {peak:.1f} MB")
    seconds_again, peak_again = measure([aindex, "ingest", "--library", ingest_library], stdin=data, runs=1)
    print(f"re-ingest of the same stream (no changes): {ingest_segments / seconds_again:.0f} segments/s, peak {peak_again:.1f} MB")

    base, base_peak = measure([aindex, "--version"])
    print(f"process start (aindex --version): {base * 1000:.1f} ms, peak {base_peak:.1f} MB")
    print()
    db = sqlite3.connect(os.path.join(library, "library.sqlite"))
    lib = ["--library", library]
    page = "SELECT uuid, title FROM session WHERE id IN (SELECT id FROM session ORDER BY created_at DESC, id DESC LIMIT 50 OFFSET ?) ORDER BY created_at DESC, id DESC"
    show = ("SELECT s.idx, s.start_time, t.text FROM segment s LEFT JOIN transcription t ON t.segment_id = s.id "
            "WHERE s.session_id = (SELECT id FROM session WHERE uuid = ?) ORDER BY s.idx")
    rows = [
        ("sessions, first page", [aindex, "sessions", *lib], (page, (0,)), None),
        ("sessions, page 1000 (offset 49950)", [aindex, "sessions", "--page", "1000", *lib], (page, (49950,)), None),
        ("show (500-segment session)", [aindex, "show", big[:8], *lib], (show, (big,)), None),
        (f"search rare '{RARE}'", [aindex, "search", RARE, *lib], search_sql(f'"{RARE}"'), RARE),
        (f"search common '{COMMON}' (16% of rows)", [aindex, "search", COMMON, *lib], search_sql(f'"{COMMON}"'), COMMON),
        (f"search phrase '\"{PHRASE}\"'", [aindex, "search", f'"{PHRASE}"', *lib], search_sql(f'"{PHRASE}"'), PHRASE),
        ("search prefix 'zygo*'", [aindex, "search", "zygo*", *lib], search_sql('"zygo"*'), "zygo"),
    ]
    print("aindex ms: the whole command, median of 7 runs; SQL ms: its statements alone, in-process (Python sqlite3);")
    print("LIKE ms: text LIKE '%word%' returning every match, as a search without a full-text index must.")
    print(f"{'operation':40} {'aindex ms':>9} {'peak MB':>8} {'SQL ms':>7} {'LIKE ms':>8} {'LIKE/SQL':>9} {'LIKE/aindex':>11}")
    worst, worst_sql, heaviest = 0.0, 0.0, 0.0
    for name, cmd, (sql, params), like in rows:
        seconds, peak = measure(cmd)
        inside = sql_time(db, sql, params)
        worst, worst_sql, heaviest = max(worst, seconds), max(worst_sql, inside), max(heaviest, peak)
        if like:
            anchor = sql_time(db, "SELECT id FROM transcription WHERE text LIKE ?", (f"%{like}%",), runs=3)
            print(f"{name:40} {seconds * 1000:9.1f} {peak:8.1f} {inside * 1000:7.2f} {anchor * 1000:8.1f} "
                  f"{anchor / inside:8.0f}x {anchor / seconds:10.1f}x")
        else:
            print(f"{name:40} {seconds * 1000:9.1f} {peak:8.1f} {inside * 1000:7.2f} {'-':>8} {'-':>9} {'-':>11}")
    print()
    print(f"goal: every query under 20 ms, memory under 50 MB: worst SQL {worst_sql * 1000:.1f} ms, "
          f"worst command {worst * 1000:.1f} ms ({(worst - base) * 1000:.1f} ms beyond process start), peak {heaviest:.1f} MB")


def search_sql(expression):
    """The statements `aindex search` runs: rank a window of matches, then one snippet per hit."""
    rank = ("SELECT rowid, score FROM (SELECT rowid, bm25(transcription_fts) AS score FROM transcription_fts "
            "WHERE transcription_fts MATCH ? ORDER BY rowid DESC LIMIT 1000) ORDER BY score LIMIT 20")
    snippet = ("SELECT snippet(transcription_fts, 0, '[', ']', '…', 12) FROM transcription_fts "
               "WHERE transcription_fts MATCH ? AND rowid = ?")
    titles = ("SELECT rowid, score FROM (SELECT rowid, bm25(session_fts) AS score FROM session_fts "
              "WHERE session_fts MATCH ? ORDER BY rowid DESC LIMIT 1000) ORDER BY score LIMIT 20")
    return (SearchStatements(rank, snippet, titles, expression), None)


class SearchStatements(list):
    """Runs the search statements in sequence when timed (see sql_time)."""
    def __init__(self, rank, snippet, titles, expression):
        super().__init__()
        self.rank, self.snippet, self.titles, self.expression = rank, snippet, titles, expression


if __name__ == "__main__":
    main()
