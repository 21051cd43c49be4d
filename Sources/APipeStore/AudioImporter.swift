import APipeAudio
import APipeStream
import Foundation
import GRDB

/// Indexes audio files already on disk as sessions (the files stay where they are).
public struct AudioImporter {
    let library: Library

    public init(library: Library) {
        self.library = library
    }

    /// What happened to one file.
    public enum Outcome: Sendable, Equatable {
        case imported(path: String, session: String)
        case known(path: String)
        case unreadable(path: String, reason: String)
    }

    /// Imports files and, recursively, the audio files in folders. Known paths are skipped.
    /// A path that cannot be opened imports nothing at all: it is a mistyped argument.
    public func importPaths(_ paths: [String], dryRun: Bool) throws -> [Outcome] {
        let absolutes = paths.map { URL(fileURLWithPath: $0).standardizedFileURL.path }
        for (path, absolute) in zip(paths, absolutes) {
            var info = stat()
            guard stat(absolute, &info) == 0 else {
                throw StoreError.cannotRead(path: PrintableText.escaped(path), reason: StoreError.reason(errno))
            }
        }
        var outcomes: [Outcome] = []
        for absolute in absolutes {
            var isDirectory: ObjCBool = false
            _ = FileManager.default.fileExists(atPath: absolute, isDirectory: &isDirectory)
            if isDirectory.boolValue {
                let names = (FileManager.default.enumerator(atPath: absolute)?.allObjects as? [String] ?? []).sorted()
                for name in names where AudioImporter.looksLikeAudio(name) {
                    outcomes.append(try importFile(absolute + "/" + name, dryRun: dryRun))
                }
            } else {
                outcomes.append(try importFile(absolute, dryRun: dryRun))
            }
        }
        return outcomes
    }

    static let extensions: Set<String> = ["wav", "flac", "ogg", "oga", "opus", "mp3", "aif", "aiff", "au", "caf", "w64"]

    static func looksLikeAudio(_ name: String) -> Bool {
        extensions.contains((name as NSString).pathExtension.lowercased())
    }

    private func importFile(_ path: String, dryRun: Bool) throws -> Outcome {
        let maintenance = LibraryMaintenance(library: library)
        let known = try maintenance.read { db in
            try Bool.fetchOne(db, sql: "SELECT 1 FROM session WHERE audio_path = ?", arguments: [path]) ?? false
        }
        if known { return .known(path: path) }
        let reader: SoundFileReader
        do {
            reader = try SoundFileReader(path: path)
        } catch {
            return .unreadable(path: path, reason: "\(error)")
        }
        let uuid = UUID().uuidString.lowercased()
        if dryRun { return .imported(path: path, session: uuid) }
        var info = stat()
        let modified = stat(path, &info) == 0 ? Double(info.st_mtim.tv_sec) : Date().timeIntervalSince1970
        let created = reader.tag(.date).flatMap { IngestStore.parseDate($0) ?? AudioImporter.parseDay($0) } ?? modified
        let title = reader.tag(.title) ?? ((path as NSString).lastPathComponent as NSString).deletingPathExtension
        let notes = [("artist", reader.tag(.artist)), ("album", reader.tag(.album)),
                     ("date", reader.tag(.date)), ("comment", reader.tag(.comment))]
            .compactMap { key, value in value.map { "\(key): \($0)" } }.joined(separator: "; ")
        try maintenance.write { db in
            try db.execute(
                sql: """
                    INSERT INTO session (uuid, title, created_at, started_at, ended_at, duration, frames, sample_rate,
                        bit_depth, channels, format, audio_path, audio_size, audio_owned, finalized, completed, source,
                        app_version, notes)
                    VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, 0, 1, 1, ?, ?, ?)
                    """,
                arguments: [uuid, title, created, created, created + reader.duration, reader.duration, reader.frameCount ?? 0,
                            reader.rate, reader.bitDepth, reader.channels, reader.containerName, path, Library.fileSize(path),
                            path, APipeVersion.current, notes.isEmpty ? nil : notes])
        }
        return .imported(path: path, session: uuid)
    }

    /// A bare year or `yyyy-MM-dd` from a date tag.
    static func parseDay(_ text: String) -> Double? {
        let formatter = DateFormatter()
        formatter.locale = Locale(identifier: "en_US_POSIX")
        formatter.timeZone = TimeZone(identifier: "UTC")
        for pattern in ["yyyy-MM-dd", "yyyy"] {
            formatter.dateFormat = pattern
            if let date = formatter.date(from: text) { return date.timeIntervalSince1970 }
        }
        return nil
    }
}
