import APipeAudio
import APipeStream
import Foundation
import GRDB
import Testing
@testable import APipeStore

@Suite struct MaintenanceTests {
    let uuid = StreamFixture.uuid

    @Test func pruneTakesOnlyOldSessionsAndTheirFiles() throws {
        let temp = try TemporaryLibrary()
        try temp.ingest(try StreamFixture.session())
        let maintenance = LibraryMaintenance(library: temp.library)
        let cutoff = try #require(IngestStore.parseDate("2026-11-21T00:00:00Z"))
        #expect(try maintenance.prune(before: cutoff, dryRun: true).map(\.id) == [uuid])
        #expect(try temp.value("SELECT count(*) FROM session") == 1)
        #expect(try maintenance.prune(before: cutoff - 86400, dryRun: false).isEmpty)
        #expect(try maintenance.prune(before: cutoff, dryRun: false).map(\.id) == [uuid])
        #expect(try temp.value("SELECT count(*) FROM segment") == 0)
        #expect(!FileManager.default.fileExists(atPath: temp.library.absolutePath(Ingestor.directory(uuid: uuid))))
        #expect(try LibraryChecker(library: temp.library).check(fix: false).isClean)
    }

    @Test func deleteCascadesToFiles() throws {
        let temp = try TemporaryLibrary()
        try temp.ingest(try StreamFixture.session())
        let id = try LibraryQueries(library: temp.library).resolve("6f")
        #expect(try LibraryMaintenance(library: temp.library).delete(ids: [id], dryRun: false).count == 1)
        #expect(try temp.value("SELECT count(*) FROM transcription") == 0)
        #expect(try FileManager.default.contentsOfDirectory(atPath: temp.root.path + "/audio").isEmpty)
    }

    @Test func checkFindsAndFixesProblems() throws {
        let temp = try TemporaryLibrary()
        try temp.ingest(try StreamFixture.session())
        let directory = Ingestor.directory(uuid: uuid)
        unlink(temp.library.absolutePath(directory + "/segment-00001.wav"))
        _ = FileManager.default.createFile(atPath: temp.library.absolutePath(directory + "/stray.wav"), contents: Data([0]))
        try temp.library.pool.write { try $0.execute(sql: "UPDATE session SET segment_count = 7") }
        let report = try LibraryChecker(library: temp.library).check(fix: false)
        #expect(report.missingFiles == [directory + "/segment-00001.wav"])
        #expect(report.unknownFiles == [directory + "/stray.wav"])
        #expect(report.miscountedSessions == [uuid])
        #expect(report.lines.last == "3 problems")
        let fixed = try LibraryChecker(library: temp.library).check(fix: true)
        #expect(fixed.fixed)
        let after = try LibraryChecker(library: temp.library).check(fix: false)
        #expect(after.isClean)
        #expect(after.lines == ["library is consistent"])
    }

    @Test func pendingSegmentsGoOutAsAStreamAndComeBackTranscribed() throws {
        let temp = try TemporaryLibrary()
        try temp.ingest(try StreamFixture.session(texts: ["Only the first."]))
        let writer = PendingWriter(library: temp.library)
        let items = try writer.items()
        #expect(items.map(\.index) == [1])
        let out = StreamWriter()
        #expect(try writer.write(items, to: out, warn: { _ in }) == 1)
        let reader = StreamReader(bytes: out.collected)
        var types: [String] = []
        var frames = 0
        var firstPosition: Int?
        while let packet = try reader.next() {
            switch packet {
            case .event(let event): types.append(event.type)
            case .audio(let block):
                frames += block.frames
                if firstPosition == nil { firstPosition = block.position }
            case .format: types.append("format")
            }
        }
        #expect(types == ["format", "session.start", "segment.start", "segment.end", "session.end"])
        #expect(frames == 12000 && firstPosition == 32000)
        let sessionSize: Int64? = try temp.value("SELECT audio_size FROM session")
        // What atranscribe adds on the way back.
        let back = StreamWriter()
        let replay = StreamReader(bytes: out.collected)
        while let packet = try replay.next() {
            try back.write(packet)
            if case .event(let event) = packet, event.type == SegmentEnd.type {
                try back.write(event: StreamFixture.transcription(index: 1, start: 2, end: 2.75, text: "And the second."))
            }
        }
        try back.finish()
        try temp.ingest(back.collected)
        #expect(try temp.value("SELECT completed_count FROM session") == 2)
        #expect(try temp.value("SELECT audio_size FROM session") == sessionSize)
        #expect(try temp.value("SELECT completed FROM session") == true)
        #expect(try writer.items().isEmpty)
    }

    @Test func importIndexesFilesOnceAndLeavesThemInPlace() throws {
        let temp = try TemporaryLibrary()
        let folder = temp.root.path + "-import"
        defer { try? FileManager.default.removeItem(atPath: folder) }
        try FileManager.default.createDirectory(atPath: folder + "/talks", withIntermediateDirectories: true)
        let writer = try SoundFileWriter(path: folder + "/talks/Quarterly review.wav", rate: 22050, channels: 2)
        try writer.writeSilence(frames: 22050)
        try writer.close()
        _ = FileManager.default.createFile(atPath: folder + "/talks/readme.txt", contents: Data("x".utf8))
        let importer = AudioImporter(library: temp.library)
        let outcomes = try importer.importPaths([folder], dryRun: false)
        #expect(outcomes.count == 1)
        guard case .imported(let path, _) = outcomes.first else { Issue.record("not imported"); return }
        #expect(path == folder + "/talks/Quarterly review.wav")
        #expect(try temp.value("SELECT title FROM session") == "Quarterly review")
        #expect(try temp.value("SELECT duration FROM session") == 1.0)
        #expect(try temp.value("SELECT sample_rate FROM session") == 22050)
        #expect(try temp.value("SELECT channels FROM session") == 2)
        #expect(try temp.value("SELECT format FROM session") == "WAV")
        #expect(try importer.importPaths([path], dryRun: false) == [.known(path: path)])
        let id = try LibraryQueries(library: temp.library).resolve(try #require(try temp.value("SELECT uuid FROM session") as String?))
        _ = try LibraryMaintenance(library: temp.library).delete(ids: [id], dryRun: false)
        #expect(FileManager.default.fileExists(atPath: path))
    }
}
