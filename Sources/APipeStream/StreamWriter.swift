/// Writes a stream: the header on first use, then packets, then the end marker on `finish()`.
///
/// Output is buffered and flushed when the buffer passes `flushThreshold`, on `flush()`, and on
/// `finish()`. A writer that never reaches `finish()` leaves a stream without an end marker,
/// which downstream stages report as interrupted: exactly what a crash should look like.
public final class StreamWriter {
    private let fd: Int32?
    private var pending: [UInt8] = []
    private var wroteHeader = false
    public private(set) var format: AudioFormat?
    /// Everything written, when the writer collects into memory (tests).
    public private(set) var collected: [UInt8] = []
    public static let flushThreshold = 1 << 16

    /// Writes to `fd`.
    public init(fd: Int32) {
        self.fd = fd
        pending.reserveCapacity(Self.flushThreshold + PacketLimits.maxAudioPayload)
    }

    /// Collects the stream in `collected` instead of writing it anywhere.
    public init() {
        self.fd = nil
    }

    /// The writer for standard output, refusing a terminal: binary never goes to a screen.
    public static func standardOutput() throws -> StreamWriter {
        guard !SystemIO.isTerminal(1) else { throw StreamError.terminalOutput }
        return StreamWriter(fd: 1)
    }

    public func write(format newFormat: AudioFormat) throws {
        var payload: [UInt8] = [newFormat.encoding.rawValue, UInt8(newFormat.channels), 0, 0]
        payload.appendLittleEndian(UInt32(newFormat.rate))
        try packet(.format, payload)
        format = newFormat
    }

    /// Writes interleaved raw samples in the current format, split into legal packet sizes.
    public func writeAudio(position: Int, bytes: UnsafeRawBufferPointer) throws {
        guard let format else { preconditionFailure("audio written before a format record") }
        precondition(bytes.count % format.bytesPerFrame == 0, "audio bytes must hold whole frames")
        let framesPerPacket = PacketLimits.maxAudioPayload / format.bytesPerFrame
        var frame = 0
        let frames = bytes.count / format.bytesPerFrame
        repeat {
            let count = min(framesPerPacket, frames - frame)
            let slice = UnsafeRawBufferPointer(rebasing: bytes[frame * format.bytesPerFrame..<(frame + count) * format.bytesPerFrame])
            try header(.audio, length: 8 + slice.count)
            pending.appendLittleEndian(UInt64(position + frame))
            pending.append(contentsOf: slice)
            frame += count
            try flushIfFull()
        } while frame < frames
    }

    /// Writes a block received from a reader, switching format first if it differs.
    public func write(_ block: AudioBlock) throws {
        if format != block.format { try write(format: block.format) }
        try block.bytes.withUnsafeBytes { raw throws in try writeAudio(position: block.position, bytes: raw) }
    }

    /// Encodes interleaved float samples in the current format and writes them.
    public func writeAudio(position: Int, samples: UnsafeBufferPointer<Float>, scratch: inout [UInt8]) throws {
        guard let format else { preconditionFailure("audio written before a format record") }
        scratch.removeAll(keepingCapacity: true)
        SampleCodec.encode(samples, encoding: format.encoding, appendingTo: &scratch)
        try scratch.withUnsafeBytes { raw throws in try writeAudio(position: position, bytes: raw) }
    }

    /// Writes an event; one a reader would refuse (empty, over the size limit) is an error, never
    /// written.
    public func write(_ event: Event) throws {
        if let reason = event.unwritableReason { throw reason }
        try packet(.event, event.json)
    }

    public func write<E: StreamEvent>(event: E) throws {
        try write(Event(encoding: event))
    }

    /// Writes every kind of packet a reader returns.
    public func write(_ packet: Packet) throws {
        switch packet {
        case .format(let newFormat): try write(format: newFormat)
        case .audio(let block): try write(block)
        case .event(let event): try write(event)
        }
    }

    /// Writes the end marker and flushes: the stream is complete.
    public func finish() throws {
        try packet(.end, [])
        try flush()
    }

    public func flush() throws {
        ensureHeader()
        guard !pending.isEmpty else { return }
        if let fd {
            try pending.withUnsafeBytes { raw throws in try SystemIO.writeAll(fd, raw) }
        } else {
            collected.append(contentsOf: pending)
        }
        pending.removeAll(keepingCapacity: true)
    }

    private func packet(_ type: PacketType, _ payload: [UInt8]) throws {
        try header(type, length: payload.count)
        pending.append(contentsOf: payload)
        try flushIfFull()
    }

    private func header(_ type: PacketType, length: Int) throws {
        ensureHeader()
        pending.append(type.rawValue)
        pending.append(0)
        pending.appendLittleEndian(UInt16(0))
        pending.appendLittleEndian(UInt32(length))
    }

    /// Puts the stream header first, once, however the stream begins.
    private func ensureHeader() {
        guard !wroteHeader else { return }
        wroteHeader = true
        pending.insert(contentsOf: StreamHeader.bytes, at: 0)
    }

    private func flushIfFull() throws {
        if pending.count >= Self.flushThreshold { try flush() }
    }
}
