/// Conversions between s16 and f32 samples: full scale is ±1.0 <-> ±32768, out-of-range floats clip.
public enum SampleConversion {
    /// Appends `src` as floats in [-1, 1) to `out`.
    public static func appendFloats(from src: UnsafeBufferPointer<Int16>, to out: inout [Float]) {
        guard let base = src.baseAddress else { return }
        let start = out.count
        out.append(contentsOf: repeatElement(0, count: src.count))
        out.withUnsafeMutableBufferPointer { dst in
            let d = dst.baseAddress!.advanced(by: start)
            for i in 0..<src.count { d[i] = Float(base[i]) * (1 / 32768) }
        }
    }

    /// Appends `src` rounded to s16 to `out`; values beyond full scale clip, NaN becomes 0.
    public static func appendInt16(from src: UnsafeBufferPointer<Float>, to out: inout [Int16]) {
        var noDither: TPDFDither? = nil
        append(src, to: &out, dither: &noDither)
    }

    /// Appends `src` as s16 with TPDF dither of ±1 LSB (triangular) added before rounding, then clipping.
    public static func appendInt16(from src: UnsafeBufferPointer<Float>, to out: inout [Int16], dither: inout TPDFDither) {
        var d: TPDFDither? = dither
        append(src, to: &out, dither: &d)
        dither = d!
    }

    private static func append(_ src: UnsafeBufferPointer<Float>, to out: inout [Int16], dither: inout TPDFDither?) {
        guard let base = src.baseAddress else { return }
        let start = out.count
        out.append(contentsOf: repeatElement(0, count: src.count))
        out.withUnsafeMutableBufferPointer { dst in
            let d = dst.baseAddress!.advanced(by: start)
            var i = 0
            let n = src.count
            let raw = UnsafeRawPointer(base)
            while i + 8 <= n {
                var v = raw.loadUnaligned(fromByteOffset: i * 4, as: SIMD8<Float>.self) * 32768
                if dither != nil { v += dither!.next8() }
                UnsafeMutableRawPointer(d.advanced(by: i)).storeBytes(of: quantize(v), as: SIMD8<Int16>.self)
                i += 8
            }
            while i < n {
                var v = SIMD8<Float>(repeating: base[i] * 32768)
                if dither != nil { v += dither!.next8() }
                d[i] = quantize(v)[0]
                i += 1
            }
        }
    }

    /// Rounds scaled samples to s16: NaN -> 0, then clip to [-32768, 32767].
    @inline(__always)
    static func quantize(_ scaled: SIMD8<Float>) -> SIMD8<Int16> {
        let clean = scaled.replacing(with: 0, where: scaled .!= scaled)
        let clipped = clean.rounded(.toNearestOrEven).clamped(lowerBound: SIMD8(repeating: -32768), upperBound: SIMD8(repeating: 32767))
        return SIMD8<Int16>(truncatingIfNeeded: SIMD8<Int32>(clipped))
    }
}

/// Triangular (TPDF) dither source in LSB units: the sum of two uniform values, deterministic per seed.
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

    mutating func next8() -> SIMD8<Float> {
        var v = SIMD8<Float>()
        for i in 0..<8 { v[i] = next() }
        return v
    }

    private mutating func uniform() -> Float {
        state ^= state << 13
        state ^= state >> 7
        state ^= state << 17
        return Float(state >> 40) * (1 / 16_777_216)
    }
}
