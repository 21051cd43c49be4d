/// The audio encoder: two convolutions, position encodings, pre-norm blocks, final LayerNorm.
struct WhisperEncoder {
    let weights: WhisperWeights

    /// Encodes `frames` (even, at most 2 x audioContext) mel frames, frame-major `[frames, melCount]`.
    /// Returns `[frames / 2, width]`.
    func encode(mel: UnsafePointer<Float>, frames: Int) -> Matrix {
        let d = weights.dimensions
        let width = d.width, mels = d.melCount
        let positions = frames / 2
        // conv1 (kernel 3, stride 1, pad 1) as one GEMM over unfolded columns [frames, mels * 3].
        let columns1 = Matrix(rows: frames, cols: mels * 3)
        unfold(mel, rows: frames, channels: mels, stride: 1, outputs: frames, into: columns1)
        let hidden1 = Matrix(rows: frames, cols: width)
        BLAS.linear(weights.conv1, rows: frames, x: columns1.pointer, ldx: mels * 3, y: hidden1.pointer, ldy: width)
        Kernels.gelu(hidden1.pointer, count: hidden1.count)
        // conv2 (kernel 3, stride 2, pad 1).
        let columns2 = Matrix(rows: positions, cols: width * 3)
        unfold(hidden1.pointer, rows: frames, channels: width, stride: 2, outputs: positions, into: columns2)
        let x = Matrix(rows: positions, cols: width)
        BLAS.linear(weights.conv2, rows: positions, x: columns2.pointer, ldx: width * 3, y: x.pointer, ldy: width)
        Kernels.gelu(x.pointer, count: x.count)
        Kernels.add(weights.encoderPositions.pointer, into: x.pointer, count: positions * width)

        let scratch = EncoderScratch(positions: positions, width: width, ffn: weights.encoderLayers[0].ffnIn.outputs)
        for layer in weights.encoderLayers { block(layer, x: x, scratch: scratch, heads: d.encoderHeads) }
        let out = Matrix(rows: positions, cols: width)
        Kernels.layerNorm(x.pointer, rows: positions, width: width, norm: weights.encoderNorm, into: out.pointer)
        // The raw pointers above do not keep their matrices alive.
        withExtendedLifetime((columns1, hidden1, columns2, x, scratch)) {}
        return out
    }

    /// One pre-norm block, updating `x` in place.
    private func block(_ layer: EncoderLayerWeights, x: Matrix, scratch: EncoderScratch, heads: Int) {
        let t = x.rows, width = x.cols
        Kernels.layerNorm(x.pointer, rows: t, width: width, norm: layer.attentionNorm, into: scratch.normed.pointer)
        BLAS.linear(layer.qkv, rows: t, x: scratch.normed.pointer, ldx: width, y: scratch.qkv.pointer, ldy: 3 * width)
        Attention.multiHead(
            queries: scratch.qkv.pointer, ldq: 3 * width, keys: scratch.qkv.pointer + width, values: scratch.qkv.pointer + 2 * width,
            ldkv: 3 * width, queryCount: t, keyCount: t, width: width, heads: heads, causalOffset: nil,
            scores: scratch.scores.pointer, into: scratch.attended.pointer)
        BLAS.linear(layer.attentionOut, rows: t, x: scratch.attended.pointer, ldx: width, y: x.pointer, ldy: width, accumulate: true)
        Kernels.layerNorm(x.pointer, rows: t, width: width, norm: layer.ffnNorm, into: scratch.normed.pointer)
        let ffn = layer.ffnIn.outputs
        BLAS.linear(layer.ffnIn, rows: t, x: scratch.normed.pointer, ldx: width, y: scratch.ffn.pointer, ldy: ffn)
        Kernels.gelu(scratch.ffn.pointer, count: t * ffn)
        BLAS.linear(layer.ffnOut, rows: t, x: scratch.ffn.pointer, ldx: ffn, y: x.pointer, ldy: width, accumulate: true)
    }

    /// im2col for a kernel-3, pad-1 convolution: column `c * 3 + k` of output row `o` holds
    /// input row `o * stride + k - 1`, channel `c` (zero outside the input).
    private func unfold(
        _ input: UnsafePointer<Float>, rows: Int, channels: Int, stride: Int, outputs: Int, into columns: Matrix
    ) {
        for o in 0..<outputs {
            let out = columns.row(o)
            for k in 0..<3 {
                let source = o * stride + k - 1
                if source < 0 || source >= rows {
                    for c in 0..<channels { out[c * 3 + k] = 0 }
                } else {
                    let row = input + source * channels
                    for c in 0..<channels { out[c * 3 + k] = row[c] }
                }
            }
        }
    }
}

/// Per-call buffers of the encoder blocks.
private final class EncoderScratch {
    let normed: Matrix
    let qkv: Matrix
    let attended: Matrix
    let ffn: Matrix
    let scores: Matrix

    init(positions: Int, width: Int, ffn: Int) {
        normed = Matrix(rows: positions, cols: width)
        qkv = Matrix(rows: positions, cols: 3 * width)
        attended = Matrix(rows: positions, cols: width)
        self.ffn = Matrix(rows: positions, cols: ffn)
        scores = Matrix(rows: positions, cols: positions)
    }
}
