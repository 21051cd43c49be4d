import APipeStream
import Testing

/// Random packet sequences survive writing and reading, and every prefix of a stream reads as
/// an interrupted stream (never a crash, never a wrong packet).
@Suite struct StreamPropertyTests {
    /// A small deterministic generator (SplitMix64), so failures reproduce.
    struct Generator: RandomNumberGenerator {
        var state: UInt64
        mutating func next() -> UInt64 {
            state &+= 0x9E37_79B9_7F4A_7C15
            var z = state
            z = (z ^ (z >> 30)) &* 0xBF58_476D_1CE4_E5B9
            z = (z ^ (z >> 27)) &* 0x94D0_49BB_1331_11EB
            return z ^ (z >> 31)
        }
    }

    func randomPackets(_ rng: inout Generator) throws -> [Packet] {
        var packets: [Packet] = []
        var format: AudioFormat?
        for _ in 0..<Int.random(in: 1...40, using: &rng) {
            switch Int.random(in: 0..<4, using: &rng) {
            case 0:
                let next = try AudioFormat(
                    encoding: Bool.random(using: &rng) ? .s16le : .f32le, rate: Int.random(in: 1...AudioFormat.maxRate, using: &rng),
                    channels: Int.random(in: 1...8, using: &rng))
                format = next
                packets.append(.format(next))
            case 1, 2:
                guard let format else { continue }
                let frames = Int.random(in: 0...300, using: &rng)
                let bytes = (0..<frames * format.bytesPerFrame).map { _ in UInt8.random(in: 0...255, using: &rng) }
                packets.append(.audio(AudioBlock(position: Int.random(in: 0...1 << 40, using: &rng), format: format, bytes: bytes)))
            default:
                let n = Int.random(in: 0...1_000_000, using: &rng)
                packets.append(.event(try Event(json: Array(#"{"type":"test.\#(n)","n":\#(n),"s":"é\"\\"}"#.utf8))))
            }
        }
        return packets
    }

    @Test(arguments: 0..<50)
    func randomSequencesRoundTrip(seed: Int) throws {
        var rng = Generator(state: UInt64(seed))
        let packets = try randomPackets(&rng)
        let writer = StreamWriter()
        for packet in packets { try writer.write(packet) }
        try writer.finish()
        let reader = StreamReader(bytes: writer.collected)
        var read: [Packet] = []
        while let packet = try reader.next() { read.append(packet) }
        // An empty audio block carries no frames and may be written as such; compare all.
        #expect(read == packets)
    }

    @Test(arguments: 0..<10)
    func everyPrefixIsInterruptedOrEmpty(seed: Int) throws {
        var rng = Generator(state: UInt64(seed) &+ 1000)
        let writer = StreamWriter()
        for packet in try randomPackets(&rng) { try writer.write(packet) }
        try writer.finish()
        let bytes = writer.collected
        for cut in stride(from: 0, to: bytes.count, by: max(1, bytes.count / 64)) {
            let reader = StreamReader(bytes: Array(bytes.prefix(cut)))
            do {
                while try reader.next() != nil {}
                Issue.record("prefix of \(cut) bytes read as complete")
            } catch let error as StreamError {
                switch error {
                case .empty: #expect(cut == 0)
                case .interrupted(let offset): #expect(offset == cut)
                default: Issue.record("prefix \(cut): \(error)")
                }
            }
        }
    }
}
