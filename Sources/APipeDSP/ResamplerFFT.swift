import Foundation

/// In-place complex FFT in `T` precision (Float or Double), split real/imaginary arrays, size a power of two.
///
/// `forward` is decimation in frequency (natural order in, bit-reversed order out) and `inverse`
/// decimation in time (bit-reversed in, natural out, unscaled), so a convolution never permutes:
/// spectra stay in bit-reversed order between the two. Every pass runs on SIMD vectors as wide as
/// its butterfly half-size allows (16, 8, 4, 2 lanes); the half-size-1 pass has no twiddles.
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
                var m = size / 2
                while m >= 2 {
                    let wr = twr.baseAddress! + m, wi = twi.baseAddress! + m
                    switch m {
                    case 2: forwardPass(SIMD2<T>.self, re, im, wr, wi, m)
                    case 4: forwardPass(SIMD4<T>.self, re, im, wr, wi, m)
                    case 8: forwardPass(SIMD8<T>.self, re, im, wr, wi, m)
                    default: forwardPass(SIMD16<T>.self, re, im, wr, wi, m)
                    }
                    m /= 2
                }
                unitPass(re, im)
            }
        }
    }

    /// Inverse transform without the 1/size scale: bit-reversed order in, natural order out.
    func inverse(_ re: UnsafeMutablePointer<T>, _ im: UnsafeMutablePointer<T>) {
        twiddleRe.withUnsafeBufferPointer { twr in
            twiddleIm.withUnsafeBufferPointer { twi in
                unitPass(re, im)
                var m = 2
                while m < size {
                    let wr = twr.baseAddress! + m, wi = twi.baseAddress! + m
                    switch m {
                    case 2: inversePass(SIMD2<T>.self, re, im, wr, wi, m)
                    case 4: inversePass(SIMD4<T>.self, re, im, wr, wi, m)
                    case 8: inversePass(SIMD8<T>.self, re, im, wr, wi, m)
                    default: inversePass(SIMD16<T>.self, re, im, wr, wi, m)
                    }
                    m *= 2
                }
            }
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
