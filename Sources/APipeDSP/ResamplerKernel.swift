/// Inner products of the polyphase resampler: SIMD kernels and the scalar reference they are tested against.
enum ResamplerKernel {
    /// Lanes of one coefficient block; filter rows are padded to a multiple of this.
    static let lanes = 8

    /// Dot product of `count` floats (a multiple of `lanes`) in float, SIMD8.
    ///
    /// Float products and sums limit a sine's SNR to about 140 dB: enough for presets up to that.
    @inline(__always)
    static func dot(_ a: UnsafePointer<Float>, _ b: UnsafePointer<Float>, count: Int) -> Float {
        let ra = UnsafeRawPointer(a), rb = UnsafeRawPointer(b)
        var acc0 = SIMD8<Float>(), acc1 = SIMD8<Float>()
        var offset = 0
        let bytes = count * 4
        while offset + 64 <= bytes {
            acc0 += ra.loadUnaligned(fromByteOffset: offset, as: SIMD8<Float>.self)
                * rb.loadUnaligned(fromByteOffset: offset, as: SIMD8<Float>.self)
            acc1 += ra.loadUnaligned(fromByteOffset: offset + 32, as: SIMD8<Float>.self)
                * rb.loadUnaligned(fromByteOffset: offset + 32, as: SIMD8<Float>.self)
            offset += 64
        }
        if offset < bytes {
            acc0 += ra.loadUnaligned(fromByteOffset: offset, as: SIMD8<Float>.self)
                * rb.loadUnaligned(fromByteOffset: offset, as: SIMD8<Float>.self)
        }
        return horizontalSum(acc0 + acc1)
    }

    /// Dot product of `count` floats (a multiple of `lanes`) accumulated in double, SIMD8.
    ///
    /// For presets beyond float's ~140 dB; the filters this runs after the FFT prefilter are short.
    @inline(__always)
    static func dotDouble(_ a: UnsafePointer<Float>, _ b: UnsafePointer<Float>, count: Int) -> Float {
        let ra = UnsafeRawPointer(a), rb = UnsafeRawPointer(b)
        var acc = SIMD8<Double>()
        var offset = 0
        let bytes = count * 4
        while offset < bytes {
            let x = ra.loadUnaligned(fromByteOffset: offset, as: SIMD8<Float>.self)
            let y = rb.loadUnaligned(fromByteOffset: offset, as: SIMD8<Float>.self)
            acc += SIMD8<Double>(x) * SIMD8<Double>(y)
            offset += 32
        }
        let a4 = acc.lowHalf + acc.highHalf, a2 = a4.lowHalf + a4.highHalf
        return Float(a2[0] + a2[1])
    }

    /// Sum of the lanes as a tree (`SIMD.sum()` adds them one after another).
    @inline(__always)
    static func horizontalSum(_ v: SIMD8<Float>) -> Float {
        let a4 = v.lowHalf + v.highHalf, a2 = a4.lowHalf + a4.highHalf
        return a2[0] + a2[1]
    }

    /// Scalar reference of `dot` and `dotDouble` (float arithmetic).
    static func dotScalar(_ a: UnsafePointer<Float>, _ b: UnsafePointer<Float>, count: Int) -> Float {
        var acc: Float = 0
        for i in 0..<count { acc += a[i] * b[i] }
        return acc
    }
}
