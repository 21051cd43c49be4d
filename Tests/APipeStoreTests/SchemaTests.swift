import APipeStream
import Foundation
import GRDB
import Testing
@testable import APipeStore

@Suite struct SchemaTests {
    @Test func migrationsRunOnceAndRecordTheirIdentifier() throws {
        let queue = try DatabaseQueue()
        try LibrarySchema.migrator.migrate(queue)
        try LibrarySchema.migrator.migrate(queue)
        let applied = try queue.read { try LibrarySchema.migrator.appliedIdentifiers($0) }
        #expect(applied == [LibrarySchema.latestMigration])
        let tables = try queue.read { db in
            try String.fetchAll(db, sql: "SELECT name FROM sqlite_master WHERE type = 'table' AND name NOT LIKE '%fts_%' ORDER BY name")
        }
        #expect(tables.contains("session") && tables.contains("segment") && tables.contains("transcription"))
    }

    @Test func cascadeDeleteKeepsTheSearchIndexExact() throws {
        let temp = try TemporaryLibrary()
        try temp.ingest(try StreamFixture.session())
        #expect(try temp.value("SELECT count(*) FROM transcription_fts WHERE transcription_fts MATCH 'budget'") == 1)
        try temp.library.pool.write { try $0.execute(sql: "DELETE FROM session") }
        #expect(try temp.value("SELECT count(*) FROM segment") == 0)
        #expect(try temp.value("SELECT count(*) FROM transcription") == 0)
        #expect(try temp.value("SELECT count(*) FROM transcription_fts WHERE transcription_fts MATCH 'budget'") == 0)
        #expect(try temp.value("SELECT count(*) FROM session_fts WHERE session_fts MATCH 'budget'") == 0)
        try temp.library.pool.write { db in
            try db.execute(sql: "INSERT INTO transcription_fts(transcription_fts, rank) VALUES ('integrity-check', 1)")
            try db.execute(sql: "INSERT INTO session_fts(session_fts, rank) VALUES ('integrity-check', 1)")
        }
    }

    @Test func updatedTextReplacesItsIndexEntry() throws {
        let temp = try TemporaryLibrary()
        try temp.ingest(try StreamFixture.session())
        try temp.library.pool.write { try $0.execute(sql: "UPDATE transcription SET text = 'quarterly forecast' WHERE text LIKE 'We%'") }
        #expect(try temp.value("SELECT count(*) FROM transcription_fts WHERE transcription_fts MATCH 'budget'") == 0)
        #expect(try temp.value("SELECT count(*) FROM transcription_fts WHERE transcription_fts MATCH 'forecasts'") == 1)
        try temp.library.pool.write { try $0.execute(sql: "INSERT INTO transcription_fts(transcription_fts, rank) VALUES ('integrity-check', 1)") }
    }

    @Test func aDirectoryWithOtherFilesIsRefused() throws {
        let root = FileManager.default.temporaryDirectory.appendingPathComponent("aindex-foreign-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: root, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: root) }
        try Data("hello".utf8).write(to: root.appendingPathComponent("notes.txt"))
        #expect(throws: StoreError.notALibrary(path: root.standardizedFileURL.path)) { try Library(root: root) }
    }

    @Test func defaultLocationFollowsOptionThenEnvironment() {
        #expect(Library.defaultRoot(option: "/x", environment: ["APIPE_LIBRARY": "/y"]).path == "/x")
        #expect(Library.defaultRoot(option: nil, environment: ["APIPE_LIBRARY": "/y"]).path == "/y")
        #expect(Library.defaultRoot(option: nil, environment: ["XDG_DATA_HOME": "/d"]).path == "/d/apipe")
        #expect(Library.defaultRoot(option: nil, environment: ["HOME": "/h"]).path == "/h/.local/share/apipe")
    }
}
