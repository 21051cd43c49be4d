import APipeStream

/// Turns a transcription into an event the next stage accepts, whatever the engine answered.
///
/// JSON has no NaN or infinity, and a reader refuses events over `PacketLimits.maxEventPayload`:
/// a non-finite confidence is dropped, a clamped one kept in 0...1, phrases with non-finite
/// times are left out, and a text too long for one event is cut (phrases dropped, `truncated`
/// set) instead of becoming an event no reader takes.
enum TranscriptionEvent {
    /// The longest text kept before the event's size is even tried (bytes of UTF-8).
    static let maxTextBytes = 256 << 10

    /// The event for `transcription`, finite and within the size limit.
    static func make(_ transcription: Transcription, limit: Int = PacketLimits.maxEventPayload) -> Event? {
        var clean = transcription
        clean.confidence = probability(clean.confidence)
        clean.processingTime = finite(clean.processingTime) ?? 0
        let phrases = (clean.phrases ?? []).compactMap { phrase -> TranscriptPhrase? in
            guard phrase.start.isFinite, phrase.end.isFinite else { return nil }
            return TranscriptPhrase(start: phrase.start, end: phrase.end, text: phrase.text, confidence: probability(phrase.confidence))
        }
        clean.phrases = phrases.isEmpty ? nil : phrases
        if clean.text.utf8.count > maxTextBytes { cut(&clean, toBytes: maxTextBytes) }
        while true {
            guard let event = try? Event(encoding: clean) else { return nil }
            if event.json.count <= limit { return event }
            // JSON escapes can make text up to six times longer: halve until it fits.
            guard !clean.text.isEmpty || clean.phrases != nil else { return nil }
            cut(&clean, toBytes: clean.text.utf8.count / 2)
        }
    }

    /// Keeps the first `bytes` of the text (whole characters), drops the phrases, marks the cut.
    private static func cut(_ transcription: inout Transcription, toBytes bytes: Int) {
        var kept = 0
        let text = transcription.text.prefix { character in
            kept += character.utf8.count
            return kept <= bytes
        }
        transcription = Transcription(
            session: transcription.session, index: transcription.index, start: transcription.start, end: transcription.end,
            text: String(text), language: transcription.language, confidence: transcription.confidence,
            method: transcription.method, provider: transcription.provider, model: transcription.model,
            processingTime: transcription.processingTime, phrases: nil, retries: transcription.retries, truncated: true)
    }

    private static func finite(_ value: Double?) -> Double? {
        value.flatMap { $0.isFinite ? $0 : nil }
    }

    /// A probability in 0...1, or nil when the engine's number means nothing.
    private static func probability(_ value: Double?) -> Double? {
        finite(value).map { min(1, max(0, $0)) }
    }
}
