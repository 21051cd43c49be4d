import APipeStream
import Foundation
import Testing

@Suite(.serialized) struct ATranscribeTests {
    private let segments = [(0.5, 1.5), (2.0, 2.6), (3.0, 3.1)]

    @Test func anExternalCommandTranscribesEverySegment() throws {
        let input = try ATranscribeRun.stream(seconds: 4, segments: segments)
        let output = try ATranscribeRun.run(["--engine", "command", "--exec", "wc -c < {wav}", "--jobs", "3"], input: input)
        #expect(output.status == 0, "\(output.stderr)")
        let events = try ATranscribeRun.events(output.stdout)
        let texts = events.compactMap { try? $0.decode(Transcription.self) }
        #expect(texts.map(\.index) == [0, 1, 2])
        // 44-byte header + 16-bit samples at 16 kHz: the whole segment, not a frame less.
        #expect(texts.map(\.text) == ["32044", "19244", "3244"])
        #expect(texts.allSatisfy { $0.method == "external-command" && $0.provider == "wc" })
        #expect(events.map(\.type).filter { $0 != Transcription.type } == (try ATranscribeRun.events(input)).map(\.type))
    }

    @Test func wavGoesToStdinWithoutAPlaceholderAndJsonlWritesOnlyTranscriptions() throws {
        let input = try ATranscribeRun.stream(seconds: 2, segments: [(0.5, 1.0)])
        let output = try ATranscribeRun.run(["--engine", "command", "--exec", "cat >/dev/null; echo hello from stdin", "--jsonl"], input: input)
        #expect(output.status == 0, "\(output.stderr)")
        let lines = String(decoding: output.stdout, as: UTF8.self).split(separator: "\n")
        #expect(lines.count == 1)
        #expect(lines.first?.contains("\"text\":\"hello from stdin\"") == true)
    }

    @Test func aSessionWithoutSegmentsIsWindowed() throws {
        let input = try ATranscribeRun.stream(seconds: 5, segments: nil)
        let output = try ATranscribeRun.run(["--engine", "command", "--exec", "cat > /dev/null; echo w", "--window", "2"], input: input)
        #expect(output.status == 0, "\(output.stderr)")
        let events = try ATranscribeRun.events(output.stdout)
        let ends = events.compactMap { try? $0.decode(SegmentEnd.self) }
        #expect(ends.map(\.reason) == ["fixed", "fixed", "fixed"])
        #expect(ends.map(\.end) == [2, 4, 5])
        #expect(events.compactMap { try? $0.decode(Transcription.self) }.count == 3)
    }

    @Test func aFailingCommandFailsItsSegmentsAndThePipelineGoesOn() throws {
        let input = try ATranscribeRun.stream(seconds: 4, segments: segments)
        let output = try ATranscribeRun.run(["--engine", "command", "--exec", "echo 'no model loaded' >&2; exit 2"], input: input)
        #expect(output.status == 0)
        let failed = try ATranscribeRun.events(output.stdout).compactMap { try? $0.decode(TranscriptionFailed.self) }
        #expect(failed.map(\.index) == [0, 1, 2])
        #expect(failed.first?.error == "command: echo exited with status 2: no model loaded")
        #expect(output.stderr.contains("segment 0 failed: command: echo exited with status 2: no model loaded"))
    }

    @Test func anUnreachableServerFailsEachSegmentClearly() throws {
        let input = try ATranscribeRun.stream(seconds: 4, segments: segments)
        let output = try ATranscribeRun.run(
            ["--engine", "openai", "--url", "http://127.0.0.1:9", "--retries", "1", "--retry-delay", "0.01", "--defer"], input: input)
        #expect(output.status == 0, "\(output.stderr)")
        let failed = try ATranscribeRun.events(output.stdout).compactMap { try? $0.decode(TranscriptionFailed.self) }
        #expect(failed.count == 3 && failed.allSatisfy { $0.pending && $0.retries == 1 })
        #expect(failed.first?.error == "openai: service unreachable: connection refused")
    }

    @Test func theKeyNeverShowsAndAMissingOneIsExplained() throws {
        let input = try ATranscribeRun.stream(seconds: 1, segments: [(0.2, 0.5)])
        let missing = try ATranscribeRun.run(["--engine", "openai"], input: input)
        #expect(missing.status == 69)
        #expect(missing.stderr.contains("no API key (set OPENAI_API_KEY or use --api-key-file)"))
        let secret = "sk-e2e-VERYSECRET"
        let output = try ATranscribeRun.run(
            ["--engine", "openai", "--url", "http://127.0.0.1:9", "--retries", "0"], input: input, environment: ["OPENAI_API_KEY": secret])
        #expect(!output.stderr.contains("VERYSECRET") && !String(decoding: output.stdout, as: UTF8.self).contains("VERYSECRET"))
    }

    @Test func anUnknownEngineIsAUsageError() throws {
        let output = try ATranscribeRun.run(["--engine", "wishful"], input: try ATranscribeRun.stream(seconds: 1, segments: nil))
        #expect(output.status == 64)
        #expect(output.stderr.contains("unknown engine 'wishful'"))
    }

    @Test func aStreamWithNoAudioPassesThroughWithAWarning() throws {
        let writer = StreamWriter()
        try writer.write(event: SessionStart(
            session: "0b3e8a2c-5d1f-4c2a-8e9b-1f2a3b4c5d6e", title: "empty", created: "2026-11-22T06:00:00Z", preset: nil,
            rate: 16000, bits: 16, channels: 1, format: "s16le", source: "test", device: nil, host: "h", os: "Linux", appVersion: "0"))
        try writer.write(event: SessionEnd(session: "0b3e8a2c-5d1f-4c2a-8e9b-1f2a3b4c5d6e", duration: 0, frames: 0, interrupted: false))
        try writer.finish()
        let output = try ATranscribeRun.run(["--engine", "command", "--exec", "echo x"], input: writer.collected)
        #expect(output.status == 0)
        #expect(output.stdout == writer.collected)
        #expect(output.stderr.contains("carried no audio"))
    }

    @Test func notAStreamIsADataError() throws {
        let output = try ATranscribeRun.run(["--engine", "command", "--exec", "echo x"], input: Array("hello there, not a stream".utf8))
        #expect(output.status == 65)
        #expect(output.stderr.contains("not an apipe stream"))
    }

    @Test func listEnginesSaysWhatIsMissing() throws {
        let output = try ATranscribeRun.run(["--list-engines"], input: [])
        let text = String(decoding: output.stdout, as: UTF8.self)
        #expect(output.status == 0)
        #expect(text.contains("openai") && text.contains("no API key"))
        #expect(text.contains("command") && text.contains("needs --exec"))
    }

    @Test func progressJsonGoesToStderr() throws {
        let input = try ATranscribeRun.stream(seconds: 2, segments: [(0.5, 1.0)])
        let output = try ATranscribeRun.run(["--engine", "command", "--exec", "echo p", "--progress", "json"], input: input)
        #expect(output.status == 0)
        let last = output.stderr.split(separator: "\n").last { $0.hasPrefix("{\"type\":\"progress\"") }
        #expect(last?.contains("\"done\":1") == true && last?.contains("\"final\":true") == true)
    }
}
