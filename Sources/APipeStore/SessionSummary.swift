import Foundation
import GRDB

/// One session as listed by `aindex sessions`.
public struct SessionSummary: Codable, Sendable, Equatable, FetchableRecord {
    public var id: String
    public var title: String
    /// Unix seconds.
    public var created: Double
    public var duration: Double
    public var segments: Int
    public var transcribed: Int
    public var failed: Int
    public var words: Int
    public var completed: Bool
    public var interrupted: Bool

    public init(row: Row) throws {
        id = row["uuid"]
        title = row["title"]
        created = row["created_at"]
        duration = row["duration"]
        segments = row["segment_count"]
        transcribed = row["completed_count"]
        failed = row["failed_count"]
        words = row["word_count"]
        completed = row["completed"]
        interrupted = row["interrupted"]
    }

    /// Segments neither transcribed nor failed for good.
    public var pending: Int { segments - transcribed - failed }

    /// Percent of segments transcribed (100 when there are none).
    public var progress: Int { segments == 0 ? 100 : transcribed * 100 / segments }

    static let columns = "uuid, title, created_at, duration, segment_count, completed_count, failed_count, word_count, completed, interrupted"
}

/// Which sessions `aindex sessions` lists.
public struct SessionFilter: Sendable, Equatable {
    public enum Transcription: Sendable, Equatable { case any, completed, pending }
    public var transcription: Transcription = .any
    /// Unix seconds, inclusive lower bound on the creation time.
    public var since: Double?
    /// Unix seconds, exclusive upper bound.
    public var until: Double?
    public var page = 1
    public var limit = 50

    public init(transcription: Transcription = .any, since: Double? = nil, until: Double? = nil, page: Int = 1, limit: Int = 50) {
        self.transcription = transcription
        self.since = since
        self.until = until
        self.page = page
        self.limit = limit
    }
}

/// One segment of `aindex show`, with its transcription when there is one.
public struct SegmentDetail: Codable, Sendable, Equatable, FetchableRecord {
    public var index: Int
    public var start: Double
    public var end: Double
    public var status: String
    public var retries: Int
    public var error: String?
    public var audio: String?
    public var text: String?
    public var language: String?
    public var confidence: Double?
    public var model: String?
    public var words: Int

    public init(row: Row) throws {
        index = row["idx"]
        start = row["start_time"]
        end = row["end_time"]
        status = row["status"]
        retries = row["retry_count"]
        error = row["last_error"]
        audio = row["audio_path"]
        text = row["text"]
        language = row["language"]
        confidence = row["confidence"]
        model = row["model"]
        words = row["word_count"] ?? 0
    }
}

/// A whole session: its row, its segments, and what derives from them.
public struct SessionDetail: Codable, Sendable, Equatable {
    public var summary: SessionSummary
    public var sampleRate: Int
    public var channels: Int
    public var preset: String?
    public var audio: String?
    public var audioSize: Int64
    public var source: String?
    public var device: String?
    public var host: String?
    public var os: String?
    public var appVersion: String?
    public var notes: String?
    public var interruption: String?
    public var segments: [SegmentDetail]

    /// The transcribed text of every segment, in order, one segment per line.
    public var transcript: String { transcriptLines.joined(separator: "\n") }

    /// The transcribed text of each segment that has some, in order.
    public var transcriptLines: [String] {
        segments.compactMap { $0.text?.trimmingCharacters(in: .whitespaces) }.filter { !$0.isEmpty }
    }

    /// Transcribed words per minute of recording (0 for an empty session).
    public var wordsPerMinute: Double {
        let words = segments.reduce(0) { $0 + $1.words }
        return summary.duration > 0 ? Double(words) / (summary.duration / 60) : 0
    }
}
