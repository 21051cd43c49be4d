import APipeAudio
import APipeStream
import Foundation
import GRDB

/// Writes the segments still waiting for a transcription (pending or failed) as a stream, one
/// session at a time — session.start, then per segment segment.start, its audio, segment.end,
/// then session.end — so `aindex pending | atranscribe | aindex` retries them.
public struct PendingWriter {
    let library: Library

    public init(library: Library) {
        self.library = library
    }

    /// A segment to retry and where its audio is.
    public struct Item: Sendable, Equatable {
        public var session: String
        public var index: Int
        public var start: Double
        public var end: Double
        public var status: String
        public var audio: String?
    }

    /// The segments to retry, by session then index; `includeFailed` adds those that failed for good.
    public func items(includeFailed: Bool = true) throws -> [Item] {
        let statuses = includeFailed ? "('pending', 'failed')" : "('pending')"
        return try LibraryMaintenance(library: library).read { db in
            try Row.fetchAll(
                db,
                sql: """
                    SELECT s.uuid, g.idx, g.start_time, g.end_time, g.status, g.audio_path FROM segment g
                    JOIN session s ON s.id = g.session_id WHERE g.status IN \(statuses)
                    ORDER BY s.created_at, s.id, g.idx
                    """
            ).map { Item(session: $0["uuid"], index: $0["idx"], start: $0["start_time"], end: $0["end_time"],
                         status: $0["status"], audio: $0["audio_path"]) }
        }
    }

    /// Writes the stream; returns how many segments went out. Segments without audio are skipped
    /// (reported through `warn`).
    @discardableResult
    public func write(_ items: [Item], to writer: StreamWriter, warn: (String) -> Void) throws -> Int {
        var written = 0
        var index = 0
        while index < items.count {
            let uuid = items[index].session
            var group: [Item] = []
            while index < items.count, items[index].session == uuid {
                group.append(items[index])
                index += 1
            }
            written += try writeSession(uuid, group, writer, warn)
        }
        try writer.finish()
        return written
    }

    private func writeSession(_ uuid: String, _ items: [Item], _ writer: StreamWriter, _ warn: (String) -> Void) throws -> Int {
        let row = try LibraryMaintenance(library: library).read { db in
            try Row.fetchOne(db, sql: "SELECT * FROM session WHERE uuid = ?", arguments: [uuid])
        }
        guard let row else { return 0 }
        var readers: [(Item, SoundFileReader)] = []
        for item in items {
            guard let audio = item.audio else {
                warn("session \(uuid) segment \(item.index) has no audio file; skipped")
                continue
            }
            do {
                readers.append((item, try SoundFileReader(path: library.absolutePath(audio))))
            } catch {
                warn("session \(uuid) segment \(item.index): \(error); skipped")
            }
        }
        guard let first = readers.first?.1 else { return 0 }
        let format = try AudioFormat(encoding: .s16le, rate: first.rate, channels: first.channels)
        try writer.write(format: format)
        let created: Double = row["created_at"]
        try writer.write(event: SessionStart(
            session: uuid, title: row["title"], created: TimeText.iso(created), preset: row["quality_preset"],
            rate: format.rate, bits: 16, channels: format.channels, format: "s16le", source: row["source"] ?? "library",
            device: row["device"], host: row["host"] ?? "", os: row["os"] ?? "", appVersion: row["app_version"] ?? "",
            notes: row["notes"]))
        var samples: [Int16] = []
        for (item, reader) in readers {
            guard reader.rate == format.rate, reader.channels == format.channels else {
                warn("session \(uuid) segment \(item.index): audio format differs from the session's; skipped")
                continue
            }
            try writer.write(event: SegmentStart(session: uuid, index: item.index, start: item.start))
            var position = Int((item.start * Double(format.rate)).rounded())
            while true {
                let frames = try reader.read(frames: 4096, into: &samples)
                if frames == 0 { break }
                try samples.withUnsafeBytes { raw in
                    try writer.writeAudio(position: position, bytes: UnsafeRawBufferPointer(rebasing: raw[0..<frames * format.bytesPerFrame]))
                }
                position += frames
            }
            try writer.write(event: SegmentEnd(session: uuid, index: item.index, start: item.start, end: item.end,
                                               probability: nil, reason: "retry"))
        }
        let duration: Double = row["duration"]
        try writer.write(event: SessionEnd(session: uuid, duration: duration, frames: row["frames"], interrupted: false))
        return readers.count
    }
}
