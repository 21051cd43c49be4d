import APipeStream
import Foundation
import GRDB

/// Reads a stream into the library: sessions, segments, transcriptions and their audio files.
///
/// Rows are written in batched transactions on one writer connection; a batch commits after
/// `batchSize` changes and whenever the next read would wait on the pipe, so a concurrent
/// ingest never waits long and a `kill -9` loses at most one batch. Audio goes to temporary
/// files renamed into place before the rows naming them commit.
public final class Ingestor {
    public static let batchSize = 512

    let library: Library
    let warn: (String) -> Void
    public internal(set) var summary = IngestSummary()
    var sessions: [String: OpenSession] = [:]
    var current: OpenSession?
    var changes = 0
    var touched: Set<Int64> = []
    var inTransaction = false

    final class OpenSession {
        let uuid: String
        let id: Int64
        let directory: String
        /// Nil when the library already holds this session's final audio.
        let audio: IngestAudio?
        var interruption: String?
        /// Whether this ingest writes the session's audio file and final row.
        var writesSession = false

        init(uuid: String, id: Int64, directory: String, audio: IngestAudio?) {
            self.uuid = uuid
            self.id = id
            self.directory = directory
            self.audio = audio
        }
    }

    public init(library: Library, warn: @escaping (String) -> Void = Diagnostics.warning) {
        self.library = library
        self.warn = warn
    }

    /// The library-relative directory of a session's audio files.
    public static func directory(uuid: String) -> String {
        "audio/\(uuid.prefix(2))/\(uuid)"
    }

    /// Ingests every packet of `reader`. On a broken or corrupt input the open sessions are kept,
    /// marked interrupted, and the stream error is rethrown after the library is consistent.
    public func ingest(_ reader: StreamReader) throws {
        do {
            try library.pool.writeWithoutTransaction { db in
                defer { if inTransaction { try? db.rollback(); inTransaction = false } }
                do {
                    while true {
                        if reader.bufferedByteCount == 0 { try commit(db) }
                        guard let packet = try reader.next() else { break }
                        try beginIfNeeded(db)
                        try handle(packet, db)
                        if changes >= Ingestor.batchSize { try commit(db) }
                    }
                    try beginIfNeeded(db)
                    try closeAll(reason: "the stream ended without session.end", db)
                } catch let error as StreamError {
                    try beginIfNeeded(db)
                    try closeAll(reason: "input broke off: \(error.description)", db)
                    try commit(db)
                    throw error
                }
                try commit(db)
            }
        } catch {
            throw StoreError.wrap(error, path: library.root.path)
        }
    }

    private func handle(_ packet: Packet, _ db: Database) throws {
        switch packet {
        case .format: return
        case .audio(let block):
            guard let session = try current ?? anonymousSession(db), let audio = session.audio else { return }
            for segment in try audio.write(block) { try finish(segment, of: session, db) }
        case .event(let event):
            do {
                try handle(event, db)
            } catch let error as EventError {
                summary.warnings += 1
                warn("skipped an event: \(error.description)")
            }
        }
    }

    private func handle(_ event: Event, _ db: Database) throws {
        let store = IngestStore(db: db)
        switch event.type {
        case SessionStart.type:
            guard let start = try event.decode(SessionStart.self) else { return }
            try open(start, db)
        case SessionEnd.type:
            guard let end = try event.decode(SessionEnd.self), let session = sessions[end.session.lowercased()] else {
                return try unknown(event, db)
            }
            let reason = end.interrupted ? (end.reason ?? "recording was interrupted") : session.interruption
            try close(session, reason: reason, duration: end.duration, xruns: end.xruns, db)
        case SegmentStart.type:
            guard let start = try event.decode(SegmentStart.self) else { return }
            let session = try resolve(start.session, db)
            _ = try store.upsertSegment(session: session.id, index: start.index, start: start.start, end: start.start,
                                        probability: nil, reason: nil)
            if let audio = session.audio, try !store.segmentHasAudio(session: session.id, index: start.index, library: library) {
                try audio.openSegment(index: start.index, start: start.start, path: segmentPath(session, start.index))
            }
            noteChange(session.id)
        case SegmentEnd.type:
            guard let end = try event.decode(SegmentEnd.self) else { return }
            let session = try resolve(end.session, db)
            _ = try store.upsertSegment(session: session.id, index: end.index, start: end.start, end: end.end,
                                        probability: end.probability, reason: end.reason)
            summary.segments += 1
            if let segment = session.audio?.closeSegment(index: end.index, end: end.end) { try finish(segment, of: session, db) }
            noteChange(session.id)
        case Transcription.type:
            guard let transcription = try event.decode(Transcription.self) else { return }
            let session = try resolve(transcription.session, db)
            let segment = try store.segmentID(session: session.id, index: transcription.index)
                ?? store.upsertSegment(session: session.id, index: transcription.index, start: transcription.start,
                                       end: transcription.end, probability: nil, reason: nil)
            if try store.upsert(transcription, segment: segment) { summary.transcriptions += 1 }
            noteChange(session.id)
        case TranscriptionFailed.type:
            guard let failure = try event.decode(TranscriptionFailed.self) else { return }
            let session = try resolve(failure.session, db)
            let segment = try store.segmentID(session: session.id, index: failure.index)
                ?? store.upsertSegment(session: session.id, index: failure.index, start: failure.t, end: failure.t,
                                       probability: nil, reason: nil)
            try store.record(failure, segment: segment)
            summary.failures += 1
            noteChange(session.id)
        case StreamInterrupted.type:
            guard let interrupted = try event.decode(StreamInterrupted.self) else { return }
            let reason = "\(interrupted.stage) input broke off at byte \(interrupted.offset): \(interrupted.reason)"
            for session in sessions.values { session.interruption = reason }
            if sessions.isEmpty {
                warn("stream.interrupted outside any session: \(reason)")
            }
        default:
            return
        }
    }
}
