/// Text from the library or a stream made safe to print in a line of output.
///
/// Titles, notes, transcriptions and paths come from streams and files anyone can write; printed
/// raw, a newline breaks a table row and an escape sequence drives the terminal.
public enum PrintableText {
    /// `text` with control characters written as `\n`, `\r`, `\t`, `\xHH` (C0 and DEL) or
    /// `\u{HHHH}` (C1), leaving the scalars in `kept` as they are.
    public static func escaped(_ text: String, keeping kept: Set<Unicode.Scalar> = []) -> String {
        guard text.unicodeScalars.contains(where: { isControl($0) && !kept.contains($0) }) else { return text }
        var out = String.UnicodeScalarView()
        for scalar in text.unicodeScalars {
            guard isControl(scalar), !kept.contains(scalar) else {
                out.append(scalar)
                continue
            }
            let escape: String
            switch scalar {
            case "\n": escape = "\\n"
            case "\r": escape = "\\r"
            case "\t": escape = "\\t"
            default:
                let hex = String(scalar.value, radix: 16)
                escape = scalar.value < 0x80 ? "\\x" + (hex.count < 2 ? "0" + hex : hex) : "\\u{" + hex + "}"
            }
            out.append(contentsOf: escape.unicodeScalars)
        }
        return String(out)
    }

    private static func isControl(_ scalar: Unicode.Scalar) -> Bool {
        scalar.value < 0x20 || (0x7F...0x9F).contains(scalar.value)
    }
}
