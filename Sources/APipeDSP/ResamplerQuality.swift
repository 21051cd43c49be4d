/// Quality preset of `Resampler`: pass band, transition band and stopband attenuation.
public enum ResamplerQuality: String, Sendable, CaseIterable {
    case low, medium, high, best

    /// Filter specification of this preset, relative to the Nyquist frequency of the lower rate.
    ///
    /// Chosen from bench/resample measurements so that each preset's -3 dB point, ripple and alias
    /// rejection are at least those of libsamplerate's comparable converter
    /// (low: SINC_FASTEST, medium: SINC_MEDIUM_QUALITY, high and best: SINC_BEST_QUALITY).
    /// The transition band ends at the new Nyquist frequency: nothing aliases.
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
