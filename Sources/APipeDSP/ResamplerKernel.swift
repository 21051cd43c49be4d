/// Inner products of the polyphase resampler: a SIMD kernel and the scalar reference it is tested against.
enum ResamplerKernel {
    /// Lanes of one coefficient block; filter rows are padded to a multiple of this.
    static let lanes = 16

    /// Dot product of `count` floats (a multiple of `lanes`) computed in double, SIMD8 x 2.
    ///
    /// Float products and sums alone limit a sine's SNR to about 140 dB, below what the presets
    /// promise; the filters this runs after the FFT prefilter are short, so double costs little.
    @inline(__always)
    static func dot(_ a: UnsafePointer<Float>, _ b: UnsafePointer<Float>, count: Int) -> Float {
        let ra = UnsafeRawPointer(a), rb = UnsafeRawPointer(b)
        var acc0 = SIMD8<Double>(), acc1 = SIMD8<Double>()
        var offset = 0
        let bytes = count * 4
        while offset < bytes {
            let x = ra.loadUnaligned(fromByteOffset: offset, as: SIMD16<Float>.self)
            let y = rb.loadUnaligned(fromByteOffset: offset, as: SIMD16<Float>.self)
            acc0 += SIMD8<Double>(x.lowHalf) * SIMD8<Double>(y.lowHalf)
            acc1 += SIMD8<Double>(x.highHalf) * SIMD8<Double>(y.highHalf)
            offset += 64
        }
        return Float((acc0 + acc1).sum())
    }

    /// Scalar reference of `dot` (float arithmetic).
    static func dotScalar(_ a: UnsafePointer<Float>, _ b: UnsafePointer<Float>, count: Int) -> Float {
        var acc: Float = 0
        for i in 0..<count { acc += a[i] * b[i] }
        return acc
    }
}
