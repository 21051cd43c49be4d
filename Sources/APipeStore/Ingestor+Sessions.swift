import APipeAudio
import APipeStream
import Foundation
import GRDB

extension Ingestor {
    /// Starts (or resumes) a session named by `uuid` (already checked by `sessionID`). Audio is
    /// written unless the library holds the session's complete audio; the shorter audio of an
    /// interrupted session is replaced when this stream carries more of it.
    func open(_ start: SessionStart, uuid: String, _ db: Database) throws {
        if let previous = sessions[uuid] {
            try close(previous, reason: "session.start repeated without session.end", duration: nil, xruns: nil, db)
        }
        let store = IngestStore(db: db)
        let known = try store.session(uuid: uuid)
        let directory = Ingestor.directory(uuid: uuid)
        let sessionPath = library.absolutePath(directory + "/session.wav")
        let session: OpenSession
        if let known, known.audioFinal, known.completed {
            summary.knownSessions += 1
            session = OpenSession(uuid: uuid, id: known.id, directory: directory,
                                  audio: IngestAudio(sessionPath: nil, warn: warn))
        } else if let known, known.audioFinal {
            summary.knownSessions += 1
            removeTemporaryFiles(in: library.absolutePath(directory))
            session = OpenSession(uuid: uuid, id: known.id, directory: directory,
                                  audio: IngestAudio(sessionPath: sessionPath, warn: warn))
            session.storedFrames = known.frames
        } else {
            if known == nil { summary.newSessions += 1 } else { summary.knownSessions += 1 }
            removeTemporaryFiles(in: library.absolutePath(directory))
            let id = try store.upsert(start, uuid: uuid)
            session = OpenSession(uuid: uuid, id: id, directory: directory,
                                  audio: IngestAudio(sessionPath: sessionPath, warn: warn))
            session.writesSession = true
        }
        sessions[uuid] = session
        current = session
        noteChange(session.id)
    }

    /// Ends a session: closes its files, records them, and marks it interrupted when `reason` is set.
    func close(_ session: OpenSession, reason: String?, duration: Double?, xruns: Int?, _ db: Database) throws {
        sessions[session.uuid] = nil
        if current === session { current = nil }
        let store = IngestStore(db: db)
        if let audio = session.audio {
            for segment in audio.drainSegments() { try finish(segment, of: session, db) }
            if let stored = session.storedFrames, audio.sessionFrames > stored { session.writesSession = true }
        }
        if session.writesSession, let audio = session.audio {
            let file = audio.sessionFile
            let frames = audio.sessionFrames
            let size = try file.map { try Library.commit($0) }
            let seconds = audio.rate.map { Double(frames) / Double($0) } ?? 0
            summary.audioSeconds += seconds
            try store.finish(session: session.id, audioPath: file == nil ? nil : session.directory + "/session.wav",
                             audioSize: size ?? 0, frames: frames, rate: audio.rate,
                             duration: file == nil ? (duration ?? 0) : seconds, interruption: reason, xruns: xruns)
        } else {
            session.audio?.sessionFile?.discard()
            if let reason { try store.markInterrupted(session: session.id, reason: reason) }
        }
        if reason != nil { summary.interruptedSessions += 1 }
        noteChange(session.id)
    }

    /// Closes every open session as interrupted (the input ended or broke off).
    func closeAll(reason: String, _ db: Database) throws {
        for session in sessions.values.sorted(by: { $0.id < $1.id }) {
            try close(session, reason: session.interruption ?? reason, duration: nil, xruns: nil, db)
        }
    }

    /// The open session an event names (`uuid` checked by `sessionID`), else the library's row,
    /// else a placeholder row.
    func resolve(_ uuid: String, _ db: Database) throws -> OpenSession {
        if let session = sessions[uuid] { return session }
        let store = IngestStore(db: db)
        let id: Int64
        if let known = try store.session(uuid: uuid) {
            id = known.id
        } else {
            summary.warnings += 1
            warn("events for session \(uuid), which has no session.start: kept under a placeholder session")
            id = try store.stubSession(uuid: uuid)
            summary.newSessions += 1
        }
        return OpenSession(uuid: uuid, id: id, directory: Ingestor.directory(uuid: uuid), audio: nil)
    }

    /// A session.end for a session this stream did not open.
    func unknown(_ event: Event, _ db: Database) throws {
        summary.warnings += 1
        warn("\(event.type) for a session this stream did not start; ignored")
    }

    /// Audio before any session.start: kept under a session of its own.
    func anonymousSession(_ db: Database) throws -> OpenSession? {
        summary.warnings += 1
        warn("audio arrived before any session.start; kept under a new untitled session")
        let uuid = UUID().uuidString.lowercased()
        let start = SessionStart(
            session: uuid, title: "", created: ISO8601DateFormatter().string(from: Date()),
            preset: nil, rate: 0, bits: 16, channels: 1, format: "s16le", source: "stdin", device: nil, host: "",
            os: "", appVersion: APipeVersion.current, notes: "audio arrived without a session.start")
        try open(start, uuid: uuid, db)
        return current
    }

    /// Renames a segment's file into place and records it.
    func finish(_ segment: IngestAudio.OpenSegment, of session: OpenSession, _ db: Database) throws {
        guard let writer = segment.writer else { return }
        let size = try Library.commit(writer)
        let relative = session.directory + "/" + Ingestor.segmentFileName(segment.index)
        try IngestStore(db: db).setSegmentAudio(session: session.id, index: segment.index, path: relative, size: size)
        noteChange(session.id)
    }

    static func segmentFileName(_ index: Int) -> String {
        "segment-" + String(format: "%05d", index) + ".wav"
    }

    func segmentPath(_ session: OpenSession, _ index: Int) -> String {
        library.absolutePath(session.directory + "/" + Ingestor.segmentFileName(index))
    }

    func noteChange(_ session: Int64) {
        changes += 1
        touched.insert(session)
    }

    /// Brings touched sessions' counts up to date and commits the open batch; opens the next lazily.
    func commit(_ db: Database) throws {
        guard changes > 0 || inTransaction else { return }
        if !inTransaction {
            try db.beginTransaction(.immediate)
            inTransaction = true
        }
        let store = IngestStore(db: db)
        for session in touched.sorted() { try store.recount(session: session) }
        try db.commit()
        inTransaction = false
        touched.removeAll(keepingCapacity: true)
        changes = 0
        schedule.committed()
    }

    /// Starts the batch transaction before a write.
    func beginIfNeeded(_ db: Database) throws {
        guard !inTransaction else { return }
        try db.beginTransaction(.immediate)
        inTransaction = true
    }

    /// Removes temporary files an earlier, killed ingest left in a session's directory.
    func removeTemporaryFiles(in directory: String) {
        guard let names = try? FileManager.default.contentsOfDirectory(atPath: directory) else { return }
        for name in names where name.contains(SoundFileWriter.temporaryMarker) {
            unlink(directory + "/" + name)
        }
    }
}
