/// Fixed-length cutting without a VAD: segments of `length` seconds from the first audio on.
public struct FixedSegmenter: Sendable {
    public let length: Double
    private var origin: Double?
    private var boundary = 0
    private(set) public var nextIndex: Int

    /// Cuts every `length` seconds (> 0); the first segment gets index `firstIndex`.
    public init(length: Double, firstIndex: Int = 0) {
        self.length = length
        nextIndex = firstIndex
    }

    /// Audio now reaches `time` (seconds); audio started at `audioStart`. Appends the boundaries passed.
    public mutating func advance(audioStart: Double, to time: Double, into events: inout [SegmenterEvent]) {
        if origin == nil {
            origin = audioStart
            events.append(.start(index: nextIndex, time: audioStart))
        }
        guard let origin else { return }
        while origin + Double(boundary + 1) * length < time {
            let start = origin + Double(boundary) * length, end = origin + Double(boundary + 1) * length
            events.append(.end(Segment(index: nextIndex, start: start, end: end, meanProbability: nil, reason: .fixed)))
            nextIndex += 1
            boundary += 1
            events.append(.start(index: nextIndex, time: end))
        }
    }

    /// The stream (or this format) ended at `time`: closes the open segment, if any.
    public mutating func finish(at time: Double, into events: inout [SegmenterEvent]) {
        guard let origin else { return }
        let start = origin + Double(boundary) * length
        events.append(.end(Segment(index: nextIndex, start: start, end: max(time, start), meanProbability: nil, reason: .endOfStream)))
        nextIndex += 1
        self.origin = nil
        boundary = 0
    }
}
