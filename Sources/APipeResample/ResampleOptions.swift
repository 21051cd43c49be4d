import APipeStream

/// What `aresample` produces; nil fields keep the input's value.
public struct ResampleOptions: Sendable {
    public var rate: Int?
    public var channels: Int?
    public var encoding: SampleEncoding?
    public var quality: ResampleQuality

    public init(rate: Int? = nil, channels: Int? = nil, encoding: SampleEncoding? = nil, quality: ResampleQuality = .high) {
        self.rate = rate
        self.channels = channels
        self.encoding = encoding
        self.quality = quality
    }

    /// The output format for a given input format.
    public func outputFormat(for input: AudioFormat) throws(FormatError) -> AudioFormat {
        try AudioFormat(encoding: encoding ?? input.encoding, rate: rate ?? input.rate, channels: channels ?? input.channels)
    }
}

/// Resampling quality presets, from fastest to most accurate.
public enum ResampleQuality: String, Sendable, CaseIterable {
    case low, medium, high, best
}
