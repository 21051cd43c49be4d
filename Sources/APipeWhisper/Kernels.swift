import Foundation

/// Element-wise kernels of the transformer (SIMD16 main loops, scalar tails).
enum Kernels {
    /// `y += x` over `count` values.
    @inline(__always)
    static func add(_ x: UnsafePointer<Float>, into y: UnsafeMutablePointer<Float>, count: Int) {
        var i = 0
        while i + 16 <= count {
            let v = UnsafeRawPointer(y + i).loadUnaligned(as: SIMD16<Float>.self) + UnsafeRawPointer(x + i).loadUnaligned(as: SIMD16<Float>.self)
            UnsafeMutableRawPointer(y + i).storeBytes(of: v, as: SIMD16<Float>.self)
            i += 16
        }
        while i < count { y[i] += x[i]; i += 1 }
    }

    /// LayerNorm (eps 1e-5) of `rows` rows of `width`, from `x` into `y`.
    static func layerNorm(_ x: UnsafePointer<Float>, rows: Int, width: Int, norm: NormWeights, into y: UnsafeMutablePointer<Float>) {
        let gamma = norm.gamma.pointer, beta = norm.beta.pointer
        for r in 0..<rows {
            let row = x + r * width, out = y + r * width
            var sum: Float = 0
            for i in 0..<width { sum += row[i] }
            let mean = sum / Float(width)
            var squares: Float = 0
            for i in 0..<width { let d = row[i] - mean; squares += d * d }
            let inverse = 1 / (squares / Float(width) + 1e-5).squareRoot()
            for i in 0..<width { out[i] = (row[i] - mean) * inverse * gamma[i] + beta[i] }
        }
    }

    /// Exact GELU, `x * (1 + erf(x / sqrt 2)) / 2`, in place.
    static func gelu(_ x: UnsafeMutablePointer<Float>, count: Int) {
        let invSqrt2: Float = 0.70710678118654752
        for i in 0..<count { let v = x[i]; x[i] = 0.5 * v * (1 + erf(v * invSqrt2)) }
    }

    /// Softmax of each of `rows` rows (`count` values, stride `stride`), in place.
    /// Row r uses its first `firstValid + r * growth` values (a causal mask when growth is 1);
    /// the rest become 0.
    static func softmaxRows(
        _ x: UnsafeMutablePointer<Float>, rows: Int, count: Int, stride: Int, firstValid: Int, growth: Int
    ) {
        for r in 0..<rows {
            let row = x + r * stride
            let n = min(count, firstValid + r * growth)
            var maximum = -Float.infinity
            for i in 0..<n { maximum = max(maximum, row[i]) }
            var sum: Float = 0
            for i in 0..<n { let e = expf(row[i] - maximum); row[i] = e; sum += e }
            let inverse = 1 / sum
            for i in 0..<n { row[i] *= inverse }
            for i in n..<count { row[i] = 0 }
        }
    }
}
