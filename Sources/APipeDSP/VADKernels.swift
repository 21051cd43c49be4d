/// The VAD's inner loops, each as a SIMD kernel beside the scalar reference the tests compare it to.
enum VADKernels {
    /// Sum of a[i] * b[i] for i < count.
    @inline(__always)
    static func dot(_ a: UnsafePointer<Float>, _ b: UnsafePointer<Float>, count: Int) -> Float {
        let ra = UnsafeRawPointer(a), rb = UnsafeRawPointer(b)
        var acc0 = SIMD8<Float>(), acc1 = SIMD8<Float>()
        var i = 0
        while i + 16 <= count {
            let o = i * 4
            acc0 += ra.loadUnaligned(fromByteOffset: o, as: SIMD8<Float>.self)
                * rb.loadUnaligned(fromByteOffset: o, as: SIMD8<Float>.self)
            acc1 += ra.loadUnaligned(fromByteOffset: o + 32, as: SIMD8<Float>.self)
                * rb.loadUnaligned(fromByteOffset: o + 32, as: SIMD8<Float>.self)
            i += 16
        }
        var sum = (acc0 + acc1).sum()
        while i < count {
            sum += a[i] * b[i]
            i += 1
        }
        return sum
    }

    /// Sum of x[i] for i < count.
    @inline(__always)
    static func sum(_ x: UnsafePointer<Float>, count: Int) -> Float {
        let rx = UnsafeRawPointer(x)
        var acc = SIMD8<Float>()
        var i = 0
        while i + 8 <= count {
            acc += rx.loadUnaligned(fromByteOffset: i * 4, as: SIMD8<Float>.self)
            i += 8
        }
        var total = acc.sum()
        while i < count {
            total += x[i]
            i += 1
        }
        return total
    }

    /// Largest x[i] for i < count (count >= 1).
    @inline(__always)
    static func maximum(_ x: UnsafePointer<Float>, count: Int) -> Float {
        let rx = UnsafeRawPointer(x)
        var acc = SIMD8<Float>(repeating: -.greatestFiniteMagnitude)
        var i = 0
        while i + 8 <= count {
            let v = rx.loadUnaligned(fromByteOffset: i * 4, as: SIMD8<Float>.self)
            acc.replace(with: v, where: v .> acc)
            i += 8
        }
        var best = acc.max()
        while i < count {
            best = max(best, x[i])
            i += 1
        }
        return best
    }

    /// Scalar reference of `dot`.
    static func dotScalar(_ a: UnsafePointer<Float>, _ b: UnsafePointer<Float>, count: Int) -> Float {
        var sum: Float = 0
        for i in 0..<count { sum += a[i] * b[i] }
        return sum
    }

    /// out[k] = re[k]^2 + im[k]^2 for k < count.
    @inline(__always)
    static func power(
        re: UnsafePointer<Float>, im: UnsafePointer<Float>, out: UnsafeMutablePointer<Float>, count: Int
    ) {
        let rr = UnsafeRawPointer(re), ri = UnsafeRawPointer(im), ro = UnsafeMutableRawPointer(out)
        var i = 0
        while i + 8 <= count {
            let r = rr.loadUnaligned(fromByteOffset: i * 4, as: SIMD8<Float>.self)
            let m = ri.loadUnaligned(fromByteOffset: i * 4, as: SIMD8<Float>.self)
            ro.storeBytes(of: r * r + m * m, toByteOffset: i * 4, as: SIMD8<Float>.self)
            i += 8
        }
        while i < count {
            out[i] = re[i] * re[i] + im[i] * im[i]
            i += 1
        }
    }

    /// out[i] = a[i] * b[i] for i < count.
    @inline(__always)
    static func multiply(
        _ a: UnsafePointer<Float>, _ b: UnsafePointer<Float>, out: UnsafeMutablePointer<Float>, count: Int
    ) {
        let ra = UnsafeRawPointer(a), rb = UnsafeRawPointer(b), ro = UnsafeMutableRawPointer(out)
        var i = 0
        while i + 8 <= count {
            let x = ra.loadUnaligned(fromByteOffset: i * 4, as: SIMD8<Float>.self)
                * rb.loadUnaligned(fromByteOffset: i * 4, as: SIMD8<Float>.self)
            ro.storeBytes(of: x, toByteOffset: i * 4, as: SIMD8<Float>.self)
            i += 8
        }
        while i < count {
            out[i] = a[i] * b[i]
            i += 1
        }
    }

    /// out[i] = sqrt(x[i]) for i < count.
    @inline(__always)
    static func squareRoot(_ x: UnsafePointer<Float>, out: UnsafeMutablePointer<Float>, count: Int) {
        let rx = UnsafeRawPointer(x), ro = UnsafeMutableRawPointer(out)
        var i = 0
        while i + 8 <= count {
            let v = rx.loadUnaligned(fromByteOffset: i * 4, as: SIMD8<Float>.self)
            ro.storeBytes(of: v.squareRoot(), toByteOffset: i * 4, as: SIMD8<Float>.self)
            i += 8
        }
        while i < count {
            out[i] = x[i].squareRoot()
            i += 1
        }
    }

    /// log2(x) to about 1e-4 for normal positive x: exponent from the bits, mantissa by a degree-4
    /// least-squares polynomial on [1, 2).
    @inline(__always)
    static func log2(_ x: SIMD8<Float>) -> SIMD8<Float> {
        let bits = unsafeBitCast(x, to: SIMD8<UInt32>.self)
        // (bits >> 23) in the mantissa of 2^23 turns the biased exponent into a float without a convert.
        let exponentBits = (bits &>> 23) | SIMD8<UInt32>(repeating: 0x4B00_0000)
        let exponent = unsafeBitCast(exponentBits, to: SIMD8<Float>.self) - SIMD8<Float>(repeating: 8_388_735)
        let mantissaBits = (bits & SIMD8<UInt32>(repeating: 0x007F_FFFF)) | SIMD8<UInt32>(repeating: 0x3F80_0000)
        let m = unsafeBitCast(mantissaBits, to: SIMD8<Float>.self)
        var p = SIMD8<Float>(repeating: -0.080_018_83) * m + 0.635_572_73
        p = p * m - 2.099_570_74
        p = p * m + 4.049_811_94
        p = p * m - 2.505_695_95
        return exponent + p
    }

    /// 2^x to about 1e-4 relative for x in -126...126: integer part into the exponent bits,
    /// fraction by polynomial.
    @inline(__always)
    static func exp2(_ x: SIMD8<Float>) -> SIMD8<Float> {
        var clamped = x
        clamped.replace(with: -126, where: clamped .< -126)
        clamped.replace(with: 126, where: clamped .> 126)
        let whole = clamped.rounded(.down)
        let f = clamped - whole
        // whole + 2^23 + 127 holds the biased exponent in its low mantissa bits.
        let biased = unsafeBitCast(whole + 8_388_735, to: SIMD8<UInt32>.self) & SIMD8(repeating: 0xFF)
        let scale = unsafeBitCast(biased &<< 23, to: SIMD8<Float>.self)
        var p = SIMD8<Float>(repeating: 0.013_555_747) * f + 0.052_032_3
        p = p * f + 0.241_379_85
        p = p * f + 0.693_032_93
        p = p * f + 1.000_000_0
        return scale * p
    }

    /// Scalar twin of `exp2(_: SIMD8<Float>)` (same approximation).
    static func exp2Scalar(_ x: Float) -> Float {
        let clamped = min(max(x, -126), 126)
        let whole = clamped.rounded(.down)
        let f = clamped - whole
        let scale = Float(bitPattern: UInt32(Int(whole) + 127) << 23)
        var p: Float = 0.013_555_747 * f + 0.052_032_3
        p = p * f + 0.241_379_85
        p = p * f + 0.693_032_93
        p = p * f + 1.000_000_0
        return scale * p
    }

    /// Scalar twin of `log2(_: SIMD8<Float>)` (same approximation).
    static func log2Scalar(_ x: Float) -> Float {
        let bits = x.bitPattern
        let exponent = Float(Int((bits >> 23) & 0xFF) - 127)
        let m = Float(bitPattern: (bits & 0x007F_FFFF) | 0x3F80_0000)
        var p: Float = -0.080_018_83 * m + 0.635_572_73
        p = p * m - 2.099_570_74
        p = p * m + 4.049_811_94
        p = p * m - 2.505_695_95
        return exponent + p
    }

    /// out[i] = 2^x[i] for i < count, through the SIMD approximation.
    @inline(__always)
    static func exp2(_ x: UnsafePointer<Float>, out: UnsafeMutablePointer<Float>, count: Int) {
        let rx = UnsafeRawPointer(x), ro = UnsafeMutableRawPointer(out)
        var i = 0
        while i + 8 <= count {
            let v = rx.loadUnaligned(fromByteOffset: i * 4, as: SIMD8<Float>.self)
            ro.storeBytes(of: exp2(v), toByteOffset: i * 4, as: SIMD8<Float>.self)
            i += 8
        }
        while i < count {
            out[i] = exp2Scalar(x[i])
            i += 1
        }
    }

    /// out[i] = log2(x[i] + floor) for i < count (x >= 0, floor > 0), through the SIMD approximation.
    @inline(__always)
    static func log2(_ x: UnsafePointer<Float>, out: UnsafeMutablePointer<Float>, count: Int, floor: Float) {
        let rx = UnsafeRawPointer(x), ro = UnsafeMutableRawPointer(out)
        let lo = SIMD8<Float>(repeating: floor)
        var i = 0
        while i + 8 <= count {
            let v = rx.loadUnaligned(fromByteOffset: i * 4, as: SIMD8<Float>.self)
            ro.storeBytes(of: log2(v + lo), toByteOffset: i * 4, as: SIMD8<Float>.self)
            i += 8
        }
        while i < count {
            out[i] = log2Scalar(x[i] + floor)
            i += 1
        }
    }
}
