import APipeAudio
import APipeStream
import Foundation
import GRDB
import Testing
@testable import APipeStore

@Suite struct IngestTests {
    let uuid = StreamFixture.uuid

    @Test func aSessionBecomesRowsAndWavFiles() throws {
        let temp = try TemporaryLibrary()
        let summary = try temp.ingest(try StreamFixture.session())
        #expect(summary.newSessions == 1 && summary.segments == 2 && summary.transcriptions == 2)
        let detail = try LibraryQueries(library: temp.library).show(try LibraryQueries(library: temp.library).resolve("6f1c"))
        #expect(detail.summary.completed && !detail.summary.interrupted)
        #expect(detail.summary.segments == 2 && detail.summary.transcribed == 2 && detail.summary.words == 9)
        #expect(detail.summary.duration == 3)
        let session = try SoundFileReader(path: temp.library.absolutePath(try #require(detail.audio)))
        #expect(session.frameCount == 48000 && session.rate == 16000 && session.channels == 1)
        let first = try SoundFileReader(path: temp.library.absolutePath(try #require(detail.segments[0].audio)))
        #expect(first.frameCount == 16000)
        let second = try SoundFileReader(path: temp.library.absolutePath(try #require(detail.segments[1].audio)))
        #expect(second.frameCount == 12000)
        #expect(detail.segments.map(\.status) == ["completed", "completed"])
        let size: Int64? = try temp.value("SELECT audio_size FROM segment WHERE idx = 0")
        #expect(size == Library.fileSize(temp.library.absolutePath(try #require(detail.segments[0].audio))))
    }

    @Test func theSameStreamTwiceChangesNothing() throws {
        let temp = try TemporaryLibrary()
        let stream = try StreamFixture.session()
        try temp.ingest(stream)
        let before = try temp.dump()
        let again = try temp.ingest(stream)
        #expect(try temp.dump() == before)
        #expect(again.newSessions == 0 && again.knownSessions == 1 && again.transcriptions == 0)
    }

    @Test func aLaterStreamUpdatesTranscriptionsAndFailures() throws {
        let temp = try TemporaryLibrary()
        try temp.ingest(try StreamFixture.session(texts: []))
        #expect(try temp.value("SELECT completed_count FROM session") == 0)
        let f = StreamFixture()
        try f.writer.write(event: TranscriptionFailed(session: uuid, index: 1, t: 2.75, error: "offline", retries: 2, retryable: true, pending: true))
        try f.writer.write(event: StreamFixture.transcription(index: 0, start: 0.5, end: 1.5, text: "Hello there"))
        try f.writer.finish()
        try temp.ingest(f.writer.collected)
        #expect(try temp.value("SELECT status FROM segment WHERE idx = 1") == "pending")
        #expect(try temp.value("SELECT retry_count FROM segment WHERE idx = 1") == 2)
        #expect(try temp.value("SELECT last_error FROM segment WHERE idx = 1") == "offline")
        #expect(try temp.value("SELECT completed_count FROM session") == 1)
        let g = StreamFixture()
        try g.writer.write(event: StreamFixture.transcription(index: 1, start: 2, end: 2.75, text: "Goodbye"))
        try g.writer.write(event: TranscriptionFailed(session: uuid, index: 1, t: 2.75, error: "late", retries: 3, retryable: false, pending: false))
        try g.writer.finish()
        try temp.ingest(g.writer.collected)
        #expect(try temp.value("SELECT status FROM segment WHERE idx = 1") == "completed")
        #expect(try temp.value("SELECT completed_count FROM session") == 2)
        #expect(try temp.value("SELECT audio_path IS NOT NULL FROM session") == true)
    }

    @Test func transcriptionBeforeItsSegmentEndIsKept() throws {
        let f = StreamFixture()
        try f.writer.write(format: f.format)
        try f.writer.write(event: StreamFixture.start())
        try f.writer.write(event: StreamFixture.transcription(index: 0, start: 0, end: 1, text: "early words"))
        try f.writer.write(event: SegmentStart(session: uuid, index: 0, start: 0))
        try f.audio(at: 0, duration: 1)
        try f.writer.write(event: SegmentEnd(session: uuid, index: 0, start: 0, end: 1, probability: nil, reason: "fixed"))
        try f.writer.write(event: SessionEnd(session: uuid, duration: 1, frames: 16000, interrupted: false))
        try f.writer.finish()
        let temp = try TemporaryLibrary()
        try temp.ingest(f.writer.collected)
        #expect(try temp.value("SELECT count(*) FROM segment") == 1)
        #expect(try temp.value("SELECT status FROM segment") == "completed")
        #expect(try temp.value("SELECT end_time FROM segment") == 1.0)
        #expect(try temp.value("SELECT audio_size > 0 FROM segment") == true)
    }

    @Test func anInterruptedUpstreamKeepsWhatArrived() throws {
        let bytes = try StreamFixture.session(finish: false, end: false)
        let temp = try TemporaryLibrary()
        #expect(throws: StreamError.self) { try temp.ingest(bytes) }
        #expect(try temp.value("SELECT interrupted FROM session") == true)
        #expect(try temp.value("SELECT completed FROM session") == false)
        #expect(try temp.value("SELECT count(*) FROM transcription") == 2)
        #expect(try temp.value("SELECT frames FROM session") == 48000)
        #expect((try temp.value("SELECT interruption FROM session") as String?)?.hasPrefix("input broke off") == true)
    }

    @Test func aCorruptTailKeepsEverythingBefore() throws {
        var bytes = try StreamFixture.session(finish: false, end: false)
        bytes += [0x45, 0, 0, 0, 5, 0, 0, 0] + Array("nope!".utf8)
        let temp = try TemporaryLibrary()
        #expect(throws: StreamError.self) { try temp.ingest(bytes) }
        #expect(try temp.value("SELECT interrupted FROM session") == true)
        #expect(try temp.value("SELECT count(*) FROM transcription") == 2)
    }

    @Test func sessionWithoutEndAndStreamInterruptedEventAreMarked() throws {
        let temp = try TemporaryLibrary()
        try temp.ingest(try StreamFixture.session(end: false))
        #expect(try temp.value("SELECT interruption FROM session") == "the stream ended without session.end")
        let other = "6f1c2a3b-0000-4000-8000-000000000002"
        let f = StreamFixture()
        try f.writer.write(format: f.format)
        try f.writer.write(event: StreamFixture.start(other))
        try f.audio(at: 0, duration: 0.5)
        try f.writer.write(event: StreamInterrupted(stage: "asegment", offset: 1234, reason: "upstream died"))
        try f.writer.write(event: SessionEnd(session: other, duration: 0.5, frames: 8000, interrupted: false))
        try f.writer.finish()
        try temp.ingest(f.writer.collected)
        let row = try temp.library.pool.read { try Row.fetchOne($0, sql: "SELECT * FROM session WHERE uuid = ?", arguments: [other]) }
        #expect(row?["interrupted"] == true)
        #expect((row?["interruption"] as String?)?.contains("asegment") == true)
    }

    @Test func eventsForUnknownSessionsAreKeptAndReported() throws {
        let f = StreamFixture()
        try f.writer.write(event: StreamFixture.transcription("99999999-0000-4000-8000-000000000000", index: 3, start: 1, end: 2, text: "orphan"))
        try f.writer.finish()
        let temp = try TemporaryLibrary()
        let summary = try temp.ingest(f.writer.collected)
        #expect(summary.warnings == 1)
        #expect(try temp.value("SELECT count(*) FROM transcription") == 1)
        #expect(try temp.value("SELECT interrupted FROM session") == true)
    }

    @Test func aKilledIngestIsCompletedByReingest() throws {
        let temp = try TemporaryLibrary()
        // What a kill -9 after the first batch leaves: a row without final audio and a temp file.
        let stream = try StreamFixture.session()
        try temp.library.pool.write { db in
            _ = try IngestStore(db: db).upsert(StreamFixture.start(), uuid: StreamFixture.uuid)
        }
        let directory = temp.library.absolutePath(Ingestor.directory(uuid: uuid))
        try FileManager.default.createDirectory(atPath: directory, withIntermediateDirectories: true)
        _ = FileManager.default.createFile(atPath: directory + "/session.wav" + SoundFileWriter.temporaryMarker + "99999", contents: Data([1, 2, 3]))
        let summary = try temp.ingest(stream)
        #expect(summary.knownSessions == 1)
        #expect(try temp.value("SELECT finalized FROM session") == true)
        #expect(try temp.value("SELECT count(*) FROM transcription") == 2)
        #expect(try LibraryChecker(library: temp.library).check(fix: false).isClean)
    }

    @Test func twoSessionsInOneStreamAndFloatAudio() throws {
        var bytes = try StreamFixture.session()
        let other = "6f1c2a3b-0000-4000-8000-000000000003"
        let w = StreamWriter()
        try w.write(format: try AudioFormat(encoding: .f32le, rate: 8000, channels: 2))
        try w.write(event: StreamFixture.start(other, title: "Stereo"))
        var scratch: [UInt8] = []
        let samples = [Float](repeating: 0.25, count: 1600)
        try samples.withUnsafeBufferPointer { try w.writeAudio(position: 0, samples: $0, scratch: &scratch) }
        try w.write(event: SessionEnd(session: other, duration: 0.1, frames: 800, interrupted: false))
        try w.finish()
        bytes += w.collected
        let temp = try TemporaryLibrary()
        try temp.ingest(bytes)
        #expect(try temp.value("SELECT count(*) FROM session WHERE completed") == 2)
        let path: String = try #require(try temp.value("SELECT audio_path FROM session WHERE title = 'Stereo'"))
        let reader = try SoundFileReader(path: temp.library.absolutePath(path))
        #expect(reader.frameCount == 800 && reader.channels == 2 && reader.rate == 8000)
        var buffer = [Int16](repeating: 0, count: 4)
        _ = try reader.read(frames: 2, into: &buffer)
        #expect(buffer == [8192, 8192, 8192, 8192])
    }

    @Test func concurrentIngestsIntoOneLibraryBothSucceed() async throws {
        let temp = try TemporaryLibrary()
        let root = temp.root
        let streams = try (1...2).map { n in
            try StreamFixture.session("6f1c2a3b-0000-4000-8000-00000000001\(n)", title: "Parallel \(n)")
        }
        try await withThrowingTaskGroup(of: Void.self) { group in
            for stream in streams {
                group.addTask {
                    let library = try Library(root: root)
                    try Ingestor(library: library, warn: { _ in }).ingest(StreamReader(bytes: stream))
                }
            }
            try await group.waitForAll()
        }
        #expect(try temp.value("SELECT count(*) FROM session WHERE completed") == 2)
    }
}
