/// Inner products of the polyphase resampler: a SIMD kernel and the scalar reference it is tested against.
enum ResamplerKernel {
    /// Lanes of one coefficient block; filter rows are padded to a multiple of this.
    static let lanes = 16

    /// Dot product of `count` floats (a multiple of `lanes`), SIMD16 with two accumulators.
    @inline(__always)
    static func dot(_ a: UnsafePointer<Float>, _ b: UnsafePointer<Float>, count: Int) -> Float {
        let ra = UnsafeRawPointer(a), rb = UnsafeRawPointer(b)
        var acc0 = SIMD16<Float>(), acc1 = SIMD16<Float>()
        var offset = 0
        let bytes = count * 4
        while offset + 128 <= bytes {
            acc0 += ra.loadUnaligned(fromByteOffset: offset, as: SIMD16<Float>.self)
                * rb.loadUnaligned(fromByteOffset: offset, as: SIMD16<Float>.self)
            acc1 += ra.loadUnaligned(fromByteOffset: offset + 64, as: SIMD16<Float>.self)
                * rb.loadUnaligned(fromByteOffset: offset + 64, as: SIMD16<Float>.self)
            offset += 128
        }
        if offset < bytes {
            acc0 += ra.loadUnaligned(fromByteOffset: offset, as: SIMD16<Float>.self)
                * rb.loadUnaligned(fromByteOffset: offset, as: SIMD16<Float>.self)
        }
        return (acc0 + acc1).sum()
    }

    /// Dot product with float products summed in double: for presets whose stopband lies below
    /// what float accumulation resolves (about -140 dB).
    @inline(__always)
    static func dotWide(_ a: UnsafePointer<Float>, _ b: UnsafePointer<Float>, count: Int) -> Float {
        let ra = UnsafeRawPointer(a), rb = UnsafeRawPointer(b)
        var acc0 = SIMD8<Double>(), acc1 = SIMD8<Double>()
        var offset = 0
        let bytes = count * 4
        while offset < bytes {
            let p = ra.loadUnaligned(fromByteOffset: offset, as: SIMD16<Float>.self)
                * rb.loadUnaligned(fromByteOffset: offset, as: SIMD16<Float>.self)
            acc0 += SIMD8<Double>(p.lowHalf)
            acc1 += SIMD8<Double>(p.highHalf)
            offset += 64
        }
        return Float((acc0 + acc1).sum())
    }

    /// Scalar reference of `dot` and `dotWide`.
    static func dotScalar(_ a: UnsafePointer<Float>, _ b: UnsafePointer<Float>, count: Int) -> Float {
        var acc: Float = 0
        for i in 0..<count { acc += a[i] * b[i] }
        return acc
    }
}
