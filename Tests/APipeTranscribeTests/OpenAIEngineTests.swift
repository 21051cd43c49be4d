import APipeStream
import Foundation
import Testing
@testable import APipeTranscribe

@Suite(.serialized) struct OpenAIEngineTests {
    static let key = "sk-test-SECRET-123"
    private let second = SegmentAudio(samples: [Float](repeating: 0.05, count: 16000), rate: 16000)

    /// The default timeout only bounds a hang: the whole suite runs beside Whisper tests on two
    /// loaded cores, where a first request (connection set-up included) took over 2 s.
    private func makeEngine(_ url: String, key: String? = Self.key, timeout: Double = 60, maxSeconds: Double? = nil) -> OpenAIEngine {
        var configuration = OpenAIEngine.Configuration()
        configuration.url = url
        configuration.timeout = timeout
        configuration.language = "en"
        configuration.maxSeconds = maxSeconds
        return OpenAIEngine(configuration: configuration, apiKey: key)
    }

    private func attempt(_ engine: OpenAIEngine, _ audio: SegmentAudio) async -> Result<EngineResult, EngineError> {
        do { return .success(try await engine.transcribe(audio)) } catch { return .failure(error) }
    }

    private func withServer(script: [FakeTranscriptionServer.Answer] = [], answer: FakeTranscriptionServer.Answer = .transcript,
                            _ body: (FakeTranscriptionServer) async throws -> Void) async throws {
        let server = try await FakeTranscriptionServer.start(script: script, answer: answer)
        do { try await body(server) } catch { await server.stop(); throw error }
        await server.stop()
    }

    @Test func verboseJSONGivesTextLanguageConfidenceAndPhrases() async throws {
        try await withServer { server in
            let engine = makeEngine(server.url)
            let result = try await engine.transcribe(SegmentAudio(samples: [Float](repeating: 0.05, count: 44100), rate: 44100))
            await engine.shutdown()
            #expect(result.text == "heard 1.00 s")
            #expect(result.language == "english")
            #expect(result.phrases.map(\.text) == ["heard", "1.00 s"])
            #expect(abs((result.confidence ?? 0) - exp(-0.2)) < 1e-9)
            let request = try #require(server.requests.first)
            #expect(request.rate == 16000)
            #expect(request.fields["model"] == "whisper-1" && request.fields["response_format"] == "verbose_json")
            #expect(request.fields["language"] == "en" && request.authorization == "Bearer \(Self.key)")
        }
    }

    @Test func plainJSONAndPlainTextAreAccepted() async throws {
        try await withServer(script: [.plainJSON("just text"), .plainText("  text body \n")]) { server in
            let engine = makeEngine(server.url)
            let json = try await engine.transcribe(second)
            let text = try await engine.transcribe(second)
            #expect(json == EngineResult(text: "just text"))
            #expect(text == EngineResult(text: "text body"))
            await engine.shutdown()
        }
    }

    @Test func verboseJSONRefusedFallsBackToJSON() async throws {
        let refusal = #"{"error":{"message":"response_format 'verbose_json' is not compatible with this model"}}"#
        try await withServer(script: [.status(400, body: refusal, retryAfter: nil)]) { server in
            let engine = makeEngine(server.url)
            let result = try await engine.transcribe(second)
            await engine.shutdown()
            #expect(result.text == "heard 1.00 s")
            #expect(server.requests.map { $0.fields["response_format"] } == ["verbose_json", "json"])
        }
    }

    @Test func statusCodesAreClassified() async throws {
        let script: [FakeTranscriptionServer.Answer] = [
            .status(429, body: "{}", retryAfter: "2"), .status(503, body: "{}", retryAfter: "1"),
            .status(500, body: #"{"error":{"message":"overloaded"}}"#, retryAfter: nil),
            .status(400, body: #"{"error":{"message":"Audio file is too short"}}"#, retryAfter: nil),
            .malformedJSON, .html,
        ]
        try await withServer(script: script) { server in
            let engine = makeEngine(server.url)
            var errors: [EngineError] = []
            for _ in script { if case .failure(let e) = await attempt(engine, second) { errors.append(e) } }
            await engine.shutdown()
            #expect(errors.count == 6)
            #expect(errors[0] == .rateLimited(retryAfter: 2))
            #expect(errors[1] == .server(status: 503, message: "\"{}\"", retryAfter: 1))
            #expect(errors[2] == .server(status: 500, message: "overloaded", retryAfter: nil))
            #expect(errors[3] == .rejected(status: 400, message: "Audio file is too short") && !errors[3].isRetryable)
            #expect(errors[4].description.contains("not transcription JSON"))
            #expect(errors[5].description.contains("HTML"))
            let retryable = errors.prefix(3).allSatisfy { $0.isRetryable }
            #expect(retryable)
        }
    }

    @Test func aWrongKeyIsUnauthorizedAndNeverShown() async throws {
        try await withServer { server in
            let secret = "sk-wrong-TOPSECRET-987"
            let engine = makeEngine(server.url, key: secret)
            let stage = makeStage([engine], retries: 3)
            let (packets, warnings) = try await runStage(stage, input: TestStream.make(seconds: 1, segments: [(0.2, 0.5)]))
            await engine.shutdown()
            let failed = try #require(TestStream.events(packets).compactMap { try? $0.decode(TranscriptionFailed.self) }.first)
            #expect(failed.error == "openai: the server rejected the API key (HTTP 401)" && failed.retries == 0)
            let everything = TestStream.events(packets).map(\.text).joined() + warnings.joined() + "\(engine)" + String(reflecting: engine)
            #expect(!everything.contains(secret) && !everything.contains("TOPSECRET"))
            #expect(server.requests.count == 1)
        }
    }

    @Test func aKeyTheServerEchoesIsRedactedEvenWhereTheMessageIsCut() async throws {
        // The key straddles the 300-character cut of an error message: no piece of it may survive.
        let script: [FakeTranscriptionServer.Answer] = [
            .echoAuthorization(400, prefix: "you sent "), .echoAuthorization(500, prefix: String(repeating: "x", count: 285) + " key "),
        ]
        try await withServer(script: script) { server in
            let engine = makeEngine(server.url)
            var errors: [EngineError] = []
            for _ in script { if case .failure(let e) = await attempt(engine, second) { errors.append(e) } }
            await engine.shutdown()
            #expect(errors.first == .rejected(status: 400, message: "you sent Bearer [redacted]"))
            #expect(errors.count == 2 && errors.allSatisfy { !$0.description.contains("sk-test") && !$0.description.contains("SECRET") })
        }
    }

    @Test func theRedactorMasksTheKeyAndEveryBearerToken() {
        let redactor = SecretRedactor(secret: "sk-abc-123")
        #expect(redactor.clean("key sk-abc-123, again sk-abc-123") == "key [redacted], again [redacted]")
        #expect(redactor.clean(#"{"authorization":"bearer other-token"}"#) == #"{"authorization":"bearer [redacted]"}"#)
        #expect(redactor.clean("Authorization: Bearer sk-abc-123") == "Authorization: Bearer [redacted]")
        #expect(SecretRedactor(secret: "").clean("no secret here") == "no secret here")
        #expect(redactor.clean(EngineError.server(status: 502, message: "got sk-abc-123", retryAfter: 2)) == .server(status: 502, message: "got [redacted]", retryAfter: 2))
    }

    @Test func slowAnswersTimeOutAndAreRetried() async throws {
        try await withServer(script: [.delayed(milliseconds: 3000, .transcript)]) { server in
            let engine = makeEngine(server.url, timeout: 0.3)
            let transcriber = SegmentTranscriber(engines: [engine], policy: RetryPolicy(retries: 2, baseDelay: 0.01, jitter: 0))
            let job = SegmentJob(session: "s", index: 0, start: 0, end: 1, audio: second)
            let clock = ContinuousClock.now
            let t = try #require(try await transcriber.transcribe(job).decode(Transcription.self))
            let elapsed = (ContinuousClock.now - clock).seconds
            await engine.shutdown()
            // One retry: the first attempt gave up at the timeout instead of waiting 3 s for
            // the slow answer (which would have succeeded with no retry).
            #expect(t.retries == 1 && t.text == "heard 1.00 s")
            #expect(elapsed >= 0.3)
        }
    }

    @Test func retryAfterOn429IsHonoured() async throws {
        try await withServer(script: [.status(429, body: "{}", retryAfter: "0.3"), .status(500, body: "{}", retryAfter: nil)]) { server in
            let engine = makeEngine(server.url)
            let transcriber = SegmentTranscriber(engines: [engine], policy: RetryPolicy(retries: 5, baseDelay: 0.01, jitter: 0))
            let clock = ContinuousClock.now
            let t = try #require(try await transcriber.transcribe(SegmentJob(session: "s", index: 0, start: 0, end: 1, audio: second)).decode(Transcription.self))
            let elapsed = (ContinuousClock.now - clock).seconds
            await engine.shutdown()
            #expect(t.retries == 2 && server.requests.count == 3)
            #expect(elapsed >= 0.31)
        }
    }

    @Test func droppedConnectionsAreRetryable() async throws {
        let dropping = try DroppingServer()
        defer { dropping.stop() }
        let engine = makeEngine("http://127.0.0.1:\(dropping.port)")
        let result = await attempt(engine, second)
        await engine.shutdown()
        guard case .failure(let error) = result else { Issue.record("a dropped connection succeeded"); return }
        #expect(error.isRetryable && !error.isOffline)
    }

    @Test func anUnreachableServerIsOfflineAtOnce() async throws {
        let engine = makeEngine("http://127.0.0.1:\(DroppingServer.closedPort())", timeout: 20)
        let result = await attempt(engine, second)
        await engine.shutdown()
        // Offline, not a timeout: it did not wait out the 20 s request timeout.
        #expect(result == .failure(.offline("connection refused")))
    }

    @Test func tenMinutesGoUpWholeOrSplitNeverTruncated() async throws {
        try await withServer { server in
            let long = SegmentAudio(samples: [Float](repeating: 0.05, count: 16000 * 600), rate: 16000)
            let whole = makeEngine(server.url, timeout: 30)
            let wholeText = try await whole.transcribe(long).text
            #expect(wholeText == "heard 600.00 s")
            await whole.shutdown()
            let split = makeEngine(server.url, timeout: 30, maxSeconds: 250)
            let transcriber = SegmentTranscriber(engines: [split], policy: RetryPolicy(retries: 0))
            let t = try #require(try await transcriber.transcribe(SegmentJob(session: "s", index: 0, start: 0, end: 600, audio: long)).decode(Transcription.self))
            await split.shutdown()
            #expect(t.text == "heard 200.00 s heard 200.00 s heard 200.00 s")
            #expect(server.requests.map(\.seconds) == [600, 200, 200, 200])
        }
    }

    @Test func theUploadLimitFollowsTheRate() async {
        var configuration = OpenAIEngine.Configuration()
        configuration.maxUploadBytes = 25_000_000
        let engine = OpenAIEngine(configuration: configuration, apiKey: nil)
        let limit = engine.maxSeconds ?? 0
        await engine.shutdown()
        #expect(limit > 780 && limit < 782)
        #expect(OpenAIEngine.endpoint(base: "http://h:1/v1/") == "http://h:1/v1/audio/transcriptions")
        #expect(OpenAIEngine.endpoint(base: "http://h:1") == "http://h:1/v1/audio/transcriptions")
    }

    @Test func aTinySegmentIsPaddedToTheMinimum() async throws {
        try await withServer { server in
            let engine = makeEngine(server.url)
            _ = try await engine.transcribe(SegmentAudio(samples: [Float](repeating: 0.05, count: 800), rate: 16000))
            await engine.shutdown()
            #expect(server.requests.first?.seconds == 0.1)
        }
    }

    @Test func fallbackTakesOverFromAnOfflineServer() async throws {
        try await withServer { server in
            let offline = makeEngine("http://127.0.0.1:\(DroppingServer.closedPort())")
            let online = makeEngine(server.url)
            let (packets, _) = try await runStage(makeStage([offline, online], retries: 5), input: TestStream.make(seconds: 1, segments: [(0.2, 0.5)]))
            await offline.shutdown()
            await online.shutdown()
            let t = try #require(TestStream.events(packets).compactMap { try? $0.decode(Transcription.self) }.first)
            #expect(t.provider == "127.0.0.1:\(server.port)" && t.retries == 0 && t.method == "remote-api")
        }
    }

    @Test func theKeyFileIsReadAndTheEnvironmentIsTheFallback() throws {
        let file = FileManager.default.temporaryDirectory.appendingPathComponent("key-\(UUID().uuidString)")
        try "sk-from-file\nignored\n".write(to: file, atomically: true, encoding: .utf8)
        defer { try? FileManager.default.removeItem(at: file) }
        let fromFile = try EngineOptions.apiKey(file: file.path, environment: ["OPENAI_API_KEY": "env"])
        let fromEnvironment = try EngineOptions.apiKey(file: nil, environment: ["OPENAI_API_KEY": "env"])
        #expect(fromFile == "sk-from-file" && fromEnvironment == "env")
        #expect(throws: EngineError.self) { try EngineOptions.apiKey(file: "/nonexistent/key", environment: [:]) }
        var options = EngineOptions()
        #expect(EngineCatalog.standard.listing(options).contains { $0.contains("openai") && $0.contains("no API key") })
        options.apiKey = "k"
        options.exec = "cat"
        let networkAndCommand = EngineCatalog.standard.listing(options).filter { !$0.hasPrefix("whisper") }
        #expect(networkAndCommand.count == 2 && networkAndCommand.allSatisfy { $0.contains("  available") })
        #expect(throws: EngineError.self) { _ = try EngineCatalog.standard.make("nope", options: options) }
    }
}
