import COpenBLAS

/// The few OpenBLAS calls the engine makes.
enum BLAS {
    /// `C = alpha * op(A) op(B) + beta * C`, row-major; op transposes when asked.
    @inline(__always)
    static func gemm(
        transposeA: Bool = false, transposeB: Bool, m: Int, n: Int, k: Int, alpha: Float = 1,
        a: UnsafePointer<Float>, lda: Int, b: UnsafePointer<Float>, ldb: Int,
        beta: Float, c: UnsafeMutablePointer<Float>, ldc: Int
    ) {
        cblas_sgemm(
            CblasRowMajor, transposeA ? CblasTrans : CblasNoTrans, transposeB ? CblasTrans : CblasNoTrans,
            blasint(m), blasint(n), blasint(k), alpha, a, blasint(lda), b, blasint(ldb), beta, c, blasint(ldc))
    }

    /// Sets the OpenBLAS thread count (process-wide).
    static func setThreads(_ count: Int) {
        openblas_set_num_threads(Int32(max(1, count)))
    }

    /// `y[rows, out] = x[rows, in] W^T + b` with `x` and `y` of row strides `ldx`, `ldy`.
    static func linear(
        _ layer: LinearWeights, rows: Int, x: UnsafePointer<Float>, ldx: Int, y: UnsafeMutablePointer<Float>, ldy: Int,
        accumulate: Bool = false
    ) {
        if !accumulate, let bias = layer.bias {
            for r in 0..<rows { (y + r * ldy).update(from: bias.pointer, count: layer.outputs) }
        }
        gemm(
            transposeB: true, m: rows, n: layer.outputs, k: layer.inputs, a: x, lda: ldx,
            b: layer.weight.pointer, ldb: layer.inputs, beta: (accumulate || layer.bias != nil) ? 1 : 0, c: y, ldc: ldy)
        if accumulate, let bias = layer.bias {
            for r in 0..<rows { Kernels.add(bias.pointer, into: y + r * ldy, count: layer.outputs) }
        }
    }
}
