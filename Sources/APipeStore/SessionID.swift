/// Session identifiers: UUIDs in the 8-4-4-4-12 hex form, kept in lowercase.
///
/// A session id becomes a directory name under `audio/`, so only this exact form is accepted:
/// anything else (`..`, slashes, newlines) could name a path outside the library.
public enum SessionID {
    /// The lowercase form of `text` when it is a UUID, else nil.
    public static func canonical(_ text: String) -> String? {
        let bytes = Array(text.utf8)
        guard bytes.count == 36 else { return nil }
        var out: [UInt8] = []
        out.reserveCapacity(36)
        for (i, byte) in bytes.enumerated() {
            if i == 8 || i == 13 || i == 18 || i == 23 {
                guard byte == UInt8(ascii: "-") else { return nil }
                out.append(byte)
                continue
            }
            switch byte {
            case UInt8(ascii: "0")...UInt8(ascii: "9"), UInt8(ascii: "a")...UInt8(ascii: "f"): out.append(byte)
            case UInt8(ascii: "A")...UInt8(ascii: "F"): out.append(byte + 32)
            default: return nil
            }
        }
        return String(decoding: out, as: UTF8.self)
    }
}
