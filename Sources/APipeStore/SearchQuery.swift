/// Turns what a user types into a valid FTS5 query.
///
/// Kept as typed: `"quoted phrases"`, `prefix*`, `AND`/`OR`/`NOT` in capitals, parentheses.
/// Every other word is quoted, so punctuation (`budget-meeting`, `o'clock`) never reaches FTS5
/// as syntax. Unbalanced quotes or parentheses and dangling operators are errors.
public struct SearchQuery: Sendable, Equatable {
    /// The FTS5 MATCH expression.
    public let expression: String

    public init(_ text: String) throws(StoreError) {
        var tokens: [String] = []
        var depth = 0
        var expectOperand = true
        var index = text.startIndex
        while index < text.endIndex {
            let c = text[index]
            if c.isWhitespace {
                index = text.index(after: index)
                continue
            }
            if c == "(" || c == ")" {
                if c == "(" {
                    if !expectOperand { tokens.append("AND") }
                    depth += 1
                } else {
                    guard depth > 0 else { throw .badQuery("')' without a matching '('") }
                    guard !expectOperand else { throw .badQuery("nothing before ')'") }
                    depth -= 1
                }
                tokens.append(String(c))
                expectOperand = c == "("
                index = text.index(after: index)
                continue
            }
            var word = ""
            if c == "\"" {
                guard let close = text[text.index(after: index)...].firstIndex(of: "\"") else {
                    throw .badQuery("unbalanced quote")
                }
                word = String(text[text.index(after: index)..<close])
                index = text.index(after: close)
                guard !word.trimmingWhitespace.isEmpty else { throw .badQuery("empty phrase \"\"") }
                var token = SearchQuery.quote(word)
                if index < text.endIndex, text[index] == "*" {
                    token += "*"
                    index = text.index(after: index)
                }
                if !expectOperand { tokens.append("AND") }
                tokens.append(token)
                expectOperand = false
                continue
            }
            while index < text.endIndex, !text[index].isWhitespace, !"()\"".contains(text[index]) {
                word.append(text[index])
                index = text.index(after: index)
            }
            if ["AND", "OR", "NOT"].contains(word) {
                guard !expectOperand else { throw .badQuery("'\(word)' needs a word before it") }
                tokens.append(word)
                expectOperand = true
                continue
            }
            let prefix = word.hasSuffix("*")
            let stem = prefix ? String(word.dropLast()) : word
            guard !stem.isEmpty, stem.contains(where: { $0.isLetter || $0.isNumber }) else {
                if stem.isEmpty, prefix { throw .badQuery("'*' must follow a word") }
                continue
            }
            if !expectOperand { tokens.append("AND") }
            tokens.append(SearchQuery.quote(stem) + (prefix ? "*" : ""))
            expectOperand = false
        }
        guard depth == 0 else { throw .badQuery("'(' without a matching ')'") }
        guard !tokens.isEmpty else { throw .badQuery("nothing to search for") }
        guard !expectOperand else { throw .badQuery("'\(tokens.last ?? "")' needs a word after it") }
        expression = tokens.joined(separator: " ")
    }

    static func quote(_ word: String) -> String {
        "\"" + word.replacingOccurrences(of: "\"", with: "\"\"") + "\""
    }
}

extension String {
    var trimmingWhitespace: Substring {
        let start = firstIndex(where: { !$0.isWhitespace }) ?? endIndex
        let end = lastIndex(where: { !$0.isWhitespace }).map(index(after:)) ?? endIndex
        return self[start..<max(start, end)]
    }
}
