import Foundation
import GRDB

/// One search hit: a segment's transcription, or a session's title or notes (`index` nil).
public struct SearchHit: Codable, Sendable, Equatable {
    public var session: String
    public var title: String
    public var created: Double
    public var index: Int?
    public var start: Double?
    public var end: Double?
    /// Text around the match; matched terms between `Searcher.highlightOpen` and `highlightClose`.
    public var snippet: String
    /// bm25 score: lower is better.
    public var score: Double
}

/// Full-text search over transcriptions, session titles and notes, ranked by bm25.
public struct Searcher {
    public static let highlightOpen = "\u{1}"
    public static let highlightClose = "\u{2}"
    /// Matches ranked per query, newest first: every match of a term rarer than this is ranked
    /// by bm25; a term matching more is ranked among its newest matches, so a common word
    /// answers as fast as a rare one.
    public static let candidateWindow = 1000
    let library: Library

    public init(library: Library) {
        self.library = library
    }

    /// The best `limit` hits for `query`, transcriptions and sessions together, best first.
    public func search(_ query: SearchQuery, limit: Int = 20, offset: Int = 0) throws -> [SearchHit] {
        let open = Searcher.highlightOpen
        let close = Searcher.highlightClose
        let count = max(1, limit) + max(0, offset)
        do {
            return try library.pool.read { db in
                let ranked = try Row.fetchAll(
                    db,
                    sql: """
                        SELECT rowid, score FROM (
                            SELECT rowid, bm25(transcription_fts) AS score FROM transcription_fts
                            WHERE transcription_fts MATCH ? ORDER BY rowid DESC LIMIT \(Searcher.candidateWindow))
                        ORDER BY score LIMIT ?
                        """, arguments: [query.expression, count])
                // Snippets one rowid at a time (FTS5 seeks a rowid but not an IN list), reusing the
                // scores above: bm25 walks the term's whole doclist again in every query it is in.
                let segments = try ranked.compactMap { rank in
                    let id: Int64 = rank["rowid"]
                    let score: Double = rank["score"]
                    return try Row.fetchOne(
                        db,
                        sql: """
                            SELECT se.uuid, se.title, se.created_at, sg.idx, sg.start_time, sg.end_time, m.snip, ? AS score
                            FROM (SELECT rowid, snippet(transcription_fts, 0, ?, ?, '…', 12) AS snip
                                  FROM transcription_fts WHERE transcription_fts MATCH ? AND rowid = ?) m
                            JOIN transcription t ON t.id = m.rowid
                            JOIN segment sg ON sg.id = t.segment_id
                            JOIN session se ON se.id = sg.session_id
                            """, arguments: [score, open, close, query.expression, id])
                }
                let sessionRanks = try Row.fetchAll(
                    db,
                    sql: """
                        SELECT rowid, score FROM (
                            SELECT rowid, bm25(session_fts) AS score FROM session_fts
                            WHERE session_fts MATCH ? ORDER BY rowid DESC LIMIT \(Searcher.candidateWindow))
                        ORDER BY score LIMIT ?
                        """, arguments: [query.expression, count])
                let sessions = try sessionRanks.compactMap { rank in
                    let id: Int64 = rank["rowid"]
                    let score: Double = rank["score"]
                    return try Row.fetchOne(
                        db,
                        sql: """
                            SELECT se.uuid, se.title, se.created_at, m.snip, ? AS score
                            FROM (SELECT rowid, snippet(session_fts, -1, ?, ?, '…', 12) AS snip
                                  FROM session_fts WHERE session_fts MATCH ? AND rowid = ?) m
                            JOIN session se ON se.id = m.rowid
                            """, arguments: [score, open, close, query.expression, id])
                }
                var hits = segments.map { row in
                    SearchHit(session: row["uuid"], title: row["title"], created: row["created_at"], index: row["idx"],
                              start: row["start_time"], end: row["end_time"], snippet: row["snip"], score: row["score"])
                }
                hits += sessions.map { row in
                    SearchHit(session: row["uuid"], title: row["title"], created: row["created_at"], index: nil,
                              start: nil, end: nil, snippet: row["snip"], score: row["score"])
                }
                hits.sort { $0.score < $1.score }
                return Array(hits.dropFirst(offset).prefix(limit))
            }
        } catch let error as DatabaseError where error.message?.contains("fts5") == true || error.resultCode == .SQLITE_ERROR {
            throw StoreError.badQuery(Searcher.clean(error.message ?? "cannot be parsed"))
        } catch {
            throw StoreError.wrap(error, path: library.root.path)
        }
    }

    /// An FTS5 message without its SQL wording.
    static func clean(_ message: String) -> String {
        message.replacingOccurrences(of: "fts5: ", with: "")
    }
}
