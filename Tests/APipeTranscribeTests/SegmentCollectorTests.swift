import APipeStream
import Testing
@testable import APipeTranscribe

@Suite struct SegmentCollectorTests {
    private func collect(_ bytes: [UInt8], window: Double = 30) throws -> [SegmentCollector.Item] {
        var collector = SegmentCollector(windowSeconds: window)
        var items: [SegmentCollector.Item] = []
        let reader = StreamReader(bytes: bytes)
        // An unfinished stream ends in an error after its last packet; the collector drains then.
        while let packet = try? reader.next() { items += collector.consume(packet) }
        items += collector.finish()
        return items
    }

    private func jobs(_ items: [SegmentCollector.Item]) -> [SegmentJob] {
        items.compactMap { if case .job(let j) = $0 { j } else { nil } }
    }

    @Test func segmentAudioIsCutAtTheSegmentTimes() throws {
        let items = try collect(TestStream.make(seconds: 3, segments: [(0.5, 1.25), (2.0, 2.9)]))
        let found = jobs(items)
        #expect(found.map(\.index) == [0, 1])
        #expect(found[0].audio.samples.count == 12000)
        #expect(found[1].audio.samples.count == 14400)
        #expect(found[0].audio.samples.allSatisfy { $0 == TestStream.marker(0) })
        #expect(found[1].start == 2.0 && found[1].end == 2.9)
    }

    @Test func aJobFollowsItsSegmentEnd() throws {
        let items = try collect(TestStream.make(seconds: 2, segments: [(0.5, 1.0)]))
        let position = items.firstIndex { if case .job = $0 { true } else { false } }
        let previous = position.map { items[$0 - 1] }
        guard case .packet(.event(let event)) = previous else { Issue.record("no event before the job"); return }
        #expect(event.type == SegmentEnd.type)
    }

    @Test func audioBeforeALateStartEventIsKept() throws {
        // The start event for 0.5 s arrives only at 1.0 s, as a VAD with look-ahead writes it.
        let writer = StreamWriter()
        try writer.write(event: TestStream.sessionStart(rate: 1000))
        try writer.write(format: AudioFormat(encoding: .s16le, rate: 1000, channels: 1))
        var scratch: [UInt8] = []
        let samples = [Float](repeating: 0.25, count: 1000)
        try samples.withUnsafeBufferPointer { try writer.writeAudio(position: 0, samples: $0, scratch: &scratch) }
        try writer.write(event: SegmentStart(session: TestStream.session, index: 0, start: 0.5))
        try samples.withUnsafeBufferPointer { try writer.writeAudio(position: 1000, samples: $0, scratch: &scratch) }
        try writer.write(event: SegmentEnd(session: TestStream.session, index: 0, start: 0.5, end: 1.5, probability: nil, reason: "silence"))
        try writer.finish()
        let found = jobs(try collect(writer.collected))
        #expect(found.count == 1)
        #expect(found.first?.audio.samples.count == 1000)
    }

    @Test func aSessionWithoutSegmentsIsCutIntoWindows() throws {
        let items = try collect(TestStream.make(seconds: 2.5), window: 1)
        let found = jobs(items)
        #expect(found.map(\.index) == [0, 1, 2])
        #expect(found.map(\.audio.samples.count) == [16000, 16000, 8000])
        #expect(found.map(\.start) == [0, 1, 2])
        let ends = items.compactMap { item -> SegmentEnd? in
            if case .packet(.event(let e)) = item { try? e.decode(SegmentEnd.self) } else { nil }
        }
        #expect(ends.map(\.reason) == ["fixed", "fixed", "fixed"])
        #expect(ends.last?.end == 2.5)
    }

    @Test func stereoIsMixedToMono() throws {
        let found = jobs(try collect(TestStream.make(seconds: 1, segments: [(0.2, 0.4)], channels: 2)))
        #expect(found.first?.audio.samples.count == 3200)
        #expect(found.first?.audio.samples.first == TestStream.marker(0))
    }

    @Test func aSessionWithNoAudioIsReported() throws {
        let writer = StreamWriter()
        try writer.write(event: TestStream.sessionStart(rate: 16000))
        try writer.write(event: SessionEnd(session: TestStream.session, duration: 0, frames: 0, interrupted: false))
        try writer.finish()
        let items = try collect(writer.collected)
        #expect(jobs(items).isEmpty)
        let warnings = items.compactMap { if case .warning(let w) = $0 { w } else { nil } }
        #expect(warnings.count == 1 && warnings[0].contains("no audio"))
    }

    @Test func anOpenSegmentAtTheEndIsTranscribedWithWhatArrived() throws {
        let found = jobs(try collect(TestStream.make(seconds: 1, segments: [(0.5, 5)], end: false)))
        #expect(found.count == 1)
        #expect(found.first?.audio.samples.count == 8000)
    }

    @Test func piecesSplitEquallyUnderTheLimit() {
        let pieces = SegmentTranscriber.pieces(duration: 600, limit: 250)
        #expect(pieces.count == 3)
        #expect(pieces.last?.upperBound == 600)
        #expect(pieces.allSatisfy { $0.upperBound - $0.lowerBound <= 250 })
        #expect(SegmentTranscriber.pieces(duration: 10, limit: nil) == [0..<10])
    }

    @Test func resamplingKeepsDurationAndLevel() {
        let tone = SegmentAudio(samples: (0..<44100).map { Float(sin(Double($0) * 2 * .pi * 440 / 44100)) * 0.5 }, rate: 44100)
        let out = tone.resampled(to: 16000)
        #expect(abs(out.samples.count - 16000) <= 2)
        let peak = out.samples[100..<15900].map(abs).max() ?? 0
        #expect(abs(peak - 0.5) < 0.02)
    }

    @Test func wavHeaderDescribesTheSamples() {
        let wav = SegmentAudio(samples: [0, 0.5, -0.5], rate: 16000).wav()
        #expect(wav.count == 50)
        #expect(Array(wav[0..<4]) == Array("RIFF".utf8))
        #expect(Array(wav[36..<40]) == Array("data".utf8))
        #expect(wav[40] == 6)
    }
}

import Foundation
