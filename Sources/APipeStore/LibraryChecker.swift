import Foundation
import GRDB

/// What `aindex check` found, and what `--fix` did about it.
public struct CheckReport: Sendable, Equatable {
    /// Library-relative (or absolute, for imported files) paths rows name but the disk lacks.
    public var missingFiles: [String] = []
    /// Library-relative paths of files under `audio/` no row names (temporary files included).
    public var unknownFiles: [String] = []
    /// UUIDs of sessions whose cached segment counts disagree with their segments.
    public var miscountedSessions: [String] = []
    /// Whether the full-text indexes passed FTS5's integrity check.
    public var searchIndexOK = true
    /// False when the check could not run: FTS5 checks through a write, and the library is read-only.
    public var searchIndexChecked = true
    public var fixed = false

    public var isClean: Bool { missingFiles.isEmpty && unknownFiles.isEmpty && miscountedSessions.isEmpty && searchIndexOK }

    /// One line per problem, then a summary line.
    public var lines: [String] {
        var out = missingFiles.map { "missing file: \(PrintableText.escaped($0))" }
        out += unknownFiles.map { "unknown file: \(PrintableText.escaped($0))" }
        out += miscountedSessions.map { "wrong counts: session \($0)" }
        if !searchIndexOK { out.append("search index: integrity check failed") }
        if !searchIndexChecked { out.append("search index: not checked (the library is read-only)") }
        let problems = missingFiles.count + unknownFiles.count + miscountedSessions.count + (searchIndexOK ? 0 : 1)
        out.append(problems == 0 ? "library is consistent" : "\(problems) problem\(problems == 1 ? "" : "s")" + (fixed ? ", fixed" : ""))
        return out
    }
}

/// Compares rows with files and counts with segments; repairs on request.
public struct LibraryChecker {
    let library: Library

    public init(library: Library) {
        self.library = library
    }

    public func check(fix: Bool) throws -> CheckReport {
        var report = CheckReport()
        let maintenance = LibraryMaintenance(library: library)
        let (known, missing, miscounted, index) = try maintenance.write { db -> (Set<String>, [String], [String], Bool?) in
            var known = Set<String>()
            var missing: [String] = []
            let cursor = try Row.fetchCursor(
                db, sql: "SELECT audio_path FROM session WHERE audio_path IS NOT NULL UNION ALL SELECT audio_path FROM segment WHERE audio_path IS NOT NULL")
            while let row = try cursor.next() {
                let path: String = row[0]
                known.insert(path)
                if !Library.fileExists(library.absolutePath(path)) { missing.append(path) }
            }
            let miscounted = try String.fetchAll(db, sql: """
                SELECT uuid FROM session s WHERE segment_count <> (SELECT count(*) FROM segment WHERE session_id = s.id)
                    OR completed_count <> (SELECT count(*) FROM segment WHERE session_id = s.id AND status = 'completed')
                    OR failed_count <> (SELECT count(*) FROM segment WHERE session_id = s.id AND status = 'failed')
                ORDER BY uuid
                """)
            return (known, missing, miscounted, try LibraryChecker.searchIndexOK(db))
        }
        report.missingFiles = missing.sorted()
        report.miscountedSessions = miscounted
        report.searchIndexOK = index ?? true
        report.searchIndexChecked = index != nil
        let audio = library.root.path + "/audio"
        if let walker = FileManager.default.enumerator(atPath: audio) {
            while let name = walker.nextObject() as? String {
                let relative = "audio/" + name
                var isDirectory: ObjCBool = false
                guard FileManager.default.fileExists(atPath: library.absolutePath(relative), isDirectory: &isDirectory),
                      !isDirectory.boolValue else { continue }
                if !known.contains(relative) { report.unknownFiles.append(relative) }
            }
        }
        report.unknownFiles.sort()
        guard fix, !report.isClean else { return report }
        try maintenance.write { db in
            for path in report.missingFiles {
                try db.execute(sql: "UPDATE session SET audio_path = NULL, audio_size = 0 WHERE audio_path = ?", arguments: [path])
                try db.execute(sql: "UPDATE segment SET audio_path = NULL, audio_size = 0 WHERE audio_path = ?", arguments: [path])
            }
            for uuid in report.miscountedSessions {
                if let id = try Int64.fetchOne(db, sql: "SELECT id FROM session WHERE uuid = ?", arguments: [uuid]) {
                    try IngestStore(db: db).recount(session: id)
                }
            }
            if !report.searchIndexOK {
                try db.execute(sql: "INSERT INTO transcription_fts(transcription_fts) VALUES ('rebuild')")
                try db.execute(sql: "INSERT INTO session_fts(session_fts) VALUES ('rebuild')")
            }
        }
        for path in report.unknownFiles { unlink(library.absolutePath(path)) }
        report.fixed = true
        return report
    }

    /// Whether both full-text indexes pass FTS5's integrity check; nil when the library is
    /// read-only, since the check is an INSERT.
    static func searchIndexOK(_ db: Database) throws -> Bool? {
        for table in ["transcription_fts", "session_fts"] {
            do {
                try db.execute(sql: "INSERT INTO \(table)(\(table), rank) VALUES ('integrity-check', 1)")
            } catch let error as DatabaseError where error.resultCode == .SQLITE_CORRUPT {
                return false
            } catch let error as DatabaseError where error.resultCode == .SQLITE_READONLY {
                return nil
            }
        }
        return true
    }
}
