import Foundation

/// In-place complex FFT in `T` precision (Float or Double), split real/imaginary arrays, size a power of two.
///
/// `forward` is decimation in frequency (natural order in, bit-reversed order out) and `inverse`
/// decimation in time (bit-reversed in, natural out, unscaled), so a convolution never permutes:
/// spectra stay in bit-reversed order between the two. Butterflies of half-size >= 16 run on SIMD16.
struct ResamplerFFT<T: BinaryFloatingPoint & SIMDScalar & Sendable>: Sendable {
    typealias Vector = SIMD16<T>
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
                while m >= 1 {
                    let wr = twr.baseAddress! + m, wi = twi.baseAddress! + m
                    var g = 0
                    while g < size {
                        let ar = re + g, ai = im + g, br = re + g + m, bi = im + g + m
                        if m >= Vector.scalarCount {
                            var j = 0
                            while j < m {
                                let xr = load(ar + j), xi = load(ai + j), yr = load(br + j), yi = load(bi + j)
                                let cr = load(wr + j), ci = load(wi + j)
                                store(xr + yr, ar + j)
                                store(xi + yi, ai + j)
                                let dr = xr - yr, di = xi - yi
                                store(dr * cr - di * ci, br + j)
                                store(dr * ci + di * cr, bi + j)
                                j += Vector.scalarCount
                            }
                        } else {
                            for j in 0..<m {
                                let dr = ar[j] - br[j], di = ai[j] - bi[j]
                                ar[j] += br[j]
                                ai[j] += bi[j]
                                br[j] = dr * wr[j] - di * wi[j]
                                bi[j] = dr * wi[j] + di * wr[j]
                            }
                        }
                        g += 2 * m
                    }
                    m /= 2
                }
            }
        }
    }

    /// Inverse transform without the 1/size scale: bit-reversed order in, natural order out.
    func inverse(_ re: UnsafeMutablePointer<T>, _ im: UnsafeMutablePointer<T>) {
        twiddleRe.withUnsafeBufferPointer { twr in
            twiddleIm.withUnsafeBufferPointer { twi in
                var m = 1
                while m < size {
                    let wr = twr.baseAddress! + m, wi = twi.baseAddress! + m
                    var g = 0
                    while g < size {
                        let ar = re + g, ai = im + g, br = re + g + m, bi = im + g + m
                        if m >= Vector.scalarCount {
                            var j = 0
                            while j < m {
                                let yr0 = load(br + j), yi0 = load(bi + j)
                                let cr = load(wr + j), ci = load(wi + j)
                                let yr = yr0 * cr + yi0 * ci, yi = yi0 * cr - yr0 * ci
                                let xr = load(ar + j), xi = load(ai + j)
                                store(xr + yr, ar + j)
                                store(xi + yi, ai + j)
                                store(xr - yr, br + j)
                                store(xi - yi, bi + j)
                                j += Vector.scalarCount
                            }
                        } else {
                            for j in 0..<m {
                                let yr = br[j] * wr[j] + bi[j] * wi[j], yi = bi[j] * wr[j] - br[j] * wi[j]
                                let xr = ar[j], xi = ai[j]
                                ar[j] = xr + yr
                                ai[j] = xi + yi
                                br[j] = xr - yr
                                bi[j] = xi - yi
                            }
                        }
                        g += 2 * m
                    }
                    m *= 2
                }
            }
        }
    }

    @inline(__always) private func load(_ p: UnsafePointer<T>) -> Vector {
        UnsafeRawPointer(p).loadUnaligned(as: Vector.self)
    }

    @inline(__always) private func store(_ v: Vector, _ p: UnsafeMutablePointer<T>) {
        UnsafeMutableRawPointer(p).storeBytes(of: v, as: Vector.self)
    }
}
