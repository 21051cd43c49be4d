/// Why an engine could not transcribe a piece of audio, and whether trying again may help.
public enum EngineError: Error, Sendable, Equatable, CustomStringConvertible {
    /// No answer within the per-request time limit.
    case timeout(seconds: Double)
    /// The server could not be reached (refused, unreachable, name not found): offline.
    case offline(String)
    /// The connection broke before a full answer arrived.
    case connection(String)
    /// HTTP 429: too many requests; `retryAfter` seconds when the server said.
    case rateLimited(retryAfter: Double?)
    /// HTTP 5xx; `retryAfter` seconds when the server said (503).
    case server(status: Int, message: String, retryAfter: Double?)
    /// HTTP 401/403: the key is missing, wrong or lacks permission.
    case unauthorized(status: Int)
    /// Another HTTP 4xx: the server refused the request as made.
    case rejected(status: Int, message: String)
    /// The answer was not a transcription (HTML, malformed JSON, binary output).
    case badResponse(String)
    /// The audio cannot be transcribed (empty, too short, too long for the engine).
    case badAudio(String)
    /// The external command failed (non-zero exit status, could not start).
    case commandFailed(String)
    /// The engine cannot run here (no API key, no model, no command given).
    case unavailable(String)
    /// An option the engine cannot honour (a language its model lacks): a usage error.
    case invalidOption(String)

    /// Whether the same request may succeed later.
    public var isRetryable: Bool {
        switch self {
        case .timeout, .offline, .connection, .rateLimited, .server: true
        case .unauthorized, .rejected, .badResponse, .badAudio, .commandFailed, .unavailable, .invalidOption: false
        }
    }

    /// Whether the engine cannot be reached at all, so a fallback should be tried at once.
    public var isOffline: Bool {
        switch self {
        case .offline, .unavailable: true
        default: false
        }
    }

    /// Whether this is a failure to reach a service (for `--defer`: mark the segment pending).
    public var isNetworkFailure: Bool {
        switch self {
        case .timeout, .offline, .connection, .rateLimited, .server: true
        default: false
        }
    }

    /// The delay the server asked for, if any.
    public var retryAfter: Double? {
        switch self {
        case .rateLimited(let seconds): seconds
        case .server(_, _, let seconds): seconds
        default: nil
        }
    }

    public var description: String {
        switch self {
        case .timeout(let seconds): "no answer within \(Self.format(seconds)) s"
        case .offline(let detail): "service unreachable: \(detail)"
        case .connection(let detail): "connection failed: \(detail)"
        case .rateLimited(let after): "rate limited (HTTP 429)" + (after.map { ", retry after \(Self.format($0)) s" } ?? "")
        case .server(let status, let message, _): "server error (HTTP \(status))" + (message.isEmpty ? "" : ": \(message)")
        case .unauthorized(let status): "the server rejected the API key (HTTP \(status))"
        case .rejected(let status, let message): "request rejected (HTTP \(status))" + (message.isEmpty ? "" : ": \(message)")
        case .badResponse(let detail): "bad response: \(detail)"
        case .badAudio(let detail): "bad audio: \(detail)"
        case .commandFailed(let detail): detail
        case .unavailable(let detail): "engine unavailable: \(detail)"
        case .invalidOption(let detail): detail
        }
    }

    static func format(_ seconds: Double) -> String {
        seconds == seconds.rounded() ? String(Int(seconds)) : String(format: "%.3g", seconds)
    }
}

import Foundation
