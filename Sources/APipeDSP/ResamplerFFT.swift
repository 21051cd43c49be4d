import Foundation

/// In-place complex FFT in `T` precision (Float or Double), split real/imaginary arrays, size a power of two.
///
/// `forward` is decimation in frequency (natural order in, bit-reversed order out) and `inverse`
/// decimation in time (bit-reversed in, natural out, unscaled), so a convolution never permutes:
/// spectra stay in bit-reversed order between the two. Passes go in fused pairs (radix 4, one
/// load and store of each point per pair) on SIMD vectors as wide as the butterfly half-size
/// allows (16, 8, 4, 2 lanes); the half-size-1 pass has no twiddles.
struct ResamplerFFT<T: BinaryFloatingPoint & SIMDScalar & Sendable>: Sendable {
    let size: Int
    /// Twiddles exp(-2 pi i j / (2m)) for half-size m at offsets m ..< 2m.
    private let twiddleRe: [T]
    private let twiddleIm: [T]

    init(size: Int) {
        precondition(size >= 16 && size & (size - 1) == 0, "FFT size must be a power of two >= 16")
        self.size = size
        var re = [T](repeating: 0, count: size), im = [T](repeating: 0, count: size)
        var m = 1
        while m < size {
            for j in 0..<m {
                let angle = -Double.pi * Double(j) / Double(m)
                re[m + j] = T(cos(angle))
                im[m + j] = T(sin(angle))
            }
            m *= 2
        }
        twiddleRe = re
        twiddleIm = im
    }

    /// Forward transform: natural order in, bit-reversed order out.
    func forward(_ re: UnsafeMutablePointer<T>, _ im: UnsafeMutablePointer<T>) {
        twiddleRe.withUnsafeBufferPointer { twr in
            twiddleIm.withUnsafeBufferPointer { twi in
                let wr = twr.baseAddress!, wi = twi.baseAddress!
                var m = size / 2
                while m >= 4 {
                    switch m {
                    case 4: forwardPairOfPasses(SIMD2<T>.self, re, im, wr, wi, m)
                    case 8: forwardPairOfPasses(SIMD4<T>.self, re, im, wr, wi, m)
                    case 16: forwardPairOfPasses(SIMD8<T>.self, re, im, wr, wi, m)
                    default: forwardPairOfPasses(SIMD16<T>.self, re, im, wr, wi, m)
                    }
                    m /= 4
                }
                if m == 2 { forwardPass(SIMD2<T>.self, re, im, wr + 2, wi + 2, 2) }
                unitPass(re, im)
            }
        }
    }

    /// Inverse transform without the 1/size scale: bit-reversed order in, natural order out.
    func inverse(_ re: UnsafeMutablePointer<T>, _ im: UnsafeMutablePointer<T>) {
        twiddleRe.withUnsafeBufferPointer { twr in
            twiddleIm.withUnsafeBufferPointer { twi in
                let wr = twr.baseAddress!, wi = twi.baseAddress!
                unitPass(re, im)
                var h = 2
                while 4 * h <= size {
                    switch h {
                    case 2: inversePairOfPasses(SIMD2<T>.self, re, im, wr, wi, h)
                    case 4: inversePairOfPasses(SIMD4<T>.self, re, im, wr, wi, h)
                    case 8: inversePairOfPasses(SIMD8<T>.self, re, im, wr, wi, h)
                    default: inversePairOfPasses(SIMD16<T>.self, re, im, wr, wi, h)
                    }
                    h *= 4
                }
                if h < size {
                    switch h {
                    case 2: inversePass(SIMD2<T>.self, re, im, wr + h, wi + h, h)
                    case 4: inversePass(SIMD4<T>.self, re, im, wr + h, wi + h, h)
                    case 8: inversePass(SIMD8<T>.self, re, im, wr + h, wi + h, h)
                    default: inversePass(SIMD16<T>.self, re, im, wr + h, wi + h, h)
                    }
                }
            }
        }
    }

    /// Decimation-in-frequency passes of half-size `m` then `m / 2` fused (radix 4): each group
    /// of four points is loaded and stored once for both. `m / 2` is a multiple of V's lanes.
    @inline(__always)
    private func forwardPairOfPasses<V: SIMD>(
        _: V.Type, _ re: UnsafeMutablePointer<T>, _ im: UnsafeMutablePointer<T>,
        _ wr: UnsafePointer<T>, _ wi: UnsafePointer<T>, _ m: Int
    ) where V.Scalar == T {
        let h = m / 2
        var g = 0
        while g < size {
            var j = 0
            while j < h {
                let ia = g + j, ib = ia + h, ic = ia + m, id = ic + h
                let ar: V = load(re + ia), ai: V = load(im + ia), br: V = load(re + ib), bi: V = load(im + ib)
                let cr: V = load(re + ic), ci: V = load(im + ic), dr: V = load(re + id), di: V = load(im + id)
                let w1r: V = load(wr + m + j), w1i: V = load(wi + m + j)
                let w2r: V = load(wr + m + h + j), w2i: V = load(wi + m + h + j)
                let w3r: V = load(wr + h + j), w3i: V = load(wi + h + j)
                // Half-size m: (a, c) and (b, d).
                let a1r = ar + cr, a1i = ai + ci, b1r = br + dr, b1i = bi + di
                let xr = ar - cr, xi = ai - ci, yr = br - dr, yi = bi - di
                let c1r = xr * w1r - xi * w1i, c1i = xr * w1i + xi * w1r
                let d1r = yr * w2r - yi * w2i, d1i = yr * w2i + yi * w2r
                // Half-size m / 2: (a, b) and (c, d), same twiddle.
                store(a1r + b1r, re + ia)
                store(a1i + b1i, im + ia)
                let ur = a1r - b1r, ui = a1i - b1i
                store(ur * w3r - ui * w3i, re + ib)
                store(ur * w3i + ui * w3r, im + ib)
                store(c1r + d1r, re + ic)
                store(c1i + d1i, im + ic)
                let vr = c1r - d1r, vi = c1i - d1i
                store(vr * w3r - vi * w3i, re + id)
                store(vr * w3i + vi * w3r, im + id)
                j += V.scalarCount
            }
            g += 2 * m
        }
    }

    /// Decimation-in-time passes of half-size `h` then `2 h` fused (radix 4); `h` is a multiple of V's lanes.
    @inline(__always)
    private func inversePairOfPasses<V: SIMD>(
        _: V.Type, _ re: UnsafeMutablePointer<T>, _ im: UnsafeMutablePointer<T>,
        _ wr: UnsafePointer<T>, _ wi: UnsafePointer<T>, _ h: Int
    ) where V.Scalar == T {
        var g = 0
        while g < size {
            var j = 0
            while j < h {
                let ia = g + j, ib = ia + h, ic = ib + h, id = ic + h
                let w3r: V = load(wr + h + j), w3i: V = load(wi + h + j)
                let w1r: V = load(wr + 2 * h + j), w1i: V = load(wi + 2 * h + j)
                let w2r: V = load(wr + 3 * h + j), w2i: V = load(wi + 3 * h + j)
                let ar: V = load(re + ia), ai: V = load(im + ia), br: V = load(re + ib), bi: V = load(im + ib)
                let cr: V = load(re + ic), ci: V = load(im + ic), dr: V = load(re + id), di: V = load(im + id)
                // Half-size h: (a, b) and (c, d), times the conjugate twiddle.
                let pr = br * w3r + bi * w3i, pi = bi * w3r - br * w3i
                let qr = dr * w3r + di * w3i, qi = di * w3r - dr * w3i
                let a1r = ar + pr, a1i = ai + pi, b1r = ar - pr, b1i = ai - pi
                let c1r = cr + qr, c1i = ci + qi, d1r = cr - qr, d1i = ci - qi
                // Half-size 2 h: (a, c) and (b, d).
                let sr = c1r * w1r + c1i * w1i, si = c1i * w1r - c1r * w1i
                let tr = d1r * w2r + d1i * w2i, ti = d1i * w2r - d1r * w2i
                store(a1r + sr, re + ia)
                store(a1i + si, im + ia)
                store(a1r - sr, re + ic)
                store(a1i - si, im + ic)
                store(b1r + tr, re + ib)
                store(b1i + ti, im + ib)
                store(b1r - tr, re + id)
                store(b1i - ti, im + id)
                j += V.scalarCount
            }
            g += 4 * h
        }
    }

    /// One decimation-in-frequency pass of half-size `m` (a multiple of V's lanes).
    @inline(__always)
    private func forwardPass<V: SIMD>(_: V.Type, _ re: UnsafeMutablePointer<T>, _ im: UnsafeMutablePointer<T>,
                                      _ wr: UnsafePointer<T>, _ wi: UnsafePointer<T>, _ m: Int) where V.Scalar == T {
        var g = 0
        while g < size {
            let ar = re + g, ai = im + g, br = ar + m, bi = ai + m
            var j = 0
            while j < m {
                let xr: V = load(ar + j), xi: V = load(ai + j), yr: V = load(br + j), yi: V = load(bi + j)
                let cr: V = load(wr + j), ci: V = load(wi + j)
                store(xr + yr, ar + j)
                store(xi + yi, ai + j)
                let dr = xr - yr, di = xi - yi
                store(dr * cr - di * ci, br + j)
                store(dr * ci + di * cr, bi + j)
                j += V.scalarCount
            }
            g += 2 * m
        }
    }

    /// One decimation-in-time pass of half-size `m` (a multiple of V's lanes).
    @inline(__always)
    private func inversePass<V: SIMD>(_: V.Type, _ re: UnsafeMutablePointer<T>, _ im: UnsafeMutablePointer<T>,
                                      _ wr: UnsafePointer<T>, _ wi: UnsafePointer<T>, _ m: Int) where V.Scalar == T {
        var g = 0
        while g < size {
            let ar = re + g, ai = im + g, br = ar + m, bi = ai + m
            var j = 0
            while j < m {
                let yr0: V = load(br + j), yi0: V = load(bi + j)
                let cr: V = load(wr + j), ci: V = load(wi + j)
                let yr = yr0 * cr + yi0 * ci, yi = yi0 * cr - yr0 * ci
                let xr: V = load(ar + j), xi: V = load(ai + j)
                store(xr + yr, ar + j)
                store(xi + yi, ai + j)
                store(xr - yr, br + j)
                store(xi - yi, bi + j)
                j += V.scalarCount
            }
            g += 2 * m
        }
    }

    /// The half-size-1 pass (twiddle 1, the same both ways): sum and difference of neighbours,
    /// eight pairs per step by de-interleaving a SIMD16.
    @inline(__always)
    private func unitPass(_ re: UnsafeMutablePointer<T>, _ im: UnsafeMutablePointer<T>) {
        var i = 0
        while i < size {
            unitButterflies(re + i)
            unitButterflies(im + i)
            i += 16
        }
    }

    @inline(__always)
    private func unitButterflies(_ p: UnsafeMutablePointer<T>) {
        let v: SIMD16<T> = load(p)
        let a = v.evenHalf, b = v.oddHalf
        var out = SIMD16<T>()
        out.evenHalf = a + b
        out.oddHalf = a - b
        store(out, p)
    }

    @inline(__always) private func load<V: SIMD>(_ p: UnsafePointer<T>) -> V where V.Scalar == T {
        UnsafeRawPointer(p).loadUnaligned(as: V.self)
    }

    @inline(__always) private func store<V: SIMD>(_ v: V, _ p: UnsafeMutablePointer<T>) where V.Scalar == T {
        UnsafeMutableRawPointer(p).storeBytes(of: v, as: V.self)
    }
}
