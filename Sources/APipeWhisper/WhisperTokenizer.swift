import Foundation

/// Whisper's GPT-2 byte-level BPE vocabulary: decoding of ids, encoding of prompts, special ids.
public struct WhisperTokenizer: Sendable {
    /// Token strings in id order (byte-level characters, or `<|...|>` specials).
    let tokens: [String]
    /// Id of each token string.
    let ids: [String: Int]
    /// Merge rank of each pair `"a b"` (lower merges first); empty without tokenizer.json.
    let mergeRanks: [String: Int]
    /// Special token ids, found by name in the vocabulary.
    public let specials: WhisperSpecialTokens

    /// Loads the vocabulary (`vocabulary.json` or `vocabulary.txt`) and the merges of
    /// `tokenizer.json` (optional) from `directory`.
    init(directory: String) throws {
        let (tokens, path) = try WhisperTokenizer.loadVocabulary(directory: directory)
        try self.init(tokens: tokens, path: path, merges: WhisperTokenizer.loadMerges(path: directory + "/tokenizer.json"))
    }

    /// A tokenizer over `tokens` (id order) read from `path`, with BPE merge ranks `merges`.
    init(tokens: [String], path: String, merges: [String: Int]) throws {
        self.tokens = tokens
        var ids: [String: Int] = [:]
        for (id, token) in tokens.enumerated() where ids[token] == nil { ids[token] = id }
        self.ids = ids
        specials = try WhisperSpecialTokens(ids: ids, path: path)
        mergeRanks = merges
    }

    /// The token list of `directory` and the file it came from. CTranslate2 conversions write
    /// `vocabulary.json` (a JSON array of strings; newer) or `vocabulary.txt` (one token a line;
    /// older); the JSON file wins when both exist.
    static func loadVocabulary(directory: String) throws -> (tokens: [String], path: String) {
        let jsonPath = directory + "/vocabulary.json"
        if let data = FileManager.default.contents(atPath: jsonPath) {
            guard let tokens = try? JSONDecoder().decode([String].self, from: data) else {
                throw WhisperError.notAModel(path: jsonPath, reason: "vocabulary.json is not a JSON array of strings")
            }
            return (tokens, jsonPath)
        }
        let textPath = directory + "/vocabulary.txt"
        guard let data = FileManager.default.contents(atPath: textPath), let text = String(data: data, encoding: .utf8) else {
            throw WhisperError.notAModel(
                path: directory, reason: "missing or unreadable vocabulary (neither vocabulary.json nor vocabulary.txt)")
        }
        var lines = text.split(separator: "\n", omittingEmptySubsequences: false).map(String.init)
        if lines.last == "" { lines.removeLast() }
        return (lines, textPath)
    }

    /// Number of tokens.
    public var count: Int { tokens.count }

    /// Text of the ordinary tokens among `ids` (specials and timestamps are left out).
    public func decode(_ ids: [Int]) -> String {
        var bytes: [UInt8] = []
        for id in ids where id >= 0 && id < specials.endOfText {
            for scalar in tokens[id].unicodeScalars {
                if let byte = ByteLevel.byte(of: scalar) { bytes.append(byte) }
            }
        }
        return String(decoding: bytes, as: UTF8.self)
    }

    /// The ids of `text` by byte-level BPE, as Whisper encodes prompts.
    public func encode(_ text: String) throws -> [Int] {
        guard !mergeRanks.isEmpty else { throw WhisperError.invalidRequest("encoding text needs the model's tokenizer.json") }
        var out: [Int] = []
        for piece in ByteLevel.pretokenize(text) {
            let symbols = String(String.UnicodeScalarView(Array(piece.utf8).map(ByteLevel.scalar(of:))))
            for part in bpe(symbols) {
                guard let id = ids[part] else { throw WhisperError.invalidRequest("cannot encode \(piece.debugDescription)") }
                out.append(id)
            }
        }
        return out
    }

    /// Byte-level BPE of one pre-token: merge the lowest-ranked adjacent pair until none applies.
    private func bpe(_ word: String) -> [String] {
        var parts = word.unicodeScalars.map { String($0) }
        while parts.count > 1 {
            var best = Int.max, at = -1
            for i in 0..<(parts.count - 1) {
                if let rank = mergeRanks[parts[i] + " " + parts[i + 1]], rank < best { best = rank; at = i }
            }
            guard at >= 0 else { break }
            let first = parts[at], second = parts[at + 1]
            var merged: [String] = []
            var i = 0
            while i < parts.count {
                if i + 1 < parts.count, parts[i] == first, parts[i + 1] == second {
                    merged.append(first + second)
                    i += 2
                } else {
                    merged.append(parts[i])
                    i += 1
                }
            }
            parts = merged
        }
        return parts
    }

    /// Merge ranks from a Hugging Face tokenizer.json (`model.merges`, strings or pairs).
    static func loadMerges(path: String) -> [String: Int] {
        guard let data = FileManager.default.contents(atPath: path),
            let json = try? JSONSerialization.jsonObject(with: data) as? [String: Any],
            let model = json["model"] as? [String: Any], let merges = model["merges"] as? [Any]
        else { return [:] }
        var ranks: [String: Int] = [:]
        for (rank, merge) in merges.enumerated() {
            if let text = merge as? String {
                ranks[text] = rank
            } else if let pair = merge as? [String], pair.count == 2 {
                ranks[pair[0] + " " + pair[1]] = rank
            }
        }
        return ranks
    }
}
