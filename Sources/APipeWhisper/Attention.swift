/// Scaled dot-product attention over heads laid side by side in the feature axis.
enum Attention {
    /// For each head h: `out_h = softmax(Q_h K_h^T / sqrt(dh)) V_h`, written into `into` ([queryCount, width]).
    ///
    /// With `causalOffset` = P, query i sees keys 0...P+i (the new tokens follow P cached ones).
    static func multiHead(
        queries: UnsafePointer<Float>, ldq: Int, keys: UnsafePointer<Float>, values: UnsafePointer<Float>, ldkv: Int,
        queryCount: Int, keyCount: Int, width: Int, heads: Int, causalOffset: Int?,
        scores: UnsafeMutablePointer<Float>, into out: UnsafeMutablePointer<Float>
    ) {
        let dh = width / heads
        let scale = 1 / Float(dh).squareRoot()
        for h in 0..<heads {
            BLAS.gemm(
                transposeB: true, m: queryCount, n: keyCount, k: dh, alpha: scale, a: queries + h * dh, lda: ldq,
                b: keys + h * dh, ldb: ldkv, beta: 0, c: scores, ldc: keyCount)
            if let offset = causalOffset {
                Kernels.softmaxRows(scores, rows: queryCount, count: keyCount, stride: keyCount, firstValid: offset + 1, growth: 1)
            } else {
                Kernels.softmaxRows(scores, rows: queryCount, count: keyCount, stride: keyCount, firstValid: keyCount, growth: 0)
            }
            BLAS.gemm(
                transposeB: false, m: queryCount, n: dh, k: keyCount, a: scores, lda: keyCount,
                b: values + h * dh, ldb: ldkv, beta: 0, c: out + h * dh, ldc: width)
        }
    }
}
