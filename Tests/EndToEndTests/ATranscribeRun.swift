import APipeStream
import Foundation

/// Runs the built `atranscribe` with stdin bytes; the binary comes from `APIPE_BIN` (default
/// `.build/release` under the package root).
enum ATranscribeRun {
    struct Output {
        var status: Int32
        var stdout: [UInt8]
        var stderr: String
    }

    static var binary: URL {
        if let dir = ProcessInfo.processInfo.environment["APIPE_BIN"], !dir.isEmpty {
            return URL(fileURLWithPath: dir).appendingPathComponent("atranscribe")
        }
        let root = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
        return root.appendingPathComponent(".build/release/atranscribe")
    }

    static func run(_ arguments: [String], input: [UInt8], environment: [String: String] = [:]) throws -> Output {
        let process = Process()
        process.executableURL = binary
        process.arguments = arguments
        var env = ProcessInfo.processInfo.environment
        env.removeValue(forKey: "OPENAI_API_KEY")
        for (key, value) in environment { env[key] = value }
        process.environment = env
        let stdin = Pipe()
        let stdout = Pipe()
        let stderr = Pipe()
        process.standardInput = stdin
        process.standardOutput = stdout
        process.standardError = stderr
        try process.run()
        let writer = Thread { try? stdin.fileHandleForWriting.write(contentsOf: Data(input)); try? stdin.fileHandleForWriting.close() }
        writer.start()
        let errors = ErrorCollector(stderr.fileHandleForReading)
        let out = stdout.fileHandleForReading.readDataToEndOfFile()
        process.waitUntilExit()
        return Output(status: process.terminationStatus, stdout: [UInt8](out), stderr: errors.text())
    }

    /// A session at 16 kHz with tone inside `segments` and silence outside.
    static func stream(seconds: Double, segments: [(Double, Double)]?, rate: Int = 16000) throws -> [UInt8] {
        let writer = StreamWriter()
        try writer.write(event: SessionStart(
            session: "0b3e8a2c-5d1f-4c2a-8e9b-1f2a3b4c5d6e", title: "e2e", created: "2026-11-22T06:00:00Z", preset: "low",
            rate: rate, bits: 16, channels: 1, format: "s16le", source: "test", device: nil, host: "test", os: "Linux", appVersion: "0"))
        try writer.write(format: AudioFormat(encoding: .s16le, rate: rate, channels: 1))
        let total = Int(seconds * Double(rate))
        let block = rate / 10
        var scratch: [UInt8] = []
        var position = 0
        var open = 0
        var index = 0
        while position < total {
            let t = Double(position) / Double(rate)
            if let segments, index < segments.count {
                if open == 0 && t >= segments[index].0 {
                    try writer.write(event: SegmentStart(session: "0b3e8a2c-5d1f-4c2a-8e9b-1f2a3b4c5d6e", index: index, start: segments[index].0))
                    open = 1
                } else if open == 1 && t >= segments[index].1 {
                    try writer.write(event: SegmentEnd(session: "0b3e8a2c-5d1f-4c2a-8e9b-1f2a3b4c5d6e", index: index, start: segments[index].0, end: segments[index].1, probability: 0.9, reason: "silence"))
                    open = 0
                    index += 1
                }
            }
            let count = min(block, total - position)
            let samples = (0..<count).map { Float(sin(Double(position + $0) * 0.2)) * (open == 1 ? 0.3 : 0) }
            try samples.withUnsafeBufferPointer { try writer.writeAudio(position: position, samples: $0, scratch: &scratch) }
            position += count
        }
        try writer.write(event: SessionEnd(session: "0b3e8a2c-5d1f-4c2a-8e9b-1f2a3b4c5d6e", duration: seconds, frames: total, interrupted: false))
        try writer.finish()
        return writer.collected
    }

    static func events(_ bytes: [UInt8]) throws -> [Event] {
        let reader = StreamReader(bytes: bytes)
        var events: [Event] = []
        while let packet = try reader.next() { if case .event(let e) = packet { events.append(e) } }
        return events
    }
}

/// Reads a pipe to its end on another thread.
final class ErrorCollector: @unchecked Sendable {
    private let done = DispatchSemaphore(value: 0)
    private var data = Data()

    init(_ handle: FileHandle) {
        Thread {
            self.data = handle.readDataToEndOfFile()
            self.done.signal()
        }.start()
    }

    func text() -> String {
        done.wait()
        return String(decoding: data, as: UTF8.self)
    }
}
