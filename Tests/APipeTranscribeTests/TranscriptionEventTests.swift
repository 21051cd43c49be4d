import APipeStream
import Foundation
import Testing
@testable import APipeTranscribe

/// Whatever an engine answers, the transcription event is one the next stage reads.
struct TranscriptionEventTests {
    private func transcription(text: String = "hello", confidence: Double? = 0.5, phrases: [TranscriptPhrase]? = nil) -> Transcription {
        Transcription(
            session: "s", index: 0, start: 1, end: 2, text: text, language: "en", confidence: confidence, method: "test",
            provider: "p", model: nil, processingTime: 0.1, phrases: phrases, retries: 0)
    }

    private func decoded(_ event: Event?) throws -> Transcription {
        let event = try #require(event)
        // The stream's own reader takes it back.
        let writer = StreamWriter()
        try writer.write(event)
        try writer.finish()
        let packets = try TestStream.packets(writer.collected)
        return try #require(try TestStream.events(packets).first?.decode(Transcription.self))
    }

    @Test func nonFiniteNumbersNeverReachJSON() throws {
        let phrases = [
            TranscriptPhrase(start: 0, end: .infinity, text: "gone"), TranscriptPhrase(start: 0, end: 1, text: "kept", confidence: .nan),
            TranscriptPhrase(start: 1, end: 2, text: "clamped", confidence: 7),
        ]
        let t = try decoded(TranscriptionEvent.make(transcription(confidence: .nan, phrases: phrases)))
        #expect(t.confidence == nil)
        #expect(t.phrases == [TranscriptPhrase(start: 0, end: 1, text: "kept"), TranscriptPhrase(start: 1, end: 2, text: "clamped", confidence: 1)])
        #expect(try decoded(TranscriptionEvent.make(transcription(confidence: -.infinity))).confidence == nil)
        #expect(try decoded(TranscriptionEvent.make(transcription(confidence: 2))).confidence == 1)
    }

    @Test func aTextTooLongIsCutWithAFlag() throws {
        let long = String(repeating: "word ", count: 400_000)
        let t = try decoded(TranscriptionEvent.make(transcription(text: long, phrases: [TranscriptPhrase(start: 0, end: 1, text: "w")])))
        #expect(t.truncated == true && t.phrases == nil)
        #expect(long.hasPrefix(t.text) && t.text.utf8.count <= TranscriptionEvent.maxTextBytes)
        #expect(t.characters == t.text.count)
        #expect(try decoded(TranscriptionEvent.make(transcription())).truncated == nil)
    }

    @Test func textThatEscapesSixfoldStillFits() throws {
        // Each control character is six bytes of JSON (\u0001).
        let escaped = String(repeating: "\u{1}é", count: 200_000)
        let event = try #require(TranscriptionEvent.make(transcription(text: escaped)))
        #expect(event.json.count <= PacketLimits.maxEventPayload)
        let t = try decoded(event)
        #expect(t.truncated == true && escaped.hasPrefix(t.text) && !t.text.isEmpty)
    }

    @Test func hostileSamplesAreCleanedOnTheWayIn() {
        var samples: [Float] = [.nan, .infinity, -.infinity, 3e38, -3e38, 0.5, -1.5, .signalingNaN]
        SegmentCollector.clean(&samples)
        #expect(samples == [0, 1, -1, 1, -1, 0.5, -1, 0])
    }
}
