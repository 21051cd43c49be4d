import APipeStream
import Foundation
import Testing

@testable import APipeSegment

/// The stage on in-memory streams: order, exact boundaries, drop-silence, format changes, bad input.
struct SegmentStageTests {
    /// A voiced, syllable-like burst: 150 Hz sawtooth, amplitude-modulated at 4 Hz.
    static func burst(seconds: Double, rate: Int) -> [Float] {
        (0..<Int(seconds * Double(rate))).map { i in
            let t = Double(i) / Double(rate)
            let saw = 2 * (t * 150 - (t * 150).rounded(.down)) - 1
            return Float(0.2 * saw * (0.6 + 0.4 * sin(2 * Double.pi * 4 * t)))
        }
    }

    /// Silence (1 s), burst (1.5 s), silence (1.5 s), burst (1.5 s), silence (1 s), in 0.1 s blocks.
    static func layout(rate: Int, channels: Int = 1, encoding: SampleEncoding = .s16le) throws -> (StreamWriter, [ClosedRange<Double>]) {
        let writer = StreamWriter()
        let format = try AudioFormat(encoding: encoding, rate: rate, channels: channels)
        try writer.write(format: format)
        try writer.write(event: Xrun(session: "s", t: 0, count: 0, lostFrames: nil))
        var mono = [Float](repeating: 0, count: rate)
        mono += burst(seconds: 1.5, rate: rate) + [Float](repeating: 0, count: rate * 3 / 2)
        mono += burst(seconds: 1.5, rate: rate) + [Float](repeating: 0, count: rate)
        try write(mono, channels: channels, to: writer, position: 0)
        return (writer, [1.0...2.5, 4.0...5.5])
    }

    static func write(_ mono: [Float], channels: Int, to writer: StreamWriter, position: Int) throws {
        let block = max(1, (writer.format?.rate ?? 10) / 10)
        var scratch: [UInt8] = []
        var start = 0
        while start < mono.count {
            let end = min(start + block, mono.count)
            let interleaved = mono[start..<end].flatMap { Array(repeating: $0, count: channels) }
            try interleaved.withUnsafeBufferPointer { try writer.writeAudio(position: position + start, samples: $0, scratch: &scratch) }
            start = end
        }
    }

    static func pipe(_ input: StreamWriter, _ stage: SegmentStage, finish: Bool = true) throws -> [Packet] {
        if finish { try input.finish() } else { try input.flush() }
        var s = stage
        let output = StreamWriter()
        try StreamPump.run(&s, name: "asegment", input: StreamReader(bytes: input.collected), output: output)
        let reader = StreamReader(bytes: output.collected)
        var packets: [Packet] = []
        while let p = try reader.next() { packets.append(p) }
        return packets
    }

    static func ends(_ packets: [Packet]) throws -> [SegmentEnd] {
        try packets.compactMap { if case .event(let e) = $0 { try e.decode(SegmentEnd.self) } else { nil } }
    }

    @Test(arguments: [8000, 16000, 22050, 44100, 48000])
    func marksTheBurstsAndPassesAllAudioInOrder(rate: Int) throws {
        let (input, truth) = try Self.layout(rate: rate, channels: rate == 44100 ? 2 : 1)
        let packets = try Self.pipe(input, SegmentStage(options: SegmenterOptions()))
        var expected = 0
        for case .audio(let block) in packets {
            #expect(block.position == expected)
            expected += block.frames
        }
        #expect(expected == rate * 13 / 2)
        let ends = try Self.ends(packets)
        #expect(ends.count == 2, "\(ends)")
        for (end, speech) in zip(ends, truth) {
            // The segment holds all the speech; the VAD's onset lag (~0.1 s) eats into the pad.
            #expect(end.start <= speech.lowerBound && end.start > speech.lowerBound - 0.25, "start \(end.start)")
            #expect(end.end >= speech.upperBound && end.end < speech.upperBound + 0.35, "end \(end.end)")
            #expect(end.reason == "silence")
            #expect((end.probability ?? 0) > 0.5)
        }
        // Each event sits at its exact sample: audio before it ends there, audio after starts there.
        var position = 0
        for packet in packets {
            switch packet {
            case .audio(let block): position = block.position + block.frames
            case .event(let e):
                if let s = try e.decode(SegmentStart.self) { #expect(Int((s.start * Double(rate)).rounded()) == position) }
                if let s = try e.decode(SegmentEnd.self) { #expect(Int((s.end * Double(rate)).rounded()) == position) }
            case .format: break
            }
        }
    }

    @Test func unknownEventsPassUnchanged() throws {
        let (input, _) = try Self.layout(rate: 16000)
        let packets = try Self.pipe(input, SegmentStage(options: SegmenterOptions()))
        let xruns = packets.compactMap { if case .event(let e) = $0, e.type == "xrun" { e } else { nil } }
        #expect(xruns.count == 1)
    }

    @Test func dropSilenceKeepsOnlySegmentAudioAtTruePositions() throws {
        let (input, _) = try Self.layout(rate: 16000)
        let packets = try Self.pipe(input, SegmentStage(options: SegmenterOptions(), dropSilence: true))
        let ends = try Self.ends(packets)
        #expect(ends.count == 2)
        var kept = 0
        for case .audio(let block) in packets {
            let t0 = Double(block.position) / 16000, t1 = Double(block.position + block.frames) / 16000
            #expect(ends.contains { $0.start - 1e-6 <= t0 && t1 <= $0.end + 1e-6 })
            kept += block.frames
        }
        let inside = ends.reduce(0) { $0 + Int((($1.end - $1.start) * 16000).rounded()) }
        #expect(abs(kept - inside) <= 2)
    }

    @Test func fixedLengthCutsWithoutAVADEvenAtLowRates() throws {
        let writer = StreamWriter()
        try writer.write(format: AudioFormat(encoding: .s16le, rate: 1000, channels: 1))
        try Self.write([Float](repeating: 0.1, count: 2500), channels: 1, to: writer, position: 0)
        let ends = try Self.ends(try Self.pipe(writer, SegmentStage(options: SegmenterOptions(fixed: 1))))
        #expect(ends.map(\.reason) == ["fixed", "fixed", "end-of-stream"])
        #expect(ends.map(\.end) == [1, 2, 2.5])
        #expect(ends.allSatisfy { $0.probability == nil })
    }

    @Test func pureSilenceAndNoAudioGiveNoSegments() throws {
        let silent = StreamWriter()
        try silent.write(format: AudioFormat(encoding: .f32le, rate: 16000, channels: 1))
        try Self.write([Float](repeating: 0, count: 48000), channels: 1, to: silent, position: 0)
        #expect(try Self.ends(try Self.pipe(silent, SegmentStage(options: SegmenterOptions()))).isEmpty)
        let empty = StreamWriter()
        try empty.write(format: AudioFormat(encoding: .s16le, rate: 16000, channels: 1))
        let packets = try Self.pipe(empty, SegmentStage(options: SegmenterOptions()))
        #expect(packets.count == 1)
    }

    @Test func aFormatChangeClosesTheOpenSegmentAndStartsAfresh() throws {
        let writer = StreamWriter()
        try writer.write(format: AudioFormat(encoding: .s16le, rate: 16000, channels: 1))
        try Self.write([Float](repeating: 0, count: 16000) + Self.burst(seconds: 1.5, rate: 16000), channels: 1, to: writer, position: 0)
        try writer.write(format: AudioFormat(encoding: .s16le, rate: 8000, channels: 1))
        try Self.write(
            Self.burst(seconds: 1.5, rate: 8000) + [Float](repeating: 0, count: 8000), channels: 1, to: writer, position: 20000)
        let packets = try Self.pipe(writer, SegmentStage(options: SegmenterOptions()))
        let ends = try Self.ends(packets)
        #expect(ends.count == 2)
        #expect(ends.map(\.index) == [0, 1])
        #expect(ends.first?.reason == "end-of-stream")
        #expect(abs((ends.first?.end ?? 0) - 2.5) < 1e-6)
        #expect(abs((ends.last?.start ?? 0) - 2.5) < 0.05)
    }

    @Test func aVADBelow4kHzIsAClearError() throws {
        let writer = StreamWriter()
        try writer.write(format: AudioFormat(encoding: .s16le, rate: 2000, channels: 1))
        try Self.write([Float](repeating: 0, count: 100), channels: 1, to: writer, position: 0)
        #expect(throws: SegmentStageError.rateTooLow(2000)) {
            _ = try Self.pipe(writer, SegmentStage(options: SegmenterOptions()))
        }
    }

    @Test func labelsFileListsTheSegments() throws {
        let path = FileManager.default.temporaryDirectory.appendingPathComponent("apipe-labels-\(UUID().uuidString).txt").path
        defer { try? FileManager.default.removeItem(atPath: path) }
        let (input, _) = try Self.layout(rate: 16000)
        let ends = try Self.ends(try Self.pipe(input, SegmentStage(options: SegmenterOptions(), labels: LabelWriter(path: path))))
        let lines = try String(contentsOfFile: path, encoding: .utf8).split(separator: "\n")
        #expect(lines.count == ends.count)
        let fields = lines.first?.split(separator: "\t") ?? []
        #expect(fields.count == 3)
        #expect(fields.last == "0 silence")
        #expect(Double(fields.first ?? "") == (ends.first.map { ($0.start * 1e6).rounded() / 1e6 }))
    }
}
