/// LayerNorm parameters.
struct NormWeights: Sendable {
    let gamma: Matrix
    let beta: Matrix
}

/// A linear layer: `y = x W^T + b`, W is [out, in].
struct LinearWeights: Sendable {
    let weight: Matrix
    let bias: Matrix?
    var outputs: Int { weight.rows }
    var inputs: Int { weight.cols }
}

/// One encoder block: self-attention (fused QKV) and feed-forward, both pre-norm.
struct EncoderLayerWeights: Sendable {
    let attentionNorm: NormWeights
    let qkv: LinearWeights
    let attentionOut: LinearWeights
    let ffnNorm: NormWeights
    let ffnIn: LinearWeights
    let ffnOut: LinearWeights
}

/// One decoder block: masked self-attention, cross-attention (fused KV) and feed-forward.
struct DecoderLayerWeights: Sendable {
    let selfNorm: NormWeights
    let selfQKV: LinearWeights
    let selfOut: LinearWeights
    let crossNorm: NormWeights
    let crossQuery: LinearWeights
    let crossKeyValue: LinearWeights
    let crossOut: LinearWeights
    let ffnNorm: NormWeights
    let ffnIn: LinearWeights
    let ffnOut: LinearWeights
}

/// Model sizes, all read from the file.
public struct WhisperDimensions: Sendable, Equatable {
    /// Mel bands the encoder expects (80, or 128 for large-v3).
    public let melCount: Int
    /// Model width.
    public let width: Int
    /// Attention heads in the encoder.
    public let encoderHeads: Int
    /// Attention heads in the decoder.
    public let decoderHeads: Int
    /// Encoder blocks.
    public let encoderLayers: Int
    /// Decoder blocks.
    public let decoderLayers: Int
    /// Encoder positions (1500 for a 30 s window).
    public let audioContext: Int
    /// Decoder positions (448).
    public let textContext: Int
    /// Vocabulary size.
    public let vocabularySize: Int
}

/// All weights of a Whisper model, float32, read-only after load.
struct WhisperWeights: Sendable {
    let dimensions: WhisperDimensions
    let conv1: LinearWeights
    let conv2: LinearWeights
    let encoderPositions: Matrix
    let encoderLayers: [EncoderLayerWeights]
    let encoderNorm: NormWeights
    let embeddings: Matrix
    let decoderPositions: Matrix
    let decoderLayers: [DecoderLayerWeights]
    let decoderNorm: NormWeights

    static let specName = "WhisperSpec"
    static let maxRevision = 3

    /// Picks the Whisper variables out of `file`, checking names and shapes.
    init(file: ModelFile, path: String) throws {
        guard file.specName == WhisperWeights.specName else {
            throw WhisperError.notAModel(path: path, reason: "spec \(file.specName), expected \(WhisperWeights.specName)")
        }
        guard file.revision <= WhisperWeights.maxRevision else {
            throw WhisperError.unsupported(path: path, reason: "spec revision \(file.revision) is newer than \(WhisperWeights.maxRevision)")
        }
        func tensor(_ name: String, _ shape: [Int]? = nil) throws -> Matrix {
            guard let entry = file.tensors[name] else {
                throw WhisperError.notAModel(path: path, reason: "missing variable \(name)")
            }
            if let shape, entry.shape.reduce(1, *) != shape.reduce(1, *) || entry.shape.first != shape.first {
                throw WhisperError.notAModel(path: path, reason: "variable \(name) has shape \(entry.shape), expected \(shape)")
            }
            return entry.matrix
        }
        func linear(_ prefix: String, _ outputs: Int, _ inputs: Int) throws -> LinearWeights {
            LinearWeights(
                weight: try tensor(prefix + "/weight", [outputs, inputs]),
                bias: file.tensors[prefix + "/bias"] != nil ? try tensor(prefix + "/bias", [outputs]) : nil)
        }
        func norm(_ prefix: String, _ width: Int) throws -> NormWeights {
            NormWeights(gamma: try tensor(prefix + "/gamma", [width]), beta: try tensor(prefix + "/beta", [width]))
        }
        func layerCount(_ prefix: String) -> Int {
            var n = 0
            while file.tensors["\(prefix)/layer_\(n)/ffn/linear_0/weight"] != nil { n += 1 }
            return n
        }
        guard let conv1Shape = file.tensors["encoder/conv1/weight"]?.shape, conv1Shape.count >= 2 else {
            throw WhisperError.notAModel(path: path, reason: "missing variable encoder/conv1/weight")
        }
        let width = conv1Shape[0]
        let mels = conv1Shape.count == 3 ? conv1Shape[1] : conv1Shape[1] / 3
        guard let encoderHeads = file.scalars["encoder/num_heads"], let decoderHeads = file.scalars["decoder/num_heads"],
            encoderHeads > 0, decoderHeads > 0, width % encoderHeads == 0, width % decoderHeads == 0
        else { throw WhisperError.notAModel(path: path, reason: "missing or bad encoder/decoder num_heads") }
        guard let embedShape = file.tensors["decoder/embeddings/weight"]?.shape, embedShape.count == 2,
            let encPosShape = file.tensors["encoder/position_encodings/encodings"]?.shape, encPosShape.count == 2,
            let decPosShape = file.tensors["decoder/position_encodings/encodings"]?.shape, decPosShape.count == 2
        else { throw WhisperError.notAModel(path: path, reason: "missing embeddings or position encodings") }
        let ffn = file.tensors["encoder/layer_0/ffn/linear_0/weight"]?.shape.first ?? 4 * width
        dimensions = WhisperDimensions(
            melCount: mels, width: width, encoderHeads: encoderHeads, decoderHeads: decoderHeads,
            encoderLayers: layerCount("encoder"), decoderLayers: layerCount("decoder"),
            audioContext: encPosShape[0], textContext: decPosShape[0], vocabularySize: embedShape[0])
        guard dimensions.encoderLayers > 0, dimensions.decoderLayers > 0 else {
            throw WhisperError.notAModel(path: path, reason: "no encoder or decoder layers")
        }
        conv1 = try linear("encoder/conv1", width, mels * 3)
        conv2 = try linear("encoder/conv2", width, width * 3)
        encoderPositions = try tensor("encoder/position_encodings/encodings", [encPosShape[0], width])
        encoderLayers = try (0..<dimensions.encoderLayers).map { i in
            let p = "encoder/layer_\(i)"
            return EncoderLayerWeights(
                attentionNorm: try norm(p + "/self_attention/layer_norm", width),
                qkv: try linear(p + "/self_attention/linear_0", 3 * width, width),
                attentionOut: try linear(p + "/self_attention/linear_1", width, width),
                ffnNorm: try norm(p + "/ffn/layer_norm", width),
                ffnIn: try linear(p + "/ffn/linear_0", ffn, width),
                ffnOut: try linear(p + "/ffn/linear_1", width, ffn))
        }
        encoderNorm = try norm("encoder/layer_norm", width)
        embeddings = try tensor("decoder/embeddings/weight", [embedShape[0], width])
        decoderPositions = try tensor("decoder/position_encodings/encodings", [decPosShape[0], width])
        decoderLayers = try (0..<dimensions.decoderLayers).map { i in
            let p = "decoder/layer_\(i)"
            return DecoderLayerWeights(
                selfNorm: try norm(p + "/self_attention/layer_norm", width),
                selfQKV: try linear(p + "/self_attention/linear_0", 3 * width, width),
                selfOut: try linear(p + "/self_attention/linear_1", width, width),
                crossNorm: try norm(p + "/attention/layer_norm", width),
                crossQuery: try linear(p + "/attention/linear_0", width, width),
                crossKeyValue: try linear(p + "/attention/linear_1", 2 * width, width),
                crossOut: try linear(p + "/attention/linear_2", width, width),
                ffnNorm: try norm(p + "/ffn/layer_norm", width),
                ffnIn: try linear(p + "/ffn/linear_0", ffn, width),
                ffnOut: try linear(p + "/ffn/linear_1", width, ffn))
        }
        decoderNorm = try norm("decoder/layer_norm", width)
    }
}
