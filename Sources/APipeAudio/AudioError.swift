import APipeStream

/// Why an audio file, device or converter failed; one line each.
public enum AudioError: Error, Equatable, ToolFailure {
    case cannotOpen(path: String, reason: String)
    case unreadable(path: String, reason: String)
    case cannotCreate(path: String, reason: String)
    case writeFailed(path: String, reason: String)
    case unsupportedRawFormat(String)
    case device(name: String, reason: String)
    case converter(String)

    public var description: String {
        switch self {
        case .cannotOpen(let path, let reason): "cannot open '\(path)': \(reason)"
        case .unreadable(let path, let reason): "cannot read audio from '\(path)': \(reason)"
        case .cannotCreate(let path, let reason): "cannot create '\(path)': \(reason)"
        case .writeFailed(let path, let reason): "writing '\(path)' failed: \(reason)"
        case .unsupportedRawFormat(let name): "unsupported raw format '\(name)' (use s16le, s32le, f32le or u8)"
        case .device(let name, let reason): "audio device '\(name)': \(reason)"
        case .converter(let reason): "sample-rate converter: \(reason)"
        }
    }

    public var exitStatus: ExitStatus {
        switch self {
        case .cannotOpen: .noInput
        case .unreadable: .dataError
        case .cannotCreate: .cannotCreate
        case .writeFailed: .ioError
        case .unsupportedRawFormat: .usage
        case .device: .unavailable
        case .converter: .failure
        }
    }
}
