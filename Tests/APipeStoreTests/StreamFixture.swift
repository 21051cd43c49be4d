import APipeStream
import Foundation
@testable import APipeStore
import GRDB

/// Builds streams in memory and libraries in temporary directories.
struct StreamFixture {
    static let uuid = "6f1c2a3b-0000-4000-8000-000000000001"
    static let rate = 16000

    let writer = StreamWriter()
    let format = try! AudioFormat(encoding: .s16le, rate: rate, channels: 1)

    static func start(_ uuid: String = uuid, title: String = "Budget meeting", created: String = "2026-11-20T09:30:00Z",
                      notes: String? = nil) -> SessionStart {
        SessionStart(session: uuid, title: title, created: created, preset: "low", rate: rate, bits: 16, channels: 1,
                     format: "s16le", source: "test", device: nil, host: "h", os: "linux", appVersion: "0.1.0", notes: notes)
    }

    static func transcription(_ uuid: String = uuid, index: Int, start: Double, end: Double, text: String) -> Transcription {
        Transcription(session: uuid, index: index, start: start, end: end, text: text, language: "en", confidence: 0.9,
                      method: "local-whisper", provider: "apipe", model: "tiny.en", processingTime: 0.5, phrases: nil, retries: 0)
    }

    /// `seconds` of a 440 Hz tone at `position` (frames).
    func audio(at seconds: Double, duration: Double) throws {
        let frames = Int(duration * Double(StreamFixture.rate))
        let first = Int(seconds * Double(StreamFixture.rate))
        let samples = (0..<frames).map { i in Int16(8000 * sin(Double(first + i) * 2 * .pi * 440 / Double(StreamFixture.rate))) }
        try samples.withUnsafeBytes { try writer.writeAudio(position: first, bytes: $0) }
    }

    /// A whole session: 3 s of audio, segments [0.5, 1.5) and [2, 2.75), both transcribed.
    static func session(_ uuid: String = uuid, title: String = "Budget meeting", created: String = "2026-11-20T09:30:00Z",
                        texts: [String] = ["We agreed on the budget.", "The meeting is over."], finish: Bool = true,
                        end: Bool = true) throws -> [UInt8] {
        let f = StreamFixture()
        try f.writer.write(format: f.format)
        try f.writer.write(event: start(uuid, title: title, created: created))
        try f.audio(at: 0, duration: 0.5)
        try f.writer.write(event: SegmentStart(session: uuid, index: 0, start: 0.5))
        try f.audio(at: 0.5, duration: 1)
        try f.writer.write(event: SegmentEnd(session: uuid, index: 0, start: 0.5, end: 1.5, probability: 0.9, reason: "silence"))
        try f.audio(at: 1.5, duration: 0.5)
        try f.writer.write(event: SegmentStart(session: uuid, index: 1, start: 2))
        try f.audio(at: 2, duration: 0.75)
        try f.writer.write(event: SegmentEnd(session: uuid, index: 1, start: 2, end: 2.75, probability: 0.8, reason: "silence"))
        try f.audio(at: 2.75, duration: 0.25)
        for (i, text) in texts.enumerated() {
            try f.writer.write(event: transcription(uuid, index: i, start: i == 0 ? 0.5 : 2, end: i == 0 ? 1.5 : 2.75, text: text))
        }
        if end { try f.writer.write(event: SessionEnd(session: uuid, duration: 3, frames: 48000, interrupted: false)) }
        if finish { try f.writer.finish() } else { try f.writer.flush() }
        return f.writer.collected
    }
}

/// A library in a fresh temporary directory, removed at deinit.
final class TemporaryLibrary {
    let root: URL
    let library: Library

    init() throws {
        root = FileManager.default.temporaryDirectory.appendingPathComponent("aindex-test-\(UUID().uuidString)")
        library = try Library(root: root)
    }

    deinit { try? FileManager.default.removeItem(at: root) }

    @discardableResult
    func ingest(_ bytes: [UInt8]) throws -> IngestSummary {
        let ingestor = Ingestor(library: library, warn: { _ in })
        try ingestor.ingest(StreamReader(bytes: bytes))
        return ingestor.summary
    }

    func value<T: DatabaseValueConvertible>(_ sql: String) throws -> T? {
        try library.pool.read { try T.fetchOne($0, sql: sql) }
    }

    /// The whole database as text, to compare before and after.
    func dump() throws -> String {
        try library.pool.read { db in
            try ["session", "segment", "transcription"].map { table in
                try Row.fetchAll(db, sql: "SELECT * FROM \(table) ORDER BY id").map(\.description).joined(separator: "\n")
            }.joined(separator: "\n")
        }
    }
}
