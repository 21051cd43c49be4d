/// Quality preset of `Resampler`: pass band, transition band and stopband attenuation.
public enum ResamplerQuality: String, Sendable, CaseIterable {
    case low, medium, high, best

    /// Filter specification of this preset, relative to the Nyquist frequency of the lower rate.
    ///
    /// Chosen from bench/resample measurements: each preset's -3 dB point, ripple, alias rejection
    /// and SNR beat the comparable converters' with a margin, and no more (a longer filter only
    /// costs time): low: SINC_FASTEST and soxr LQ (113/109 dB SNR), medium: SINC_MEDIUM_QUALITY and
    /// soxr MQ (121/109 dB, -3 dB at 0.953), high: SINC_BEST_QUALITY and soxr HQ (142/131 dB),
    /// best: the float output's floor. low and medium run in float (about 140 dB reachable),
    /// high and best in double. The transition band ends at the new Nyquist frequency: nothing aliases.
    public var spec: ResamplerFilterSpec {
        switch self {
        case .low: ResamplerFilterSpec(passEdge: 0.74, stopEdge: 1.0, attenuation: 120)
        case .medium: ResamplerFilterSpec(passEdge: 0.92, stopEdge: 1.0, attenuation: 132)
        case .high: ResamplerFilterSpec(passEdge: 0.94, stopEdge: 1.0, attenuation: 148)
        case .best: ResamplerFilterSpec(passEdge: 0.95, stopEdge: 1.0, attenuation: 165)
        }
    }
}

/// Low-pass specification: edges as fractions of the lower rate's Nyquist frequency, attenuation in dB.
public struct ResamplerFilterSpec: Sendable, Hashable {
    /// End of the pass band (fraction of the lower Nyquist frequency).
    public var passEdge: Double
    /// Start of the stop band (fraction of the lower Nyquist frequency); 1.0 means no aliasing.
    public var stopEdge: Double
    /// Stopband attenuation in dB.
    public var attenuation: Double

    /// Creates a specification; edges are fractions of the lower Nyquist frequency.
    public init(passEdge: Double, stopEdge: Double, attenuation: Double) {
        self.passEdge = passEdge
        self.stopEdge = stopEdge
        self.attenuation = attenuation
    }

    /// Whether the arithmetic must be double: float FFTs and dot products bottom out near 140 dB.
    var needsDouble: Bool { attenuation > 140 }
}
