import Foundation

/// Any external recogniser: runs a shell command per segment and takes the text from its
/// standard output.
///
/// `{wav}` in the command is replaced by the path of a temporary 16-bit mono WAV file;
/// without it the WAV goes to the command's standard input. A non-zero exit status fails the
/// segment (with the last line of the command's standard error); the time limit kills the
/// command's whole process group.
public struct CommandEngine: TranscriptionEngine {
    public let command: String
    public let timeout: Double
    public let preferredRate: Int
    public let model: String?
    public let maxSeconds: Double?
    public var name: String { "command" }
    public var method: String { "external-command" }
    public var isNetwork: Bool { false }
    /// Standard output beyond this is an error, not a transcript.
    public static let maxOutput = 1 << 20

    public init(command: String, timeout: Double = 600, rate: Int = 16000, model: String? = nil, maxSeconds: Double? = nil) {
        self.command = command
        self.timeout = timeout
        self.preferredRate = rate
        self.model = model
        self.maxSeconds = maxSeconds
    }

    /// The command's program name, without its directory.
    public var provider: String {
        let first = command.split(whereSeparator: \.isWhitespace).first.map(String.init) ?? "command"
        return first.split(separator: "/").last.map(String.init) ?? first
    }

    public func transcribe(_ audio: SegmentAudio) async throws(EngineError) -> EngineResult {
        let wav = audio.resampled(to: preferredRate).wav()
        var file: URL?
        var line = command
        if command.contains("{wav}") {
            let url = FileManager.default.temporaryDirectory.appendingPathComponent("atranscribe-\(UUID().uuidString).wav")
            do {
                try Data(wav).write(to: url)
            } catch {
                throw .commandFailed("cannot write a temporary WAV file: \(error.localizedDescription)")
            }
            file = url
            line = command.replacingOccurrences(of: "{wav}", with: Self.shellQuoted(url.path))
        }
        defer { if let file { try? FileManager.default.removeItem(at: file) } }
        let outcome: Subprocess.Outcome
        do {
            outcome = try await Subprocess.run(shell: line, input: file == nil ? wav : nil, timeout: timeout, maxOutput: Self.maxOutput)
        } catch {
            switch error {
            case .timedOut: throw .timeout(seconds: timeout)
            case .cannotStart(let detail): throw .commandFailed(detail)
            }
        }
        let lastError = Self.lastLine(outcome.errorOutput)
        if let signal = outcome.signal {
            throw .commandFailed("\(provider) was killed by signal \(signal)" + (lastError.map { ": \($0)" } ?? ""))
        }
        if let status = outcome.status, status != 0 {
            let hint = status == 127 ? " (command not found)" : ""
            throw .commandFailed("\(provider) exited with status \(status)\(hint)" + (lastError.map { ": \($0)" } ?? ""))
        }
        if outcome.outputOverflowed {
            throw .badResponse("\(provider) wrote more than \(Self.maxOutput) bytes; not a transcript")
        }
        guard let text = String(validating: outcome.output, as: UTF8.self), !text.unicodeScalars.contains(where: Self.isGarbage) else {
            throw .badResponse("\(provider) wrote binary output, not text")
        }
        return EngineResult(text: text.trimmingCharacters(in: .whitespacesAndNewlines))
    }

    /// Control characters other than tab, newline and carriage return.
    private static func isGarbage(_ scalar: Unicode.Scalar) -> Bool {
        scalar.value < 0x20 && scalar != "\t" && scalar != "\n" && scalar != "\r"
    }

    static func shellQuoted(_ text: String) -> String {
        "'" + text.replacingOccurrences(of: "'", with: "'\\''") + "'"
    }

    private static func lastLine(_ bytes: [UInt8]) -> String? {
        let text = String(decoding: bytes, as: UTF8.self)
        let line = text.split(whereSeparator: \.isNewline).last.map { String($0.prefix(300)) }
        return line?.trimmingCharacters(in: .whitespaces).isEmpty == false ? line : nil
    }
}
