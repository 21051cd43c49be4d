/// One unit of a stream, as a stage sees it.
public enum Packet: Sendable, Equatable {
    case format(AudioFormat)
    case audio(AudioBlock)
    case event(Event)
}

/// Reads packets from a file descriptor or from bytes in memory.
///
/// `next()` returns nil at a clean end (an end marker followed by end of input) and throws
/// `StreamError.interrupted` when the input stops without one. Streams written one after
/// another (`cat a b`) read as one. Buffer memory is bounded by the largest legal packet.
public final class StreamReader {
    private let fd: Int32?
    private var buffer: [UInt8]
    private var start = 0
    private var end = 0
    private var atEOF = false
    /// Bytes consumed before `buffer[start]`.
    private var consumed = 0
    private var expectHeader = true
    private var sawHeader = false
    /// Set when the input broke off inside an audio packet whose whole frames were returned.
    private var brokenAt: Int?
    /// The format in force; audio needs one.
    public private(set) var format: AudioFormat?

    /// Reads from `fd` (standard input by default).
    public init(fd: Int32 = 0) {
        self.fd = fd
        self.buffer = [UInt8](repeating: 0, count: 1 << 18)
    }

    /// Reads from bytes already in memory (tests, fuzzing).
    public init(bytes: [UInt8]) {
        self.fd = nil
        self.buffer = bytes
        self.end = bytes.count
        self.atEOF = true
    }

    /// Bytes of input consumed so far: the offset that error messages name.
    public var offset: Int { consumed }

    /// Bytes already read from the input but not yet returned as packets.
    public var bufferedByteCount: Int { end - start }

    /// The next packet, or nil at a clean end of input.
    public func next() throws -> Packet? {
        if let brokenAt { throw StreamError.interrupted(offset: brokenAt) }
        while true {
            if expectHeader {
                guard try readHeader() else { return nil }
                continue
            }
            guard try fill(PacketLimits.headerSize) else {
                throw StreamError.interrupted(offset: consumed + bufferedByteCount)
            }
            let type = buffer[start]
            let flags = buffer[start + 1]
            let reserved = load(UInt16.self, at: start + 2)
            let length = Int(load(UInt32.self, at: start + 4))
            guard reserved == 0 else { throw StreamError.corrupt(offset: consumed + 2, reason: "reserved packet bytes are not zero") }
            guard let kind = PacketType(rawValue: type) else {
                try skipUnknown(type: type, flags: flags, length: length)
                continue
            }
            try checkLength(kind, length)
            guard try fill(PacketLimits.headerSize + length) else {
                if kind == .audio, let partial = partialAudio() { return .audio(partial) }
                throw StreamError.interrupted(offset: consumed + bufferedByteCount)
            }
            let payload = start + PacketLimits.headerSize
            let packetStart = consumed
            advance(PacketLimits.headerSize + length)
            switch kind {
            case .format:
                let newFormat = try parseFormat(at: payload, packetStart: packetStart)
                format = newFormat
                return .format(newFormat)
            case .audio:
                return .audio(try parseAudio(at: payload, length: length, packetStart: packetStart))
            case .event:
                do {
                    return .event(try Event(json: Array(buffer[payload..<payload + length])))
                } catch {
                    throw StreamError.corrupt(offset: packetStart + PacketLimits.headerSize, reason: error.description)
                }
            case .end:
                expectHeader = true
            }
        }
    }

    /// Consumes a stream header; false at a clean end of input after an end marker.
    private func readHeader() throws -> Bool {
        let complete = try fill(StreamHeader.size)
        if bufferedByteCount == 0 {
            if sawHeader { return false }
            throw StreamError.empty
        }
        let available = min(bufferedByteCount, StreamHeader.size)
        let prefix = Array(buffer[start..<start + available])
        guard prefix.starts(with: StreamHeader.magic.prefix(available)) else {
            if sawHeader {
                throw StreamError.corrupt(offset: consumed, reason: "expected a stream header or the end of input after the end marker")
            }
            throw StreamError.notAStream(hint: StreamHeader.guess(prefix))
        }
        guard complete else { throw StreamError.interrupted(offset: consumed + available) }
        let major = load(UInt16.self, at: start + 8)
        let minor = load(UInt16.self, at: start + 10)
        guard major == StreamHeader.majorVersion else {
            throw StreamError.unsupportedVersion(major: Int(major), minor: Int(minor))
        }
        advance(StreamHeader.size)
        expectHeader = false
        sawHeader = true
        format = nil
        return true
    }

    private func checkLength(_ kind: PacketType, _ length: Int) throws {
        let at = consumed + 4
        switch kind {
        case .format:
            guard length == PacketLimits.formatPayload else {
                throw StreamError.corrupt(offset: at, reason: "format record of \(length) bytes (must be \(PacketLimits.formatPayload))")
            }
        case .audio:
            guard let format else { throw StreamError.corrupt(offset: consumed, reason: "audio before any format record") }
            guard length >= 8, length <= PacketLimits.maxAudioPayload + 8 else {
                throw StreamError.corrupt(offset: at, reason: "audio packet claims \(length) bytes (limit \(PacketLimits.maxAudioPayload + 8))")
            }
            guard (length - 8) % format.bytesPerFrame == 0 else {
                throw StreamError.corrupt(offset: at, reason: "audio packet of \(length - 8) bytes is not a whole number of \(format.bytesPerFrame)-byte frames")
            }
        case .event:
            guard length > 0, length <= PacketLimits.maxEventPayload else {
                throw StreamError.corrupt(offset: at, reason: "event claims \(length) bytes (limit \(PacketLimits.maxEventPayload))")
            }
        case .end:
            guard length == 0 else { throw StreamError.corrupt(offset: at, reason: "end marker with a \(length)-byte payload") }
        }
    }

    private func skipUnknown(type: UInt8, flags: UInt8, length: Int) throws {
        let hex = String(type, radix: 16, uppercase: true)
        guard flags & PacketLimits.skippableFlag != 0 else {
            throw StreamError.corrupt(offset: consumed, reason: "unknown packet type 0x\(hex)")
        }
        guard length <= PacketLimits.maxAudioPayload else {
            throw StreamError.corrupt(offset: consumed + 4, reason: "skippable packet 0x\(hex) claims \(length) bytes")
        }
        guard try fill(PacketLimits.headerSize + length) else {
            throw StreamError.interrupted(offset: consumed + bufferedByteCount)
        }
        advance(PacketLimits.headerSize + length)
    }

    private func parseFormat(at payload: Int, packetStart: Int) throws -> AudioFormat {
        let code = buffer[payload]
        guard let encoding = SampleEncoding(rawValue: code) else {
            throw StreamError.corrupt(offset: packetStart + 8, reason: "unsupported sample encoding \(code)")
        }
        guard load(UInt16.self, at: payload + 2) == 0 else {
            throw StreamError.corrupt(offset: packetStart + 10, reason: "reserved format bytes are not zero")
        }
        let channels = Int(buffer[payload + 1])
        let rate = Int(load(UInt32.self, at: payload + 4))
        do {
            return try AudioFormat(encoding: encoding, rate: rate, channels: channels)
        } catch {
            throw StreamError.corrupt(offset: packetStart + 8, reason: error.description)
        }
    }

    private func parseAudio(at payload: Int, length: Int, packetStart: Int) throws -> AudioBlock {
        guard let format else { throw StreamError.corrupt(offset: packetStart, reason: "audio before any format record") }
        let position = load(UInt64.self, at: payload)
        guard position <= UInt64(Int64.max / 2) else {
            throw StreamError.corrupt(offset: packetStart + 8, reason: "audio position \(position) is out of range")
        }
        return AudioBlock(position: Int(position), format: format, bytes: Array(buffer[payload + 8..<payload + length]))
    }

    /// The whole frames of an audio packet cut short by the end of input, so that nothing that
    /// arrived is dropped; the next call reports the interruption.
    private func partialAudio() -> AudioBlock? {
        let end = consumed + bufferedByteCount
        guard let format, bufferedByteCount >= PacketLimits.headerSize + 8 else { return nil }
        let frames = (bufferedByteCount - PacketLimits.headerSize - 8) / format.bytesPerFrame
        guard frames > 0 else { return nil }
        let payload = start + PacketLimits.headerSize
        let position = Int(clamping: load(UInt64.self, at: payload))
        let block = AudioBlock(position: position, format: format, bytes: Array(buffer[payload + 8..<payload + 8 + frames * format.bytesPerFrame]))
        brokenAt = end
        return block
    }

    private func load<T: FixedWidthInteger>(_: T.Type, at index: Int) -> T {
        buffer.withUnsafeBytes { T(littleEndian: $0.loadUnaligned(fromByteOffset: index, as: T.self)) }
    }

    private func advance(_ count: Int) {
        start += count
        consumed += count
    }

    /// Makes at least `count` bytes available; false if the input ends first.
    private func fill(_ count: Int) throws -> Bool {
        if bufferedByteCount >= count { return true }
        guard let fd, !atEOF else { return false }
        if start + count > buffer.count {
            let live = bufferedByteCount
            if live > 0 {
                buffer.withUnsafeMutableBytes { raw in
                    raw.baseAddress!.copyMemory(from: raw.baseAddress! + start, byteCount: live)
                }
            }
            start = 0
            end = live
            if count > buffer.count {
                buffer.append(contentsOf: repeatElement(0, count: count - buffer.count))
            }
        }
        while end - start < count {
            let n: Int
            do {
                n = try buffer.withUnsafeMutableBytes { raw throws in
                    try SystemIO.read(fd, into: raw.baseAddress! + end, count: raw.count - end)
                }
            } catch StreamError.stopped(let signal, _) {
                // Everything before the packet in hand went out whole.
                throw StreamError.stopped(signal: signal, offset: consumed)
            }
            if n == 0 {
                atEOF = true
                return false
            }
            end += n
        }
        return true
    }
}
