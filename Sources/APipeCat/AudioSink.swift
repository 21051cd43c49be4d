import APipeStream

#if canImport(Glibc)
import Glibc
#endif

/// `acat --wav` and `acat --raw`: the audio, as WAV or as raw samples, to a file descriptor.
///
/// A WAV stream has one format; a format change mid-stream is an error rather than a file
/// that silently lies about its second half. Gaps in positions (dropped silence) are written
/// as they arrive, back to back.
public struct AudioSink: CatSink {
    public enum Container: Sendable { case wav, raw }

    private let fd: Int32
    private let container: Container
    private var format: AudioFormat?
    private var dataBytes = 0

    public init(fd: Int32, container: Container) {
        self.fd = fd
        self.container = container
    }

    public mutating func consume(_ packet: Packet) throws {
        switch packet {
        case .format(let newFormat):
            if let format, format != newFormat, dataBytes > 0 {
                throw CatError.formatChange(from: format, to: newFormat)
            }
            if format == nil, container == .wav {
                try WAVHeader.bytes(format: newFormat, dataBytes: nil).withUnsafeBytes { try SystemIO.writeAll(fd, $0) }
            }
            format = newFormat
        case .audio(let block):
            try block.bytes.withUnsafeBytes { try SystemIO.writeAll(fd, $0) }
            dataBytes += block.bytes.count
        case .event:
            break
        }
    }

    /// Patches the WAV sizes when the output is a regular file; a pipe keeps "unknown length".
    public mutating func close(interrupted: Bool) throws {
        guard container == .wav, let format, lseek(fd, 0, SEEK_SET) == 0 else { return }
        try WAVHeader.bytes(format: format, dataBytes: dataBytes).withUnsafeBytes { try SystemIO.writeAll(fd, $0) }
        lseek(fd, 0, SEEK_END)
    }
}

/// Why `acat` cannot render a stream.
public enum CatError: Error, ToolFailure {
    case formatChange(from: AudioFormat, to: AudioFormat)
    case cannotCreate(path: String, reason: String)

    public var description: String {
        switch self {
        case .formatChange(let from, let to):
            "the format changes mid-stream (\(from) to \(to)); one WAV or raw file cannot hold both: use acat -o DIR, or aresample first"
        case .cannotCreate(let path, let reason):
            "cannot create '\(path)': \(reason)"
        }
    }

    public var exitStatus: ExitStatus {
        switch self {
        case .formatChange: .dataError
        case .cannotCreate: .cannotCreate
        }
    }
}
