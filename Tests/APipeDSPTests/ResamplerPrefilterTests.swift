import Foundation
import Testing
@testable import APipeDSP

/// The FFT overlap-save prefilter against what a direct FIR gives: impulse response and round trip.
@Suite struct ResamplerPrefilterTests {
    @Test func fftRoundTripRestoresTheInput() {
        let fft = ResamplerFFT<Double>(size: 64)
        var re = (0..<64).map { Double(($0 * 37) % 11) - 5 }, im = (0..<64).map { Double(($0 * 13) % 7) - 3 }
        let (re0, im0) = (re, im)
        re.withUnsafeMutableBufferPointer { r in
            im.withUnsafeMutableBufferPointer { i in
                fft.forward(r.baseAddress!, i.baseAddress!)
                fft.inverse(r.baseAddress!, i.baseAddress!)
            }
        }
        #expect((0..<64).allSatisfy { abs(re[$0] / 64 - re0[$0]) < 1e-12 && abs(im[$0] / 64 - im0[$0]) < 1e-12 })
    }

    /// The SIMD passes (all widths, both precisions) against a direct DFT, the scalar reference.
    @Test(arguments: [16, 32, 256])
    func fftMatchesDirectDFT(size: Int) {
        let bits = size.trailingZeroBitCount
        let xr = (0..<size).map { Double(($0 * 37) % 11) - 5 }, xi = (0..<size).map { Double(($0 * 13) % 7) - 3 }
        var dr = [Double](repeating: 0, count: size), di = dr
        for k in 0..<size {
            for n in 0..<size {
                let a = -2 * Double.pi * Double(k * n % size) / Double(size)
                dr[k] += xr[n] * cos(a) - xi[n] * sin(a)
                di[k] += xr[n] * sin(a) + xi[n] * cos(a)
            }
        }
        func reversed(_ i: Int) -> Int { (0..<bits).reduce(0) { $0 << 1 | (i >> $1 & 1) } }
        var re = xr, im = xi
        re.withUnsafeMutableBufferPointer { r in
            im.withUnsafeMutableBufferPointer { i in ResamplerFFT<Double>(size: size).forward(r.baseAddress!, i.baseAddress!) }
        }
        #expect((0..<size).allSatisfy { abs(re[$0] - dr[reversed($0)]) < 1e-9 && abs(im[$0] - di[reversed($0)]) < 1e-9 })
        var fr = xr.map { Float($0) }, fi = xi.map { Float($0) }
        let fft = ResamplerFFT<Float>(size: size)
        fr.withUnsafeMutableBufferPointer { r in
            fi.withUnsafeMutableBufferPointer { i in fft.forward(r.baseAddress!, i.baseAddress!) }
        }
        let scale = Double(size) * 1e-5
        #expect((0..<size).allSatisfy {
            abs(Double(fr[$0]) - dr[reversed($0)]) < scale && abs(Double(fi[$0]) - di[reversed($0)]) < scale
        })
        fr.withUnsafeMutableBufferPointer { r in
            fi.withUnsafeMutableBufferPointer { i in fft.inverse(r.baseAddress!, i.baseAddress!) }
        }
        #expect((0..<size).allSatisfy {
            abs(Double(fr[$0]) / Double(size) - xr[$0]) < 1e-4 && abs(Double(fi[$0]) / Double(size) - xi[$0]) < 1e-4
        })
    }

    @Test(arguments: [1, 2])
    func impulseResponseIsCentredSymmetricAndUnitGain(stuffing: Int) {
        var filter = ResamplerPrefilter<Double>(channels: 1, stuffing: stuffing, cutoff: 0.1, transition: 0.05, attenuation: 100)
        let half = filter.taps / 2
        let at = 300
        var input = [Float](repeating: 0, count: 4 * filter.chunk)
        input[at] = 1
        var output = [Float](repeating: 0, count: 3 * filter.chunk)
        var taken = 0, produced = 0
        while produced + filter.chunk <= output.count {
            taken += input.withUnsafeBufferPointer { filter.push($0.baseAddress! + taken, frames: input.count - taken) }
            if filter.isFull {
                output.withUnsafeMutableBufferPointer { filter.run(into: $0.baseAddress! + produced) }
                produced += filter.chunk
            }
        }
        let centre = at * stuffing
        #expect(output[centre] > 0.1)
        let symmetric = (1...half).allSatisfy { abs(output[centre + $0] - output[centre - $0]) < 1e-6 }
        #expect(symmetric)
        let outside = (half + 1)..<(half + 200)
        #expect(outside.allSatisfy { abs(output[centre + $0]) < 1e-7 && abs(output[centre - $0]) < 1e-7 })
        let gain = output[(centre - half)...(centre + half)].reduce(0.0) { $0 + Double($1) }
        #expect(abs(gain - Double(stuffing)) < 1e-5)
    }
}
