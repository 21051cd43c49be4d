import APipeStream
import Foundation
import Testing
@testable import APipeTranscribe

@Suite struct SegmentTranscriberTests {
    private let job = SegmentJob(
        session: TestStream.session, index: 4, start: 10, end: 12,
        audio: SegmentAudio(samples: [Float](repeating: TestStream.marker(4), count: 32000), rate: 16000))

    private func transcriber(_ engines: [any TranscriptionEngine], retries: Int = 3, base: Double = 0.01, deferring: Bool = false) -> SegmentTranscriber {
        SegmentTranscriber(engines: engines, policy: RetryPolicy(retries: retries, baseDelay: base, maxDelay: 1, jitter: 0), deferNetworkFailures: deferring)
    }

    @Test func retryableFailuresAreRetriedWithBackoff() async throws {
        let engine = ScriptedEngine { _, call, _ throws(EngineError) in
            if call <= 2 { throw .server(status: 500, message: "", retryAfter: nil) }
            return EngineResult(text: "third time")
        }
        let clock = ContinuousClock.now
        let event = await transcriber([engine], base: 0.02).transcribe(job)
        let elapsed = (ContinuousClock.now - clock).seconds
        let t = try #require(try event.decode(Transcription.self))
        #expect(t.text == "third time" && t.retries == 2)
        #expect(engine.calls.count == 3)
        // Waits 20 ms then 40 ms: at least 60 ms (the schedule itself is checked exactly in
        // backoffGrowsAndIsJittered).
        #expect(elapsed >= 0.06)
    }

    @Test func whatABrokenModelAnswersStillMakesAnEventTheReaderTakes() async throws {
        // A model.bin with NaN weights makes Whisper answer NaN log probabilities.
        let engine = ScriptedEngine(isNetwork: false) { _, _, _ throws(EngineError) in
            EngineResult(text: "!!!!", language: "en", confidence: .nan, phrases: [TranscriptPhrase(start: 0, end: .nan, text: "!!!!", confidence: .nan)])
        }
        let event = await transcriber([engine]).transcribe(job)
        #expect(!event.json.isEmpty && event.unwritableReason == nil)
        let t = try #require(try event.decode(Transcription.self))
        #expect(t.text == "!!!!" && t.confidence == nil && t.phrases == nil)
    }

    @Test func retriesStopAtTheLimit() async throws {
        let engine = ScriptedEngine { _, _, _ throws(EngineError) in throw .timeout(seconds: 1) }
        let event = await transcriber([engine], retries: 2, base: 0.001).transcribe(job)
        let failed = try #require(try event.decode(TranscriptionFailed.self))
        #expect(failed.retries == 2 && failed.retryable && !failed.pending)
        #expect(engine.calls.count == 3)
        #expect(failed.error == "scripted: no answer within 1 s")
    }

    @Test func nonRetryableFailuresAreNotRetried() async throws {
        let engine = ScriptedEngine { _, _, _ throws(EngineError) in throw .unauthorized(status: 401) }
        let failed = try #require(try await transcriber([engine]).transcribe(job).decode(TranscriptionFailed.self))
        #expect(engine.calls.count == 1 && failed.retries == 0 && !failed.retryable)
    }

    @Test func retryAfterReplacesTheBackoff() async throws {
        let engine = ScriptedEngine { _, call, _ throws(EngineError) in
            if call == 1 { throw .rateLimited(retryAfter: 0.15) }
            return EngineResult(text: "ok")
        }
        let clock = ContinuousClock.now
        _ = await transcriber([engine], base: 0.001).transcribe(job)
        #expect((ContinuousClock.now - clock).seconds >= 0.15)
    }

    @Test func backoffGrowsAndIsJittered() {
        let policy = RetryPolicy(retries: 5, baseDelay: 1, maxDelay: 10, jitter: 0.5)
        let error = EngineError.timeout(seconds: 1)
        for attempt in 0..<6 {
            let ceiling = min(10, Double(1 << attempt))
            let delay = policy.delay(attempt: attempt, after: error)
            #expect(delay <= ceiling && delay >= ceiling / 2)
        }
        #expect(policy.delay(attempt: 0, after: .rateLimited(retryAfter: 7)) == 7)
        #expect(policy.delay(attempt: 0, after: .rateLimited(retryAfter: 1e9)) == policy.maxRetryAfter)
    }

    @Test func fallbacksAreTriedInOrder() async throws {
        let order = WarningLog()
        let offline = ScriptedEngine(name: "a") { _, _, _ throws(EngineError) in order.add("a"); throw .offline("connection refused") }
        let broken = ScriptedEngine(name: "b") { _, _, _ throws(EngineError) in order.add("b"); throw .rejected(status: 400, message: "") }
        let working = ScriptedEngine(name: "c") { _, _, _ throws(EngineError) in order.add("c"); return EngineResult(text: "from c") }
        let t = try #require(try await transcriber([offline, broken, working]).transcribe(job).decode(Transcription.self))
        // An offline engine is left at once when a fallback remains; a rejection is final.
        #expect(order.lines == ["a", "b", "c"])
        #expect(t.provider == "scripted-c" && t.model == "m-c" && t.text == "from c")
    }

    @Test func aFallbackFollowsExhaustedRetries() async throws {
        let flaky = ScriptedEngine(name: "a") { _, _, _ throws(EngineError) in throw .server(status: 503, message: "", retryAfter: nil) }
        let working = ScriptedEngine(name: "b") { _, _, _ throws(EngineError) in EngineResult(text: "b") }
        let t = try #require(try await transcriber([flaky, working], retries: 2, base: 0.001).transcribe(job).decode(Transcription.self))
        #expect(flaky.calls.count == 3 && t.retries == 2 && t.provider == "scripted-b")
    }

    @Test func deferMarksNetworkFailuresPending() async throws {
        let offline = ScriptedEngine { _, _, _ throws(EngineError) in throw .offline("connection refused") }
        let deferred = try #require(try await transcriber([offline], retries: 1, base: 0.001, deferring: true).transcribe(job).decode(TranscriptionFailed.self))
        #expect(deferred.pending && deferred.retryable)
        let failed = try #require(try await transcriber([offline], retries: 1, base: 0.001).transcribe(job).decode(TranscriptionFailed.self))
        #expect(!failed.pending)
        let rejected = ScriptedEngine { _, _, _ throws(EngineError) in throw .rejected(status: 400, message: "") }
        let final = try #require(try await transcriber([rejected], deferring: true).transcribe(job).decode(TranscriptionFailed.self))
        #expect(!final.pending)
    }

    @Test func longSegmentsAreSplitAtTheEngineLimitNotTruncated() async throws {
        let engine = ScriptedEngine(maxSeconds: 0.8) { _, call, audio throws(EngineError) in
            EngineResult(text: "part\(call)", confidence: 0.5, phrases: [TranscriptPhrase(start: 0, end: audio.duration, text: "p\(call)")])
        }
        let t = try #require(try await transcriber([engine]).transcribe(job).decode(Transcription.self))
        #expect(engine.calls.count == 3)
        #expect(t.text == "part1 part2 part3")
        let phrases = try #require(t.phrases)
        #expect(phrases.count == 3)
        #expect(abs(phrases[1].start - (10 + 2.0 / 3)) < 1e-3)
        #expect(abs(phrases[2].end - 12) < 1e-3)
        #expect(t.confidence == 0.5)
    }

    @Test func aSegmentWithoutAudioFails() async throws {
        let engine = ScriptedEngine { _, _, _ throws(EngineError) in EngineResult(text: "") }
        var empty = job
        empty.audio.samples = []
        let failed = try #require(try await transcriber([engine]).transcribe(empty).decode(TranscriptionFailed.self))
        #expect(failed.error.contains("no audio") && engine.calls.isEmpty)
    }
}
