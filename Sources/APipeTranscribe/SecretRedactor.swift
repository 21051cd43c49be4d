/// Removes an API key, and any `Bearer` credential, from text that may leave the engine
/// (error messages, warnings, `transcription.failed` events).
///
/// A server that echoes the request in its error body (`Authorization: Bearer sk-...`) must not
/// put the key on standard error or into the library.
struct SecretRedactor: Sendable {
    /// The key to hide; nil or empty hides only `Bearer` credentials.
    let secret: String?
    static let mask = "[redacted]"

    init(secret: String?) {
        self.secret = secret.flatMap { $0.isEmpty ? nil : $0 }
    }

    /// `text` with every occurrence of the key and every `Bearer <token>` masked.
    func clean(_ text: String) -> String {
        var result = text
        if let secret, result.contains(secret) {
            result = result.replacingOccurrences(of: secret, with: Self.mask)
        }
        guard result.range(of: "bearer", options: .caseInsensitive) != nil else { return result }
        return result.replacing(/(?i)(bearer)(\s+|%20|\+)[^\s"'<>,;&]+/) { match in
            match.output.1 + match.output.2 + Self.mask
        }
    }

    /// The error with every text it carries cleaned.
    func clean(_ error: EngineError) -> EngineError {
        switch error {
        case .offline(let detail): .offline(clean(detail))
        case .connection(let detail): .connection(clean(detail))
        case .server(let status, let message, let retryAfter): .server(status: status, message: clean(message), retryAfter: retryAfter)
        case .rejected(let status, let message): .rejected(status: status, message: clean(message))
        case .badResponse(let detail): .badResponse(clean(detail))
        case .badAudio(let detail): .badAudio(clean(detail))
        case .commandFailed(let detail): .commandFailed(clean(detail))
        case .unavailable(let detail): .unavailable(clean(detail))
        case .invalidOption(let detail): .invalidOption(clean(detail))
        case .timeout, .rateLimited, .unauthorized: error
        }
    }
}
