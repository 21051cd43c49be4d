/// Turns a stream of per-frame speech probabilities and levels into segment boundaries.
///
/// Rules, in frames of `frameDuration` seconds: a frame at or above the threshold starts a
/// candidate; frames at or above `threshold - 0.15` keep it alive. A candidate whose span from
/// first to last speech frame reaches `minSpeech` opens a segment `pad` before its first speech
/// frame (never before the previous segment's end, nor before 0). A segment closes `pad` after
/// its last speech frame once `minSilence` has passed without speech. A segment that reaches
/// `maxLength` is cut at the quietest frame (3-frame mean level, the latest of equals) of its last `maxLengthSearch`
/// seconds and the next segment starts there. Memory is bounded by the search window, not by
/// the segment or stream length.
public final class Segmenter {
    public let options: SegmenterOptions
    /// Seconds per frame.
    public let frameDuration: Double

    private enum State {
        case idle
        case candidate(onset: Int, lastSpeech: Int)
        case active(start: Int, lastSpeech: Int, cumulativeAtStart: Double)
    }

    private var state = State.idle
    private var frame = 0
    private var lastEnd = 0
    private let threshold: Float
    private let continueThreshold: Float
    private let minSpeechFrames: Int
    private let minSilenceFrames: Int
    private let padFrames: Int
    private let maxFrames: Int
    private let searchFrames: Int
    /// Ring of the last `ringSize` frames: level, and the probability sum before each frame.
    private var levels: [Float]
    private var cumulative: [Double]
    private let ringSize: Int
    private var total = 0.0

    /// Creates a segmenter for frames of `frameDuration` seconds whose first segment gets index
    /// `firstIndex`; the options must validate.
    public init(options: SegmenterOptions, frameDuration: Double, firstIndex: Int = 0) throws(SegmenterOptionError) {
        try options.validate()
        guard frameDuration.isFinite, frameDuration >= 0.001, frameDuration <= 1 else {
            throw .outOfRange(option: "frame", value: frameDuration, range: 0.001...1)
        }
        self.options = options
        self.frameDuration = frameDuration
        nextIndex = firstIndex
        threshold = Float(options.effectiveThreshold)
        continueThreshold = max(0.01, threshold - 0.15)
        func frames(_ seconds: Double) -> Int { Int((seconds / frameDuration).rounded()) }
        minSpeechFrames = max(1, frames(options.minSpeech))
        minSilenceFrames = max(1, frames(options.minSilence))
        padFrames = frames(options.pad)
        maxFrames = max(2, frames(options.maxLength))
        searchFrames = max(1, frames(options.maxLengthSearch))
        ringSize = searchFrames + padFrames + minSilenceFrames + minSpeechFrames + 8
        levels = .init(repeating: 0, count: ringSize)
        cumulative = .init(repeating: 0, count: ringSize)
    }

    /// Frames pushed so far.
    public var frameCount: Int { frame }

    /// Index the next segment will get.
    public private(set) var nextIndex: Int

    /// Time up to which everything is decided: no event will come with an earlier time, so audio
    /// before it can go downstream.
    public var decidedUntil: Double { Double(decidedFrame) * frameDuration }

    private var decidedFrame: Int {
        switch state {
        case .idle:
            return max(lastEnd, frame - padFrames)
        case .candidate(let onset, _):
            return max(lastEnd, min(onset - padFrames, frame - padFrames))
        case .active(let start, let lastSpeech, _):
            return max(start, min(frame, lastSpeech + 1 + padFrames, start + maxFrames - searchFrames))
        }
    }

    /// Takes the next frame's speech probability and level (dB); appends any events to `events`.
    public func push(probability: Float, level: Float, into events: inout [SegmenterEvent]) {
        let i = frame
        cumulative[i % ringSize] = total
        levels[i % ringSize] = level
        total += Double(probability)
        frame += 1
        let speech = probability >= threshold
        let continuing = probability >= continueThreshold
        switch state {
        case .idle:
            if speech {
                state = .candidate(onset: i, lastSpeech: i)
                confirmIfLongEnough(into: &events)
            }
        case .candidate(let onset, var lastSpeech):
            if continuing { lastSpeech = i }
            if i - lastSpeech >= minSilenceFrames {
                state = .idle
            } else {
                state = .candidate(onset: onset, lastSpeech: lastSpeech)
                confirmIfLongEnough(into: &events)
            }
        case .active(let start, var lastSpeech, let cumulativeAtStart):
            if continuing { lastSpeech = i }
            state = .active(start: start, lastSpeech: lastSpeech, cumulativeAtStart: cumulativeAtStart)
            let end = lastSpeech + 1 + padFrames
            if i - lastSpeech >= minSilenceFrames, frame >= end {
                close(end: end, reason: .silence, into: &events)
            } else if frame - start >= maxFrames {
                cut(start: start, lastSpeech: lastSpeech, into: &events)
            }
        }
    }

    /// Ends the stream at `streamEnd` seconds: closes an open segment (reason end-of-stream) and
    /// drops a candidate too short to be speech.
    public func finish(streamEnd: Double, into events: inout [SegmenterEvent]) {
        if case .active(_, let lastSpeech, _) = state {
            let end = min(lastSpeech + 1 + padFrames, frame)
            close(end: end, reason: .endOfStream, into: &events, endTime: min(Double(end) * frameDuration, streamEnd))
        }
        state = .idle
    }

    private func confirmIfLongEnough(into events: inout [SegmenterEvent]) {
        guard case .candidate(let onset, let lastSpeech) = state, lastSpeech - onset + 1 >= minSpeechFrames else { return }
        let start = max(onset - padFrames, lastEnd, 0, frame - ringSize + 1)
        events.append(.start(index: nextIndex, time: Double(start) * frameDuration))
        state = .active(start: start, lastSpeech: lastSpeech, cumulativeAtStart: cumulative[start % ringSize])
    }

    private func close(end: Int, reason: SegmentEndReason, into events: inout [SegmenterEvent], endTime: Double? = nil) {
        guard case .active(let start, _, let cumulativeAtStart) = state else { return }
        let end = max(end, start + 1)
        let sumToEnd = end >= frame ? total : cumulative[end % ringSize]
        let mean = (sumToEnd - cumulativeAtStart) / Double(min(end, frame) - start)
        let segment = Segment(
            index: nextIndex, start: Double(start) * frameDuration, end: endTime ?? Double(end) * frameDuration,
            meanProbability: mean, reason: reason)
        events.append(.end(segment))
        nextIndex += 1
        lastEnd = end
        state = .idle
    }

    /// Cuts a segment that reached maxLength at its quietest recent frame and opens the next.
    private func cut(start: Int, lastSpeech: Int, into events: inout [SegmenterEvent]) {
        let from = max(start + 1, frame - searchFrames)
        var best = frame
        var bestLevel = Float.greatestFiniteMagnitude
        for c in from..<frame {
            let before = levels[max(c - 1, from) % ringSize], after = levels[min(c + 1, frame - 1) % ringSize]
            let smoothed = before + levels[c % ringSize] + after
            if smoothed <= bestLevel {
                bestLevel = smoothed
                best = c
            }
        }
        close(end: best, reason: .maxLength, into: &events)
        events.append(.start(index: nextIndex, time: Double(best) * frameDuration))
        state = .active(start: best, lastSpeech: max(lastSpeech, best), cumulativeAtStart: cumulative[best % ringSize])
    }
}
