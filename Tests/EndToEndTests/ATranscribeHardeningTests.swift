import APipeStream
import Foundation
import Testing
#if canImport(Glibc)
import Glibc
#endif

/// atranscribe against hostile servers and hostile audio: the key stays secret,
/// time limits hold, and every event it writes is one the next stage reads.
@Suite(.serialized) struct ATranscribeHardeningTests {
    private let secret = "sk-e2e-ECHOEDSECRET-0123456789"

    private func openAI(_ server: ATranscribeServer, _ extra: [String] = []) -> [String] {
        ["--engine", "openai", "--url", server.url, "--retries", "0"] + extra
    }

    /// Events of a run that must have exited 0 with a stream every reader takes.
    private func readableEvents(_ output: ATranscribeRun.Output) throws -> [Event] {
        #expect(output.status == 0, "\(output.stderr)")
        return try ATranscribeRun.events(output.stdout)
    }

    @Test func aServerEchoingTheKeyNeverGetsItToStderrOrTheStream() throws {
        let server = try ATranscribeServer { request in
            .json(#"{"error":{"message":"unsupported request; headers were Authorization: \#(request.header("Authorization") ?? "")"}}"#, status: 400)
        }
        defer { server.stop() }
        let keyFile = FileManager.default.temporaryDirectory.appendingPathComponent("atranscribe-key-\(UUID().uuidString)")
        try Data((secret + "\n").utf8).write(to: keyFile)
        defer { try? FileManager.default.removeItem(at: keyFile) }
        let input = try ATranscribeRun.stream(seconds: 1, segments: [(0.2, 0.6)])
        for (arguments, environment) in [([], ["OPENAI_API_KEY": secret]), (["--api-key-file", keyFile.path], [:])] {
            let output = try ATranscribeRun.run(openAI(server, arguments), input: input, environment: environment)
            let failed = try readableEvents(output).compactMap { try? $0.decode(TranscriptionFailed.self) }
            #expect(failed.first?.error == "openai: request rejected (HTTP 400): unsupported request; headers were Authorization: Bearer [redacted]")
            #expect(!output.stderr.contains("ECHOEDSECRET"), "\(output.stderr)")
            #expect(!String(decoding: output.stdout, as: UTF8.self).contains("ECHOEDSECRET"))
        }
    }

    @Test func theTimeoutBoundsTheWholeRequestAgainstATricklingServer() throws {
        // 27 bytes at 4 a second: each byte well inside a 1 s read timeout, the whole answer 7 s.
        let server = try ATranscribeServer { _ in
            ATranscribeServer.Answer(body: Array(#"{"text":"slow but whole"}"#.utf8), trickle: .milliseconds(250))
        }
        defer { server.stop() }
        let input = try ATranscribeRun.stream(seconds: 1, segments: [(0.2, 0.6)])
        let output = try ATranscribeRun.run(openAI(server, ["--timeout", "1"]), input: input, environment: ["OPENAI_API_KEY": "k"])
        let failed = try readableEvents(output).compactMap { try? $0.decode(TranscriptionFailed.self) }
        #expect(failed.map(\.error) == ["openai: no answer within 1 s"])
    }

    @Test func hugeNumbersFromAServerStillMakeAReadableEvent() throws {
        let server = try ATranscribeServer { _ in
            .json(#"{"text":"hello","language":"english","segments":[{"start":0,"end":1e308,"text":"hello","avg_logprob":1e308}]}"#)
        }
        defer { server.stop() }
        let input = try ATranscribeRun.stream(seconds: 1, segments: [(0.2, 0.6)])
        let output = try ATranscribeRun.run(openAI(server), input: input, environment: ["OPENAI_API_KEY": "k"])
        let texts = try readableEvents(output).compactMap { try? $0.decode(Transcription.self) }
        #expect(texts.map(\.text) == ["hello"])
        #expect(texts.allSatisfy { ($0.confidence ?? 0) >= 0 && ($0.confidence ?? 0) <= 1 })
    }

    @Test func aTenMegabyteAnswerIsCutToFitOneEvent() throws {
        let words = String(repeating: "word ", count: 2_000_000)
        let server = try ATranscribeServer { _ in .json(#"{"text":"\#(words)"}"#) }
        defer { server.stop() }
        let input = try ATranscribeRun.stream(seconds: 1, segments: [(0.2, 0.6)])
        let output = try ATranscribeRun.run(openAI(server), input: input, environment: ["OPENAI_API_KEY": "k"])
        let events = try readableEvents(output).filter { $0.type == "transcription" }
        #expect(events.count == 1)
        #expect(events.allSatisfy { $0.json.count <= PacketLimits.maxEventPayload && $0.text.contains(#""truncated":true"#) })
        #expect(events.allSatisfy { $0.text.contains(#""text":"word word"#) })
    }

    @Test func nanAndHugeSamplesMakeAReadableTranscription() throws {
        let writer = StreamWriter()
        try writer.write(event: SessionStart(
            session: "0b3e8a2c-5d1f-4c2a-8e9b-1f2a3b4c5d6e", title: "nan", created: "2026-11-22T06:00:00Z", preset: nil,
            rate: 16000, bits: 32, channels: 1, format: "f32le", source: "test", device: nil, host: "h", os: "Linux", appVersion: "0"))
        try writer.write(format: AudioFormat(encoding: .f32le, rate: 16000, channels: 1))
        let hostile: [Float] = [.nan, 3e38, -3e38, .infinity, -.infinity]
        var samples = [Float](repeating: 0, count: 16000)
        for i in samples.indices {
            samples[i] = i % 7 == 0 ? hostile[(i / 7) % hostile.count] : Float(sin(Double(i) * 0.2) * 0.3)
        }
        var scratch: [UInt8] = []
        try samples.withUnsafeBufferPointer { try writer.writeAudio(position: 0, samples: $0, scratch: &scratch) }
        try writer.write(event: SessionEnd(session: "0b3e8a2c-5d1f-4c2a-8e9b-1f2a3b4c5d6e", duration: 1, frames: 16000, interrupted: false))
        try writer.finish()
        let output = try ATranscribeRun.run(["--engine", "whisper", "--jobs", "1"], input: writer.collected)
        let events = try readableEvents(output)
        let texts = events.compactMap { try? $0.decode(Transcription.self) }
        #expect(texts.count == 1, "\(events.map(\.text))")
        #expect(texts.allSatisfy { ($0.confidence ?? 0) >= 0 && ($0.confidence ?? 0) <= 1 })
    }

    @Test func aCommandChildStartsWithNoSignalBlockedOrIgnored() throws {
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent("atranscribe-sig-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: directory) }
        try Data(try ATranscribeRun.stream(seconds: 1, segments: [(0.2, 0.6)])).write(to: directory.appendingPathComponent("in"))
        let tool = [ATranscribeRun.binary.path, "--engine", "command", "--jsonl", "--exec", #"cat >/dev/null; grep -E "^Sig(Blk|Ign)" /proc/self/status"#]
        let stops: UInt64 = (1 << (SIGHUP - 1)) | (1 << (SIGINT - 1)) | (1 << (SIGTERM - 1))
        // atranscribe started with the stop signals blocked, as a stage under a signal-handling
        // parent may be (spawned directly: a shell would clear the mask).
        let blocked = try Self.masks(of: Self.spawn(tool, blocking: true, in: directory), in: directory)
        #expect(blocked["SigBlk:"] == 0, "\(blocked)")
        // ... and with them ignored (a shell's `trap ''` survives exec).
        let script = "trap '' INT TERM HUP; exec " + tool.map { "'" + $0.replacingOccurrences(of: "'", with: #"'\''"#) + "'" }.joined(separator: " ")
        let ignored = try Self.masks(of: Self.spawn(["/bin/sh", "-c", script], blocking: false, in: directory), in: directory)
        #expect((ignored["SigIgn:"] ?? .max) & (stops | 1 << (SIGPIPE - 1)) == 0, "\(ignored)")
    }

    /// The `SigBlk`/`SigIgn` masks the command reported, from the transcription in `out`.
    private static func masks(of status: Int32, in directory: URL) throws -> [String: UInt64] {
        let errors = String(decoding: (try? Data(contentsOf: directory.appendingPathComponent("err"))) ?? Data(), as: UTF8.self)
        #expect(status == 0, "\(errors)")
        let line = try Data(contentsOf: directory.appendingPathComponent("out"))
        let event = try JSONSerialization.jsonObject(with: line) as? [String: Any]
        let text = try #require(event?["text"] as? String)
        let fields = text.split(whereSeparator: \.isWhitespace).map(String.init)
        var masks: [String: UInt64] = [:]
        for i in stride(from: 0, to: fields.count - 1, by: 2) { masks[fields[i]] = UInt64(fields[i + 1], radix: 16) }
        return masks
    }

    /// Runs `arguments` with standard input, output and error on `in`, `out` and `err` in
    /// `directory`, with SIGINT, SIGTERM and SIGHUP blocked when asked; its exit status.
    private static func spawn(_ arguments: [String], blocking: Bool, in directory: URL) throws -> Int32 {
        var attributes = posix_spawnattr_t()
        posix_spawnattr_init(&attributes)
        defer { posix_spawnattr_destroy(&attributes) }
        var blocked = sigset_t()
        sigemptyset(&blocked)
        if blocking { for signal in [SIGINT, SIGTERM, SIGHUP] { sigaddset(&blocked, signal) } }
        posix_spawnattr_setsigmask(&attributes, &blocked)
        posix_spawnattr_setflags(&attributes, Int16(POSIX_SPAWN_SETSIGMASK))
        var actions = posix_spawn_file_actions_t()
        posix_spawn_file_actions_init(&actions)
        defer { posix_spawn_file_actions_destroy(&actions) }
        posix_spawn_file_actions_addopen(&actions, 0, directory.appendingPathComponent("in").path, O_RDONLY, 0)
        posix_spawn_file_actions_addopen(&actions, 1, directory.appendingPathComponent("out").path, O_WRONLY | O_CREAT | O_TRUNC, 0o644)
        posix_spawn_file_actions_addopen(&actions, 2, directory.appendingPathComponent("err").path, O_WRONLY | O_CREAT | O_TRUNC, 0o644)
        let argv: [UnsafeMutablePointer<CChar>?] = arguments.map { strdup($0) } + [nil]
        defer { for arg in argv { free(arg) } }
        var pid: pid_t = 0
        guard posix_spawn(&pid, arguments[0], &actions, &attributes, argv, environ) == 0 else { throw ShellError.failed("cannot spawn \(arguments[0])") }
        var status: Int32 = 0
        for _ in 0..<600 {
            if waitpid(pid, &status, WNOHANG) == pid { return (status >> 8) & 0xFF }
            usleep(100_000)
        }
        kill(pid, SIGKILL)
        waitpid(pid, &status, 0)
        throw ShellError.failed("\(arguments[0]) did not finish within 60 s")
    }
}
