/// Errors from loading a Whisper model or transcribing with it.
public enum WhisperError: Error, Equatable, CustomStringConvertible {
    /// The directory or file is not a usable CTranslate2 Whisper model.
    case notAModel(path: String, reason: String)
    /// The model is valid but uses something this engine does not implement.
    case unsupported(path: String, reason: String)
    /// The request cannot be served (bad option, prompt that cannot be encoded, ...).
    case invalidRequest(String)
    /// The model has no such language; `known` lists the codes it has (`en` alone for `.en` models).
    case unknownLanguage(String, known: [String])

    public var description: String {
        switch self {
        case .notAModel(let path, let reason): "not a CTranslate2 Whisper model: \(path): \(reason)"
        case .unsupported(let path, let reason): "unsupported Whisper model: \(path): \(reason)"
        case .invalidRequest(let reason): "invalid Whisper request: \(reason)"
        case .unknownLanguage(let code, let known) where known == ["en"]:
            "language '\(code)' is not available: the model is English-only (a multilingual model such as base knows it)"
        case .unknownLanguage(let code, let known): "unknown language '\(code)' (the model knows: \(known.joined(separator: " ")))"
        }
    }
}
