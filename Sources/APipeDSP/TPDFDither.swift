/// Triangular (TPDF) dither in LSB units of s16: the sum of two uniform values, deterministic
/// per seed. Added before rounding to 16 bits, it turns quantisation distortion into a flat,
/// signal-independent noise floor.
public struct TPDFDither: Sendable {
    private var state: UInt64

    /// Creates a generator; the same seed gives the same dither.
    public init(seed: UInt64 = 0x9E37_79B9_7F4A_7C15) {
        state = seed == 0 ? 1 : seed
    }

    /// Next value in (-1, 1) LSB with a triangular distribution.
    public mutating func next() -> Float {
        uniform() - uniform()
    }

    /// Adds ±1 LSB of s16 dither (1/32768 full scale) to every sample.
    public mutating func add(to samples: UnsafeMutableBufferPointer<Float>) {
        let lsb = Float(1) / 32768
        for i in samples.indices { samples[i] += next() * lsb }
    }

    private mutating func uniform() -> Float {
        state ^= state << 13
        state ^= state >> 7
        state ^= state << 17
        return Float(state >> 40) * (1 / 16_777_216)
    }
}
