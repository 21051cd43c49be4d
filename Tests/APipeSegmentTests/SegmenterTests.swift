import Testing

@testable import APipeSegment

/// Segmentation rules on constructed probability sequences (10 ms frames).
struct SegmenterTests {
    /// A sequence built from (seconds, probability) runs, with levels -20 dB where p >= 0.5 else -60 dB.
    static func frames(_ runs: [(Double, Float)]) -> [(Float, Float)] {
        runs.flatMap { seconds, p in
            Array(repeating: (p, p >= 0.5 ? Float(-20) : -60), count: Int((seconds * 100).rounded()))
        }
    }

    static func run(_ frames: [(Float, Float)], _ options: SegmenterOptions = SegmenterOptions()) throws -> [SegmenterEvent] {
        let segmenter = try Segmenter(options: options, frameDuration: 0.01)
        var events: [SegmenterEvent] = []
        for (p, level) in frames {
            let decided = segmenter.decidedUntil
            let before = events.count
            segmenter.push(probability: p, level: level, into: &events)
            for e in events[before...] { #expect(e.time >= decided - 1e-9, "event at \(e.time) before decided \(decided)") }
        }
        segmenter.finish(streamEnd: Double(frames.count) * 0.01, into: &events)
        return events
    }

    static func segments(_ events: [SegmenterEvent]) -> [Segment] {
        events.compactMap { if case .end(let s) = $0 { s } else { nil } }
    }

    @Test func oneUtteranceGetsPaddedOnBothSides() throws {
        let events = try Self.run(Self.frames([(1, 0.05), (1, 0.9), (1, 0.05)]))
        #expect(events.count == 2)
        #expect(events.first == .start(index: 0, time: 0.8))
        let s = try #require(Self.segments(events).first)
        #expect(abs(s.start - 0.8) < 1e-9 && abs(s.end - 2.2) < 1e-9)
        #expect(s.reason == .silence)
        let expected = (0.2 * 0.05 + 1.0 * 0.9 + 0.2 * 0.05) / 1.4
        #expect(abs((s.meanProbability ?? 0) - expected) < 1e-4)
    }

    @Test func speechShorterThanMinSpeechIsIgnored() throws {
        #expect(try Self.run(Self.frames([(1, 0), (0.2, 0.9), (1, 0)])).isEmpty)
        #expect(try Self.run(Self.frames([(1, 0), (0.3, 0.9), (1, 0)])).count == 2)
    }

    @Test func pausesShorterThanMinSilenceStayInsideTheSegment() throws {
        let short = Self.segments(try Self.run(Self.frames([(1, 0), (1, 0.9), (0.4, 0), (1, 0.9), (1, 0)])))
        #expect(short.count == 1)
        let long = Self.segments(try Self.run(Self.frames([(1, 0), (1, 0.9), (0.6, 0), (1, 0.9), (1, 0)])))
        #expect(long.count == 2)
        #expect(long.map(\.index) == [0, 1])
        #expect(long[0].end <= long[1].start)
    }

    @Test func hysteresisKeepsSpeechThroughShallowDips() throws {
        let dips = Self.segments(try Self.run(Self.frames([(1, 0), (1, 0.9), (0.8, 0.4), (1, 0.9), (1, 0)])))
        #expect(dips.count == 1)
        let strict = Self.segments(
            try Self.run(Self.frames([(1, 0), (1, 0.9), (0.8, 0.4), (1, 0.9), (1, 0)]), SegmenterOptions(threshold: 0.7)))
        #expect(strict.count == 2)
    }

    @Test func startIsNeverBeforeZeroNorBeforeThePreviousEnd() throws {
        let s = Self.segments(try Self.run(Self.frames([(0.05, 0), (1, 0.9), (0.55, 0), (1, 0.9), (1, 0)])))
        #expect(s.count == 2)
        #expect(s[0].start == 0)
        #expect(s[1].start >= s[0].end)
    }

    @Test func longSpeechIsCutAtTheQuietestPointNearMaxLength() throws {
        // 40 s of speech with a quiet (but still speech) moment at 28.5 s.
        var frames = Self.frames([(1, 0), (40, 0.9), (1, 0)])
        for i in 2950..<2953 { frames[i] = (0.9, -45) }
        let s = Self.segments(try Self.run(frames))
        #expect(s.count == 2)
        #expect(s[0].reason == .maxLength)
        #expect(abs(s[0].end - 29.51) < 0.015)
        #expect(s[1].start == s[0].end)
        #expect(s[1].reason == .silence)
        #expect(s.allSatisfy { $0.duration <= 30 + 1e-9 })
    }

    @Test func everySegmentOfEndlessSpeechRespectsMaxLength() throws {
        let s = Self.segments(try Self.run(Self.frames([(95, 0.9)]), SegmenterOptions(maxLength: 10)))
        #expect(s.count >= 10)
        #expect(s.dropLast().allSatisfy { $0.reason == .maxLength && $0.duration <= 10 + 1e-9 && $0.duration >= 10 - 3.34 })
        #expect(s.last?.reason == .endOfStream)
        for (a, b) in zip(s, s.dropFirst()) { #expect(a.end == b.start) }
    }

    @Test func streamEndingInSpeechClosesWithEndOfStream() throws {
        let s = Self.segments(try Self.run(Self.frames([(1, 0), (2, 0.9)])))
        #expect(s.count == 1)
        #expect(s[0].reason == .endOfStream)
        #expect(abs(s[0].end - 3.0) < 1e-9)
    }

    @Test func aggressivenessPicksTheThreshold() throws {
        let quiet = Self.frames([(1, 0), (1, 0.6), (1, 0)])
        #expect(Self.segments(try Self.run(quiet, SegmenterOptions(aggressiveness: 1))).count == 1)
        #expect(Self.segments(try Self.run(quiet, SegmenterOptions(aggressiveness: 3))).isEmpty)
        #expect(SegmenterOptions(aggressiveness: 0).effectiveThreshold == 0.35)
        #expect(SegmenterOptions(threshold: 0.42, aggressiveness: 3).effectiveThreshold == 0.42)
    }

    @Test func optionsOutOfRangeAreNamed() {
        #expect(throws: SegmenterOptionError.outOfRange(option: "threshold", value: 1.5, range: 0.01...0.99)) {
            try SegmenterOptions(threshold: 1.5).validate()
        }
        #expect(throws: SegmenterOptionError.self) { try SegmenterOptions(minSilence: -1).validate() }
        #expect(throws: SegmenterOptionError.self) { try SegmenterOptions(maxLength: .nan).validate() }
        #expect(throws: SegmenterOptionError.self) { try SegmenterOptions(fixed: 0).validate() }
        #expect(throws: SegmenterOptionError.self) { try SegmenterOptions(aggressiveness: 4).validate() }
        #expect(throws: SegmenterOptionError.self) { try SegmenterOptions(pad: 1, maxLength: 1.5).validate() }
        #expect(SegmenterOptionError.outOfRange(option: "threshold", value: 1.5, range: 0.01...0.99).description
            == "--threshold 1.5 is out of range (0.01 to 0.99)")
    }

    @Test func fixedLengthCutsFromTheFirstAudio() {
        var fixed = FixedSegmenter(length: 1)
        var events: [SegmenterEvent] = []
        fixed.advance(audioStart: 0.5, to: 1.2, into: &events)
        fixed.advance(audioStart: 0.5, to: 3.0, into: &events)
        fixed.finish(at: 3.0, into: &events)
        let s = Self.segments(events)
        #expect(s.map(\.start) == [0.5, 1.5, 2.5])
        #expect(s.map(\.end) == [1.5, 2.5, 3.0])
        #expect(s.map(\.reason) == [.fixed, .fixed, .endOfStream])
        #expect(s.allSatisfy { $0.meanProbability == nil })
        #expect(events.first == .start(index: 0, time: 0.5))
    }
}
