import APipeDSP
import Foundation

/// Test signals for the VAD: espeak-ng speech converted by sox, built at test time.
enum VADTestAudio {
    struct ToolFailed: Error, CustomStringConvertible {
        let description: String
    }

    /// Runs a tool, throwing with its name if it cannot run or fails.
    static func run(_ tool: String, _ arguments: [String]) throws {
        let process = Process()
        process.executableURL = URL(fileURLWithPath: "/usr/bin/env")
        process.arguments = [tool] + arguments
        process.standardOutput = FileHandle.nullDevice
        process.standardError = FileHandle.nullDevice
        try process.run()
        process.waitUntilExit()
        guard process.terminationStatus == 0 else {
            throw ToolFailed(description: "\(tool) failed (\(process.terminationStatus)); `make test` installs it")
        }
    }

    /// `text` spoken by espeak-ng, as float samples at `rate` with `channels` identical channels,
    /// trimmed to the speech (no leading or trailing silence).
    static func speech(_ text: String, rate: Int, channels: Int = 1, voice: String = "en-us") throws -> [Float] {
        let dir = FileManager.default.temporaryDirectory.appendingPathComponent("apipe-vad-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: dir, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: dir) }
        let wav = dir.appendingPathComponent("s.wav").path, raw = dir.appendingPathComponent("s.f32").path
        try run("espeak-ng", ["-v", voice, "-w", wav, text])
        try run("sox", [wav, "-t", "raw", "-e", "floating-point", "-b", "32", "-r", "\(rate)", "-c", "\(channels)", raw])
        let data = try Data(contentsOf: URL(fileURLWithPath: raw))
        let samples = data.withUnsafeBytes { Array($0.bindMemory(to: Float.self)) }
        let peak = samples.map(abs).max() ?? 0
        guard let first = samples.firstIndex(where: { abs($0) > peak * 0.003 }),
            let last = samples.lastIndex(where: { abs($0) > peak * 0.003 })
        else { return [] }
        let start = first / channels * channels, end = (last / channels + 1) * channels
        return Array(samples[start..<end])
    }

    /// Deterministic Gaussian-ish noise (sum of four uniforms), RMS about `rms`.
    static func noise(_ count: Int, rms: Float, seed: UInt64) -> [Float] {
        var state = seed | 1
        func uniform() -> Float {
            state ^= state << 13
            state ^= state >> 7
            state ^= state << 17
            return Float(state >> 40) / Float(1 << 24) - 0.5
        }
        // Four uniforms in -0.5...0.5 sum to variance 1/3.
        return (0..<count).map { _ in (uniform() + uniform() + uniform() + uniform()) * rms * 1.732 }
    }

    /// Runs a VAD over interleaved `samples` in chunks of `chunk` frames and returns every frame.
    static func frames(_ samples: [Float], _ configuration: VADConfiguration, chunk: Int = 4096) throws -> [VADFrame] {
        let vad = try VAD(configuration)
        var frames: [VADFrame] = []
        let step = chunk * configuration.channels
        samples.withUnsafeBufferPointer { all in
            var offset = 0
            while offset < all.count {
                let n = min(step, all.count - offset)
                vad.process(UnsafeBufferPointer(rebasing: all[offset..<offset + n]), into: &frames)
                offset += n
            }
        }
        vad.finish(into: &frames)
        return frames
    }
}
