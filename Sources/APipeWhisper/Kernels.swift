import Foundation

/// Element-wise kernels of the transformer: SIMD16 main loops with scalar tails, each with a
/// scalar reference (`...Reference`) that the tests compare against.
enum Kernels {
    typealias Vector = SIMD16<Float>

    @inline(__always) static func load(_ p: UnsafePointer<Float>) -> Vector {
        UnsafeRawPointer(p).loadUnaligned(as: Vector.self)
    }

    @inline(__always) static func store(_ v: Vector, _ p: UnsafeMutablePointer<Float>) {
        UnsafeMutableRawPointer(p).storeBytes(of: v, as: Vector.self)
    }

    /// `y += x` over `count` values.
    @inline(__always)
    static func add(_ x: UnsafePointer<Float>, into y: UnsafeMutablePointer<Float>, count: Int) {
        var i = 0
        while i + 16 <= count {
            store(load(y + i) + load(x + i), y + i)
            i += 16
        }
        while i < count { y[i] += x[i]; i += 1 }
    }

    /// LayerNorm (eps 1e-5) of `rows` rows of `width`, from `x` into `y`.
    static func layerNorm(_ x: UnsafePointer<Float>, rows: Int, width: Int, norm: NormWeights, into y: UnsafeMutablePointer<Float>) {
        let gamma = norm.gamma.pointer, beta = norm.beta.pointer
        let body = width / 16 * 16
        for r in 0..<rows {
            let row = x + r * width, out = y + r * width
            var sums = Vector()
            var i = 0
            while i < body { sums += load(row + i); i += 16 }
            var sum = sums.sum()
            while i < width { sum += row[i]; i += 1 }
            let mean = sum / Float(width)
            var squares = Vector()
            i = 0
            while i < body { let d = load(row + i) - mean; squares += d * d; i += 16 }
            var square = squares.sum()
            while i < width { let d = row[i] - mean; square += d * d; i += 1 }
            let inverse = 1 / (square / Float(width) + 1e-5).squareRoot()
            i = 0
            while i < body {
                store((load(row + i) - mean) * inverse * load(gamma + i) + load(beta + i), out + i)
                i += 16
            }
            while i < width { out[i] = (row[i] - mean) * inverse * gamma[i] + beta[i]; i += 1 }
        }
    }

    /// Scalar LayerNorm, the reference for `layerNorm`.
    static func layerNormReference(_ x: [Float], gamma: [Float], beta: [Float]) -> [Float] {
        let mean = x.reduce(0, +) / Float(x.count)
        let variance = x.reduce(0) { $0 + ($1 - mean) * ($1 - mean) } / Float(x.count)
        let inverse = 1 / (variance + 1e-5).squareRoot()
        return x.indices.map { (x[$0] - mean) * inverse * gamma[$0] + beta[$0] }
    }

    /// Exact-erf GELU, `x * (1 + erf(x / sqrt 2)) / 2`, in place.
    static func gelu(_ x: UnsafeMutablePointer<Float>, count: Int) {
        let invSqrt2: Float = 0.70710678118654752
        var i = 0
        while i + 16 <= count {
            let v = load(x + i)
            store(0.5 * v * (1 + Kernels.erf(v * invSqrt2)), x + i)
            i += 16
        }
        while i < count { x[i] = geluReference(x[i]); i += 1 }
    }

    /// Scalar GELU with libm's erf, the reference for `gelu`.
    static func geluReference(_ v: Float) -> Float { 0.5 * v * (1 + Foundation.erf(v * 0.70710678118654752)) }

    /// Softmax of each of `rows` rows (`count` values, stride `stride`), in place.
    /// Row r uses its first `firstValid + r * growth` values (a causal mask when growth is 1);
    /// the rest become 0.
    static func softmaxRows(
        _ x: UnsafeMutablePointer<Float>, rows: Int, count: Int, stride: Int, firstValid: Int, growth: Int
    ) {
        for r in 0..<rows {
            let row = x + r * stride
            let n = min(count, firstValid + r * growth)
            let body = n / 16 * 16
            var maxima = Vector(repeating: -.infinity)
            var i = 0
            while i < body { maxima = pointwiseMax(maxima, load(row + i)); i += 16 }
            var maximum = maxima.max()
            while i < n { maximum = max(maximum, row[i]); i += 1 }
            var sums = Vector()
            i = 0
            while i < body {
                let e = Kernels.exp(load(row + i) - maximum)
                store(e, row + i)
                sums += e
                i += 16
            }
            var sum = sums.sum()
            while i < n { let e = expf(row[i] - maximum); row[i] = e; sum += e; i += 1 }
            let inverse = 1 / sum
            i = 0
            while i < body { store(load(row + i) * inverse, row + i); i += 16 }
            while i < n { row[i] *= inverse; i += 1 }
            for j in n..<count { row[j] = 0 }
        }
    }

    /// `e^x` per lane (Cephes polynomial, ~1 ulp), inputs clamped to the float range.
    ///
    /// Rounding and the 2^n scale use the 1.5 * 2^23 trick: adding it leaves round(v) in the
    /// low mantissa bits, avoiding the slow generic float-to-integer SIMD conversion.
    @inline(__always) static func exp(_ x: Vector) -> Vector {
        let magic = Vector(repeating: 12_582_912)
        let clamped = pointwiseMin(pointwiseMax(x, Vector(repeating: -87.3)), Vector(repeating: 88.7))
        let shifted = clamped * 1.44269504088896341 + magic
        let n = shifted - magic
        let r = clamped - n * 0.693359375 + n * 2.12194440e-4
        var p = Vector(repeating: 1.9875691500e-4)
        p = p * r + 1.3981999507e-3
        p = p * r + 8.3334519073e-3
        p = p * r + 4.1665795894e-2
        p = p * r + 1.6666665459e-1
        p = p * r + 5.0000001201e-1
        let e = p * r * r + r + 1
        let bits = (unsafeBitCast(shifted, to: SIMD16<Int32>.self) &- 0x4B40_0000 &+ 127) &<< 23
        return e * unsafeBitCast(bits, to: Vector.self)
    }

    /// erf per lane (Abramowitz and Stegun 7.1.26, absolute error below 1.5e-7).
    @inline(__always) static func erf(_ x: Vector) -> Vector {
        let a = x.replacing(with: -x, where: x .< 0)
        let t = 1 / (1 + 0.3275911 * a)
        var p = Vector(repeating: 1.061405429)
        p = p * t - 1.453152027
        p = p * t + 1.421413741
        p = p * t - 0.284496736
        p = p * t + 0.254829592
        let y = 1 - p * t * Kernels.exp(-a * a)
        return y.replacing(with: -y, where: x .< 0)
    }
}
