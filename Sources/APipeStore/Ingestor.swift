import APipeStream
import Foundation
import GRDB

/// Reads a stream into the library: sessions, segments, transcriptions and their audio files.
///
/// Rows are written in batched transactions on one writer connection; a batch commits after
/// `batchSize` changes, whenever the next read could wait on the pipe, and at least every
/// `CommitSchedule.interval` (see `CommitSchedule`), so a concurrent ingest never waits long and
/// a `kill -9` loses at most one batch. Audio goes to temporary files renamed into place before
/// the rows naming them commit.
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
    var schedule = CommitSchedule(input: nil)
    /// Byte offset of the packet being handled, for errors about its content.
    var packetStart = 0

    final class OpenSession {
        let uuid: String
        let id: Int64
        let directory: String
        /// Nil when the library already holds this session's final audio.
        let audio: IngestAudio?
        var interruption: String?
        /// Whether this ingest writes the session's audio file and final row.
        var writesSession = false
        /// Frames of the interrupted session audio the library holds: this ingest's audio
        /// replaces it only when longer.
        var storedFrames: Int?

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

    /// Ingests every packet of `reader`, which reads from the descriptor `input` when it reads
    /// a pipe or file (so that the batch commits before a read that would wait). On a broken or
    /// corrupt input the open sessions are kept, marked interrupted, and the stream error is
    /// rethrown after the library is consistent.
    public func ingest(_ reader: StreamReader, input: Int32? = nil) throws {
        schedule = CommitSchedule(input: input)
        do {
            try library.pool.writeWithoutTransaction { db in
                defer { if inTransaction { try? db.rollback(); inTransaction = false } }
                do {
                    while true {
                        if schedule.isDue(buffered: reader.bufferedByteCount) { try commit(db) }
                        let before = reader.offset
                        guard let packet = try reader.next() else { break }
                        packetStart = max(before, reader.offset - PacketLimits.headerSize - Ingestor.payloadSize(packet))
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
            let finished: [IngestAudio.OpenSegment]
            do {
                finished = try audio.write(block)
            } catch let gap as IngestAudio.GapTooLong {
                throw StreamError.corrupt(offset: packetStart + PacketLimits.headerSize, reason: gap.description)
            }
            for segment in finished { try finish(segment, of: session, db) }
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
            try open(start, uuid: try sessionID(start.session), db)
        case SessionEnd.type:
            guard let end = try event.decode(SessionEnd.self) else { return }
            guard let session = sessions[try sessionID(end.session)] else { return try unknown(event, db) }
            let reason = end.interrupted ? (end.reason ?? "recording was interrupted") : session.interruption
            try close(session, reason: reason, duration: end.duration, xruns: end.xruns, db)
        case SegmentStart.type:
            guard let start = try event.decode(SegmentStart.self) else { return }
            let session = try resolve(try sessionID(start.session), db)
            _ = try store.upsertSegment(session: session.id, index: start.index, start: start.start, end: start.start,
                                        probability: nil, reason: nil)
            if let audio = session.audio, try !store.segmentHasAudio(session: session.id, index: start.index, library: library) {
                try audio.openSegment(index: start.index, start: start.start, path: segmentPath(session, start.index))
            }
            noteChange(session.id)
        case SegmentEnd.type:
            guard let end = try event.decode(SegmentEnd.self) else { return }
            let session = try resolve(try sessionID(end.session), db)
            _ = try store.upsertSegment(session: session.id, index: end.index, start: end.start, end: end.end,
                                        probability: end.probability, reason: end.reason)
            summary.segments += 1
            if let segment = session.audio?.closeSegment(index: end.index, end: end.end) { try finish(segment, of: session, db) }
            noteChange(session.id)
        case Transcription.type:
            guard let transcription = try event.decode(Transcription.self) else { return }
            let session = try resolve(try sessionID(transcription.session), db)
            let segment = try store.segmentID(session: session.id, index: transcription.index)
                ?? store.upsertSegment(session: session.id, index: transcription.index, start: transcription.start,
                                       end: transcription.end, probability: nil, reason: nil)
            if try store.upsert(transcription, segment: segment) { summary.transcriptions += 1 }
            noteChange(session.id)
        case TranscriptionFailed.type:
            guard let failure = try event.decode(TranscriptionFailed.self) else { return }
            let session = try resolve(try sessionID(failure.session), db)
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

    /// The lowercase form of an event's session id. The id names the session's directory, so
    /// anything but a UUID is corrupt input, reported at the event's byte offset.
    func sessionID(_ text: String) throws -> String {
        if let uuid = SessionID.canonical(text) { return uuid }
        let shown = PrintableText.escaped(text.count > 48 ? String(text.prefix(48)) + "..." : text)
        throw StreamError.corrupt(offset: packetStart + PacketLimits.headerSize, reason: "session id \"\(shown)\" is not a UUID")
    }

    /// Bytes of a packet's payload as it was on the wire.
    static func payloadSize(_ packet: Packet) -> Int {
        switch packet {
        case .format: PacketLimits.formatPayload
        case .audio(let block): 8 + block.bytes.count
        case .event(let event): event.json.count
        }
    }
}
