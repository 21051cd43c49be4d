/// The text decoder: token and position embeddings, pre-norm blocks with a key/value cache,
/// cross-attention over the encoded audio, and the output projection tied to the embeddings.
struct WhisperDecoder {
    let weights: WhisperWeights

    /// Per-layer cross-attention keys and values `[positions, 2 * width]`, computed once per window.
    func crossKeyValues(encoded: Matrix) -> [Matrix] {
        weights.decoderLayers.map { layer in
            let kv = Matrix(rows: encoded.rows, cols: 2 * encoded.cols)
            BLAS.linear(layer.crossKeyValue, rows: encoded.rows, x: encoded.pointer, ldx: encoded.cols, y: kv.pointer, ldy: kv.cols)
            return kv
        }
    }

    /// Runs `tokens` after the `state.length` cached ones and returns the logits of the new
    /// tokens at indices `logitRows` (relative to `tokens`), `[logitRows.count, vocabularySize]`.
    func forward(_ tokens: [Int], state: DecoderState, logitRows: [Int]) -> Matrix {
        let d = weights.dimensions
        let width = d.width, m = tokens.count, past = state.length
        precondition(past + m <= d.textContext, "decoder context overflow")
        let x = state.hidden
        for (i, token) in tokens.enumerated() {
            let row = x.row(i)
            row.update(from: weights.embeddings.row(token), count: width)
            Kernels.add(weights.decoderPositions.row(past + i), into: row, count: width)
        }
        let normed = state.normed.pointer, qkv = state.qkv.pointer, attended = state.attended.pointer
        for (l, layer) in weights.decoderLayers.enumerated() {
            // Masked self-attention over cached and new tokens.
            Kernels.layerNorm(x.pointer, rows: m, width: width, norm: layer.selfNorm, into: normed)
            BLAS.linear(layer.selfQKV, rows: m, x: normed, ldx: width, y: qkv, ldy: 3 * width)
            let keys = state.selfKeys[l], values = state.selfValues[l]
            for i in 0..<m {
                keys.row(past + i).update(from: qkv + i * 3 * width + width, count: width)
                values.row(past + i).update(from: qkv + i * 3 * width + 2 * width, count: width)
            }
            Attention.multiHead(
                queries: qkv, ldq: 3 * width, keys: keys.pointer, values: values.pointer, ldkv: width,
                queryCount: m, keyCount: past + m, width: width, heads: d.decoderHeads, causalOffset: past,
                scores: state.scores.pointer, into: attended)
            BLAS.linear(layer.selfOut, rows: m, x: attended, ldx: width, y: x.pointer, ldy: width, accumulate: true)
            // Cross-attention over the window's audio.
            let cross = state.crossKeyValues[l]
            Kernels.layerNorm(x.pointer, rows: m, width: width, norm: layer.crossNorm, into: normed)
            BLAS.linear(layer.crossQuery, rows: m, x: normed, ldx: width, y: qkv, ldy: width)
            Attention.multiHead(
                queries: qkv, ldq: width, keys: cross.pointer, values: cross.pointer + width, ldkv: 2 * width,
                queryCount: m, keyCount: cross.rows, width: width, heads: d.decoderHeads, causalOffset: nil,
                scores: state.scores.pointer, into: attended)
            BLAS.linear(layer.crossOut, rows: m, x: attended, ldx: width, y: x.pointer, ldy: width, accumulate: true)
            // Feed-forward.
            let ffn = layer.ffnIn.outputs
            Kernels.layerNorm(x.pointer, rows: m, width: width, norm: layer.ffnNorm, into: normed)
            BLAS.linear(layer.ffnIn, rows: m, x: normed, ldx: width, y: state.ffn.pointer, ldy: ffn)
            Kernels.gelu(state.ffn.pointer, count: m * ffn)
            BLAS.linear(layer.ffnOut, rows: m, x: state.ffn.pointer, ldx: ffn, y: x.pointer, ldy: width, accumulate: true)
        }
        state.length = past + m
        for (i, r) in logitRows.enumerated() {
            Kernels.layerNorm(x.row(r), rows: 1, width: width, norm: weights.decoderNorm, into: normed + i * width)
        }
        let logits = Matrix(rows: logitRows.count, cols: d.vocabularySize)
        BLAS.gemm(
            transposeB: true, m: logitRows.count, n: d.vocabularySize, k: width, a: normed, lda: width,
            b: weights.embeddings.pointer, ldb: width, beta: 0, c: logits.pointer, ldc: d.vocabularySize)
        return logits
    }
}

/// One decoding's key/value cache and buffers; owned by a single call, never shared.
final class DecoderState {
    let selfKeys: [Matrix]
    let selfValues: [Matrix]
    let crossKeyValues: [Matrix]
    let hidden: Matrix
    let normed: Matrix
    let qkv: Matrix
    let attended: Matrix
    let ffn: Matrix
    let scores: Matrix
    /// Tokens already in the cache.
    var length = 0

    init(dimensions d: WhisperDimensions, ffn ffnWidth: Int, crossKeyValues: [Matrix]) {
        let context = d.textContext, width = d.width
        selfKeys = (0..<d.decoderLayers).map { _ in Matrix(rows: context, cols: width) }
        selfValues = (0..<d.decoderLayers).map { _ in Matrix(rows: context, cols: width) }
        self.crossKeyValues = crossKeyValues
        hidden = Matrix(rows: context, cols: width)
        normed = Matrix(rows: context, cols: width)
        qkv = Matrix(rows: context, cols: 3 * width)
        attended = Matrix(rows: context, cols: width)
        ffn = Matrix(rows: context, cols: ffnWidth)
        scores = Matrix(rows: context, cols: max(context, crossKeyValues.first?.rows ?? 0))
    }
}
