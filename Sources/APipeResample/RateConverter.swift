import APipeAudio
import APipeDSP

/// A streaming sample-rate converter over interleaved float frames (frames per channel).
public protocol RateConverter: AnyObject {
    /// Appends the output for `input` to `output`.
    func process(_ input: UnsafeBufferPointer<Float>, into output: inout [Float]) throws
    /// Appends the tail; afterwards the total output is exactly round(total input x ratio).
    func finish(into output: inout [Float]) throws
}

/// Which resampler does the work.
public enum ResampleEngine: String, Sendable, CaseIterable {
    /// The DSP core's SIMD resampler (the default).
    case apipe
    /// libsamplerate, the quality reference.
    case libsamplerate

    /// The largest ratio between two rates one converter of this engine takes, either way.
    public var maxRatio: Int {
        switch self {
        case .apipe: Resampler.maxRatio
        case .libsamplerate: SampleRateConverter.maxRatio
        }
    }

    /// Builds this engine's converter for a rate change: one converter, or a chain of them
    /// through intermediate rates when the ratio is beyond `maxRatio`.
    public func converter(inputRate: Int, outputRate: Int, channels: Int, quality: ResampleQuality) throws -> any RateConverter {
        let rates = CascadeRateConverter.rates(from: inputRate, to: outputRate, maxRatio: maxRatio)
        let steps = try zip(rates, rates.dropFirst()).map { step in
            try single(inputRate: step.0, outputRate: step.1, channels: channels, quality: quality)
        }
        guard steps.count > 1 else { return steps[0] }
        return CascadeRateConverter(steps: steps, channels: channels, ratio: Double(outputRate) / Double(inputRate))
    }

    private func single(inputRate: Int, outputRate: Int, channels: Int, quality: ResampleQuality) throws -> any RateConverter {
        switch self {
        case .apipe:
            return try DSPRateConverter(inputRate: inputRate, outputRate: outputRate, channels: channels, quality: quality)
        case .libsamplerate:
            return try LibsamplerateRateConverter(inputRate: inputRate, outputRate: outputRate, channels: channels, quality: quality)
        }
    }
}

/// The DSP core's resampler, which keeps exact lengths itself.
final class DSPRateConverter: RateConverter {
    private var resampler: Resampler

    init(inputRate: Int, outputRate: Int, channels: Int, quality: ResampleQuality) throws {
        let preset = ResamplerQuality(rawValue: quality.rawValue) ?? .high
        resampler = try Resampler(inputRate: inputRate, outputRate: outputRate, channels: channels, quality: preset)
    }

    func process(_ input: UnsafeBufferPointer<Float>, into output: inout [Float]) throws {
        _ = resampler.process(input, into: &output)
    }

    func finish(into output: inout [Float]) throws {
        _ = resampler.finish(into: &output)
    }
}

/// libsamplerate, with the tail made exact: its filter rings into silence fed past the
/// filter's reach, and the total is cut at round(total input x ratio).
final class LibsamplerateRateConverter: RateConverter {
    private let converter: SampleRateConverter
    private let channels: Int
    private let inputRate: Int
    private var inputFrames = 0
    private var outputFrames = 0

    init(inputRate: Int, outputRate: Int, channels: Int, quality: ResampleQuality) throws {
        let preset = SampleRateConverter.Quality(rawValue: quality.rawValue) ?? .high
        converter = try SampleRateConverter(inputRate: inputRate, outputRate: outputRate, channels: channels, quality: preset)
        self.channels = channels
        self.inputRate = inputRate
    }

    func process(_ input: UnsafeBufferPointer<Float>, into output: inout [Float]) throws {
        let before = output.count
        try converter.process(input, endOfInput: false, into: &output)
        inputFrames += input.count / channels
        outputFrames += (output.count - before) / channels
    }

    func finish(into output: inout [Float]) throws {
        let before = output.count
        let silence = [Float](repeating: 0, count: max(4096, inputRate / 10) * channels)
        try silence.withUnsafeBufferPointer { try converter.process($0, endOfInput: true, into: &output) }
        let owed = max(0, Int((Double(inputFrames) * converter.ratio).rounded()) - outputFrames)
        output.removeLast(max(0, output.count - before - owed * channels))
        outputFrames += owed
    }
}
