import Testing
@testable import APipeDSP

/// s16 <-> f32 conversion: clipping, rounding, NaN, dither.
@Suite struct ResamplerSampleConversionTests {
    @Test func floatToInt16ClipsAndRounds() {
        let x: [Float] = [0, 1.5, -1.5, 1.0, -1.0, 0.5, -0.5, .nan, .infinity, -.infinity, 1e-5, 0.99999]
        var out: [Int16] = []
        x.withUnsafeBufferPointer { SampleConversion.appendInt16(from: $0, to: &out) }
        #expect(out == [0, 32767, -32768, 32767, -32768, 16384, -16384, 0, 32767, -32768, 0, 32767])
    }

    @Test func int16RoundTripIsExact() {
        let s: [Int16] = (0..<1000).map { Int16(truncatingIfNeeded: $0 * 65 - 32768) } + [32767, -32768]
        var f: [Float] = []
        s.withUnsafeBufferPointer { SampleConversion.appendFloats(from: $0, to: &f) }
        var back: [Int16] = []
        f.withUnsafeBufferPointer { SampleConversion.appendInt16(from: $0, to: &back) }
        #expect(back == s)
    }

    @Test func ditherIsTriangularWithinOneLSBAndClipSafe() {
        let x = [Float](repeating: 0.25, count: 10001) + [Float](repeating: 1, count: 17)
        var out: [Int16] = []
        var dither = TPDFDither(seed: 7)
        x.withUnsafeBufferPointer { SampleConversion.appendInt16(from: $0, to: &out, dither: &dither) }
        #expect(out[0..<10001].allSatisfy { abs(Int($0) - 8192) <= 1 })
        #expect(out[10001...].allSatisfy { $0 == 32767 || $0 == 32766 })
        let mean = out[0..<10001].reduce(0.0) { $0 + Double($1) } / 10001
        #expect(abs(mean - 8192) < 0.05)
    }
}
