// Per-request overhead of `atranscribe --engine openai` beside curl, against one local server
// that answers at once (FlyingFox: response head and body in two writes, no TCP_NODELAY, as
// many small servers do), in the same run. The server counts the connections it accepts.
import APipeStream
import APipeTranscribe
import FlyingFox
import FlyingSocks
import Foundation

/// Counts the connections a FlyingFox server opens (it logs each one); drops everything else.
final class ConnectionCounter: Logging, @unchecked Sendable {
    private let lock = NSLock()
    private var opened = 0

    var count: Int { lock.withLock { opened } }

    func logInfo(_ info: @autoclosure () -> String) {
        if info().hasSuffix("open connection") { lock.withLock { opened += 1 } }
    }
    func logDebug(_ debug: @autoclosure () -> String) {}
    func logWarning(_ warning: @autoclosure () -> String) {}
    func logError(_ error: @autoclosure () -> String) {}
    func logCritical(_ critical: @autoclosure () -> String) {}
}

struct RequestOverhead {
    /// The built atranscribe.
    let atranscribe: String
    let segments: Int

    /// Seconds `arguments` take to run to the end, with stdin from `input` and stdout to `output`.
    private func run(_ executable: String, _ arguments: [String], input: URL?, output: URL?) throws -> Double {
        let process = Process()
        process.executableURL = URL(fileURLWithPath: executable)
        process.arguments = arguments
        process.standardInput = try input.map { try FileHandle(forReadingFrom: $0) } ?? FileHandle.nullDevice
        if let output {
            FileManager.default.createFile(atPath: output.path, contents: nil)
            process.standardOutput = try FileHandle(forWritingTo: output)
        } else {
            process.standardOutput = FileHandle.nullDevice
        }
        let clock = ContinuousClock.now
        try process.run()
        process.waitUntilExit()
        let elapsed = ContinuousClock.now - clock
        guard process.terminationStatus == 0 else { throw CocoaError(.executableLoad) }
        return Double(elapsed.components.seconds) + Double(elapsed.components.attoseconds) * 1e-18
    }

    private static func label(_ text: String) -> String {
        text.padding(toLength: 36, withPad: " ", startingAt: 0)
    }

    private static func curlPath() -> String? {
        (ProcessInfo.processInfo.environment["PATH"] ?? "/usr/bin:/bin").split(separator: ":")
            .map { $0 + "/curl" }.first { FileManager.default.isExecutableFile(atPath: $0) }
    }

    func measure() async throws {
        let counter = ConnectionCounter()
        let server = HTTPServer(address: try .inet(ip4: "127.0.0.1", port: 0), timeout: 60, logger: counter)
        await server.appendRoute("POST /v1/audio/transcriptions") { request in
            _ = try await request.bodyData
            let body = #"{"text":"bench","language":"english","segments":[{"start":0,"end":1,"text":"bench","avg_logprob":-0.1}]}"#
            return HTTPResponse(statusCode: .ok, headers: [.contentType: "application/json"], body: Data(body.utf8))
        }
        let task = Task { try await server.run() }
        defer { task.cancel() }
        try await server.waitUntilListening()
        guard case .ip4(_, let port) = await server.listeningAddress else { fatalError("server has no address") }
        let url = "http://127.0.0.1:\(port)"

        let scratch = FileManager.default.temporaryDirectory.appendingPathComponent("apipe-transcribe-bench-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: scratch, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: scratch) }
        let input = scratch.appendingPathComponent("segments.apipe")
        try Data(try stream(segments: segments, length: 1)).write(to: input)
        let wav = scratch.appendingPathComponent("segment.wav")
        let tone = (0..<16000).map { Float(sin(Double($0) * 0.05)) * 0.3 }
        try Data(SegmentAudio(samples: tone, rate: 16000).wav()).write(to: wav)

        print("openai engine per-request overhead: \(segments) segments of 1 s, local server answering at once, curl in the same run")
        guard let curl = Self.curlPath() else {
            print("  curl not found: skipped (apt-get install curl)")
            await server.stop()
            return
        }
        var opened = counter.count
        var curlSeconds = 0.0
        for _ in 0..<segments {
            curlSeconds += try run(curl, ["-s", "-F", "file=@\(wav.path)", "-F", "model=whisper-1", url + "/v1/audio/transcriptions"], input: nil, output: nil)
        }
        let curlMs = curlSeconds / Double(segments) * 1000
        print(String(format: "  %@ %7.2f ms/request                     connections %d", Self.label("curl -F (a process per request)"), curlMs, counter.count - opened))
        for jobs in [1, 3] {
            opened = counter.count
            let output = scratch.appendingPathComponent("out-\(jobs).jsonl")
            let seconds = try run(atranscribe, ["--engine", "openai", "--url", url, "--jobs", "\(jobs)", "--retries", "0", "--jsonl"], input: input, output: output)
            let done = String(decoding: (try? Data(contentsOf: output)) ?? Data(), as: UTF8.self)
                .split(separator: "\n").filter { $0.contains(#""type":"transcription""#) }.count
            let ms = seconds / Double(segments) * 1000
            print(String(
                format: "  %@ %7.2f ms/segment   ratio %.2f x curl   connections %d",
                Self.label("atranscribe --jobs \(jobs) (one process)"), ms, ms / curlMs, counter.count - opened))
            if done != segments { print("  warning: \(segments - done) segments not transcribed") }
        }
        await server.stop()
    }
}
