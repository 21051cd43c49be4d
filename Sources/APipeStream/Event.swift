import Foundation

/// One metadata event: a JSON object with a `"type"` member, kept as the exact bytes that arrived
/// so that stages pass events they do not understand on unchanged.
public struct Event: Sendable, Equatable {
    /// The event's `"type"` member, e.g. `session.start`.
    public let type: String
    /// The JSON object, UTF-8, one line, no trailing newline.
    public let json: [UInt8]

    /// Wraps received JSON after checking it is an object with a string `"type"`.
    public init(json: [UInt8]) throws(EventError) {
        guard let object = try? JSONSerialization.jsonObject(with: Data(json)) as? [String: Any] else {
            throw .notAnObject
        }
        guard let type = object["type"] as? String, !type.isEmpty else { throw .missingType }
        guard !json.contains(0x0A) else { throw .multiline }
        self.type = type
        self.json = json
    }

    /// Encodes a known event, or says why it cannot be (a NaN or infinite number has no JSON form).
    public init<E: StreamEvent>(encoding event: E) throws(EventError) {
        do {
            self.json = Array(try Event.encoder.encode(TypedEvent(type: E.type, body: event)))
        } catch {
            throw .unencodable(type: E.type, detail: Event.describe(error))
        }
        self.type = E.type
    }

    /// Encodes a known event; one that cannot be encoded gets empty JSON, which every writer
    /// refuses (`init(encoding:)` says why).
    public init<E: StreamEvent>(_ event: E) {
        self = (try? Event(encoding: event)) ?? Event(type: E.type, unchecked: [])
    }

    private init(type: String, unchecked json: [UInt8]) {
        self.type = type
        self.json = json
    }

    /// Why a writer must not write this event (empty or over the reader's size limit), or nil.
    public var unwritableReason: EventError? {
        if json.isEmpty { return .unencodable(type: type, detail: "no JSON") }
        if json.count > PacketLimits.maxEventPayload { return .tooLarge(type: type, bytes: json.count) }
        return nil
    }

    /// Decodes this event as `E`, or nil when its type is another one.
    public func decode<E: StreamEvent>(_: E.Type) throws(EventError) -> E? {
        guard type == E.type else { return nil }
        do {
            return try Event.decoder.decode(E.self, from: Data(json))
        } catch {
            throw .badFields(type: type, detail: Event.describe(error))
        }
    }

    /// The JSON text.
    public var text: String { String(decoding: json, as: UTF8.self) }

    static let encoder: JSONEncoder = {
        let encoder = JSONEncoder()
        encoder.keyEncodingStrategy = .convertToSnakeCase
        encoder.outputFormatting = [.sortedKeys, .withoutEscapingSlashes]
        return encoder
    }()

    static let decoder: JSONDecoder = {
        let decoder = JSONDecoder()
        decoder.keyDecodingStrategy = .convertFromSnakeCase
        return decoder
    }()

    private static func describe(_ error: any Error) -> String {
        if case .invalidValue(let value, let context) = error as? EncodingError {
            return "field '\(context.codingPath.map { snakeCase($0.stringValue) }.joined(separator: "."))' holds \(value), which JSON cannot carry"
        }
        return switch error as? DecodingError {
        case .keyNotFound(let key, _): "missing field '\(snakeCase(key.stringValue))'"
        case .typeMismatch(_, let context), .valueNotFound(_, let context), .dataCorrupted(let context):
            "bad field '\(context.codingPath.map { snakeCase($0.stringValue) }.joined(separator: "."))'"
        default: "\(error)"
        }
    }

    private static func snakeCase(_ name: String) -> String {
        name.reduce(into: "") { out, c in
            if c.isUppercase { out += "_" + c.lowercased() } else { out.append(c) }
        }
    }
}

/// Why bytes are not a valid event.
public enum EventError: Error, Equatable, CustomStringConvertible {
    case notAnObject
    case missingType
    case multiline
    case badFields(type: String, detail: String)
    /// A known event could not be encoded (a non-finite number).
    case unencodable(type: String, detail: String)
    /// The event's JSON is over the stream's event size limit.
    case tooLarge(type: String, bytes: Int)

    public var description: String {
        switch self {
        case .notAnObject: "event is not a JSON object"
        case .missingType: "event has no string \"type\" member"
        case .multiline: "event JSON spans several lines"
        case .badFields(let type, let detail): "\(type) event: \(detail)"
        case .unencodable(let type, let detail): "\(type) event cannot be encoded: \(detail)"
        case .tooLarge(let type, let bytes): "\(type) event of \(bytes) bytes is over the \(PacketLimits.maxEventPayload)-byte limit"
        }
    }
}

/// An event type this project defines; its fields are encoded in snake_case.
public protocol StreamEvent: Codable, Sendable {
    static var type: String { get }
}

/// Puts `"type"` beside the event's own fields in one flat object.
private struct TypedEvent<Body: StreamEvent>: Encodable {
    let type: String
    let body: Body

    private enum Key: String, CodingKey { case type }

    func encode(to encoder: any Encoder) throws {
        try body.encode(to: encoder)
        var container = encoder.container(keyedBy: Key.self)
        try container.encode(type, forKey: .type)
    }
}
