import APipeStream

/// Where atranscribe's output goes: the whole stream, or only the transcription events.
public protocol TranscriptSink {
    /// Writes one packet in stream order.
    func write(_ packet: Packet) throws
    /// Pushes buffered output out (before the stage may wait for input or engines).
    func flush() throws
    /// Ends the output cleanly.
    func finish() throws
}

/// The full stream: audio and every event, then the end marker.
public struct StreamSink: TranscriptSink {
    public let writer: StreamWriter

    public init(_ writer: StreamWriter) {
        self.writer = writer
    }

    public func write(_ packet: Packet) throws { try writer.write(packet) }
    public func flush() throws { try writer.flush() }
    public func finish() throws { try writer.finish() }
}

/// `--jsonl`: `transcription` and `transcription.failed` events only, one JSON object a line.
public final class JSONLinesSink: TranscriptSink {
    private let fd: Int32?
    private var pending: [UInt8] = []
    /// Everything written, when the sink collects into memory (tests).
    public private(set) var collected: [UInt8] = []

    /// Writes to `fd`.
    public init(fd: Int32) {
        self.fd = fd
    }

    /// Collects into `collected`.
    public init() {
        self.fd = nil
    }

    public func write(_ packet: Packet) throws {
        guard case .event(let event) = packet,
            event.type == Transcription.type || event.type == TranscriptionFailed.type
        else { return }
        pending.append(contentsOf: event.json)
        pending.append(0x0A)
    }

    public func flush() throws {
        guard !pending.isEmpty else { return }
        if let fd {
            try pending.withUnsafeBytes { raw throws in try SystemIO.writeAll(fd, raw) }
        } else {
            collected.append(contentsOf: pending)
        }
        pending.removeAll(keepingCapacity: true)
    }

    public func finish() throws { try flush() }
}
