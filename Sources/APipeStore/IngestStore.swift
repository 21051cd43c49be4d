import APipeStream
import Foundation
import GRDB

/// The SQL of an ingest, on the writer connection inside the ingest's open transaction.
///
/// Every statement is an upsert keyed by (session uuid, segment index), so replaying a stream
/// changes nothing and a later stream fills in what an earlier one left open.
struct IngestStore {
    let db: Database

    /// A session row: whether an ingest finished its audio, and whether that audio is complete
    /// (the session ended without an interruption).
    struct KnownSession {
        let id: Int64
        let audioFinal: Bool
        let completed: Bool
        let frames: Int
    }

    func session(uuid: String) throws -> KnownSession? {
        try Row.fetchOne(db, sql: "SELECT id, finalized, completed, frames FROM session WHERE uuid = ?", arguments: [uuid])
            .map { KnownSession(id: $0["id"], audioFinal: $0["finalized"], completed: $0["completed"], frames: $0["frames"]) }
    }

    /// Inserts the session `uuid` (the checked form of `start.session`), or refreshes the
    /// metadata of one whose audio is not final yet.
    func upsert(_ start: SessionStart, uuid: String) throws -> Int64 {
        let created = IngestStore.parseDate(start.created) ?? Date().timeIntervalSince1970
        let arguments: StatementArguments = [
            uuid, start.title, created, created, start.preset, start.rate, 16, start.channels,
            start.source, start.device, start.host, start.os, start.appVersion, start.notes,
        ]
        try db.execute(
            sql: """
                INSERT INTO session (uuid, title, created_at, started_at, quality_preset, sample_rate, bit_depth,
                    channels, format, source, device, host, os, app_version, notes, completed, interrupted)
                VALUES (?, ?, ?, ?, ?, ?, ?, ?, 'wav', ?, ?, ?, ?, ?, ?, 0, 0)
                ON CONFLICT (uuid) DO UPDATE SET title = excluded.title, created_at = excluded.created_at,
                    started_at = excluded.started_at, quality_preset = excluded.quality_preset,
                    sample_rate = excluded.sample_rate, channels = excluded.channels, source = excluded.source,
                    device = excluded.device, host = excluded.host, os = excluded.os,
                    app_version = excluded.app_version, notes = excluded.notes, completed = 0, interrupted = 0,
                    interruption = NULL
                """, arguments: arguments)
        return try Int64.fetchOne(db, sql: "SELECT id FROM session WHERE uuid = ?", arguments: [uuid]) ?? 0
    }

    /// A placeholder for events whose session.start never reached the library.
    func stubSession(uuid: String) throws -> Int64 {
        let now = Date().timeIntervalSince1970
        try db.execute(
            sql: """
                INSERT INTO session (uuid, title, created_at, started_at, interrupted, interruption)
                VALUES (?, '', ?, ?, 1, 'events arrived without a session.start')
                """, arguments: [uuid, now, now])
        return db.lastInsertedRowID
    }

    /// Records the session's end and its final audio file (nil when no audio arrived).
    func finish(session: Int64, audioPath: String?, audioSize: Int64, frames: Int, rate: Int?, duration: Double,
                interruption: String?, xruns: Int?) throws {
        try db.execute(
            sql: """
                UPDATE session SET finalized = 1, audio_path = ?, audio_size = ?, frames = ?, sample_rate = coalesce(?, sample_rate),
                    duration = ?, ended_at = started_at + ?, completed = ?, interrupted = ?, interruption = ?,
                    xruns = coalesce(?, xruns)
                WHERE id = ?
                """,
            arguments: [audioPath, audioSize, frames, rate, duration, duration, interruption == nil,
                        interruption != nil, interruption, xruns, session])
    }

    /// Marks a known session interrupted without touching its audio.
    func markInterrupted(session: Int64, reason: String) throws {
        try db.execute(sql: "UPDATE session SET interrupted = 1, completed = 0, interruption = ? WHERE id = ? AND completed = 0",
                       arguments: [reason, session])
    }

    /// Inserts a segment, or updates its times; never touches its transcription status.
    func upsertSegment(session: Int64, index: Int, start: Double, end: Double, probability: Double?, reason: String?) throws -> Int64 {
        try db.execute(
            sql: """
                INSERT INTO segment (session_id, idx, start_time, end_time, duration, probability, reason)
                VALUES (?, ?, ?, ?, ?, ?, ?)
                ON CONFLICT (session_id, idx) DO UPDATE SET start_time = excluded.start_time,
                    end_time = excluded.end_time, duration = excluded.duration,
                    probability = coalesce(excluded.probability, probability), reason = coalesce(excluded.reason, reason)
                WHERE excluded.end_time > excluded.start_time OR end_time <= start_time
                """, arguments: [session, index, start, max(start, end), max(0, end - start), probability, reason])
        return try segmentID(session: session, index: index) ?? 0
    }

    func segmentID(session: Int64, index: Int) throws -> Int64? {
        try Int64.fetchOne(db, sql: "SELECT id FROM segment WHERE session_id = ? AND idx = ?", arguments: [session, index])
    }

    /// Whether the segment's audio file is recorded and present, and the segment ended (the
    /// audio of a segment an interruption cut short is written again when a stream carries it).
    func segmentHasAudio(session: Int64, index: Int, library: Library) throws -> Bool {
        guard let path = try String.fetchOne(
            db, sql: "SELECT audio_path FROM segment WHERE session_id = ? AND idx = ? AND audio_path IS NOT NULL AND end_time > start_time",
            arguments: [session, index]) else { return false }
        return Library.fileExists(library.absolutePath(path))
    }

    func setSegmentAudio(session: Int64, index: Int, path: String, size: Int64) throws {
        try db.execute(sql: "UPDATE segment SET audio_path = ?, audio_size = ? WHERE session_id = ? AND idx = ?",
                       arguments: [path, size, session, index])
    }

    /// Stores a transcription; false when the same one is already there.
    func upsert(_ transcription: Transcription, segment: Int64) throws -> Bool {
        let same = try Bool.fetchOne(
            db,
            sql: """
                SELECT 1 FROM transcription t JOIN segment s ON s.id = t.segment_id
                WHERE t.segment_id = ? AND t.text = ? AND t.language IS ? AND t.model IS ? AND t.provider = ?
                    AND t.method = ? AND s.status = 'completed'
                """,
            arguments: [segment, transcription.text, transcription.language, transcription.model, transcription.provider,
                        transcription.method]) ?? false
        if same { return false }
        let now = Date().timeIntervalSince1970
        let phrases = transcription.phrases.flatMap { try? JSONEncoder().encode($0) }.map { String(decoding: $0, as: UTF8.self) }
        try db.execute(
            sql: """
                INSERT INTO transcription (segment_id, text, language, confidence, method, provider, model,
                    processing_duration, word_count, character_count, phrases, created_at, updated_at)
                VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)
                ON CONFLICT (segment_id) DO UPDATE SET text = excluded.text, language = excluded.language,
                    confidence = excluded.confidence, method = excluded.method, provider = excluded.provider,
                    model = excluded.model, processing_duration = excluded.processing_duration,
                    word_count = excluded.word_count, character_count = excluded.character_count,
                    phrases = excluded.phrases, updated_at = excluded.updated_at
                """,
            arguments: [segment, transcription.text, transcription.language, transcription.confidence, transcription.method,
                        transcription.provider, transcription.model, transcription.processingTime, transcription.words,
                        transcription.characters, phrases, now, now])
        try db.execute(
            sql: """
                UPDATE segment SET status = 'completed', retry_count = ?, last_error = NULL,
                    processing_started_at = ?, processing_ended_at = ? WHERE id = ?
                """, arguments: [transcription.retries, now - transcription.processingTime, now, segment])
        return true
    }

    /// Records a failed or deferred transcription unless the segment already has one.
    func record(_ failure: TranscriptionFailed, segment: Int64) throws {
        try db.execute(
            sql: """
                UPDATE segment SET status = ?, retry_count = ?, last_error = ?
                WHERE id = ? AND status <> 'completed'
                """, arguments: [failure.pending ? "pending" : "failed", failure.retries, failure.error, segment])
    }

    /// Brings a session's cached counts in line with its segments.
    func recount(session: Int64) throws {
        try db.execute(
            sql: """
                UPDATE session SET
                    segment_count = (SELECT count(*) FROM segment WHERE session_id = ?1),
                    completed_count = (SELECT count(*) FROM segment WHERE session_id = ?1 AND status = 'completed'),
                    failed_count = (SELECT count(*) FROM segment WHERE session_id = ?1 AND status = 'failed'),
                    word_count = (SELECT coalesce(sum(t.word_count), 0) FROM segment s JOIN transcription t ON t.segment_id = s.id
                                  WHERE s.session_id = ?1)
                WHERE id = ?1
                """, arguments: [session])
    }

    /// Parses ISO-8601 with or without fractional seconds.
    static func parseDate(_ text: String) -> Double? {
        let formatter = ISO8601DateFormatter()
        if let date = formatter.date(from: text) { return date.timeIntervalSince1970 }
        formatter.formatOptions = [.withInternetDateTime, .withFractionalSeconds]
        return formatter.date(from: text)?.timeIntervalSince1970
    }
}
