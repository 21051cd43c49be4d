import APipeAudio

/// A streaming sample-rate converter over interleaved float frames (frames per channel).
public protocol RateConverter: AnyObject {
    /// Converts `input`, appending output frames; with `endOfInput` the tail is flushed too.
    func convert(_ input: UnsafeBufferPointer<Float>, endOfInput: Bool, into output: inout [Float]) throws
}

extension SampleRateConverter: RateConverter {
    public func convert(_ input: UnsafeBufferPointer<Float>, endOfInput: Bool, into output: inout [Float]) throws {
        try process(input, endOfInput: endOfInput, into: &output)
    }
}

/// Builds the converter for a rate change.
public enum RateConverterFactory {
    public static func make(inputRate: Int, outputRate: Int, channels: Int, quality: ResampleQuality) throws -> any RateConverter {
        let preset = SampleRateConverter.Quality(rawValue: quality.rawValue) ?? .high
        return try SampleRateConverter(inputRate: inputRate, outputRate: outputRate, channels: channels, quality: preset)
    }
}
