/// Why a segment ended.
public enum SegmentEndReason: String, Sendable, Equatable, CaseIterable {
    /// Speech was followed by at least `minSilence` of non-speech.
    case silence
    /// The segment reached `maxLength` and was cut at the quietest point near its end.
    case maxLength = "max-length"
    /// Fixed-length cutting (`--fixed`).
    case fixed
    /// The stream ended while the segment was open.
    case endOfStream = "end-of-stream"
}

/// One finished segment; times in seconds from the session start.
public struct Segment: Sendable, Equatable {
    /// 0-based, in order of start.
    public var index: Int
    public var start: Double
    public var end: Double
    /// Mean speech probability over the segment's frames; nil in fixed-length mode (no VAD).
    public var meanProbability: Double?
    public var reason: SegmentEndReason

    public init(index: Int, start: Double, end: Double, meanProbability: Double?, reason: SegmentEndReason) {
        self.index = index
        self.start = start
        self.end = end
        self.meanProbability = meanProbability
        self.reason = reason
    }

    /// Length in seconds.
    public var duration: Double { end - start }
}

/// What a segmenter reports, in time order.
public enum SegmenterEvent: Sendable, Equatable {
    /// Segment `index` begins at `time`.
    case start(index: Int, time: Double)
    /// A segment ended.
    case end(Segment)

    /// The time the event marks.
    public var time: Double {
        switch self {
        case .start(_, let time): time
        case .end(let segment): segment.end
        }
    }
}
