/// Why a `Resampler` could not be created.
public enum ResamplerError: Error, Equatable, Sendable, CustomStringConvertible {
    case invalidRate(Int)
    case invalidChannelCount(Int)
    case ratioOutOfRange(inputRate: Int, outputRate: Int)

    public var description: String {
        switch self {
        case .invalidRate(let rate):
            "resampler: sample rate \(rate) Hz is out of range (1...\(Resampler.maxRate))"
        case .invalidChannelCount(let count):
            "resampler: channel count \(count) is out of range (1...\(Resampler.maxChannels))"
        case .ratioOutOfRange(let inRate, let outRate):
            "resampler: ratio \(inRate) Hz -> \(outRate) Hz is beyond 1:\(Resampler.maxRatio) either way"
        }
    }
}
