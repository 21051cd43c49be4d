import APipeStream
import Foundation
import Testing
@testable import APipeTranscribe

@Suite struct CommandEngineTests {
    private let audio = SegmentAudio(samples: [Float](repeating: 0.1, count: 8000), rate: 8000)

    private func run(_ command: String, timeout: Double = 10) async -> Result<EngineResult, EngineError> {
        do {
            return .success(try await CommandEngine(command: command, timeout: timeout).transcribe(audio))
        } catch {
            return .failure(error)
        }
    }

    @Test func textComesFromStandardOutput() async throws {
        let result = try await run("cat >/dev/null; printf '  hello world\\n'").get()
        #expect(result.text == "hello world")
    }

    @Test func wavGoesToStandardInputAt16kHz() async throws {
        // 44-byte header + 1 s at 16 kHz, 16-bit.
        let result = try await run("wc -c").get()
        #expect(result.text == "32044")
    }

    @Test func wavPlaceholderIsAFile() async throws {
        let result = try await run("head -c 4 {wav}; echo; test -r {wav} && echo readable").get()
        #expect(result.text == "RIFF\nreadable")
    }

    @Test func exitStatusIsRespected() async {
        guard case .failure(let error) = await run("echo partial; echo 'model not found' >&2; exit 3") else {
            Issue.record("a failing command succeeded")
            return
        }
        #expect(error.description == "echo exited with status 3: model not found")
        #expect(!error.isRetryable)
    }

    @Test func aMissingCommandSaysSo() async {
        guard case .failure(let error) = await run("no-such-recogniser-xyz {wav}") else {
            Issue.record("a missing command succeeded")
            return
        }
        #expect(error.description.contains("status 127 (command not found)"))
    }

    @Test func theTimeoutKillsTheWholeCommand() async {
        // Without the kill, `sleep 30 | cat` would finish and succeed.
        let result = await run("cat >/dev/null; sleep 30 | cat", timeout: 0.2)
        #expect(result == .failure(.timeout(seconds: 0.2)))
    }

    @Test func binaryOutputIsRejected() async {
        guard case .failure(let error) = await run("cat >/dev/null; printf '\\001\\002\\377\\376'") else {
            Issue.record("garbage accepted")
            return
        }
        #expect(error.description.contains("binary output"))
    }

    @Test func aCommandThatIgnoresItsInputStillWorks() async throws {
        let long = SegmentAudio(samples: [Float](repeating: 0.1, count: 16000 * 60), rate: 16000)
        let result = try await CommandEngine(command: "echo ignored").transcribe(long)
        #expect(result.text == "ignored")
    }

    @Test func concurrentRunsDoNotBlockEachOther() async throws {
        let engine = CommandEngine(command: "cat | wc -c")
        try await withThrowingTaskGroup(of: String.self) { group in
            for _ in 0..<6 { group.addTask { try await engine.transcribe(audio).text } }
            for try await text in group { #expect(text == "32044") }
        }
    }

    @Test func providerIsTheProgramName() {
        #expect(CommandEngine(command: "/usr/local/bin/whisper-cli -m x -f {wav}").provider == "whisper-cli")
        #expect(CommandEngine.shellQuoted("a'b") == "'a'\\''b'")
    }
}
