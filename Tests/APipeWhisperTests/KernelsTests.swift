@testable import APipeWhisper
import Foundation
import Testing

/// SIMD kernels against their scalar references.
@Suite struct KernelsTests {
    /// Deterministic values in -scale...scale.
    static func values(_ count: Int, scale: Float, seed: UInt64) -> [Float] {
        var random = SplitMix64(seed: seed)
        return (0..<count).map { _ in Float(random.nextUnit() * 2 - 1) * scale }
    }

    static func matrix(_ values: [Float]) -> Matrix {
        let m = Matrix(rows: 1, cols: values.count)
        for (i, v) in values.enumerated() { m.pointer[i] = v }
        return m
    }

    @Test(arguments: [384, 37])
    func layerNormMatchesReference(width: Int) {
        let x = Self.values(3 * width, scale: 4, seed: 1)
        let gamma = Self.values(width, scale: 2, seed: 2), beta = Self.values(width, scale: 1, seed: 3)
        let norm = NormWeights(gamma: Self.matrix(gamma), beta: Self.matrix(beta))
        var out = [Float](repeating: 0, count: x.count)
        out.withUnsafeMutableBufferPointer { Kernels.layerNorm(x, rows: 3, width: width, norm: norm, into: $0.baseAddress!) }
        for r in 0..<3 {
            let expected = Kernels.layerNormReference(Array(x[(r * width)..<((r + 1) * width)]), gamma: gamma, beta: beta)
            for i in 0..<width { #expect(abs(out[r * width + i] - expected[i]) < 1e-4) }
        }
    }

    @Test func geluMatchesExactErf() {
        var x = Self.values(1_000, scale: 8, seed: 4) + [0, -0.5, 0.5, 6, -6]
        let expected = x.map(Kernels.geluReference)
        x.withUnsafeMutableBufferPointer { Kernels.gelu($0.baseAddress!, count: $0.count) }
        let worst = zip(x, expected).map { abs($0 - $1) }.max()!
        #expect(worst < 2e-6, "largest GELU difference \(worst)")
    }

    @Test func softmaxMatchesReferenceWithCausalMask() {
        let rows = 3, count = 40
        var x = Self.values(rows * count, scale: 20, seed: 5)
        let original = x
        x.withUnsafeMutableBufferPointer {
            Kernels.softmaxRows($0.baseAddress!, rows: rows, count: count, stride: count, firstValid: 35, growth: 1)
        }
        for r in 0..<rows {
            let n = min(count, 35 + r)
            let row = original[(r * count)..<(r * count + n)]
            let maximum = row.max()!
            let total = row.reduce(0) { $0 + exp(Double($1 - maximum)) }
            for i in 0..<count {
                let expected = i < n ? exp(Double(original[r * count + i] - maximum)) / total : 0
                #expect(abs(Double(x[r * count + i]) - expected) < 1e-6)
            }
        }
    }

    @Test func vectorExpMatchesLibm() {
        let x = Self.values(16 * 64, scale: 80, seed: 6)
        var worst: Float = 0
        for chunk in stride(from: 0, to: x.count, by: 16) {
            let v = Kernels.exp(SIMD16<Float>(x[chunk..<(chunk + 16)]))
            for i in 0..<16 {
                let expected = expf(x[chunk + i])
                worst = max(worst, abs(v[i] - expected) / expected)
            }
        }
        #expect(worst < 1e-6, "largest relative exp error \(worst)")
    }
}
