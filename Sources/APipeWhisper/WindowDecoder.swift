import Foundation

/// One decoding of one 30 s window at one temperature.
struct WindowDecoding {
    /// Sampled tokens without the final end of text.
    let tokens: [Int]
    /// Log-probability of each sampled token (after the logit rules).
    let logProbs: [Float]
    /// Sum of the log-probabilities, end of text included.
    let sumLogProb: Float
    /// `sumLogProb` over `tokens.count + 1`, as the reference.
    let avgLogProb: Float
    /// Probability of `<|nospeech|>` at the start-of-transcript position.
    let noSpeechProb: Float
    let temperature: Float
    let text: String
    let compressionRatio: Float
}

/// Greedy or sampled decoding of a window whose cross-attention is already in `state`.
struct WindowDecoder {
    let decoder: WhisperDecoder
    let rules: LogitRules
    let tokenizer: WhisperTokenizer

    /// Decodes after `prefix` (prompt and start-of-transcript sequence; the latter begins at `sotIndex`).
    func decode(
        prefix: [Int], sotIndex: Int, temperature: Float, maxTokens: Int, state: DecoderState,
        random: inout SplitMix64
    ) -> WindowDecoding {
        let specials = tokenizer.specials
        state.length = 0
        let first = decoder.forward(prefix, state: state, logitRows: [sotIndex, prefix.count - 1])
        let vocabulary = first.cols
        let atStart = first.row(0)
        let noSpeech = expf(atStart[specials.noSpeech] - LogitRules.logSumExp(atStart, 0..<vocabulary))
        var row = [Float](UnsafeBufferPointer(start: first.row(1), count: vocabulary))
        withExtendedLifetime(first) {}
        var sampled: [Int] = []
        var logProbs: [Float] = []
        var sum: Float = 0
        while true {
            let next = row.withUnsafeMutableBufferPointer { buffer -> Int in
                let logits = buffer.baseAddress!
                rules.apply(logits, count: vocabulary, sampled: sampled)
                let next = temperature > 0
                    ? sample(logits, count: vocabulary, temperature: temperature, random: &random)
                    : argmax(logits, count: vocabulary)
                let logProb = logits[next] - LogitRules.logSumExp(logits, 0..<vocabulary)
                logProbs.append(logProb)
                sum += logProb
                return next
            }
            sampled.append(next)
            if next == specials.endOfText || sampled.count >= maxTokens { break }
            let logits = decoder.forward([next], state: state, logitRows: [0])
            row.withUnsafeMutableBufferPointer { $0.baseAddress!.update(from: logits.pointer, count: vocabulary) }
            withExtendedLifetime(logits) {}
        }
        if sampled.last == specials.endOfText {
            sampled.removeLast()
            logProbs.removeLast()
        }
        let text = tokenizer.decode(sampled)
        return WindowDecoding(
            tokens: sampled, logProbs: logProbs, sumLogProb: sum, avgLogProb: sum / Float(sampled.count + 1), noSpeechProb: noSpeech,
            temperature: temperature, text: text, compressionRatio: CompressionRatio.of(text))
    }

    private func argmax(_ x: UnsafePointer<Float>, count: Int) -> Int {
        var best = 0
        for i in 1..<count where x[i] > x[best] { best = i }
        return best
    }

    /// Draws from `softmax(x / temperature)`.
    private func sample(_ x: UnsafePointer<Float>, count: Int, temperature: Float, random: inout SplitMix64) -> Int {
        var maximum = -Float.infinity
        for i in 0..<count { maximum = max(maximum, x[i]) }
        var total: Double = 0
        for i in 0..<count { total += Double(expf((x[i] - maximum) / temperature)) }
        var target = random.nextUnit() * total
        for i in 0..<count {
            let p = Double(expf((x[i] - maximum) / temperature))
            if p > 0 {
                target -= p
                if target <= 0 { return i }
            }
        }
        return argmax(x, count: count)
    }
}

/// A small, seedable random generator (SplitMix64) so sampling is reproducible.
struct SplitMix64: RandomNumberGenerator {
    var state: UInt64

    init(seed: UInt64) { state = seed }

    mutating func next() -> UInt64 {
        state &+= 0x9E37_79B9_7F4A_7C15
        var z = state
        z = (z ^ (z >> 30)) &* 0xBF58_476D_1CE4_E5B9
        z = (z ^ (z >> 27)) &* 0x94D0_49BB_1331_11EB
        return z ^ (z >> 31)
    }

    /// Uniform in [0, 1).
    mutating func nextUnit() -> Double { Double(next() >> 11) / Double(1 << 53) }
}
