/// Text from a stream made safe for a terminal: control characters become visible escapes.
///
/// Titles, sources and transcripts come from files and other programs; printed raw, an escape
/// sequence in a title could rewrite the screen, and a newline could forge a line of the summary.
public enum VisibleText {
    /// `text` with C0 and C1 controls and DEL as `\n`, `\r`, `\t` or `\xHH`, and line separators
    /// and bidirectional overrides as `\u{HHHH}`; everything else unchanged.
    public static func escaped(_ text: String) -> String {
        guard text.unicodeScalars.contains(where: needsEscape) else { return text }
        var out = ""
        out.reserveCapacity(text.utf8.count + 8)
        for scalar in text.unicodeScalars {
            guard needsEscape(scalar) else {
                out.unicodeScalars.append(scalar)
                continue
            }
            switch scalar {
            case "\n": out += "\\n"
            case "\r": out += "\\r"
            case "\t": out += "\\t"
            default:
                let hex = String(scalar.value, radix: 16)
                out += scalar.value <= 0xFF
                    ? "\\x" + (hex.count < 2 ? "0" + hex : hex)
                    : "\\u{" + hex + "}"
            }
        }
        return out
    }

    private static func needsEscape(_ scalar: Unicode.Scalar) -> Bool {
        switch scalar.value {
        case 0x00...0x1F, 0x7F...0x9F, 0x2028, 0x2029, 0x202A...0x202E, 0x2066...0x2069: true
        default: false
        }
    }
}
