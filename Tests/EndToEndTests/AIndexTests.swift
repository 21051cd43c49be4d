import APipeStream
import Foundation
import Testing

#if canImport(Glibc)
import Glibc
#endif

/// `aindex` through the built binary: ingest, queries, exit statuses, kill -9 and recovery.
@Suite(.serialized) struct AIndexTests {
    static let binary: String = {
        let directory = ProcessInfo.processInfo.environment["APIPE_BIN"]
            ?? URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
            .deletingLastPathComponent().appendingPathComponent(".build/release").path
        return directory + "/aindex"
    }()

    init() {
        // aindex may stop reading early (corrupt input, kill -9): a write must fail, not kill the tests.
        signal(SIGPIPE, SIG_IGN)
    }

    struct Result {
        var status: Int32
        var stdout: String
        var stderr: String
    }

    final class TemporaryDirectory {
        let path = FileManager.default.temporaryDirectory.appendingPathComponent("aindex-e2e-\(UUID().uuidString)").path
        deinit { try? FileManager.default.removeItem(atPath: path) }
    }

    /// Runs aindex with `arguments`, feeding `input` on standard input.
    func run(_ arguments: [String], input: [UInt8] = []) throws -> Result {
        let process = Process()
        process.executableURL = URL(fileURLWithPath: AIndexTests.binary)
        process.arguments = arguments
        let stdin = Pipe(), stdout = Pipe(), stderr = Pipe()
        process.standardInput = stdin
        process.standardOutput = stdout
        process.standardError = stderr
        try process.run()
        let writer = Thread {
            try? stdin.fileHandleForWriting.write(contentsOf: Data(input))
            try? stdin.fileHandleForWriting.close()
        }
        writer.start()
        let out = stdout.fileHandleForReading.readDataToEndOfFile()
        let err = stderr.fileHandleForReading.readDataToEndOfFile()
        process.waitUntilExit()
        return Result(status: process.terminationStatus, stdout: String(decoding: out, as: UTF8.self),
                      stderr: String(decoding: err, as: UTF8.self))
    }

    static func session(_ n: Int, seconds: Int = 2, end: Bool = true) throws -> [UInt8] {
        let uuid = String(format: "%08x-0000-4000-8000-000000000000", n)
        let writer = StreamWriter()
        try writer.write(format: try AudioFormat(encoding: .s16le, rate: 16000, channels: 1))
        try writer.write(event: SessionStart(
            session: uuid, title: "Session \(n)", created: "2026-11-20T09:\(String(format: "%02d", n % 60)):00Z", preset: "low",
            rate: 16000, bits: 16, channels: 1, format: "s16le", source: "test", device: nil, host: "h", os: "linux", appVersion: "0"))
        let block = [Int16](repeating: 1000, count: 16000)
        for second in 0..<seconds {
            try writer.write(event: SegmentStart(session: uuid, index: second, start: Double(second)))
            try block.withUnsafeBytes { try writer.writeAudio(position: second * 16000, bytes: $0) }
            try writer.write(event: SegmentEnd(session: uuid, index: second, start: Double(second), end: Double(second) + 1,
                                               probability: 0.9, reason: "silence"))
            try writer.write(event: Transcription(
                session: uuid, index: second, start: Double(second), end: Double(second) + 1,
                text: "session \(n) second \(second) budget", language: "en", confidence: 0.9, method: "local-whisper",
                provider: "apipe", model: "tiny.en", processingTime: 0.1, phrases: nil, retries: 0))
        }
        if end {
            try writer.write(event: SessionEnd(session: uuid, duration: Double(seconds), frames: seconds * 16000, interrupted: false))
        }
        try writer.finish()
        return writer.collected
    }

    @Test func ingestThenQueryThroughTheBinary() throws {
        let dir = TemporaryDirectory()
        let ingest = try run(["--library", dir.path], input: try AIndexTests.session(1))
        #expect(ingest.status == 0)
        #expect(ingest.stderr.hasPrefix("aindex: indexed 1 new session, 2 segments, 2 transcriptions"))
        let sessions = try run(["sessions", "--json", "--library", dir.path])
        #expect(sessions.status == 0)
        #expect(sessions.stdout.contains(#""id":"00000001-0000-4000-8000-000000000000""#))
        let srt = try run(["export", "00000001", "--format", "srt", "--library", dir.path])
        #expect(srt.stdout == "1\n00:00:00,000 --> 00:00:01,000\nsession 1 second 0 budget\n\n2\n00:00:01,000 --> 00:00:02,000\nsession 1 second 1 budget\n")
        let search = try run(["search", "second", "1", "--json", "--library", dir.path])
        #expect(search.stdout.split(separator: "\n").count == 2)
        let bad = try run(["search", "\"budget", "--library", dir.path])
        #expect(bad.status == 64)
        #expect(bad.stderr == "aindex: bad search query: unbalanced quote\n")
        let unknown = try run(["show", "ffff", "--library", dir.path])
        #expect(unknown.status == 64 && unknown.stderr == "aindex: no session matches 'ffff'\n")
        let stats = try run(["stats", "--library", dir.path])
        #expect(stats.stdout.hasPrefix("sessions        1 (0 interrupted)\nsegments        2\n"))
    }

    @Test func aForeignDirectoryIsRefused() throws {
        let dir = TemporaryDirectory()
        try FileManager.default.createDirectory(atPath: dir.path, withIntermediateDirectories: true)
        _ = FileManager.default.createFile(atPath: dir.path + "/thesis.tex", contents: Data("x".utf8))
        let result = try run(["sessions", "--library", dir.path])
        #expect(result.status == 73)
        #expect(result.stderr.contains("is not an apipe library"))
    }

    @Test func corruptInputKeepsWhatCameBefore() throws {
        let dir = TemporaryDirectory()
        var bytes = try AIndexTests.session(2, end: false)
        bytes.removeLast(8)
        bytes += [0x45, 0, 0, 0, 0xFF, 0xFF, 0xFF, 0x7F]
        let result = try run(["--library", dir.path], input: bytes)
        #expect(result.status == 65)
        #expect(result.stderr.contains("corrupt stream at byte"))
        let show = try run(["show", "00000002", "--json", "--library", dir.path])
        #expect(show.stdout.contains(#""interrupted":true"#))
        #expect(show.stdout.contains(#""transcribed":2"#))
        let truncated = try AIndexTests.session(3)
        let cut = try run(["--library", dir.path], input: Array(truncated.prefix(truncated.count / 2)))
        #expect(cut.status == 3)
    }

    @Test func killNineMidIngestThenReingestAndCheck() throws {
        let dir = TemporaryDirectory()
        var stream: [UInt8] = []
        for n in 1...40 { stream += try AIndexTests.session(n, seconds: 4) }
        let process = Process()
        process.executableURL = URL(fileURLWithPath: AIndexTests.binary)
        process.arguments = ["--library", dir.path]
        let stdin = Pipe()
        process.standardInput = stdin
        process.standardError = FileHandle.nullDevice
        try process.run()
        try stdin.fileHandleForWriting.write(contentsOf: Data(stream.prefix(stream.count / 2)))
        usleep(300_000)
        kill(process.processIdentifier, SIGKILL)
        process.waitUntilExit()
        try? stdin.fileHandleForWriting.close()
        #expect(process.terminationReason == .uncaughtSignal)
        let again = try run(["--library", dir.path], input: stream)
        #expect(again.status == 0)
        let check = try run(["check", "--library", dir.path])
        #expect(check.stdout == "library is consistent\n")
        #expect(check.status == 0)
        let stats = try run(["stats", "--json", "--library", dir.path])
        #expect(stats.stdout.contains(#""sessions":40"#))
        #expect(stats.stdout.contains(#""completed":160"#))
        #expect(stats.stdout.contains(#""interrupted_sessions":0"#))
    }

    @Test func pendingRoundTripsThroughTheBinary() throws {
        let dir = TemporaryDirectory()
        _ = try run(["--library", dir.path], input: try AIndexTests.session(5))
        let none = try run(["pending", "--dry-run", "--library", dir.path])
        #expect(none.stdout.isEmpty && none.stderr == "aindex: 0 segments to retry\n")
        let check = try run(["check", "--fix", "--library", dir.path])
        #expect(check.status == 0)
        let delete = try run(["delete", "00000005", "--library", dir.path])
        #expect(delete.status == 0)
        #expect(try run(["sessions", "--json", "--library", dir.path]).stdout.isEmpty)
    }
}
