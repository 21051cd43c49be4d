import APipeStream
import Foundation
import Testing

/// `asegment` as a process: espeak-ng speech in a stream, segment events out, exit statuses.
struct ASegmentPipelineTests {
    static var bin: String { ProcessInfo.processInfo.environment["APIPE_BIN"] ?? ".build/release" }
    static var binary: String { bin + "/asegment" }

    struct Run {
        var status: Int32
        var stdout: [UInt8]
        var stderr: String
    }

    static func run(_ tool: String, _ arguments: [String], stdin: [UInt8]) throws -> Run {
        let process = Process()
        process.executableURL = URL(fileURLWithPath: tool)
        process.arguments = arguments
        let input = Pipe(), output = Pipe(), errors = Pipe()
        process.standardInput = input
        process.standardOutput = output
        process.standardError = errors
        try process.run()
        let writer = Thread {
            input.fileHandleForWriting.write(Data(stdin))
            try? input.fileHandleForWriting.close()
        }
        writer.start()
        let out = output.fileHandleForReading.readDataToEndOfFile()
        let err = errors.fileHandleForReading.readDataToEndOfFile()
        process.waitUntilExit()
        return Run(status: process.terminationStatus, stdout: Array(out), stderr: String(decoding: err, as: UTF8.self))
    }

    static func tool(_ name: String, _ arguments: [String]) throws {
        let process = Process()
        process.executableURL = URL(fileURLWithPath: "/usr/bin/env")
        process.arguments = [name] + arguments
        process.standardOutput = FileHandle.nullDevice
        process.standardError = FileHandle.nullDevice
        try process.run()
        process.waitUntilExit()
        guard process.terminationStatus == 0 else { throw CocoaError(.executableLoad) }
    }

    /// Two espeak-ng sentences at 16 kHz: 1 s silence, sentence, 2 s silence, sentence, 1 s silence.
    /// Returns the stream and the sentences' true spans in seconds.
    static func talk() throws -> ([UInt8], [ClosedRange<Double>], [Float]) {
        let dir = FileManager.default.temporaryDirectory.appendingPathComponent("apipe-e2e-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: dir, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: dir) }
        var mono = [Float](repeating: 0, count: 16000)
        var spans: [ClosedRange<Double>] = []
        for (i, text) in ["good morning everyone and thank you for coming", "let us start with the budget review"].enumerated() {
            let wav = dir.appendingPathComponent("\(i).wav").path, raw = dir.appendingPathComponent("\(i).f32").path
            try tool("espeak-ng", ["-w", wav, text])
            try tool("sox", [wav, "-t", "raw", "-e", "floating-point", "-b", "32", "-r", "16000", raw])
            let samples = try Data(contentsOf: URL(fileURLWithPath: raw)).withUnsafeBytes { Array($0.bindMemory(to: Float.self)) }
            let peak = samples.map(abs).max() ?? 1
            let first = samples.firstIndex { abs($0) > peak * 0.003 } ?? 0
            let last = samples.lastIndex { abs($0) > peak * 0.003 } ?? 0
            spans.append(Double(mono.count) / 16000...Double(mono.count + last - first) / 16000)
            mono += samples[first...last]
            mono += [Float](repeating: 0, count: i == 0 ? 32000 : 16000)
        }
        let writer = StreamWriter()
        try writer.write(format: AudioFormat(encoding: .s16le, rate: 16000, channels: 1))
        var scratch: [UInt8] = []
        var start = 0
        while start < mono.count {
            let end = min(start + 1600, mono.count)
            try mono[start..<end].withUnsafeBufferPointer { try writer.writeAudio(position: start, samples: $0, scratch: &scratch) }
            start = end
        }
        try writer.finish()
        return (writer.collected, spans, mono)
    }

    @Test func segmentsMatchTheKnownLayout() throws {
        let (stream, spans, mono) = try Self.talk()
        let result = try Self.run(Self.binary, ["--labels", "/dev/null"], stdin: stream)
        #expect(result.status == 0, "\(result.stderr)")
        let reader = StreamReader(bytes: result.stdout)
        var ends: [SegmentEnd] = []
        var frames = 0
        while let packet = try reader.next() {
            switch packet {
            case .event(let e): if let end = try e.decode(SegmentEnd.self) { ends.append(end) }
            case .audio(let block): frames += block.frames
            case .format: break
            }
        }
        #expect(frames == mono.count)
        #expect(ends.count == 2, "\(ends)")
        for (end, span) in zip(ends, spans) {
            // Each segment holds all of its sentence, within the pad (0.2 s) and the VAD's onset lag.
            #expect(end.start <= span.lowerBound && end.start > span.lowerBound - 0.25, "start \(end.start) for \(span)")
            #expect(end.end >= span.upperBound && end.end < span.upperBound + 0.35, "end \(end.end) for \(span)")
            #expect(end.reason == "silence")
        }
    }

    @Test func acaptureToAsegmentToAcatEvents() throws {
        let (_, spans, mono) = try Self.talk()
        let dir = FileManager.default.temporaryDirectory.appendingPathComponent("apipe-e2e-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: dir, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: dir) }
        let raw = dir.appendingPathComponent("talk.f32").path, wav = dir.appendingPathComponent("talk.wav").path
        try mono.withUnsafeBufferPointer { try Data(buffer: $0).write(to: URL(fileURLWithPath: raw)) }
        try Self.tool("sox", ["-t", "raw", "-e", "floating-point", "-b", "32", "-r", "16000", "-c", "1", raw, "-b", "16", wav])
        let pipeline = "'\(Self.bin)/acapture' -i '\(wav)' | '\(Self.bin)/asegment' | '\(Self.bin)/acat' --events"
        let result = try Self.run("/bin/sh", ["-c", pipeline], stdin: [])
        #expect(result.status == 0, "\(result.stderr)")
        let ends = String(decoding: result.stdout, as: UTF8.self).split(separator: "\n").compactMap { line -> [String: Any]? in
            guard let object = try? JSONSerialization.jsonObject(with: Data(line.utf8)) as? [String: Any],
                object["type"] as? String == "segment.end"
            else { return nil }
            return object
        }
        #expect(ends.count == 2, "\(String(decoding: result.stdout, as: UTF8.self))")
        for (end, span) in zip(ends, spans) {
            let start = end["start"] as? Double ?? -1, stop = end["end"] as? Double ?? -1
            #expect(start <= span.lowerBound && start > span.lowerBound - 0.25, "start \(start) for \(span)")
            #expect(stop >= span.upperBound && stop < span.upperBound + 0.35, "end \(stop) for \(span)")
            #expect(end["reason"] as? String == "silence")
        }
    }

    @Test func optionsOutOfRangeExitWithUsage() throws {
        let result = try Self.run(Self.binary, ["--threshold", "2"], stdin: [])
        #expect(result.status == 64)
        #expect(result.stderr.contains("--threshold 2"))
    }

    @Test func foreignInputFailsWithADataError() throws {
        let result = try Self.run(Self.binary, [], stdin: Array("RIFF this is not a stream at all".utf8))
        #expect(result.status == 65)
        #expect(!result.stderr.isEmpty)
    }
}
