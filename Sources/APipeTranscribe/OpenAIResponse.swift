import APipeStream
import Foundation

/// Reads an `/audio/transcriptions` answer: `verbose_json`, plain `json`, or plain text.
enum OpenAIResponse {
    private struct Verbose: Decodable {
        struct Segment: Decodable {
            var start: Double?
            var end: Double?
            var text: String?
            var avgLogprob: Double?
        }
        var text: String
        var language: String?
        var segments: [Segment]?
    }

    private struct Failure: Decodable {
        struct Detail: Decodable { var message: String? }
        var error: Detail?
    }

    /// Reads one answer; `redactor` cleans what of the body an error quotes, before it is cut short
    /// (so no part of a key survives at the cut).
    static func parse(status: Int, headers: [(String, String)], body: [UInt8], redactor: SecretRedactor) throws(EngineError) -> EngineResult {
        let contentType = header("content-type", in: headers)?.lowercased() ?? ""
        guard (200..<300).contains(status) else {
            let message = errorMessage(body, contentType: contentType, redactor: redactor)
            switch status {
            case 401, 403: throw .unauthorized(status: status)
            case 408: throw .connection("the server timed out the request (HTTP 408)")
            case 429: throw .rateLimited(retryAfter: retryAfter(headers))
            case 500...599: throw .server(status: status, message: message, retryAfter: retryAfter(headers))
            default: throw .rejected(status: status, message: message)
            }
        }
        if contentType.contains("html") || looksLikeHTML(body) {
            throw .badResponse("the server answered with an HTML page, not a transcription (check --url)")
        }
        if contentType.hasPrefix("text/plain") {
            guard let text = String(validating: body, as: UTF8.self) else { throw .badResponse("the answer is not UTF-8 text") }
            return EngineResult(text: text.trimmingCharacters(in: .whitespacesAndNewlines))
        }
        let decoder = JSONDecoder()
        decoder.keyDecodingStrategy = .convertFromSnakeCase
        guard let verbose = try? decoder.decode(Verbose.self, from: Data(body)) else {
            throw .badResponse("the answer is not transcription JSON (\(body.count) bytes: \(preview(body, redactor: redactor)))")
        }
        let segments = verbose.segments ?? []
        let phrases = segments.compactMap { segment -> TranscriptPhrase? in
            guard let start = segment.start, let end = segment.end, let text = segment.text else { return nil }
            return TranscriptPhrase(
                start: start, end: end, text: text.trimmingCharacters(in: .whitespaces),
                confidence: segment.avgLogprob.map { exp($0) })
        }
        return EngineResult(
            text: verbose.text.trimmingCharacters(in: .whitespacesAndNewlines), language: verbose.language.map { String($0.prefix(64)) },
            confidence: confidence(segments), phrases: phrases)
    }

    /// exp of the duration-weighted mean log probability, when every segment has one.
    private static func confidence(_ segments: [Verbose.Segment]) -> Double? {
        guard !segments.isEmpty else { return nil }
        var weighted = 0.0
        var total = 0.0
        for segment in segments {
            guard let logprob = segment.avgLogprob else { return nil }
            let weight = max(0.001, (segment.end ?? 0) - (segment.start ?? 0))
            weighted += logprob * weight
            total += weight
        }
        return min(1, max(0, exp(weighted / total)))
    }

    /// `Retry-After` in seconds: a number, or an HTTP date.
    static func retryAfter(_ headers: [(String, String)]) -> Double? {
        guard let value = header("retry-after", in: headers)?.trimmingCharacters(in: .whitespaces) else { return nil }
        if let seconds = Double(value), seconds.isFinite { return max(0, seconds) }
        let formatter = DateFormatter()
        formatter.locale = Locale(identifier: "en_US_POSIX")
        formatter.dateFormat = "EEE, dd MMM yyyy HH:mm:ss zzz"
        return formatter.date(from: value).map { max(0, $0.timeIntervalSinceNow) }
    }

    private static func header(_ name: String, in headers: [(String, String)]) -> String? {
        headers.first { $0.0.lowercased() == name }?.1
    }

    private static func errorMessage(_ body: [UInt8], contentType: String, redactor: SecretRedactor) -> String {
        if let failure = try? JSONDecoder().decode(Failure.self, from: Data(body)), let message = failure.error?.message {
            return String(redactor.clean(message).prefix(300))
        }
        if contentType.contains("html") || looksLikeHTML(body) { return "an HTML page" }
        return preview(body, redactor: redactor)
    }

    private static func looksLikeHTML(_ body: [UInt8]) -> Bool {
        let start = String(decoding: body.prefix(64), as: UTF8.self).trimmingCharacters(in: .whitespacesAndNewlines).lowercased()
        return start.hasPrefix("<!doctype html") || start.hasPrefix("<html")
    }

    /// The first bytes of a body, printable, for an error message.
    private static func preview(_ body: [UInt8], redactor: SecretRedactor) -> String {
        let text = redactor.clean(String(decoding: body.prefix(4096), as: UTF8.self))
        let printable = String(text.unicodeScalars.prefix(80).map { $0.value < 0x20 ? " " : Character($0) })
        return printable.isEmpty ? "empty" : "\"" + printable + (text.unicodeScalars.count > 80 || body.count > 4096 ? "…" : "") + "\""
    }
}
