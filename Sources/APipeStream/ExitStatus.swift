/// Exit statuses shared by every apipe tool (sysexits-style, documented in each man page).
public enum ExitStatus: Int32, Sendable {
    case success = 0
    /// A processing error not covered below.
    case failure = 1
    /// The input stream ended without its end marker; everything before it was passed on.
    case interrupted = 3
    /// Bad command line, or binary output to a terminal.
    case usage = 64
    /// Input data is corrupt or not what the tool reads.
    case dataError = 65
    /// An input file cannot be opened.
    case noInput = 66
    /// A device, engine or service is unavailable.
    case unavailable = 69
    /// An output file or directory cannot be created.
    case cannotCreate = 73
    /// A read or write failed.
    case ioError = 74
    /// Stopped by a second SIGINT (130) or by SIGTERM (143) after passing on what arrived, marked
    /// interrupted; the tool ends by the signal itself, so this value is only its fallback.
    case stopped = 130
    /// The reader of our output went away; the conventional status of a SIGPIPE death.
    case brokenPipe = 141
}

/// An error that knows the tool's exit status and says what went wrong in one line.
public protocol ToolFailure: Error, CustomStringConvertible {
    var exitStatus: ExitStatus { get }
}

extension StreamError: ToolFailure {
    public var exitStatus: ExitStatus {
        switch self {
        case .empty, .notAStream, .unsupportedVersion, .corrupt: .dataError
        case .interrupted: .interrupted
        case .io: .ioError
        case .brokenPipe: .brokenPipe
        case .terminalOutput: .usage
        case .stopped: .stopped
        }
    }
}

extension FormatError: ToolFailure {
    public var exitStatus: ExitStatus { .usage }
}

extension EventError: ToolFailure {
    public var exitStatus: ExitStatus { .dataError }
}
