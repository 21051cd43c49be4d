/// Whisper's repetition check: UTF-8 size over deflate size, with the deflate size estimated.
///
/// zlib is not linked, so the compressed size is modelled: greedy LZ77 (32 KiB window,
/// matches of 3...258) coded with the cheaper of fixed Huffman codes and dynamic codes built
/// from the symbol counts, plus zlib's 6 bytes of framing. Repeated text, which is what the
/// 2.4 threshold catches, is dominated by the LZ77 matches and so is estimated closely.
enum CompressionRatio {
    static func of(_ text: String) -> Float {
        let bytes = Array(text.utf8)
        guard !bytes.isEmpty else { return 0 }
        return Float(bytes.count) / Float(deflateSize(bytes))
    }

    /// Estimated zlib-compressed size of `bytes`, in bytes.
    static func deflateSize(_ bytes: [UInt8]) -> Int {
        var literalCounts = [Int](repeating: 0, count: 286)
        var distanceCounts = [Int](repeating: 0, count: 30)
        var extraBits = 0
        var head = [Int](repeating: -1, count: 1 << 15)
        var previous = [Int](repeating: -1, count: bytes.count)
        func hash(_ i: Int) -> Int { (Int(bytes[i]) << 10 ^ Int(bytes[i + 1]) << 5 ^ Int(bytes[i + 2])) & 0x7fff }
        func insert(_ i: Int) {
            guard i + 2 < bytes.count else { return }
            let h = hash(i)
            previous[i] = head[h]
            head[h] = i
        }
        var i = 0
        while i < bytes.count {
            var bestLength = 0, bestDistance = 0
            if i + 2 < bytes.count {
                var candidate = head[hash(i)]
                var chain = 0
                while candidate >= 0 && i - candidate <= 32768 && chain < 128 {
                    var length = 0
                    while length < 258 && i + length < bytes.count && bytes[candidate + length] == bytes[i + length] { length += 1 }
                    if length > bestLength { bestLength = length; bestDistance = i - candidate }
                    candidate = previous[candidate]
                    chain += 1
                }
            }
            if bestLength >= 3 {
                let (lengthCode, lengthExtra) = lengthSymbol(bestLength)
                let (distanceCode, distanceExtra) = distanceSymbol(bestDistance)
                literalCounts[lengthCode] += 1
                distanceCounts[distanceCode] += 1
                extraBits += lengthExtra + distanceExtra
                for j in i..<(i + bestLength) { insert(j) }
                i += bestLength
            } else {
                literalCounts[Int(bytes[i])] += 1
                insert(i)
                i += 1
            }
        }
        literalCounts[256] += 1
        var fixedBits = extraBits
        for (symbol, count) in literalCounts.enumerated() {
            fixedBits += count * (symbol < 144 ? 8 : symbol < 256 ? 9 : symbol < 280 ? 7 : 8)
        }
        for count in distanceCounts { fixedBits += count * 5 }
        let literalLengths = huffmanLengths(literalCounts)
        let distanceLengths = huffmanLengths(distanceCounts)
        var dynamicBits = extraBits + 14 + 19 * 3
        for (count, length) in zip(literalCounts, literalLengths) { dynamicBits += count * length + (length > 0 ? 4 : 1) }
        for (count, length) in zip(distanceCounts, distanceLengths) { dynamicBits += count * length + (length > 0 ? 4 : 1) }
        return (min(fixedBits, dynamicBits) + 3 + 7) / 8 + 6
    }

    /// Deflate length code (257...285) and its extra bit count for a match length 3...258.
    private static func lengthSymbol(_ length: Int) -> (Int, Int) {
        if length == 258 { return (285, 0) }
        if length < 11 { return (254 + length, 0) }
        var base = 11, code = 265, extra = 1
        while true {
            for _ in 0..<4 {
                if length < base + (1 << extra) { return (code, extra) }
                base += 1 << extra
                code += 1
            }
            extra += 1
        }
    }

    /// Deflate distance code (0...29) and its extra bit count for a distance 1...32768.
    private static func distanceSymbol(_ distance: Int) -> (Int, Int) {
        if distance <= 4 { return (distance - 1, 0) }
        var base = 5, code = 4, extra = 1
        while true {
            for _ in 0..<2 {
                if distance < base + (1 << extra) { return (code, extra) }
                base += 1 << extra
                code += 1
            }
            extra += 1
        }
    }

    /// Huffman code lengths for `counts` (0 for unused symbols, 1 for a lone symbol).
    private static func huffmanLengths(_ counts: [Int]) -> [Int] {
        var nodes: [(weight: Int, symbols: [Int])] = counts.enumerated().compactMap { $0.element > 0 ? ($0.element, [$0.offset]) : nil }
        var lengths = [Int](repeating: 0, count: counts.count)
        if nodes.count == 1 { lengths[nodes[0].symbols[0]] = 1 }
        while nodes.count > 1 {
            nodes.sort { $0.weight > $1.weight }
            let a = nodes.removeLast(), b = nodes.removeLast()
            for s in a.symbols + b.symbols { lengths[s] += 1 }
            nodes.append((a.weight + b.weight, a.symbols + b.symbols))
        }
        return lengths
    }
}
