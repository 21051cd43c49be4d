import APipeAudio
import Foundation
import GRDB

/// Deleting and pruning sessions: rows first (one transaction, cascading to segments and
/// transcriptions), then their audio files. A crash between the two leaves only files no row
/// knows, which `check --fix` removes.
public struct LibraryMaintenance {
    let library: Library

    public init(library: Library) {
        self.library = library
    }

    /// Sessions created before `cutoff` (Unix seconds), oldest first; deleted unless `dryRun`.
    public func prune(before cutoff: Double, dryRun: Bool) throws -> [SessionSummary] {
        let victims = try read { db in
            try SessionSummary.fetchAll(
                db, sql: "SELECT \(SessionSummary.columns) FROM session WHERE created_at < ? ORDER BY created_at, id", arguments: [cutoff])
        }
        if !dryRun { try delete(uuids: victims.map(\.id)) }
        return victims
    }

    /// Deletes the sessions with these row ids, files included; returns what went.
    public func delete(ids: [Int64], dryRun: Bool) throws -> [SessionSummary] {
        let victims = try read { db in
            try ids.compactMap { id in
                try SessionSummary.fetchOne(db, sql: "SELECT \(SessionSummary.columns) FROM session WHERE id = ?", arguments: [id])
            }
        }
        if !dryRun { try delete(uuids: victims.map(\.id)) }
        return victims
    }

    private func delete(uuids: [String]) throws {
        for batch in stride(from: 0, to: uuids.count, by: 500).map({ Array(uuids[$0..<min($0 + 500, uuids.count)]) }) {
            let owned = try write { db -> [String] in
                var files: [String] = []
                for uuid in batch {
                    let paths = try Row.fetchAll(
                        db,
                        sql: """
                            SELECT audio_path, audio_owned FROM session WHERE uuid = ?
                            UNION ALL SELECT g.audio_path, 1 FROM segment g JOIN session s ON s.id = g.session_id WHERE s.uuid = ?
                            """, arguments: [uuid, uuid])
                    for row in paths {
                        if let path: String = row["audio_path"], row["audio_owned"] == true { files.append(path) }
                    }
                    try db.execute(sql: "DELETE FROM session WHERE uuid = ?", arguments: [uuid])
                }
                return files
            }
            for path in owned { if let file = library.ownedPath(path) { unlink(file) } }
            for uuid in batch {
                // A row from before ids were checked may name a directory outside the library.
                guard let uuid = SessionID.canonical(uuid) else { continue }
                let directory = library.absolutePath(Ingestor.directory(uuid: uuid))
                if let left = try? FileManager.default.contentsOfDirectory(atPath: directory) {
                    for name in left where name.contains(SoundFileWriter.temporaryMarker) { unlink(directory + "/" + name) }
                }
                rmdir(directory)
                rmdir((directory as NSString).deletingLastPathComponent)
            }
        }
    }

    func read<T>(_ body: (Database) throws -> T) throws -> T {
        do { return try library.pool.read(body) } catch { throw StoreError.wrap(error, path: library.root.path) }
    }

    func write<T>(_ body: (Database) throws -> T) throws -> T {
        do { return try library.pool.write(body) } catch { throw StoreError.wrap(error, path: library.root.path) }
    }
}
