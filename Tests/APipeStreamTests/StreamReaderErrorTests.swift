import APipeStream
import Testing

/// Every way an input can be wrong gets a typed error naming the byte offset.
@Suite struct StreamReaderErrorTests {
    static let header = StreamHeader.bytes

    static func packet(_ type: UInt8, _ payload: [UInt8], flags: UInt8 = 0) -> [UInt8] {
        var out: [UInt8] = [type, flags, 0, 0]
        withUnsafeBytes(of: UInt32(payload.count).littleEndian) { out += $0 }
        return out + payload
    }

    static func formatPayload(encoding: UInt8 = 1, channels: UInt8 = 1, rate: UInt32 = 16000) -> [UInt8] {
        var out: [UInt8] = [encoding, channels, 0, 0]
        withUnsafeBytes(of: rate.littleEndian) { out += $0 }
        return out
    }

    func readAll(_ bytes: [UInt8]) throws -> [Packet] {
        let reader = StreamReader(bytes: bytes)
        var packets: [Packet] = []
        while let packet = try reader.next() { packets.append(packet) }
        return packets
    }

    @Test func emptyInput() {
        #expect(throws: StreamError.empty) { try readAll([]) }
    }

    @Test func garbageIsNotAStream() {
        #expect(throws: StreamError.notAStream(hint: "")) { try readAll(Array("hello world, this is text".utf8)) }
    }

    @Test func aWavFileIsRecognisedAndNamed() throws {
        do {
            _ = try readAll(Array("RIFF\u{0}\u{0}\u{0}\u{0}WAVEfmt ".utf8))
            Issue.record("expected an error")
        } catch let error as StreamError {
            #expect(error.description.contains("WAV"))
        }
    }

    @Test func unknownMajorVersion() {
        var bytes = Self.header
        bytes[8] = 2
        #expect(throws: StreamError.unsupportedVersion(major: 2, minor: 0)) { try readAll(bytes) }
    }

    @Test func truncatedHeaderIsInterrupted() {
        #expect(throws: StreamError.interrupted(offset: 10)) { try readAll(Array(Self.header.prefix(10))) }
    }

    @Test func missingEndMarkerIsInterruptedAfterEverythingArrived() throws {
        let bytes = Self.header + Self.packet(0x46, Self.formatPayload())
        let reader = StreamReader(bytes: bytes)
        #expect(try reader.next() == .format(try AudioFormat(encoding: .s16le, rate: 16000, channels: 1)))
        #expect(throws: StreamError.interrupted(offset: bytes.count)) { try reader.next() }
    }

    @Test func truncatedPayloadIsInterrupted() {
        let bytes = Self.header + Array(Self.packet(0x46, Self.formatPayload()).prefix(12))
        #expect(throws: StreamError.interrupted(offset: 28)) { try readAll(bytes) }
    }

    @Test func audioCutShortKeepsItsWholeFrames() throws {
        var audio: [UInt8] = [7, 0, 0, 0, 0, 0, 0, 0]
        audio += [1, 0, 2, 0, 3, 0, 4, 0]
        let full = Self.header + Self.packet(0x46, Self.formatPayload()) + Self.packet(0x41, audio)
        let cut = Array(full.prefix(full.count - 3))
        let reader = StreamReader(bytes: cut)
        _ = try reader.next()
        guard case .audio(let block) = try reader.next() else { Issue.record("expected the partial audio"); return }
        #expect(block.position == 7)
        #expect(block.bytes == [1, 0, 2, 0])
        #expect(throws: StreamError.interrupted(offset: cut.count)) { try reader.next() }
    }

    @Test func fourGigabytePayloadIsRefusedWithoutAllocating() {
        let bytes = Self.header + Self.packet(0x46, Self.formatPayload()) + [0x41, 0, 0, 0, 0xFF, 0xFF, 0xFF, 0xFF]
        #expect(throws: StreamError.corrupt(offset: 36, reason: "audio packet claims 4294967295 bytes (limit \(PacketLimits.maxAudioPayload + 8))")) {
            try readAll(bytes)
        }
    }

    @Test(arguments: [(0, 16000), (9, 16000), (1, 0), (1, 10_000_000)])
    func formatOutOfRange(channels: Int, rate: Int) {
        let bytes = Self.header + Self.packet(0x46, Self.formatPayload(channels: UInt8(channels), rate: UInt32(rate))) + Self.packet(0x5A, [])
        #expect(throws: StreamError.self) { try readAll(bytes) }
        do {
            _ = try readAll(bytes)
        } catch let error as StreamError {
            guard case .corrupt(let offset, _) = error else { Issue.record("expected corrupt, got \(error)"); return }
            #expect(offset == 24)
        } catch {
            Issue.record("unexpected \(error)")
        }
    }

    @Test func unknownSampleEncoding() {
        let bytes = Self.header + Self.packet(0x46, Self.formatPayload(encoding: 7))
        #expect(throws: StreamError.corrupt(offset: 24, reason: "unsupported sample encoding 7")) { try readAll(bytes) }
    }

    @Test func audioBeforeFormat() {
        let bytes = Self.header + Self.packet(0x41, [UInt8](repeating: 0, count: 10))
        #expect(throws: StreamError.corrupt(offset: 16, reason: "audio before any format record")) { try readAll(bytes) }
    }

    @Test func partialFrame() {
        let bytes = Self.header + Self.packet(0x46, Self.formatPayload()) + Self.packet(0x41, [UInt8](repeating: 0, count: 11))
        #expect(throws: StreamError.corrupt(offset: 36, reason: "audio packet of 3 bytes is not a whole number of 2-byte frames")) {
            try readAll(bytes)
        }
    }

    @Test func unknownPacketTypeFailsUnlessSkippable() throws {
        let unknown = Self.header + Self.packet(0x51, [1, 2, 3]) + Self.packet(0x5A, [])
        #expect(throws: StreamError.corrupt(offset: 16, reason: "unknown packet type 0x51")) { try readAll(unknown) }
        let skippable = Self.header + Self.packet(0x51, [1, 2, 3], flags: PacketLimits.skippableFlag) + Self.packet(0x5A, [])
        #expect(try readAll(skippable).isEmpty)
    }

    @Test func eventThatIsNotJSON() {
        let bytes = Self.header + Self.packet(0x45, Array("not json".utf8))
        #expect(throws: StreamError.corrupt(offset: 24, reason: "event is not a JSON object")) { try readAll(bytes) }
    }

    @Test func eventWithoutType() {
        let bytes = Self.header + Self.packet(0x45, Array(#"{"t":1}"#.utf8))
        #expect(throws: StreamError.corrupt(offset: 24, reason: "event has no string \"type\" member")) { try readAll(bytes) }
    }

    @Test func nonZeroReservedBytes() {
        var packet = Self.packet(0x5A, [])
        packet[2] = 1
        #expect(throws: StreamError.corrupt(offset: 18, reason: "reserved packet bytes are not zero")) { try readAll(Self.header + packet) }
    }

    @Test func garbageAfterEndMarker() {
        let bytes = Self.header + Self.packet(0x5A, []) + Array("junk".utf8)
        #expect(throws: StreamError.corrupt(offset: 24, reason: "expected a stream header or the end of input after the end marker")) {
            try readAll(bytes)
        }
    }

    @Test func knownEventWithWrongFieldsIsATypedError() throws {
        let event = try Event(json: Array(#"{"type":"segment.end","session":"x","index":"one"}"#.utf8))
        #expect(throws: EventError.self) { try event.decode(SegmentEnd.self) }
    }
}
