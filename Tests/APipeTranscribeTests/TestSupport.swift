import APipeStream
import Foundation
@testable import APipeTranscribe

/// Streams built in memory for the tests.
enum TestStream {
    static let session = "7b0c6a44-1f6e-4e0a-9a57-3a1f0c2d9e11"

    static func sessionStart(rate: Int, channels: Int = 1) -> SessionStart {
        SessionStart(
            session: session, title: "test", created: "2026-11-22T06:00:00Z", preset: nil, rate: rate, bits: 16,
            channels: channels, format: "s16le", source: "test", device: nil, host: "test", os: "Linux", appVersion: "0")
    }

    /// The sample value that marks segment `index`, exact in s16.
    static func marker(_ index: Int) -> Float { Float((index % 60) + 1) * 512 / 32768 }

    /// A session of `seconds` at `rate`, with segment events at `segments` (start, end) when given.
    /// Audio inside segment `i` holds the constant `marker(i)`; outside, silence.
    static func make(
        seconds: Double, rate: Int = 16000, segments: [(Double, Double)]? = nil, blockSeconds: Double = 0.1,
        channels: Int = 1, end: Bool = true
    ) -> [UInt8] {
        let writer = StreamWriter()
        try! writer.write(event: sessionStart(rate: rate, channels: channels))
        try! writer.write(format: try! AudioFormat(encoding: .s16le, rate: rate, channels: channels))
        let total = Int((seconds * Double(rate)).rounded())
        let block = max(1, Int(blockSeconds * Double(rate)))
        var position = 0
        var scratch: [UInt8] = []
        var opened = Set<Int>()
        var closed = Set<Int>()
        func events(upTo frame: Int) {
            guard let segments else { return }
            for (i, (start, stop)) in segments.enumerated() {
                if !opened.contains(i), Int(start * Double(rate)) <= frame {
                    opened.insert(i)
                    try! writer.write(event: SegmentStart(session: session, index: i, start: start))
                }
                if !closed.contains(i), opened.contains(i), Int(stop * Double(rate)) <= frame {
                    closed.insert(i)
                    try! writer.write(event: SegmentEnd(session: session, index: i, start: start, end: stop, probability: 0.9, reason: "silence"))
                }
            }
        }
        while position < total {
            events(upTo: position)
            let count = min(block, total - position)
            var samples = [Float](repeating: 0, count: count * channels)
            for f in 0..<count {
                let t = Double(position + f) / Double(rate)
                if let segments, let i = segments.firstIndex(where: { t >= $0.0 && t < $0.1 }) {
                    for c in 0..<channels { samples[f * channels + c] = marker(i) }
                }
            }
            samples.withUnsafeBufferPointer { try! writer.writeAudio(position: position, samples: $0, scratch: &scratch) }
            position += count
        }
        events(upTo: Int.max / 2)
        if end {
            try! writer.write(event: SessionEnd(session: session, duration: seconds, frames: total, interrupted: false))
            try! writer.finish()
        } else {
            try! writer.flush()
        }
        return writer.collected
    }

    /// Every packet of a stream.
    static func packets(_ bytes: [UInt8]) throws -> [Packet] {
        let reader = StreamReader(bytes: bytes)
        var packets: [Packet] = []
        while let packet = try reader.next() { packets.append(packet) }
        return packets
    }

    static func events(_ packets: [Packet]) -> [Event] {
        packets.compactMap { if case .event(let e) = $0 { e } else { nil } }
    }

    static func audio(_ packets: [Packet]) -> [AudioBlock] {
        packets.compactMap { if case .audio(let a) = $0 { a } else { nil } }
    }
}

/// An engine whose answers a closure decides; counts its calls.
final class ScriptedEngine: TranscriptionEngine, @unchecked Sendable {
    let name: String
    let isNetwork: Bool
    let maxSeconds: Double?
    let preferredRate: Int
    var method: String { "test" }
    var provider: String { "scripted-\(name)" }
    var model: String? { "m-\(name)" }
    private let lock = NSLock()
    private var log: [Int] = []
    private let answer: @Sendable (Int, Int, SegmentAudio) async throws(EngineError) -> EngineResult

    /// `answer(segmentIndex, callNumber, audio)`; the segment index comes from the audio's marker.
    init(
        name: String = "scripted", isNetwork: Bool = true, maxSeconds: Double? = nil, rate: Int = 16000,
        answer: @escaping @Sendable (Int, Int, SegmentAudio) async throws(EngineError) -> EngineResult
    ) {
        self.name = name
        self.isNetwork = isNetwork
        self.maxSeconds = maxSeconds
        self.preferredRate = rate
        self.answer = answer
    }

    var calls: [Int] {
        lock.lock()
        defer { lock.unlock() }
        return log
    }

    func transcribe(_ audio: SegmentAudio) async throws(EngineError) -> EngineResult {
        let index = Self.index(of: audio)
        let call = lock.withLock {
            log.append(index)
            return log.count
        }
        return try await answer(index, call, audio)
    }

    /// The segment index the audio's marker value stands for (-1 for silence).
    static func index(of audio: SegmentAudio) -> Int {
        guard let peak = audio.samples.max(), peak > 0 else { return -1 }
        return Int((peak * 32768 / 512).rounded()) - 1
    }
}

/// Runs a stage over stream bytes and returns the output packets and the warnings.
func runStage(_ stage: TranscribeStage, input: [UInt8]) async throws -> (packets: [Packet], warnings: [String]) {
    let writer = StreamWriter()
    let warnings = WarningLog()
    try await stage.run(reader: StreamReader(bytes: input), sink: StreamSink(writer), warn: { warnings.add($0) })
    return (try TestStream.packets(writer.collected), warnings.lines)
}

final class WarningLog: @unchecked Sendable {
    private let lock = NSLock()
    private var log: [String] = []
    func add(_ line: String) { lock.lock(); log.append(line); lock.unlock() }
    var lines: [String] { lock.lock(); defer { lock.unlock() }; return log }
}

func makeStage(_ engines: [any TranscriptionEngine], jobs: Int = 4, retries: Int = 3, maxPending: Int? = nil, window: Double = 30, deferring: Bool = false) -> TranscribeStage {
    let transcriber = SegmentTranscriber(
        engines: engines, policy: RetryPolicy(retries: retries, baseDelay: 0.005, maxDelay: 0.05, jitter: 0),
        deferNetworkFailures: deferring)
    return TranscribeStage(transcriber: transcriber, jobs: jobs, maxPendingSegments: maxPending, windowSeconds: window)
}
