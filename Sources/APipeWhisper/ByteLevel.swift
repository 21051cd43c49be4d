/// GPT-2's byte-level alphabet and pre-tokeniser.
enum ByteLevel {
    /// Printable stand-in for each byte (`bytes_to_unicode`).
    static let byteToScalar: [Unicode.Scalar] = {
        let printable = Set(Array(33...126) + Array(161...172) + Array(174...255))
        var extra: UInt32 = 0
        var table = [Unicode.Scalar](repeating: " ", count: 256)
        for b in 0..<256 {
            if printable.contains(b) {
                table[b] = Unicode.Scalar(UInt8(b))
            } else {
                table[b] = Unicode.Scalar(256 + extra)!
                extra += 1
            }
        }
        return table
    }()

    /// Byte of each stand-in scalar, indexed by scalar value (all are below 324).
    static let scalarToByte: [Int16] = {
        var table = [Int16](repeating: -1, count: 512)
        for (byte, scalar) in byteToScalar.enumerated() { table[Int(scalar.value)] = Int16(byte) }
        return table
    }()

    static func scalar(of byte: UInt8) -> Unicode.Scalar { byteToScalar[Int(byte)] }

    static func byte(of scalar: Unicode.Scalar) -> UInt8? {
        let v = Int(scalar.value)
        guard v < scalarToByte.count, scalarToByte[v] >= 0 else { return nil }
        return UInt8(scalarToByte[v])
    }

    /// GPT-2 pre-tokenisation, the regex
    /// `'s|'t|'re|'ve|'m|'ll|'d| ?\p{L}+| ?\p{N}+| ?[^\s\p{L}\p{N}]+|\s+(?!\S)|\s+` written out.
    static func pretokenize(_ text: String) -> [String] {
        let s = Array(text.unicodeScalars)
        var pieces: [String] = []
        var i = 0
        func kind(_ c: Unicode.Scalar) -> Int {
            if c.properties.isWhitespace { return 0 }
            if c.properties.generalCategory.isLetter { return 1 }
            if c.properties.generalCategory.isNumber { return 2 }
            return 3
        }
        while i < s.count {
            let start = i
            if s[i] == "'" && i + 1 < s.count {
                let rest = String(String.UnicodeScalarView(s[(i + 1)..<min(s.count, i + 3)]))
                if let suffix = ["re", "ve", "ll"].first(where: { rest.hasPrefix($0) }) {
                    i += 1 + suffix.count
                } else if let first = rest.unicodeScalars.first, "stmd".unicodeScalars.contains(first) {
                    i += 2
                }
                if i > start { pieces.append(String(String.UnicodeScalarView(s[start..<i]))); continue }
            }
            var j = i
            if s[j] == " " && j + 1 < s.count && kind(s[j + 1]) != 0 { j += 1 }
            let k = kind(s[j])
            if k != 0 {
                while j < s.count && kind(s[j]) == k { j += 1 }
                i = j
            } else {
                while j < s.count && kind(s[j]) == 0 { j += 1 }
                i = (j < s.count && j - i > 1) ? j - 1 : j
            }
            pieces.append(String(String.UnicodeScalarView(s[start..<i])))
        }
        return pieces
    }
}

extension Unicode.GeneralCategory {
    var isLetter: Bool {
        switch self {
        case .uppercaseLetter, .lowercaseLetter, .titlecaseLetter, .modifierLetter, .otherLetter: true
        default: false
        }
    }

    var isNumber: Bool {
        switch self {
        case .decimalNumber, .letterNumber, .otherNumber: true
        default: false
        }
    }
}
