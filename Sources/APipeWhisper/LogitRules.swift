import Foundation

/// Whisper's logit filters: token suppression and the timestamp rules (openai/whisper decoding.py).
struct LogitRules: Sendable {
    let specials: WhisperSpecialTokens
    /// Always suppressed (config.json `suppress_ids` plus the task specials).
    let suppress: [Int]
    /// Suppressed at the first sampled step only (`suppress_ids_begin`: space and end of text).
    let suppressAtBegin: [Int]
    let timestamps: Bool
    /// Index (0.02 s units) of the latest allowed first timestamp.
    let maxInitialTimestampIndex: Int

    /// Applies the rules to `logits` (one row of `count`) given the tokens sampled so far.
    func apply(_ logits: UnsafeMutablePointer<Float>, count: Int, sampled: [Int]) {
        let minusInfinity = -Float.infinity
        if sampled.isEmpty { for id in suppressAtBegin where id < count { logits[id] = minusInfinity } }
        for id in suppress where id < count { logits[id] = minusInfinity }
        guard timestamps else { return }
        let begin = specials.timestampBegin
        logits[specials.noTimestamps] = minusInfinity
        let lastWasTimestamp = sampled.count >= 1 && sampled[sampled.count - 1] >= begin
        let penultimateWasTimestamp = sampled.count < 2 || sampled[sampled.count - 2] >= begin
        if lastWasTimestamp {
            if penultimateWasTimestamp {
                for id in begin..<count { logits[id] = minusInfinity }
            } else {
                for id in 0..<specials.endOfText { logits[id] = minusInfinity }
            }
        }
        if let lastTimestamp = sampled.last(where: { $0 >= begin }) {
            // Timestamps never go back; after a closing pair they must move forward.
            let limit = lastWasTimestamp && !penultimateWasTimestamp ? lastTimestamp : lastTimestamp + 1
            for id in begin..<min(limit, count) { logits[id] = minusInfinity }
        }
        if sampled.isEmpty {
            for id in 0..<begin { logits[id] = minusInfinity }
            let lastAllowed = begin + maxInitialTimestampIndex
            if lastAllowed + 1 < count { for id in (lastAllowed + 1)..<count { logits[id] = minusInfinity } }
        }
        // If the timestamps together are likelier than any single text token, force a timestamp.
        let total = LogitRules.logSumExp(logits, 0..<count)
        let timestampLogProb = LogitRules.logSumExp(logits, begin..<count) - total
        var maxText = minusInfinity
        for id in 0..<begin { maxText = max(maxText, logits[id]) }
        if timestampLogProb > maxText - total {
            for id in 0..<begin { logits[id] = minusInfinity }
        }
    }

    /// `log(sum(exp(x[range])))`, or -infinity for an all -infinity range.
    static func logSumExp(_ x: UnsafePointer<Float>, _ range: Range<Int>) -> Float {
        var maximum = -Float.infinity
        for i in range { maximum = max(maximum, x[i]) }
        guard maximum > -Float.infinity else { return maximum }
        var sum: Float = 0
        for i in range { sum += expf(x[i] - maximum) }
        return maximum + logf(sum)
    }
}
