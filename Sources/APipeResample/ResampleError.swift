import APipeStream

/// Input `aresample` cannot convert.
public enum ResampleError: Error, Equatable, CustomStringConvertible, ToolFailure {
    /// Converted to the output rate, the audio position would pass the largest stream position.
    case positionOutOfRange(position: Int, inputRate: Int, outputRate: Int)

    public var description: String {
        switch self {
        case .positionOutOfRange(let position, let inputRate, let outputRate):
            "audio position \(position) at \(inputRate) Hz is beyond the largest stream position (2^62) at \(outputRate) Hz"
        }
    }

    public var exitStatus: ExitStatus { .dataError }
}
