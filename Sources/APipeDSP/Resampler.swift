/// Streaming windowed-sinc sample-rate converter for interleaved float frames.
///
/// Rational ratios `outputRate/inputRate` (reduced to `up/down`) use one exact filter phase per
/// output position; ratios whose phase table would be too large interpolate between a fixed grid
/// of phases. Conversions whose direct filter would be long first go through an FFT overlap-save
/// low-pass (`ResamplerPrefilter`, at twice the input rate when converting up) so the polyphase
/// stage after it needs only a wide transition band and a few taps.
/// Positions are integers, so the total output of a stream is exactly
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
    private var prefilter: (any ResamplerChunkFilter)?
    /// One prefilter chunk of interleaved frames, passed on to `stage`.
    private var scratch: [Float] = []
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
        let spec = quality.spec
        if ResamplerFilterBank.taps(up: up, down: down, spec: spec) * up >= Self.prefilterThreshold * down {
            // The prefilter runs at rate r1 and band-limits to b0 (the lower Nyquist frequency);
            // the polyphase stage r1 -> outputRate then only rejects images from r1 - b0 up.
            let stuffing = up > down ? 2 : 1
            let r1 = stuffing * inputRate
            let b0 = Double(min(inputRate, outputRate)) / 2
            let scale = b0 / Double(r1)
            // Two filters in a row: each gets a margin so the pair still meets the preset.
            let attenuation = spec.attenuation + 10
            let cutoff = scale * (spec.passEdge + spec.stopEdge) / 2
            let transition = scale * (spec.stopEdge - spec.passEdge)
            let filter: any ResamplerChunkFilter = spec.needsDouble
                ? ResamplerPrefilter<Double>(
                    channels: channels, stuffing: stuffing, cutoff: cutoff, transition: transition,
                    attenuation: attenuation)
                : ResamplerPrefilter<Float>(
                    channels: channels, stuffing: stuffing, cutoff: cutoff, transition: transition,
                    attenuation: attenuation)
            let lower = Double(min(r1, outputRate)) / 2
            let wide = ResamplerFilterSpec(
                passEdge: spec.passEdge * b0 / lower, stopEdge: (Double(r1) - b0) / lower,
                attenuation: attenuation)
            let g1 = Self.gcd(r1, outputRate)
            self.stage = ResamplerStage(
                up: outputRate / g1, down: r1 / g1, channels: channels, spec: wide, double: spec.needsDouble)
            self.scratch = [Float](repeating: 0, count: filter.chunk * channels)
            self.prefilter = filter
        } else {
            self.stage = ResamplerStage(up: up, down: down, channels: channels, spec: spec, double: spec.needsDouble)
        }
    }

    /// Direct multiply-adds per input frame beyond which the FFT prefilter is cheaper: measured
    /// (bench/resample) as cheaper for every preset and ratio of the bench, so only very short
    /// direct filters stay single-stage.
    static let prefilterThreshold = 48

    /// Output frames that depend on input not yet seen (the filter's look-ahead), in output frames.
    public var latencyFrames: Int {
        ((stage.lookahead + (prefilter?.latency ?? 0)) * stage.up + stage.down - 1) / stage.down
    }

    /// Consumes interleaved input frames, appends interleaved output frames to `output`; returns frames written.
    ///
    /// A trailing partial frame (count not a multiple of `channels`) is ignored.
    public mutating func process(_ input: UnsafeBufferPointer<Float>, into output: inout [Float]) -> Int {
        let frames = input.count / channels
        guard frames > 0, let base = input.baseAddress else { return 0 }
        var taken = 0, written = 0
        while taken < frames {
            if prefilter == nil {
                taken += stage.push(base.advanced(by: taken * channels), frames: frames - taken)
                written += drain(into: &output, limit: Int.max)
            } else {
                taken += prefilter!.push(base.advanced(by: taken * channels), frames: frames - taken)
                if prefilter!.isFull { written += runPrefilter(into: &output, limit: Int.max) }
            }
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
            written += n
            guard n == 0 else { continue }
            if prefilter == nil {
                _ = stage.push(nil, frames: stage.room)
            } else {
                _ = prefilter!.push(nil, frames: Int.max)
                written += runPrefilter(into: &output, limit: target - framesOut - written)
            }
        }
        stage.reset()
        prefilter?.reset()
        framesIn = 0
        framesOut = 0
        return written
    }

    /// Filters the prefilter's complete chunk and passes it through `stage`; returns frames written.
    private mutating func runPrefilter(into output: inout [Float], limit: Int) -> Int {
        var chunkFrames: [Float] = []
        swap(&chunkFrames, &scratch)
        defer { swap(&chunkFrames, &scratch) }
        chunkFrames.withUnsafeMutableBufferPointer { prefilter!.run(into: $0.baseAddress!) }
        let frames = prefilter!.chunk
        var fed = 0, written = 0
        while fed < frames, written < limit {
            fed += chunkFrames.withUnsafeBufferPointer {
                stage.push($0.baseAddress!.advanced(by: fed * channels), frames: frames - fed)
            }
            written += drain(into: &output, limit: limit - written)
        }
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
