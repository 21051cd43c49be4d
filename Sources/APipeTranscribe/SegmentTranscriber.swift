import APipeStream
import Foundation

/// Turns one segment into its transcription event: splits it to the engine's limit, retries
/// retryable failures with backoff, and falls back to the next engine when one fails for good.
public struct SegmentTranscriber: Sendable {
    /// The engines in the order to try them: `--engine`, then each `--fallback`.
    public let engines: [any TranscriptionEngine]
    public let policy: RetryPolicy
    /// With `--defer`, a network failure marks the segment pending instead of failed.
    public let deferNetworkFailures: Bool
    /// Called before each retry (for progress counters).
    public let onRetry: @Sendable () -> Void
    /// A failure's error text is cut here, so the event always fits the stream's limit.
    static let maxErrorCharacters = 2000

    public init(engines: [any TranscriptionEngine], policy: RetryPolicy, deferNetworkFailures: Bool = false, onRetry: @escaping @Sendable () -> Void = {}) {
        self.engines = engines
        self.policy = policy
        self.deferNetworkFailures = deferNetworkFailures
        self.onRetry = onRetry
    }

    /// The `transcription` or `transcription.failed` event for `job`.
    public func transcribe(_ job: SegmentJob) async -> Event {
        var retries = 0
        var lastError = EngineError.badAudio("segment \(job.index) has no audio")
        var lastEngine: String?
        guard !job.audio.samples.isEmpty else { return failure(job, lastError, engine: nil, retries: 0) }
        for (position, engine) in engines.enumerated() {
            let isLast = position == engines.count - 1
            do {
                let (result, seconds) = try await transcribeWhole(job.audio, with: engine, retries: &retries, fallbackLeft: !isLast)
                if let event = TranscriptionEvent.make(success(job, result, engine: engine, seconds: seconds, retries: retries)) {
                    return event
                }
                lastError = .badResponse("the answer cannot be written as a transcription event")
                lastEngine = engine.name
            } catch {
                lastError = error
                lastEngine = engine.name
                if Task.isCancelled { break }
            }
        }
        return failure(job, lastError, engine: lastEngine, retries: retries)
    }

    /// Runs the audio through one engine, in pieces no longer than the engine's limit.
    private func transcribeWhole(_ audio: SegmentAudio, with engine: any TranscriptionEngine, retries: inout Int, fallbackLeft: Bool) async throws(EngineError) -> (EngineResult, Double) {
        let pieces = Self.pieces(duration: audio.duration, limit: engine.maxSeconds)
        var results: [(offset: Double, duration: Double, result: EngineResult)] = []
        var seconds = 0.0
        for piece in pieces {
            let part = pieces.count == 1 ? audio : audio.slice(from: piece.lowerBound, to: piece.upperBound)
            let clock = ContinuousClock.now
            let result = try await withRetries(part, engine: engine, retries: &retries, fallbackLeft: fallbackLeft)
            seconds += (ContinuousClock.now - clock).seconds
            results.append((piece.lowerBound, part.duration, result))
        }
        return (Self.join(results), seconds)
    }

    private func withRetries(_ audio: SegmentAudio, engine: any TranscriptionEngine, retries: inout Int, fallbackLeft: Bool) async throws(EngineError) -> EngineResult {
        var attempt = 0
        while true {
            do {
                return try await engine.transcribe(audio)
            } catch {
                let giveUp = !error.isRetryable || attempt >= policy.retries || (error.isOffline && fallbackLeft)
                if giveUp || Task.isCancelled { throw error }
                let delay = policy.delay(attempt: attempt, after: error)
                attempt += 1
                retries += 1
                onRetry()
                do {
                    try await Task.sleep(for: .seconds(delay))
                } catch {
                    throw EngineError.connection("cancelled")
                }
            }
        }
    }

    /// Splits `duration` seconds into equal pieces no longer than `limit`.
    static func pieces(duration: Double, limit: Double?) -> [Range<Double>] {
        guard let limit, limit > 0, duration > limit else { return [0..<duration] }
        let count = Int((duration / limit).rounded(.up))
        let length = duration / Double(count)
        return (0..<count).map { i in Double(i) * length..<(i == count - 1 ? duration : Double(i + 1) * length) }
    }

    /// One result from the pieces' results: texts joined, phrase times shifted, confidence weighted by duration.
    static func join(_ parts: [(offset: Double, duration: Double, result: EngineResult)]) -> EngineResult {
        guard parts.count > 1, let first = parts.first else { return parts.first?.result ?? EngineResult(text: "") }
        let text = parts.map { $0.result.text.trimmingCharacters(in: .whitespacesAndNewlines) }.filter { !$0.isEmpty }.joined(separator: " ")
        let phrases = parts.flatMap { part in
            part.result.phrases.map { TranscriptPhrase(start: $0.start + part.offset, end: $0.end + part.offset, text: $0.text, confidence: $0.confidence) }
        }
        let weighted = parts.compactMap { part in part.result.confidence.map { ($0, part.duration) } }
        let total = weighted.reduce(0) { $0 + $1.1 }
        let confidence = weighted.count == parts.count && total > 0 ? weighted.reduce(0) { $0 + $1.0 * $1.1 } / total : nil
        return EngineResult(text: text, language: first.result.language, confidence: confidence, phrases: phrases, model: first.result.model)
    }

    private func success(_ job: SegmentJob, _ result: EngineResult, engine: any TranscriptionEngine, seconds: Double, retries: Int) -> Transcription {
        let phrases = result.phrases.map {
            TranscriptPhrase(start: job.start + $0.start, end: job.start + $0.end, text: $0.text, confidence: $0.confidence)
        }
        return Transcription(
            session: job.session, index: job.index, start: job.start, end: job.end,
            text: result.text.trimmingCharacters(in: .whitespacesAndNewlines), language: result.language,
            confidence: result.confidence, method: engine.method, provider: engine.provider,
            model: result.model ?? engine.model, processingTime: seconds, phrases: phrases.isEmpty ? nil : phrases,
            retries: retries)
    }

    /// The event for a job left untranscribed on purpose: pending, to be retried later.
    public func notTranscribed(_ job: SegmentJob, reason: String) -> Event {
        Event(TranscriptionFailed(
            session: job.session, index: job.index, t: job.end, error: "not transcribed: \(reason)", retries: 0,
            retryable: true, pending: true))
    }

    private func failure(_ job: SegmentJob, _ error: EngineError, engine: String?, retries: Int) -> Event {
        let pending = deferNetworkFailures && error.isNetworkFailure
        let text = engine.map { "\($0): \(error)" } ?? error.description
        return Event(TranscriptionFailed(
            session: job.session, index: job.index, t: job.end, error: String(text.prefix(Self.maxErrorCharacters)), retries: retries,
            retryable: error.isRetryable, pending: pending))
    }
}

extension Duration {
    /// The duration in seconds as a floating-point number.
    var seconds: Double { Double(components.seconds) + Double(components.attoseconds) * 1e-18 }
}
