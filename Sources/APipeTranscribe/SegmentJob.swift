/// One segment waiting for its text: where it lies in its session and its audio.
public struct SegmentJob: Sendable {
    public var session: String
    public var index: Int
    /// Seconds from the session's start.
    public var start: Double
    public var end: Double
    public var audio: SegmentAudio

    public init(session: String, index: Int, start: Double, end: Double, audio: SegmentAudio) {
        self.session = session
        self.index = index
        self.start = start
        self.end = end
        self.audio = audio
    }
}
