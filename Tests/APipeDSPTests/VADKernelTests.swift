import Foundation
import Testing

@testable import APipeDSP

/// RealFFT against a direct DFT, and each SIMD kernel against its scalar reference.
struct VADKernelTests {
    /// Deterministic pseudo-random samples in -1...1.
    static func noise(_ count: Int, seed: UInt64) -> [Float] {
        var state = seed &* 6_364_136_223_846_793_005 &+ 1_442_695_040_888_963_407
        return (0..<count).map { _ in
            state = state &* 6_364_136_223_846_793_005 &+ 1_442_695_040_888_963_407
            return Float(Int64(bitPattern: state >> 11) % 2_000_001 - 1_000_000) / 1_000_000
        }
    }

    @Test(arguments: [4, 8, 16, 32, 64, 256, 512, 2048])
    func forwardMatchesDirectDFT(size: Int) throws {
        let fft = try #require(RealFFT(size: size))
        let x = Self.noise(size, seed: UInt64(size))
        var re = [Float](repeating: 0, count: size / 2 + 1), im = re
        fft.forward(x, real: &re, imag: &im)
        for k in 0...size / 2 {
            var sr = 0.0, si = 0.0
            for n in 0..<size {
                let angle = -2 * Double.pi * Double(k * n % size) / Double(size)
                sr += Double(x[n]) * cos(angle)
                si += Double(x[n]) * sin(angle)
            }
            let tolerance = 1e-4 * Double(size)
            #expect(abs(Double(re[k]) - sr) < tolerance, "bin \(k) real")
            #expect(abs(Double(im[k]) - si) < tolerance, "bin \(k) imaginary")
        }
    }

    @Test(arguments: [4, 16, 128, 1024])
    func inverseUndoesForward(size: Int) throws {
        let fft = try #require(RealFFT(size: size))
        let x = Self.noise(size, seed: 7)
        var re = [Float](repeating: 0, count: size / 2 + 1), im = re
        var y = [Float](repeating: 0, count: size)
        fft.forward(x, real: &re, imag: &im)
        fft.inverse(real: re, imag: im, output: &y)
        for n in 0..<size { #expect(abs(x[n] - y[n]) < 1e-5) }
    }

    @Test func rejectsSizesThatAreNotPowersOfTwo() {
        #expect(RealFFT(size: 0) == nil)
        #expect(RealFFT(size: 2) == nil)
        #expect(RealFFT(size: 100) == nil)
        #expect(RealFFT(size: 1 << 25) == nil)
    }

    @Test func butterflySIMDMatchesScalar() {
        let span = 32
        var re1 = Self.noise(2 * span, seed: 1), im1 = Self.noise(2 * span, seed: 2)
        var re2 = re1, im2 = im1
        let tr = Self.noise(span, seed: 3), ti = Self.noise(span, seed: 4)
        FFTKernels.butterflySIMD8(re: &re1, im: &im1, span: span, twRe: tr, twIm: ti)
        FFTKernels.butterflyScalar(re: &re2, im: &im2, span: span, twRe: tr, twIm: ti)
        #expect(re1 == re2)
        #expect(im1 == im2)
    }

    @Test func lastStagesMatchThreeScalarPasses() {
        var re1 = Self.noise(8, seed: 5), im1 = Self.noise(8, seed: 6)
        var re2 = re1, im2 = im1
        FFTKernels.lastStages8(re: &re1, im: &im1)
        for span in [4, 2, 1] {
            let tr = (0..<span).map { Float(cos(-Double.pi * Double($0) / Double(span))) }
            let ti = (0..<span).map { Float(sin(-Double.pi * Double($0) / Double(span))) }
            var base = 0
            while base < 8 {
                re2.withUnsafeMutableBufferPointer { r in
                    im2.withUnsafeMutableBufferPointer { i in
                        FFTKernels.butterflyScalar(
                            re: r.baseAddress! + base, im: i.baseAddress! + base, span: span, twRe: tr, twIm: ti)
                    }
                }
                base += 2 * span
            }
        }
        for k in 0..<8 {
            #expect(abs(re1[k] - re2[k]) < 1e-5)
            #expect(abs(im1[k] - im2[k]) < 1e-5)
        }
    }

    @Test(arguments: [0, 1, 7, 16, 37, 100])
    func reductionsMatchScalar(count: Int) {
        let a = Self.noise(count, seed: 8), b = Self.noise(count, seed: 9)
        let dot = VADKernels.dot(a, b, count: count), reference = VADKernels.dotScalar(a, b, count: count)
        #expect(abs(dot - reference) < 1e-4)
        #expect(abs(VADKernels.sum(a, count: count) - a.reduce(0, +)) < 1e-4)
        if count > 0 { #expect(VADKernels.maximum(a, count: count) == a.max()) }
    }

    @Test func log2AndExp2MatchTheirScalarTwinsAndLibm() {
        let xs: [Float] = (0..<64).map { Float(pow(10.0, Double($0) / 4 - 8)) }
        var out = [Float](repeating: 0, count: xs.count)
        VADKernels.log2(xs, out: &out, count: xs.count, floor: 1e-30)
        for (x, y) in zip(xs, out) {
            #expect(abs(y - VADKernels.log2Scalar(x + 1e-30)) < 1e-5)
            #expect(abs(y - Foundation.log2(x)) < 2e-3)
        }
        let es: [Float] = (0..<64).map { Float($0) / 3 - 10 }
        var powers = [Float](repeating: 0, count: es.count)
        VADKernels.exp2(es, out: &powers, count: es.count)
        for (e, p) in zip(es, powers) {
            #expect(abs(p - VADKernels.exp2Scalar(e)) <= 1e-6 * p)
            #expect(abs(p / Foundation.exp2(e) - 1) < 1e-4)
        }
    }
}
