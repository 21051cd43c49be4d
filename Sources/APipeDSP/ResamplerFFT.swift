import Foundation

/// In-place complex FFT in double precision, split real/imaginary arrays, size a power of two.
///
/// `forward` is decimation in frequency (natural order in, bit-reversed order out) and `inverse`
/// decimation in time (bit-reversed in, natural out, unscaled), so a convolution never permutes:
/// spectra stay in bit-reversed order between the two. Butterflies of half-size >= 8 run on SIMD8.
struct ResamplerFFT: Sendable {
    let size: Int
    /// Twiddles exp(-2 pi i j / (2m)) for half-size m at offsets m ..< 2m.
    private let twiddleRe: [Double]
    private let twiddleIm: [Double]

    init(size: Int) {
        precondition(size >= 16 && size & (size - 1) == 0, "FFT size must be a power of two >= 16")
        self.size = size
        var re = [Double](repeating: 0, count: size), im = [Double](repeating: 0, count: size)
        var m = 1
        while m < size {
            for j in 0..<m {
                let angle = -Double.pi * Double(j) / Double(m)
                re[m + j] = cos(angle)
                im[m + j] = sin(angle)
            }
            m *= 2
        }
        twiddleRe = re
        twiddleIm = im
    }

    /// Forward transform: natural order in, bit-reversed order out.
    func forward(_ re: UnsafeMutablePointer<Double>, _ im: UnsafeMutablePointer<Double>) {
        twiddleRe.withUnsafeBufferPointer { twr in
            twiddleIm.withUnsafeBufferPointer { twi in
                var m = size / 2
                while m >= 1 {
                    let wr = twr.baseAddress! + m, wi = twi.baseAddress! + m
                    var g = 0
                    while g < size {
                        let ar = re + g, ai = im + g, br = re + g + m, bi = im + g + m
                        if m >= 8 {
                            var j = 0
                            while j < m {
                                let xr = load(ar + j), xi = load(ai + j), yr = load(br + j), yi = load(bi + j)
                                let cr = load(wr + j), ci = load(wi + j)
                                store(xr + yr, ar + j)
                                store(xi + yi, ai + j)
                                let dr = xr - yr, di = xi - yi
                                store(dr * cr - di * ci, br + j)
                                store(dr * ci + di * cr, bi + j)
                                j += 8
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
    func inverse(_ re: UnsafeMutablePointer<Double>, _ im: UnsafeMutablePointer<Double>) {
        twiddleRe.withUnsafeBufferPointer { twr in
            twiddleIm.withUnsafeBufferPointer { twi in
                var m = 1
                while m < size {
                    let wr = twr.baseAddress! + m, wi = twi.baseAddress! + m
                    var g = 0
                    while g < size {
                        let ar = re + g, ai = im + g, br = re + g + m, bi = im + g + m
                        if m >= 8 {
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
                                j += 8
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

    @inline(__always) private func load(_ p: UnsafePointer<Double>) -> SIMD8<Double> {
        UnsafeRawPointer(p).loadUnaligned(as: SIMD8<Double>.self)
    }

    @inline(__always) private func store(_ v: SIMD8<Double>, _ p: UnsafeMutablePointer<Double>) {
        UnsafeMutableRawPointer(p).storeBytes(of: v, as: SIMD8<Double>.self)
    }
}
