import Foundation
import GRDB

/// Read-only questions asked of a library.
public struct LibraryQueries {
    let library: Library

    public init(library: Library) {
        self.library = library
    }

    /// Sessions newest first, one page of them.
    public func sessions(_ filter: SessionFilter) throws -> [SessionSummary] {
        var conditions: [String] = []
        var arguments: StatementArguments = []
        switch filter.transcription {
        case .any: break
        case .completed: conditions.append("completed_count = segment_count")
        case .pending: conditions.append("completed_count < segment_count")
        }
        if let since = filter.since {
            conditions.append("created_at >= ?")
            arguments += [since]
        }
        if let until = filter.until {
            conditions.append("created_at < ?")
            arguments += [until]
        }
        let whereClause = conditions.isEmpty ? "" : "WHERE " + conditions.joined(separator: " AND ")
        let limit = max(1, filter.limit)
        arguments += [limit, max(0, filter.page - 1) * limit]
        return try read { db in
            try SessionSummary.fetchAll(
                db,
                // The page's ids come from the creation-time index alone, so a deep page skips
                // index entries, not table rows.
                sql: """
                    SELECT \(SessionSummary.columns) FROM session WHERE id IN (
                        SELECT id FROM session \(whereClause) ORDER BY created_at DESC, id DESC LIMIT ? OFFSET ?)
                    ORDER BY created_at DESC, id DESC
                    """,
                arguments: arguments)
        }
    }

    /// The row id of the session whose UUID is `text` or starts with it.
    public func resolve(_ text: String) throws -> Int64 {
        let prefix = text.lowercased()
        guard !prefix.isEmpty, prefix.allSatisfy({ $0.isHexDigit || $0 == "-" }) else { throw StoreError.unknownSession(text) }
        let ids = try read { db in
            try Int64.fetchAll(db, sql: "SELECT id FROM session WHERE uuid >= ? AND uuid < ? LIMIT 2",
                               arguments: [prefix, prefix + "\u{FFFF}"])
        }
        guard let first = ids.first else { throw StoreError.unknownSession(text) }
        guard ids.count == 1 else {
            let count = try read { db in
                try Int.fetchOne(db, sql: "SELECT count(*) FROM session WHERE uuid >= ? AND uuid < ?", arguments: [prefix, prefix + "\u{FFFF}"]) ?? 0
            }
            throw StoreError.ambiguousSession(text, matches: count)
        }
        return first
    }

    /// A session with all its segments and transcriptions.
    public func show(_ id: Int64) throws -> SessionDetail {
        try read { db in
            guard let row = try Row.fetchOne(db, sql: "SELECT * FROM session WHERE id = ?", arguments: [id]) else {
                throw StoreError.unknownSession(String(id))
            }
            let segments = try SegmentDetail.fetchAll(
                db,
                sql: """
                    SELECT s.idx, s.start_time, s.end_time, s.status, s.retry_count, s.last_error, s.audio_path,
                        t.text, t.language, t.confidence, t.model, t.word_count
                    FROM segment s LEFT JOIN transcription t ON t.segment_id = s.id
                    WHERE s.session_id = ? ORDER BY s.idx
                    """, arguments: [id])
            return SessionDetail(
                summary: try SessionSummary(row: row), sampleRate: row["sample_rate"], channels: row["channels"],
                preset: row["quality_preset"], audio: row["audio_path"], audioSize: row["audio_size"], source: row["source"],
                device: row["device"], host: row["host"], os: row["os"], appVersion: row["app_version"], notes: row["notes"],
                interruption: row["interruption"], segments: segments)
        }
    }

    /// Library-wide counts.
    public func stats() throws -> LibraryStats {
        var stats = try read { db in
            let row = try Row.fetchOne(
                db,
                sql: """
                    SELECT count(*) AS sessions, coalesce(sum(duration), 0) AS audio, coalesce(sum(audio_size), 0) AS bytes,
                        coalesce(sum(interrupted), 0) AS interrupted, coalesce(sum(segment_count), 0) AS segments,
                        coalesce(sum(word_count), 0) AS words
                    FROM session
                    """)
            var stats = LibraryStats()
            stats.sessions = row?["sessions"] ?? 0
            stats.audioSeconds = row?["audio"] ?? 0
            stats.sessionAudioBytes = row?["bytes"] ?? 0
            stats.interruptedSessions = row?["interrupted"] ?? 0
            stats.words = row?["words"] ?? 0
            for status in try Row.fetchAll(db, sql: "SELECT status, count(*) AS n, coalesce(sum(audio_size), 0) AS bytes FROM segment GROUP BY status") {
                let name: String = status["status"]
                let count: Int = status["n"]
                stats.statuses[name] = count
                stats.segments += count
                stats.segmentAudioBytes += status["bytes"]
            }
            stats.transcriptions = try Int.fetchOne(db, sql: "SELECT count(*) FROM transcription") ?? 0
            return stats
        }
        stats.databaseBytes = library.databaseSize()
        return stats
    }

    func read<T>(_ body: (Database) throws -> T) throws -> T {
        do {
            return try library.pool.read(body)
        } catch {
            throw StoreError.wrap(error, path: library.root.path)
        }
    }
}

/// Counts over the whole library.
public struct LibraryStats: Codable, Sendable, Equatable {
    public var sessions = 0
    public var interruptedSessions = 0
    public var segments = 0
    public var transcriptions = 0
    public var words = 0
    public var audioSeconds = 0.0
    public var sessionAudioBytes: Int64 = 0
    public var segmentAudioBytes: Int64 = 0
    public var databaseBytes: Int64 = 0
    /// Segments by status (pending, processing, completed, failed).
    public var statuses: [String: Int] = [:]

    public init() {}

    public var diskBytes: Int64 { sessionAudioBytes + segmentAudioBytes + databaseBytes }
}
