/// How a `VAD` is set up: input format, frame hop and how readily it calls a frame speech.
public struct VADConfiguration: Sendable, Equatable {
    /// Input sample rate in Hz (4 kHz to 768 kHz; 8, 16, 22.05, 44.1 and 48 kHz are the tested ones).
    public var sampleRate: Double
    /// Interleaved input channels; the VAD listens to their mean.
    public var channels: Int
    /// Time between frame decisions in seconds, at least 0.01; rounded to whole samples.
    public var hop: Double
    /// 0 (keeps the most speech) to 3 (rejects the most non-speech), as WebRTC's modes.
    public var aggressiveness: Int

    public init(sampleRate: Double, channels: Int = 1, hop: Double = 0.01, aggressiveness: Int = 1) {
        self.sampleRate = sampleRate
        self.channels = channels
        self.hop = hop
        self.aggressiveness = aggressiveness
    }

    /// Checks every field, naming the first that is out of range.
    public func validate() throws(VADError) {
        guard sampleRate.isFinite, sampleRate >= 4000, sampleRate <= 768_000 else {
            throw .unsupportedSampleRate(sampleRate)
        }
        guard channels >= 1, channels <= 256 else { throw .unsupportedChannelCount(channels) }
        guard hop.isFinite, hop >= 0.01 - 1e-9, hop <= 1 else { throw .unsupportedHop(hop) }
        guard (0...3).contains(aggressiveness) else { throw .unsupportedAggressiveness(aggressiveness) }
    }
}
