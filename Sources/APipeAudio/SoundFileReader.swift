import APipeStream
import CSndFile
import Foundation

#if canImport(Glibc)
import Glibc
#endif

/// Reads any file libsndfile reads (WAV, FLAC, Ogg/Vorbis/Opus, MP3, AIFF, raw) as float frames.
public final class SoundFileReader {
    private let handle: OpaquePointer
    private var info: SF_INFO
    public let path: String

    /// Raw headerless input: sample layout given by the user.
    public struct RawLayout: Sendable {
        public var encoding: String
        public var rate: Int
        public var channels: Int

        public init(encoding: String, rate: Int, channels: Int) {
            self.encoding = encoding
            self.rate = rate
            self.channels = channels
        }
    }

    /// Opens a file by path.
    public init(path: String) throws(AudioError) {
        var info = SF_INFO()
        guard access(path, R_OK) == 0 else {
            throw .cannotOpen(path: path, reason: String(cString: strerror(errno)))
        }
        var status = stat()
        guard stat(path, &status) == 0, status.st_mode & S_IFMT != S_IFDIR else {
            throw .cannotOpen(path: path, reason: String(cString: strerror(EISDIR)))
        }
        guard let handle = sf_open(path, Int32(SFM_READ), &info) else {
            throw .unreadable(path: path, reason: Self.describeOpenError())
        }
        self.handle = handle
        self.info = info
        self.path = path
        try validate()
    }

    /// Reads from an already open descriptor (standard input): a self-describing file, or raw
    /// samples when `raw` is given.
    public init(fd: Int32, name: String, raw: RawLayout?) throws(AudioError) {
        var info = SF_INFO()
        if let raw {
            let subtype: Int32
            switch raw.encoding.lowercased() {
            case "s16le", "s16": subtype = Int32(SF_FORMAT_PCM_16)
            case "s32le", "s32": subtype = Int32(SF_FORMAT_PCM_32)
            case "f32le", "f32": subtype = Int32(SF_FORMAT_FLOAT)
            case "u8": subtype = Int32(SF_FORMAT_PCM_U8)
            default: throw .unsupportedRawFormat(raw.encoding)
            }
            do {
                _ = try AudioFormat(encoding: .f32le, rate: raw.rate, channels: raw.channels)
            } catch {
                throw .unreadable(path: name, reason: error.description)
            }
            info.format = Int32(SF_FORMAT_RAW) | subtype | Int32(SF_ENDIAN_LITTLE)
            info.samplerate = Int32(raw.rate)
            info.channels = Int32(raw.channels)
        }
        guard let handle = sf_open_fd(fd, Int32(SFM_READ), &info, 0) else {
            throw .unreadable(path: name, reason: Self.describeOpenError())
        }
        self.handle = handle
        self.info = info
        self.path = name
        try validate()
    }

    deinit { sf_close(handle) }

    public var rate: Int { Int(info.samplerate) }
    public var channels: Int { Int(info.channels) }
    /// Frames in the file, when known (not for pipes).
    public var frameCount: Int? { info.frames > 0 && info.frames < Int64(Int.max / 2) ? Int(info.frames) : nil }

    /// Seconds in the file, when its length is known.
    public var duration: Double { Double(frameCount ?? 0) / Double(rate) }

    /// When the header claims more audio than the file holds (a file cut short): the bytes of
    /// audio claimed and the bytes present. libsndfile reads what is there and notes the
    /// difference in its log (`data : 64000 (should be 39956)`); sizes meaning "until the end"
    /// (0, 0xFFFFFFFF, 0x7FFFF000, as on pipes) are no claim.
    public var shortfall: (claimed: Int, present: Int)? {
        var log = [CChar](repeating: 0, count: 8192)
        let count = log.withUnsafeMutableBufferPointer { sf_command(handle, Int32(SFC_GET_LOG_INFO), $0.baseAddress, Int32($0.count)) }
        guard count > 0 else { return nil }
        let text = String(decoding: log.prefix { $0 != 0 }.map { UInt8(bitPattern: $0) }, as: UTF8.self)
        for line in text.split(separator: "\n") {
            let words = line.split(whereSeparator: { $0 == " " || $0 == ":" || $0 == "(" || $0 == ")" })
            guard words.count >= 4, words[0] == "data" || words[0] == "SSND", words[words.count - 3] == "should",
                words[words.count - 2] == "be", let present = Int(words[words.count - 1]), let claimed = Int(words[1])
            else { continue }
            guard claimed > present, ![0xFFFF_FFFF, 0x7FFF_F000].contains(claimed) else { continue }
            return (claimed, present)
        }
        return nil
    }

    /// The container's usual file extension in capitals (WAV, FLAC, OGG, MP3, AIFF...).
    public var containerName: String {
        var format = SF_FORMAT_INFO()
        format.format = info.format & Int32(SF_FORMAT_TYPEMASK)
        guard sf_command(nil, Int32(SFC_GET_FORMAT_INFO), &format, Int32(MemoryLayout<SF_FORMAT_INFO>.size)) == 0,
              let name = format.extension
        else { return "unknown" }
        return String(cString: name).uppercased()
    }

    /// Bits per sample of the stored encoding (16 for compressed formats without one).
    public var bitDepth: Int {
        switch info.format & Int32(SF_FORMAT_SUBMASK) {
        case Int32(SF_FORMAT_PCM_S8), Int32(SF_FORMAT_PCM_U8): 8
        case Int32(SF_FORMAT_PCM_24): 24
        case Int32(SF_FORMAT_PCM_32), Int32(SF_FORMAT_FLOAT): 32
        case Int32(SF_FORMAT_DOUBLE): 64
        default: 16
        }
    }

    /// Whether samples are integer PCM of at most 16 bits (so s16 carries them losslessly).
    public var fitsSixteenBits: Bool {
        switch info.format & Int32(SF_FORMAT_SUBMASK) {
        case Int32(SF_FORMAT_PCM_S8), Int32(SF_FORMAT_PCM_U8), Int32(SF_FORMAT_PCM_16),
            Int32(SF_FORMAT_ULAW), Int32(SF_FORMAT_ALAW), Int32(SF_FORMAT_GSM610):
            true
        default:
            false
        }
    }

    /// A metadata string from the file's tags (title, artist, album, date), if present.
    public func tag(_ kind: Tag) -> String? {
        guard let text = sf_get_string(handle, kind.rawValue) else { return nil }
        let value = String(cString: text).trimmingCharacters(in: .whitespaces)
        return value.isEmpty ? nil : value
    }

    public enum Tag: Int32, Sendable {
        case title = 0x01, copyright = 0x02, software = 0x03, artist = 0x04, comment = 0x05, date = 0x06, album = 0x07
    }

    /// Replaces `samples` with up to `frames` interleaved float frames; returns frames read, 0 at the end.
    public func read(frames: Int, into samples: inout [Float]) throws(AudioError) -> Int {
        try read(frames: frames, into: &samples) { sf_readf_float(handle, $0, $1) }
    }

    /// Replaces `samples` with up to `frames` interleaved s16 frames, for files whose samples
    /// fit 16 bits: no float round trip. Returns frames read, 0 at the end.
    public func read(frames: Int, into samples: inout [Int16]) throws(AudioError) -> Int {
        try read(frames: frames, into: &samples) { sf_readf_short(handle, $0, $1) }
    }

    private func read<Sample: Numeric>(
        frames: Int, into samples: inout [Sample], _ readFrames: (UnsafeMutablePointer<Sample>?, sf_count_t) -> sf_count_t
    ) throws(AudioError) -> Int {
        let needed = frames * channels
        if samples.count != needed { samples = [Sample](repeating: 0, count: needed) }
        let got = samples.withUnsafeMutableBufferPointer { readFrames($0.baseAddress, sf_count_t(frames)) }
        if got < 0 || (got == 0 && sf_error(handle) != 0) {
            throw .unreadable(path: path, reason: String(cString: sf_strerror(handle)))
        }
        return Int(got)
    }

    private func validate() throws(AudioError) {
        guard info.channels >= 1, info.channels <= Int32(AudioFormat.maxChannels) else {
            throw .unreadable(path: path, reason: "\(info.channels) channels (apipe carries 1 to \(AudioFormat.maxChannels))")
        }
        guard info.samplerate >= 1, info.samplerate <= Int32(AudioFormat.maxRate) else {
            throw .unreadable(path: path, reason: "sample rate \(info.samplerate) Hz is out of range")
        }
    }

    private static func describeOpenError() -> String {
        let text = String(cString: sf_strerror(nil))
        return text.hasPrefix("Format not recognised") || text.contains("unknown format")
            ? "not an audio file libsndfile reads (\(text))" : text
    }
}
