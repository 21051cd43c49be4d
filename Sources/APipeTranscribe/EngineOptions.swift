import Foundation

/// Everything an engine may be built from: the command line's engine options and the environment.
public struct EngineOptions: Sendable {
    /// `--url`: base URL of an OpenAI-compatible server.
    public var url: String?
    /// `--model`: model name (a server's model, or the local model directory for whisper).
    public var model: String?
    public var language: String?
    public var prompt: String?
    /// The API key, from `--api-key-file` or `OPENAI_API_KEY`.
    public var apiKey: String?
    /// `--exec`: the command of the `command` engine.
    public var exec: String?
    /// `--timeout`: seconds per request or command run.
    public var timeout: Double = 120
    /// `--max-seconds`: split segments longer than this before sending them.
    public var maxSeconds: Double?
    /// `--jobs`, when given (engines size connection pools by it).
    public var jobs: Int?
    /// The environment (for `OPENAI_API_KEY`, `APIPE_MODEL`).
    public var environment: [String: String] = [:]

    public init() {}

    /// Reads the API key: the first line of `file` when given, else `OPENAI_API_KEY`.
    public static func apiKey(file: String?, environment: [String: String]) throws(EngineError) -> String? {
        if let file {
            guard let data = FileManager.default.contents(atPath: file) else {
                throw .unavailable("cannot read the API key file \(file)")
            }
            let key = String(decoding: data, as: UTF8.self).split(whereSeparator: \.isNewline).first.map {
                $0.trimmingCharacters(in: .whitespaces)
            }
            guard let key, !key.isEmpty else { throw .unavailable("the API key file \(file) is empty") }
            return key
        }
        return environment["OPENAI_API_KEY"].flatMap { $0.isEmpty ? nil : $0 }
    }
}
