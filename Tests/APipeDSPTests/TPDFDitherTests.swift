import APipeDSP
import Testing

/// Dither is triangular within one LSB, unbiased, and deterministic per seed.
@Suite struct TPDFDitherTests {
    @Test func ditherStaysWithinOneLSBAndAveragesOut() {
        var samples = [Float](repeating: 0.25, count: 10001)
        var dither = TPDFDither(seed: 7)
        samples.withUnsafeMutableBufferPointer { dither.add(to: $0) }
        let lsb = Float(1) / 32768
        #expect(samples.allSatisfy { abs($0 - 0.25) < lsb })
        let mean = samples.reduce(0.0) { $0 + Double($1) } / Double(samples.count)
        #expect(abs(mean - 0.25) < 0.05 / 32768)
    }

    @Test func sameSeedSameDither() {
        var a = TPDFDither(seed: 3)
        var b = TPDFDither(seed: 3)
        #expect((0..<100).map { _ in a.next() } == (0..<100).map { _ in b.next() })
    }
}
