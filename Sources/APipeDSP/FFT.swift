import Foundation

/// Real-input FFT of one fixed power-of-two size; split-complex spectra, no allocation after `init`.
///
/// `forward` maps `size` real samples to bins `0...size/2` (unnormalised, e^{-2πikn/N});
/// `inverse` maps such bins back to `size` real samples, so that `inverse(forward(x)) == x`.
/// The work is a complex FFT of `size/2` points (radix-2 decimation in frequency, SIMD8
/// butterflies for spans of 8 and more) plus the usual split into even and odd halves.
/// An instance holds scratch memory: use one per thread.
public final class RealFFT {
    /// Number of real samples per transform.
    public let size: Int
    /// Number of output bins, `size / 2 + 1`.
    public var binCount: Int { half + 1 }

    let half: Int
    /// Per-stage twiddles e^{-2πij/(2h)}, j < h, for h = half/2, half/4, ..., 1, concatenated.
    private let twRe: UnsafeMutablePointer<Float>
    private let twIm: UnsafeMutablePointer<Float>
    /// Twiddles e^{-2πik/size}, k < half, for the even/odd split.
    private let splitRe: UnsafeMutablePointer<Float>
    private let splitIm: UnsafeMutablePointer<Float>
    /// Index pairs (i, j), i < j, swapped by the bit-reversal permutation, flattened.
    private let swaps: UnsafeMutablePointer<Int32>
    private let swapCount: Int
    private let zRe: UnsafeMutablePointer<Float>
    private let zIm: UnsafeMutablePointer<Float>

    /// Creates a transform of `size` real samples, or nil unless `size` is a power of two in 4...2^24.
    public init?(size: Int) {
        guard size >= 4, size <= 1 << 24, size & (size - 1) == 0 else { return nil }
        self.size = size
        half = size / 2
        let m = half
        twRe = .allocate(capacity: max(m, 1))
        twIm = .allocate(capacity: max(m, 1))
        var offset = 0
        var h = m / 2
        while h >= 1 {
            for j in 0..<h {
                let angle = -Double.pi * Double(j) / Double(h)
                twRe[offset + j] = Float(cos(angle))
                twIm[offset + j] = Float(sin(angle))
            }
            offset += h
            h /= 2
        }
        splitRe = .allocate(capacity: m)
        splitIm = .allocate(capacity: m)
        for k in 0..<m {
            let angle = -2 * Double.pi * Double(k) / Double(size)
            splitRe[k] = Float(cos(angle))
            splitIm[k] = Float(sin(angle))
        }
        var bits = 0
        while 1 << bits < m { bits += 1 }
        var pairs: [Int32] = []
        for i in 0..<m {
            var r = 0
            for b in 0..<bits where i & (1 << b) != 0 { r |= 1 << (bits - 1 - b) }
            if i < r { pairs += [Int32(i), Int32(r)] }
        }
        swapCount = pairs.count / 2
        swaps = .allocate(capacity: max(1, pairs.count))
        swaps.initialize(from: pairs, count: pairs.count)
        zRe = .allocate(capacity: m)
        zIm = .allocate(capacity: m)
    }

    deinit {
        twRe.deallocate(); twIm.deallocate()
        splitRe.deallocate(); splitIm.deallocate()
        zRe.deallocate(); zIm.deallocate()
        swaps.deallocate()
    }

    /// Transforms `input[0..<size]` into `real[0...size/2]` and `imag[0...size/2]`.
    public func forward(_ input: UnsafePointer<Float>, real: UnsafeMutablePointer<Float>, imag: UnsafeMutablePointer<Float>) {
        let m = half
        for n in 0..<m {
            zRe[n] = input[2 * n]
            zIm[n] = input[2 * n + 1]
        }
        complexForward()
        real[0] = zRe[0] + zIm[0]
        imag[0] = 0
        real[m] = zRe[0] - zIm[0]
        imag[m] = 0
        var k = 1
        while k < m {
            let ar = zRe[k], ai = zIm[k]
            let br = zRe[m - k], bi = -zIm[m - k]
            let er = 0.5 * (ar + br), ei = 0.5 * (ai + bi)
            // odd part (a - b) / 2i
            let or = 0.5 * (ai - bi), oi = -0.5 * (ar - br)
            let wr = splitRe[k], wi = splitIm[k]
            real[k] = er + (or * wr - oi * wi)
            imag[k] = ei + (or * wi + oi * wr)
            k += 1
        }
    }

    /// Transforms bins `real[0...size/2]`, `imag[0...size/2]` back into `output[0..<size]`.
    public func inverse(real: UnsafePointer<Float>, imag: UnsafePointer<Float>, output: UnsafeMutablePointer<Float>) {
        let m = half
        for k in 0..<m {
            let ar = real[k], ai = imag[k]
            let br = real[m - k], bi = -imag[m - k]
            let er = 0.5 * (ar + br), ei = 0.5 * (ai + bi)
            let dr = 0.5 * (ar - br), di = 0.5 * (ai - bi)
            // odd part: d * conj(split twiddle)
            let wr = splitRe[k], wi = -splitIm[k]
            let or = dr * wr - di * wi, oi = dr * wi + di * wr
            // Z = even + i * odd; conjugated here so the forward kernel computes the inverse.
            zRe[k] = er - oi
            zIm[k] = -(ei + or)
        }
        complexForward()
        let scale = 1 / Float(m)
        for n in 0..<m {
            output[2 * n] = zRe[n] * scale
            output[2 * n + 1] = -zIm[n] * scale
        }
    }

    /// In-place complex FFT of `zRe`/`zIm` (half points), natural order in and out.
    private func complexForward() {
        let m = half
        var offset = 0
        var h = m / 2
        while h >= 8 {
            var base = 0
            while base < m {
                FFTKernels.butterflySIMD8(
                    re: zRe + base, im: zIm + base, span: h, twRe: twRe + offset, twIm: twIm + offset)
                base += 2 * h
            }
            offset += h
            h /= 2
        }
        if h == 4 {
            var base = 0
            while base < m {
                FFTKernels.lastStages8(re: zRe + base, im: zIm + base)
                base += 8
            }
        } else {
            while h >= 1 {
                var base = 0
                while base < m {
                    FFTKernels.butterflyScalar(
                        re: zRe + base, im: zIm + base, span: h, twRe: twRe + offset, twIm: twIm + offset)
                    base += 2 * h
                }
                offset += h
                h /= 2
            }
        }
        for s in 0..<swapCount {
            let a = Int(swaps[2 * s]), b = Int(swaps[2 * s + 1])
            let tr = zRe[a], ti = zIm[a]
            zRe[a] = zRe[b]; zIm[a] = zIm[b]
            zRe[b] = tr; zIm[b] = ti
        }
    }
}

/// The radix-2 decimation-in-frequency butterfly, as a SIMD kernel and its scalar reference.
enum FFTKernels {
    /// x[j], x[j+span] <- x[j] + x[j+span], (x[j] - x[j+span]) * w[j] for j < span (span % 8 == 0).
    @inline(__always)
    static func butterflySIMD8(
        re: UnsafeMutablePointer<Float>, im: UnsafeMutablePointer<Float>, span: Int,
        twRe: UnsafePointer<Float>, twIm: UnsafePointer<Float>
    ) {
        let r0 = UnsafeMutableRawPointer(re), i0 = UnsafeMutableRawPointer(im)
        let r1 = UnsafeMutableRawPointer(re + span), i1 = UnsafeMutableRawPointer(im + span)
        let wr = UnsafeRawPointer(twRe), wi = UnsafeRawPointer(twIm)
        var byte = 0
        let end = span * MemoryLayout<Float>.stride
        while byte < end {
            let ar = r0.loadUnaligned(fromByteOffset: byte, as: SIMD8<Float>.self)
            let ai = i0.loadUnaligned(fromByteOffset: byte, as: SIMD8<Float>.self)
            let br = r1.loadUnaligned(fromByteOffset: byte, as: SIMD8<Float>.self)
            let bi = i1.loadUnaligned(fromByteOffset: byte, as: SIMD8<Float>.self)
            let cr = wr.loadUnaligned(fromByteOffset: byte, as: SIMD8<Float>.self)
            let ci = wi.loadUnaligned(fromByteOffset: byte, as: SIMD8<Float>.self)
            let dr = ar - br, di = ai - bi
            r0.storeBytes(of: ar + br, toByteOffset: byte, as: SIMD8<Float>.self)
            i0.storeBytes(of: ai + bi, toByteOffset: byte, as: SIMD8<Float>.self)
            r1.storeBytes(of: dr * cr - di * ci, toByteOffset: byte, as: SIMD8<Float>.self)
            i1.storeBytes(of: dr * ci + di * cr, toByteOffset: byte, as: SIMD8<Float>.self)
            byte += 8 * MemoryLayout<Float>.stride
        }
    }

    /// The three last stages (spans 4, 2, 1) on one block of 8 points, twiddles written out;
    /// the same arithmetic as three `butterflyScalar` passes.
    @inline(__always)
    static func lastStages8(re: UnsafeMutablePointer<Float>, im: UnsafeMutablePointer<Float>) {
        let c: Float = 0.707_106_77
        // span 4: w = 1, (c, -c), -i, (-c, -c)
        let a0r = re[0] + re[4], a0i = im[0] + im[4], d0r = re[0] - re[4], d0i = im[0] - im[4]
        let a1r = re[1] + re[5], a1i = im[1] + im[5], d1r = re[1] - re[5], d1i = im[1] - im[5]
        let a2r = re[2] + re[6], a2i = im[2] + im[6], d2r = re[2] - re[6], d2i = im[2] - im[6]
        let a3r = re[3] + re[7], a3i = im[3] + im[7], d3r = re[3] - re[7], d3i = im[3] - im[7]
        let b4r = d0r, b4i = d0i
        let b5r = (d1r + d1i) * c, b5i = (d1i - d1r) * c
        let b6r = d2i, b6i = -d2r
        let b7r = (d3i - d3r) * c, b7i = -(d3r + d3i) * c
        // span 2: w = 1, -i (on each half)
        let e0r = a0r + a2r, e0i = a0i + a2i, e2r = a0r - a2r, e2i = a0i - a2i
        let e1r = a1r + a3r, e1i = a1i + a3i, f3r = a1r - a3r, f3i = a1i - a3i
        let e3r = f3i, e3i = -f3r
        let g4r = b4r + b6r, g4i = b4i + b6i, g6r = b4r - b6r, g6i = b4i - b6i
        let g5r = b5r + b7r, g5i = b5i + b7i, h7r = b5r - b7r, h7i = b5i - b7i
        let g7r = h7i, g7i = -h7r
        // span 1: w = 1
        re[0] = e0r + e1r; im[0] = e0i + e1i; re[1] = e0r - e1r; im[1] = e0i - e1i
        re[2] = e2r + e3r; im[2] = e2i + e3i; re[3] = e2r - e3r; im[3] = e2i - e3i
        re[4] = g4r + g5r; im[4] = g4i + g5i; re[5] = g4r - g5r; im[5] = g4i - g5i
        re[6] = g6r + g7r; im[6] = g6i + g7i; re[7] = g6r - g7r; im[7] = g6i - g7i
    }

    /// Scalar reference of `butterflySIMD8`, any span.
    @inline(__always)
    static func butterflyScalar(
        re: UnsafeMutablePointer<Float>, im: UnsafeMutablePointer<Float>, span: Int,
        twRe: UnsafePointer<Float>, twIm: UnsafePointer<Float>
    ) {
        for j in 0..<span {
            let ar = re[j], ai = im[j], br = re[j + span], bi = im[j + span]
            let dr = ar - br, di = ai - bi
            re[j] = ar + br
            im[j] = ai + bi
            re[j + span] = dr * twRe[j] - di * twIm[j]
            im[j + span] = dr * twIm[j] + di * twRe[j]
        }
    }
}
