/// Inner products of the polyphase resampler: SIMD kernels and the scalar reference they are tested against.
enum ResamplerKernel {
    /// Lanes of one coefficient block; filter rows are padded to a multiple of this.
    static let lanes = 8

    /// Dot product of `count` floats (a multiple of `lanes`) in float, SIMD8.
    ///
    /// Float products and sums limit a sine's SNR to about 140 dB: enough for presets up to that.
    /// Summation order is that of `dot2`, so a channel gives the same bits alone or in a pair.
    @inline(__always)
    static func dot(_ a: UnsafePointer<Float>, _ b: UnsafePointer<Float>, count: Int) -> Float {
        let ra = UnsafeRawPointer(a), rb = UnsafeRawPointer(b)
        var acc = SIMD8<Float>()
        var offset = 0
        let bytes = count * 4
        while offset < bytes {
            acc += ra.loadUnaligned(fromByteOffset: offset, as: SIMD8<Float>.self)
                * rb.loadUnaligned(fromByteOffset: offset, as: SIMD8<Float>.self)
            offset += 32
        }
        let s4 = acc.lowHalf + acc.highHalf
        return (s4[0] + s4[1]) + (s4[2] + s4[3])
    }

    /// Dot products of one coefficient row `a` with two channels `b0`, `b1` (`count` a multiple of
    /// `lanes`) in float: the row is loaded once and the two lane sums share their shuffles.
    @inline(__always)
    static func dot2(_ a: UnsafePointer<Float>, _ b0: UnsafePointer<Float>, _ b1: UnsafePointer<Float>,
                     count: Int) -> (Float, Float) {
        let ra = UnsafeRawPointer(a), r0 = UnsafeRawPointer(b0), r1 = UnsafeRawPointer(b1)
        var acc0 = SIMD8<Float>(), acc1 = SIMD8<Float>()
        var offset = 0
        let bytes = count * 4
        while offset < bytes {
            let c = ra.loadUnaligned(fromByteOffset: offset, as: SIMD8<Float>.self)
            acc0 += c * r0.loadUnaligned(fromByteOffset: offset, as: SIMD8<Float>.self)
            acc1 += c * r1.loadUnaligned(fromByteOffset: offset, as: SIMD8<Float>.self)
            offset += 32
        }
        let s4 = SIMD8(lowHalf: acc0.lowHalf, highHalf: acc1.lowHalf)
            + SIMD8(lowHalf: acc0.highHalf, highHalf: acc1.highHalf)
        let s2 = s4.evenHalf + s4.oddHalf
        return (s2[0] + s2[1], s2[2] + s2[3])
    }

    /// `dot2` accumulated in double.
    @inline(__always)
    static func dot2Double(_ a: UnsafePointer<Float>, _ b0: UnsafePointer<Float>, _ b1: UnsafePointer<Float>,
                           count: Int) -> (Float, Float) {
        let ra = UnsafeRawPointer(a), r0 = UnsafeRawPointer(b0), r1 = UnsafeRawPointer(b1)
        var acc0 = SIMD8<Double>(), acc1 = SIMD8<Double>()
        var offset = 0
        let bytes = count * 4
        while offset < bytes {
            let c = SIMD8<Double>(ra.loadUnaligned(fromByteOffset: offset, as: SIMD8<Float>.self))
            acc0 += c * SIMD8<Double>(r0.loadUnaligned(fromByteOffset: offset, as: SIMD8<Float>.self))
            acc1 += c * SIMD8<Double>(r1.loadUnaligned(fromByteOffset: offset, as: SIMD8<Float>.self))
            offset += 32
        }
        let s4 = SIMD8(lowHalf: acc0.lowHalf, highHalf: acc1.lowHalf)
            + SIMD8(lowHalf: acc0.highHalf, highHalf: acc1.highHalf)
        let s2 = s4.evenHalf + s4.oddHalf
        return (Float(s2[0] + s2[1]), Float(s2[2] + s2[3]))
    }

    /// Dot product of `count` floats (a multiple of `lanes`) accumulated in double, SIMD8.
    ///
    /// For presets beyond float's ~140 dB; the filters this runs after the FFT prefilter are short.
    /// Summation order is that of `dot2Double`.
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
        let s4 = acc.lowHalf + acc.highHalf
        return Float((s4[0] + s4[1]) + (s4[2] + s4[3]))
    }

    /// Scalar reference of every kernel here (float arithmetic).
    static func dotScalar(_ a: UnsafePointer<Float>, _ b: UnsafePointer<Float>, count: Int) -> Float {
        var acc: Float = 0
        for i in 0..<count { acc += a[i] * b[i] }
        return acc
    }
}
