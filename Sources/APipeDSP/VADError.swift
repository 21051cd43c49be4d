/// Why a VAD could not be set up.
public enum VADError: Error, Equatable, Sendable, CustomStringConvertible {
    /// The sample rate is outside what the VAD analyses.
    case unsupportedSampleRate(Double)
    /// The channel count is zero, negative or absurd.
    case unsupportedChannelCount(Int)
    /// The hop is shorter than 10 ms or longer than 1 s.
    case unsupportedHop(Double)
    /// Aggressiveness is not 0, 1, 2 or 3.
    case unsupportedAggressiveness(Int)

    public var description: String {
        switch self {
        case .unsupportedSampleRate(let rate):
            return "VAD: sample rate \(rate) Hz is outside 4000...768000 Hz"
        case .unsupportedChannelCount(let channels):
            return "VAD: channel count \(channels) is outside 1...256"
        case .unsupportedHop(let hop):
            return "VAD: frame hop \(hop) s is outside 0.01...1 s"
        case .unsupportedAggressiveness(let level):
            return "VAD: aggressiveness \(level) is outside 0...3"
        }
    }
}
