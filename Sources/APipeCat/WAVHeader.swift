import APipeStream

/// The 44-byte RIFF/WAVE header for PCM s16 or IEEE float data.
///
/// When the length is unknown (streaming to a pipe), the sizes are 0xFFFFFFFF, which sox,
/// ffmpeg and aplay read as "until the end of input".
public enum WAVHeader {
    public static let size = 44
    public static let unknownLength = UInt32.max

    public static func bytes(format: AudioFormat, dataBytes: Int?) -> [UInt8] {
        let data = dataBytes.map { UInt32(clamping: $0) } ?? unknownLength
        let riff = dataBytes.map { UInt32(clamping: $0 + 36) } ?? unknownLength
        var out: [UInt8] = Array("RIFF".utf8)
        append(&out, riff)
        out += Array("WAVEfmt ".utf8)
        append(&out, UInt32(16))
        append(&out, UInt16(format.encoding == .f32le ? 3 : 1))
        append(&out, UInt16(format.channels))
        append(&out, UInt32(format.rate))
        append(&out, UInt32(format.rate * format.bytesPerFrame))
        append(&out, UInt16(format.bytesPerFrame))
        append(&out, UInt16(format.encoding.bits))
        out += Array("data".utf8)
        append(&out, data)
        return out
    }

    private static func append<T: FixedWidthInteger>(_ out: inout [UInt8], _ value: T) {
        withUnsafeBytes(of: value.littleEndian) { out.append(contentsOf: $0) }
    }
}
