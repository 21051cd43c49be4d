// apipe-transcribe-bench: throughput of atranscribe's queue against the ideal jobs / delay.
//
// An engine that answers after a fixed delay bounds what a perfect queue can do: with `jobs`
// requests in flight, `jobs / delay` segments per second. Two engines are measured: one that
// only sleeps (the queue alone), and the openai engine against an in-process HTTP server on
// 127.0.0.1 that answers after the delay (queue + HTTP + multipart WAV upload).
// Given the path of the built atranscribe, it then measures the tool's per-request overhead
// beside curl's (RequestOverhead.swift).
import APipeStream
import APipeTranscribe
import FlyingFox
import Foundation

struct SleepEngine: TranscriptionEngine {
    let delay: Duration
    var name: String { "sleep" }
    var method: String { "bench" }
    var provider: String { "bench" }
    var model: String? { nil }
    var preferredRate: Int { 16000 }
    var isNetwork: Bool { true }

    func transcribe(_ audio: SegmentAudio) async throws(EngineError) -> EngineResult {
        if delay > .zero { try? await Task.sleep(for: delay) }
        return EngineResult(text: "bench")
    }
}

let session = "00000000-0000-4000-8000-000000000000"

/// A session with `count` segments of `length` seconds, 0.05 s apart, at 16 kHz.
func stream(segments count: Int, length: Double) throws -> [UInt8] {
    let rate = 16000
    let writer = StreamWriter()
    try writer.write(event: SessionStart(
        session: session, title: "bench", created: "2026-01-01T00:00:00Z", preset: "low", rate: rate, bits: 16,
        channels: 1, format: "s16le", source: "bench", device: nil, host: "bench", os: "Linux", appVersion: "0"))
    try writer.write(format: AudioFormat(encoding: .s16le, rate: rate, channels: 1))
    let segmentFrames = Int(length * Double(rate))
    let gapFrames = rate / 20
    let samples = (0..<segmentFrames).map { Float(sin(Double($0) * 0.05)) * 0.3 }
    let gap = [Float](repeating: 0, count: gapFrames)
    var scratch: [UInt8] = []
    var position = 0
    for index in 0..<count {
        try gap.withUnsafeBufferPointer { try writer.writeAudio(position: position, samples: $0, scratch: &scratch) }
        position += gapFrames
        let start = Double(position) / Double(rate)
        try writer.write(event: SegmentStart(session: session, index: index, start: start))
        try samples.withUnsafeBufferPointer { try writer.writeAudio(position: position, samples: $0, scratch: &scratch) }
        position += segmentFrames
        try writer.write(event: SegmentEnd(session: session, index: index, start: start, end: Double(position) / Double(rate), probability: 0.9, reason: "silence"))
    }
    try writer.write(event: SessionEnd(session: session, duration: Double(position) / Double(rate), frames: position, interrupted: false))
    try writer.finish()
    return writer.collected
}

/// Seconds to run the stage over `input` with `engine` and `jobs`, and the transcriptions made.
func measure(_ engine: any TranscriptionEngine, jobs: Int, input: [UInt8]) async throws -> (Double, Int) {
    let transcriber = SegmentTranscriber(engines: [engine], policy: RetryPolicy(retries: 0))
    let stage = TranscribeStage(transcriber: transcriber, jobs: jobs)
    let sink = JSONLinesSink()
    let clock = ContinuousClock.now
    try await stage.run(reader: StreamReader(bytes: input), sink: sink, warn: { FileHandle.standardError.write(Data(($0 + "\n").utf8)) })
    let elapsed = ContinuousClock.now - clock
    let done = sink.collected.split(separator: 0x0A).filter { String(decoding: $0, as: UTF8.self).contains("\"type\":\"transcription\"") }.count
    return (Double(elapsed.components.seconds) + Double(elapsed.components.attoseconds) * 1e-18, done)
}

func report(_ label: String, jobs: Int, delay: Double, segments: Int, elapsed: Double, done: Int, baseline: Double) {
    let rate = Double(done) / elapsed
    let ideal = Double(jobs) / delay
    let overhead = (elapsed - Double(segments) * delay / Double(jobs)) / Double(segments) * 1000
    let pad = label.padding(toLength: 24, withPad: " ", startingAt: 0)
    print(String(
        format: "%@ jobs=%-3d delay=%3.0f ms  segments=%-5d  %8.1f seg/s   ideal %8.1f seg/s   ratio %.3f   overhead %.3f ms/segment (queue alone, no delay: %.1f us/segment)",
        pad, jobs, delay * 1000, segments, rate, ideal, rate / ideal, overhead, baseline * 1e6))
    if done != segments { print("  warning: \(segments - done) segments not transcribed") }
}

let delay = Double(ProcessInfo.processInfo.environment["BENCH_DELAY_MS"] ?? "") .map { $0 / 1000 } ?? 0.05
let seconds = Double(ProcessInfo.processInfo.environment["BENCH_SECONDS"] ?? "") ?? 4

// A server answering every upload after `delay` with a small verbose_json transcript.
let server = HTTPServer(address: try .inet(ip4: "127.0.0.1", port: 0), timeout: 60, logger: .disabled)
await server.appendRoute("POST /v1/audio/transcriptions") { request in
    _ = try await request.bodyData
    try? await Task.sleep(for: .seconds(delay))
    let body = #"{"text":"bench","language":"english","segments":[{"start":0,"end":0.25,"text":"bench","avg_logprob":-0.1}]}"#
    return HTTPResponse(statusCode: .ok, headers: [.contentType: "application/json"], body: Data(body.utf8))
}
let serverTask = Task { try await server.run() }
try await server.waitUntilListening()
guard case .ip4(_, let port) = await server.listeningAddress else { fatalError("server has no address") }

print("atranscribe queue throughput (ideal = jobs / delay; ratio 1.000 = no queue loss)")
for jobs in [3, 32] {
    let segments = max(20, Int(seconds * Double(jobs) / delay))
    let input = try stream(segments: segments, length: 0.25)
    let (quick, quickDone) = try await measure(SleepEngine(delay: .zero), jobs: jobs, input: input)
    let baseline = quick / Double(max(1, quickDone))
    let (slept, sleptDone) = try await measure(SleepEngine(delay: .seconds(delay)), jobs: jobs, input: input)
    report("sleeping engine", jobs: jobs, delay: delay, segments: segments, elapsed: slept, done: sleptDone, baseline: baseline)
    var configuration = OpenAIEngine.Configuration()
    configuration.url = "http://127.0.0.1:\(port)"
    configuration.connections = jobs
    let engine = OpenAIEngine(configuration: configuration, apiKey: nil)
    let (http, httpDone) = try await measure(engine, jobs: jobs, input: input)
    await engine.shutdown()
    report("openai engine over HTTP", jobs: jobs, delay: delay, segments: segments, elapsed: http, done: httpDone, baseline: baseline)
}
await server.stop()
serverTask.cancel()

// With the built atranscribe's path: its per-request overhead beside curl's.
if let atranscribe = CommandLine.arguments.dropFirst().first {
    let segments = Int(ProcessInfo.processInfo.environment["BENCH_SEGMENTS"] ?? "") ?? 40
    print("")
    try await RequestOverhead(atranscribe: atranscribe, segments: max(1, segments)).measure()
}
