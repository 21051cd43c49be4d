@testable import APipeWhisper
import Foundation

/// Shared test fixtures: the model (loaded once) and espeak-ng speech resampled by sox.
enum Fixtures {
    static let packageRoot = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()

    /// Model directory: env APIPE_MODEL, else `models/tiny.en` in the package root.
    static let modelDirectory: String = {
        if let path = ProcessInfo.processInfo.environment["APIPE_MODEL"], !path.isEmpty { return path }
        return packageRoot.appendingPathComponent("models/tiny.en").path
    }()

    static var modelPresent: Bool { FileManager.default.fileExists(atPath: modelDirectory + "/model.bin") }

    static let skipMessage = "Whisper model absent at \(modelDirectory) (set APIPE_MODEL or run `make model`)"

    /// The model, loaded once for all tests; nil when absent.
    static let model: WhisperModel? = modelPresent ? try? WhisperModel.load(directory: modelDirectory) : nil

    /// The multilingual base model (`make model MODEL=base`): env APIPE_MODEL_BASE, else `models/base`.
    /// Optional: `make test` does not install it, and the tests that need it are skipped without it.
    static let baseModelDirectory: String = {
        if let path = ProcessInfo.processInfo.environment["APIPE_MODEL_BASE"], !path.isEmpty { return path }
        return packageRoot.appendingPathComponent("models/base").path
    }()

    static var baseModelPresent: Bool { FileManager.default.fileExists(atPath: baseModelDirectory + "/model.bin") }

    static let baseSkipMessage = "multilingual base model absent at \(baseModelDirectory) (set APIPE_MODEL_BASE or run `make model MODEL=base`)"

    /// The base model, loaded once; nil when absent.
    static let baseModel: WhisperModel? = baseModelPresent ? try? WhisperModel.load(directory: baseModelDirectory) : nil

    /// A fresh temporary directory.
    static func temporaryDirectory() throws -> URL {
        let url = FileManager.default.temporaryDirectory.appendingPathComponent("apipe-whisper-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: url, withIntermediateDirectories: true)
        return url
    }

    /// `text` spoken by espeak-ng (22 050 Hz), resampled to 16 kHz mono by sox, as floats.
    static func speech(_ text: String, voice: String = "en-us", rate: Int = 160) throws -> [Float] {
        let dir = try temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: dir) }
        let raw = dir.appendingPathComponent("speech.wav").path
        let resampled = dir.appendingPathComponent("speech16k.raw").path
        try run("espeak-ng", ["-v", voice, "-s", String(rate), "-w", raw, text])
        try run("sox", [raw, "-r", "16000", "-c", "1", "-e", "float", "-b", "32", "-t", "raw", resampled])
        let data = try Data(contentsOf: URL(fileURLWithPath: resampled))
        return data.withUnsafeBytes { Array($0.bindMemory(to: Float.self)) }
    }

    struct ToolFailed: Error, CustomStringConvertible { let description: String }

    static func run(_ tool: String, _ arguments: [String]) throws {
        let process = Process()
        process.executableURL = URL(fileURLWithPath: "/usr/bin/env")
        process.arguments = [tool] + arguments
        process.standardOutput = FileHandle.nullDevice
        process.standardError = FileHandle.nullDevice
        try process.run()
        process.waitUntilExit()
        guard process.terminationStatus == 0 else { throw ToolFailed(description: "\(tool) exited \(process.terminationStatus)") }
    }

    /// Word error rate (percent) of `hypothesis` against `reference`, case and punctuation ignored.
    static func wordErrorRate(reference: String, hypothesis: String) -> Double {
        func words(_ s: String) -> [String] {
            s.lowercased().replacingOccurrences(of: "'", with: "")
                .split(whereSeparator: { !($0.isLetter || $0.isNumber) }).map(String.init)
        }
        let r = words(reference), h = words(hypothesis)
        var row = Array(0...h.count)
        for i in 1...max(1, r.count) where !r.isEmpty {
            var previous = row[0]
            row[0] = i
            for j in stride(from: 1, through: h.count, by: 1) {
                let current = min(row[j] + 1, row[j - 1] + 1, previous + (r[i - 1] == h[j - 1] ? 0 : 1))
                previous = row[j]
                row[j] = current
            }
        }
        return 100 * Double(r.isEmpty ? h.count : row[h.count]) / Double(max(1, r.count))
    }
}
