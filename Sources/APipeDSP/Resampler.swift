/// Streaming windowed-sinc sample-rate converter for interleaved float frames.
///
/// Rational ratios `outputRate/inputRate` (reduced to `up/down`) use one exact filter phase per
/// output position; ratios whose phase table would be too large interpolate between a fixed grid
/// of phases. Positions are integers, so the total output of a stream is exactly
/// `round(totalInput * outputRate / inputRate)` frames. Frames are frames per channel.
public struct Resampler: Sendable {
    /// Highest accepted sample rate in Hz.
    public static let maxRate = 1_536_000
    /// Highest accepted channel count.
    public static let maxChannels = 64
    /// Largest accepted ratio between the two rates, either way.
    public static let maxRatio = 64

    public let inputRate: Int
    public let outputRate: Int
    public let channels: Int
    public let quality: ResamplerQuality
    private let up: Int
    private let down: Int
    private var stage: ResamplerStage
    private var framesIn = 0
    private var framesOut = 0

    /// Creates a converter from `inputRate` to `outputRate` Hz for `channels` interleaved channels.
    public init(inputRate: Int, outputRate: Int, channels: Int, quality: ResamplerQuality) throws(ResamplerError) {
        for rate in [inputRate, outputRate] where !(1...Self.maxRate).contains(rate) {
            throw .invalidRate(rate)
        }
        guard (1...Self.maxChannels).contains(channels) else { throw .invalidChannelCount(channels) }
        guard inputRate <= outputRate * Self.maxRatio, outputRate <= inputRate * Self.maxRatio else {
            throw .ratioOutOfRange(inputRate: inputRate, outputRate: outputRate)
        }
        let g = Self.gcd(inputRate, outputRate)
        self.inputRate = inputRate
        self.outputRate = outputRate
        self.channels = channels
        self.quality = quality
        self.up = outputRate / g
        self.down = inputRate / g
        self.stage = ResamplerStage(up: up, down: down, channels: channels, spec: quality.spec)
    }

    /// Output frames that depend on input not yet seen (the filter's look-ahead), in output frames.
    public var latencyFrames: Int { (stage.lookahead * up + down - 1) / down }

    /// Consumes interleaved input frames, appends interleaved output frames to `output`; returns frames written.
    ///
    /// A trailing partial frame (count not a multiple of `channels`) is ignored.
    public mutating func process(_ input: UnsafeBufferPointer<Float>, into output: inout [Float]) -> Int {
        let frames = input.count / channels
        guard frames > 0, let base = input.baseAddress else { return 0 }
        var taken = 0, written = 0
        while taken < frames {
            taken += stage.push(base.advanced(by: taken * channels), frames: frames - taken)
            written += drain(into: &output, limit: Int.max)
        }
        framesIn += frames
        framesOut += written
        return written
    }

    /// Flushes the tail (end of stream) so total output = round(totalInput * ratio), then starts afresh.
    public mutating func finish(into output: inout [Float]) -> Int {
        let target = (framesIn * up + down / 2) / down
        var written = 0
        while framesOut + written < target {
            let n = drain(into: &output, limit: target - framesOut - written)
            if n == 0 { _ = stage.push(nil, frames: stage.room) }
            written += n
        }
        stage.reset()
        framesIn = 0
        framesOut = 0
        return written
    }

    /// Appends up to `limit` frames the stage can produce now.
    private mutating func drain(into output: inout [Float], limit: Int) -> Int {
        let count = min(limit, stage.available)
        guard count > 0 else { return 0 }
        let start = output.count
        output.append(contentsOf: repeatElement(0, count: count * channels))
        return output.withUnsafeMutableBufferPointer { out in
            stage.produce(into: out.baseAddress!.advanced(by: start), limit: count)
        }
    }

    private static func gcd(_ a: Int, _ b: Int) -> Int {
        var (a, b) = (a, b)
        while b != 0 { (a, b) = (b, a % b) }
        return a
    }
}
