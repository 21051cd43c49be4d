/// The 16 bytes that open every stream: a magic, the version, and reserved space.
///
/// The magic borrows PNG's trick: a high-bit byte first (catches 7-bit channels), then
/// CR LF (catches newline translation).
public enum StreamHeader {
    public static let magic: [UInt8] = [0x89, 0x41, 0x50, 0x49, 0x50, 0x45, 0x0D, 0x0A]  // \x89 APIPE \r \n
    public static let majorVersion: UInt16 = 1
    public static let minorVersion: UInt16 = 0
    public static let size = 16

    /// The header as written by this version.
    public static var bytes: [UInt8] {
        var out = magic
        out.appendLittleEndian(majorVersion)
        out.appendLittleEndian(minorVersion)
        out.appendLittleEndian(UInt32(0))
        return out
    }

    /// Names what a foreign input looks like, for the "not an apipe stream" message.
    static func guess(_ prefix: [UInt8]) -> String {
        func starts(_ text: String) -> Bool { prefix.starts(with: Array(text.utf8)) }
        if starts("RIFF") { return "this looks like a WAV file: read it with `acapture -i FILE` or `acapture -i -`" }
        if starts("fLaC") { return "this looks like a FLAC file: read it with `acapture -i FILE`" }
        if starts("OggS") { return "this looks like an Ogg file: read it with `acapture -i FILE`" }
        if starts("ID3") { return "this looks like an MP3 file: read it with `acapture -i FILE`" }
        if starts("{") { return "this looks like JSON text, not a binary stream" }
        return ""
    }
}

/// The packet types of version 1; the raw value is the type byte on the wire.
public enum PacketType: UInt8, Sendable {
    case format = 0x46  // 'F'
    case audio = 0x41  // 'A'
    case event = 0x45  // 'E'
    case end = 0x5A  // 'Z'
}

/// Size limits that keep a corrupt length from becoming a huge allocation.
public enum PacketLimits {
    public static let headerSize = 8
    public static let formatPayload = 8
    public static let maxAudioPayload = 4 << 20
    public static let maxEventPayload = 1 << 20
    /// Packet flag: an older reader may skip this packet if it does not know its type.
    public static let skippableFlag: UInt8 = 0x01
}

extension Array where Element == UInt8 {
    @inlinable
    mutating func appendLittleEndian<T: FixedWidthInteger>(_ value: T) {
        Swift.withUnsafeBytes(of: value.littleEndian) { append(contentsOf: $0) }
    }
}
