import APipeStream
import Testing

@Suite struct StreamRoundTripTests {
    let mono16 = try! AudioFormat(encoding: .s16le, rate: 16000, channels: 1)

    @Test func formatAudioAndEventsComeBackInOrder() throws {
        let writer = StreamWriter()
        try writer.write(format: mono16)
        let start = SessionStart(
            session: "6f1c", title: "t", created: "2026-01-01T00:00:00Z", preset: "low", rate: 16000, bits: 16,
            channels: 1, format: "s16le", source: "test", device: nil, host: "h", os: "linux", appVersion: "0")
        try writer.write(event: start)
        let samples: [Int16] = [0, 1, -1, 32767, -32768]
        try samples.withUnsafeBytes { try writer.writeAudio(position: 42, bytes: $0) }
        try writer.finish()

        let reader = StreamReader(bytes: writer.collected)
        #expect(try reader.next() == .format(mono16))
        guard case .event(let event) = try reader.next() else { Issue.record("expected an event"); return }
        #expect(event.type == "session.start")
        #expect(try event.decode(SessionStart.self) == start)
        guard case .audio(let block) = try reader.next() else { Issue.record("expected audio"); return }
        #expect(block.position == 42)
        #expect(block.frames == 5)
        var floats: [Float] = []
        block.appendSamples(to: &floats)
        let expected: [Float] = samples.map { Float($0) / 32768 }
        #expect(floats == expected)
        #expect(try reader.next() == nil)
        #expect(reader.offset == writer.collected.count)
    }

    @Test func unknownEventsKeepTheirExactBytes() throws {
        let json = Array(#"{"type":"x.custom","z":1,"a":[true,null],"t":0.5}"#.utf8)
        let writer = StreamWriter()
        try writer.write(try Event(json: json))
        try writer.finish()
        let reader = StreamReader(bytes: writer.collected)
        guard case .event(let event) = try reader.next() else { Issue.record("expected an event"); return }
        #expect(event.json == json)
        #expect(event.type == "x.custom")
    }

    @Test func concatenatedStreamsReadAsOne() throws {
        var bytes: [UInt8] = []
        for rate in [8000, 16000] {
            let writer = StreamWriter()
            try writer.write(format: try AudioFormat(encoding: .f32le, rate: rate, channels: 2))
            try writer.finish()
            bytes += writer.collected
        }
        let reader = StreamReader(bytes: bytes)
        #expect(try reader.next() == .format(try AudioFormat(encoding: .f32le, rate: 8000, channels: 2)))
        #expect(try reader.next() == .format(try AudioFormat(encoding: .f32le, rate: 16000, channels: 2)))
        #expect(try reader.next() == nil)
    }

    @Test func floatSamplesSurviveEncodingExactly() throws {
        let format = try AudioFormat(encoding: .f32le, rate: 48000, channels: 2)
        let writer = StreamWriter()
        try writer.write(format: format)
        let samples: [Float] = [0.25, -0.5, 1.5, -2, .pi, 0]
        var scratch: [UInt8] = []
        try samples.withUnsafeBufferPointer { try writer.writeAudio(position: 0, samples: $0, scratch: &scratch) }
        try writer.finish()
        let reader = StreamReader(bytes: writer.collected)
        _ = try reader.next()
        guard case .audio(let block) = try reader.next() else { Issue.record("expected audio"); return }
        var decoded: [Float] = []
        block.appendSamples(to: &decoded)
        #expect(decoded == samples)
        #expect(block.frames == 3)
    }

    @Test func s16EncodingRoundsAndClips() {
        #expect(SampleCodec.clippedInt16(2) == .max)
        #expect(SampleCodec.clippedInt16(-2) == .min)
        #expect(SampleCodec.clippedInt16(.nan) == 0)
        #expect(SampleCodec.clippedInt16(0.5 / 32768) == 0, "ties go to even")
        #expect(SampleCodec.clippedInt16(1.5 / 32768) == 2)
        #expect(SampleCodec.clippedInt16(-1) == -32768)
    }

    @Test func s16EncodingOfManySamplesMatchesTheScalarRule() throws {
        let samples: [Float] = [0, 1.5, -1.5, 1, -1, 0.5, -0.5, .nan, .infinity, -.infinity, 1e-5, 0.99999, 0.5 / 32768, 1.5 / 32768, -2.5 / 32768, 0.3]
        var bytes: [UInt8] = []
        samples.withUnsafeBufferPointer { SampleCodec.encode($0, encoding: .s16le, appendingTo: &bytes) }
        let decoded = stride(from: 0, to: bytes.count, by: 2).map { Int16(bitPattern: UInt16(bytes[$0]) | UInt16(bytes[$0 + 1]) << 8) }
        #expect(decoded == samples.map(SampleCodec.clippedInt16))
        #expect(Array(decoded.prefix(12)) == [0, 32767, -32768, 32767, -32768, 16384, -16384, 0, 32767, -32768, 0, 32767])
    }

    @Test func s16SurvivesDecodeAndEncodeExactly() {
        let values: [Int16] = (0..<1000).map { Int16(truncatingIfNeeded: $0 * 65 - 32768) } + [32767, -32768]
        var floats: [Float] = []
        values.withUnsafeBytes { SampleCodec.decode($0, encoding: .s16le, appendingTo: &floats) }
        var bytes: [UInt8] = []
        floats.withUnsafeBufferPointer { SampleCodec.encode($0, encoding: .s16le, appendingTo: &bytes) }
        #expect(bytes == values.withUnsafeBytes { Array($0) })
    }

    @Test func largeAudioIsSplitIntoLegalPacketsWithTruePositions() throws {
        let format = try AudioFormat(encoding: .f32le, rate: 48000, channels: 8)
        let writer = StreamWriter()
        try writer.write(format: format)
        let frames = PacketLimits.maxAudioPayload / format.bytesPerFrame * 2 + 7
        let bytes = [UInt8](repeating: 0, count: frames * format.bytesPerFrame)
        try bytes.withUnsafeBytes { try writer.writeAudio(position: 100, bytes: $0) }
        try writer.finish()
        let reader = StreamReader(bytes: writer.collected)
        var positions: [Int] = []
        var total = 0
        while let packet = try reader.next() {
            if case .audio(let block) = packet {
                positions.append(block.position)
                total += block.frames
            }
        }
        #expect(total == frames)
        #expect(positions.count == 3)
        #expect(positions[0] == 100)
        #expect(positions[1] == 100 + PacketLimits.maxAudioPayload / format.bytesPerFrame)
    }
}
