/// Sample encodings a stream can carry; the raw value is the wire code in a format record.
public enum SampleEncoding: UInt8, Sendable, CaseIterable, CustomStringConvertible {
    case s16le = 1
    case f32le = 3

    /// Bytes in one sample of one channel.
    public var bytesPerSample: Int {
        switch self {
        case .s16le: 2
        case .f32le: 4
        }
    }

    /// Bits per sample, as people write it (16, 32).
    public var bits: Int { bytesPerSample * 8 }

    public var description: String {
        switch self {
        case .s16le: "s16le"
        case .f32le: "f32le"
        }
    }

    /// Parses the names users type: `s16le`/`s16`, `f32le`/`f32`.
    public init?(name: String) {
        switch name.lowercased() {
        case "s16le", "s16": self = .s16le
        case "f32le", "f32": self = .f32le
        default: return nil
        }
    }
}

/// The shape of the audio that follows a format record.
///
/// Counts of audio are frames per channel everywhere in apipe: one frame holds one sample of
/// every channel.
public struct AudioFormat: Sendable, Hashable, CustomStringConvertible {
    public static let maxChannels = 8
    public static let maxRate = 768_000

    public var encoding: SampleEncoding
    public var rate: Int
    public var channels: Int

    /// Creates a format after checking the rate and the channel count against the stream's limits.
    public init(encoding: SampleEncoding, rate: Int, channels: Int) throws(FormatError) {
        guard (1...Self.maxRate).contains(rate) else { throw .rate(rate) }
        guard (1...Self.maxChannels).contains(channels) else { throw .channels(channels) }
        self.encoding = encoding
        self.rate = rate
        self.channels = channels
    }

    public var bytesPerFrame: Int { encoding.bytesPerSample * channels }

    /// Seconds covered by `frames` frames at this rate.
    public func seconds(_ frames: Int) -> Double { Double(frames) / Double(rate) }

    public var description: String { "\(encoding) \(rate) Hz \(channels) ch" }
}

/// A rate or channel count outside what the stream allows.
public enum FormatError: Error, Equatable, CustomStringConvertible {
    case rate(Int)
    case channels(Int)

    public var description: String {
        switch self {
        case .rate(let rate):
            "sample rate \(rate) Hz is out of range (1 to \(AudioFormat.maxRate) Hz)"
        case .channels(let channels):
            "channel count \(channels) is out of range (1 to \(AudioFormat.maxChannels))"
        }
    }
}
