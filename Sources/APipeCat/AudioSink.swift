import APipeStream

#if canImport(Glibc)
import Glibc
#endif

/// `acat --wav` and `acat --raw`: the audio, as WAV or as raw samples, to a file descriptor.
///
/// A WAV or raw output has one format. At a format change after audio, everything that arrived
/// before it is written out (and a WAV file's sizes patched) before the change is reported as an
/// error, rather than a file that silently lies about its second half. A format record with no
/// audio before the next one costs nothing: the WAV header waits for the first audio. Gaps in
/// positions (dropped silence) are written as they arrive, back to back.
public struct AudioSink: CatSink {
    public enum Container: Sendable { case wav, raw }

    private let fd: Int32
    private let out: BufferedOutput
    private let container: Container
    private var format: AudioFormat?
    private var wroteHeader = false
    private var dataBytes = 0

    public init(fd: Int32, container: Container) {
        self.fd = fd
        self.out = BufferedOutput(fd: fd)
        self.container = container
    }

    public mutating func consume(_ packet: Packet) throws {
        switch packet {
        case .format(let newFormat):
            try take(newFormat)
        case .audio(let block):
            try take(block.format)
            try writeHeaderOnce()
            try block.bytes.withUnsafeBytes { try out.write($0) }
            dataBytes += block.bytes.count
        case .event:
            break
        }
    }

    /// Adopts `newFormat`; a different one after audio ends the output with what it holds.
    private mutating func take(_ newFormat: AudioFormat) throws {
        if let format, format != newFormat, dataBytes > 0 {
            try close(interrupted: false)
            throw CatError.formatChange(from: format, to: newFormat, seconds: format.seconds(dataBytes / format.bytesPerFrame))
        }
        format = newFormat
    }

    private mutating func writeHeaderOnce() throws {
        guard container == .wav, !wroteHeader, let format else { return }
        wroteHeader = true
        try WAVHeader.bytes(format: format, dataBytes: nil).withUnsafeBytes { try out.write($0) }
    }

    /// Patches the WAV sizes when the output is a regular file; a pipe keeps "unknown length".
    public mutating func close(interrupted: Bool) throws {
        try writeHeaderOnce()
        try out.flush()
        guard container == .wav, let format, lseek(fd, 0, SEEK_SET) == 0 else { return }
        try WAVHeader.bytes(format: format, dataBytes: dataBytes).withUnsafeBytes { try SystemIO.writeAll(fd, $0) }
        lseek(fd, 0, SEEK_END)
    }
}

/// Why `acat` cannot render a stream.
public enum CatError: Error, ToolFailure {
    case formatChange(from: AudioFormat, to: AudioFormat, seconds: Double)
    case cannotCreate(path: String, reason: String)

    public var description: String {
        switch self {
        case .formatChange(let from, let to, let seconds):
            "the format changes mid-stream (\(from) to \(to)) after \(EventListSink.seconds(seconds)) s of audio, which was written; one WAV or raw output holds one format: use acat -o DIR, or aresample first"
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
