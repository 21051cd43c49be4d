import APipeStream
import Foundation
import Testing
@testable import APipeTranscribe

@Suite struct TranscribeStageTests {
    private static func segments(_ count: Int, length: Double = 0.2, gap: Double = 0.1) -> [(Double, Double)] {
        (0..<count).map { i in
            let start = 0.1 + Double(i) * (length + gap)
            return (start, start + length)
        }
    }

    @Test func outputKeepsStreamOrderUnderRandomCompletionOrder() async throws {
        let spans = Self.segments(40)
        let input = TestStream.make(seconds: 0.1 + 40 * 0.3 + 0.2, segments: spans)
        let engine = ScriptedEngine { index, _, _ throws(EngineError) in
            try? await Task.sleep(for: .milliseconds(Int.random(in: 0...15)))
            return EngineResult(text: "segment \(index)")
        }
        let (packets, warnings) = try await runStage(makeStage([engine], jobs: 8), input: input)
        #expect(warnings.isEmpty)
        let events = TestStream.events(packets)
        let transcriptions = events.compactMap { try? $0.decode(Transcription.self) }
        #expect(transcriptions.map(\.index) == Array(0..<40))
        #expect(transcriptions.allSatisfy { $0.text == "segment \($0.index)" })
        // Each transcription comes right after its segment's end event.
        for (i, event) in events.enumerated() where event.type == Transcription.type {
            let end = try #require(try events[i - 1].decode(SegmentEnd.self))
            #expect(end.index == (try event.decode(Transcription.self))?.index)
        }
        // Audio passes through unchanged.
        let original = try TestStream.packets(input)
        #expect(TestStream.audio(packets) == TestStream.audio(original))
        #expect(events.filter { $0.type != Transcription.type } == TestStream.events(original))
    }

    @Test func aSlowEngineHoldsTheReaderBackInsteadOfGrowingMemory() async throws {
        let tracker = ProgressTracker()
        let maxPending = 4
        let peak = PeakCounter()
        let engine = ScriptedEngine { _, _, _ throws(EngineError) in
            let now = tracker.snapshot
            peak.observe(now.queued + now.inFlight)
            try? await Task.sleep(for: .milliseconds(10))
            return EngineResult(text: "x")
        }
        let transcriber = SegmentTranscriber(engines: [engine], policy: RetryPolicy(retries: 0))
        let stage = TranscribeStage(transcriber: transcriber, jobs: 2, maxPendingSegments: maxPending, tracker: tracker)
        let input = TestStream.make(seconds: 0.1 + 30 * 0.3, segments: Self.segments(30))
        let (packets, _) = try await runStage(stage, input: input)
        #expect(TestStream.events(packets).filter { $0.type == Transcription.type }.count == 30)
        #expect(peak.value <= maxPending + 1)
        #expect(peak.value >= 2)
    }

    @Test func aFailedSegmentGetsAFailureEventAndTheRestGoOn() async throws {
        let engine = ScriptedEngine { index, _, _ throws(EngineError) in
            if index == 1 { throw .rejected(status: 400, message: "bad file") }
            return EngineResult(text: "ok \(index)")
        }
        let input = TestStream.make(seconds: 1.2, segments: Self.segments(3))
        let (packets, warnings) = try await runStage(makeStage([engine]), input: input)
        let events = TestStream.events(packets)
        #expect(events.compactMap { try? $0.decode(Transcription.self) }.map(\.index) == [0, 2])
        let failed = try #require(events.compactMap { try? $0.decode(TranscriptionFailed.self) }.first)
        #expect(failed.index == 1 && !failed.retryable && !failed.pending && failed.retries == 0)
        #expect(failed.error.contains("HTTP 400") && failed.error.contains("bad file"))
        #expect(warnings.contains { $0.contains("segment 1 failed") })
    }

    @Test func transcriptionFieldsAreFilledIn() async throws {
        let engine = ScriptedEngine { _, _, _ throws(EngineError) in
            EngineResult(text: " hello there world ", language: "en", confidence: 0.8, phrases: [TranscriptPhrase(start: 0, end: 0.1, text: "hello there")])
        }
        let (packets, _) = try await runStage(makeStage([engine]), input: TestStream.make(seconds: 1, segments: [(0.5, 0.75)]))
        let t = try #require(TestStream.events(packets).compactMap { try? $0.decode(Transcription.self) }.first)
        #expect(t.text == "hello there world" && t.words == 3 && t.characters == 17)
        #expect(t.language == "en" && t.confidence == 0.8 && t.provider == "scripted-scripted" && t.model == "m-scripted")
        #expect(t.phrases == [TranscriptPhrase(start: 0.5, end: 0.6, text: "hello there")])
        #expect(t.start == 0.5 && t.end == 0.75 && t.session == TestStream.session && t.processingTime >= 0)
    }

    @Test func anInterruptedInputKeepsWhatArrivedAndIsMarked() async throws {
        let engine = ScriptedEngine { index, _, _ throws(EngineError) in EngineResult(text: "t\(index)") }
        let input = TestStream.make(seconds: 1, segments: [(0.1, 0.3), (0.5, 5)], end: false)
        let writer = StreamWriter()
        await #expect(throws: StreamError.self) {
            try await makeStage([engine]).run(reader: StreamReader(bytes: input), sink: StreamSink(writer), warn: { _ in })
        }
        let reader = StreamReader(bytes: writer.collected)
        var events: [Event] = []
        do {
            while let packet = try reader.next() { if case .event(let e) = packet { events.append(e) } }
        } catch {}
        #expect(events.compactMap { try? $0.decode(Transcription.self) }.map(\.index) == [0, 1])
        #expect(events.last?.type == StreamInterrupted.type)
    }

    @Test func jsonLinesHoldOnlyTranscriptionEvents() async throws {
        let engine = ScriptedEngine { index, _, _ throws(EngineError) in EngineResult(text: "t\(index)") }
        let sink = JSONLinesSink()
        try await makeStage([engine]).run(reader: StreamReader(bytes: TestStream.make(seconds: 1, segments: Self.segments(3))), sink: sink, warn: { _ in })
        let lines = String(decoding: sink.collected, as: UTF8.self).split(separator: "\n")
        #expect(lines.count == 3)
        #expect(lines.allSatisfy { $0.contains("\"type\":\"transcription\"") })
    }

    @Test func progressCountsEverySegment() async throws {
        let tracker = ProgressTracker()
        let engine = ScriptedEngine { index, _, _ throws(EngineError) in
            if index == 0 { throw .badAudio("no") }
            return EngineResult(text: "t")
        }
        let transcriber = SegmentTranscriber(engines: [engine], policy: RetryPolicy(retries: 0))
        let stage = TranscribeStage(transcriber: transcriber, jobs: 2, tracker: tracker)
        _ = try await runStage(stage, input: TestStream.make(seconds: 1.2, segments: Self.segments(3)))
        let snapshot = tracker.snapshot
        #expect(snapshot.done == 2 && snapshot.failed == 1 && snapshot.queued == 0 && snapshot.inFlight == 0)
        #expect(abs(snapshot.audioSeconds - 0.6) < 0.01)
        let json = ProgressPrinter.json(snapshot, final: true)
        #expect(json.contains("\"done\":2") && json.contains("\"final\":true"))
    }
}

final class PeakCounter: @unchecked Sendable {
    private let lock = NSLock()
    private var peak = 0
    func observe(_ value: Int) { lock.lock(); peak = max(peak, value); lock.unlock() }
    var value: Int { lock.lock(); defer { lock.unlock() }; return peak }
}
