/// Why a stream could not be read or written; every case describes itself in one line.
public enum StreamError: Error, Equatable, CustomStringConvertible {
    /// The input holds no bytes at all.
    case empty
    /// The first bytes are not an apipe stream header; `hint` names what it looks like instead.
    case notAStream(hint: String)
    /// The header names a major version this reader does not know.
    case unsupportedVersion(major: Int, minor: Int)
    /// A packet breaks the format at `offset` (bytes from the start of the input).
    case corrupt(offset: Int, reason: String)
    /// The input ended at `offset` without an end marker: the upstream stage stopped early.
    case interrupted(offset: Int)
    /// A read or write system call failed.
    case io(operation: String, errno: Int32)
    /// The reader of our output went away (EPIPE); tools leave quietly.
    case brokenPipe
    /// Binary output was about to go to a terminal.
    case terminalOutput
    /// A second SIGINT, or SIGTERM, asked the stage to stop before its input ended; the packets
    /// before `offset` were read whole.
    case stopped(signal: Int32, offset: Int)

    /// Where an input that started well broke off (interrupted, corrupt or stopped); nil otherwise.
    public var breakOffset: Int? {
        switch self {
        case .interrupted(let offset), .corrupt(let offset, _), .stopped(_, let offset): offset
        default: nil
        }
    }

    public var description: String {
        switch self {
        case .empty:
            return "input is empty: expected an apipe stream"
        case .notAStream(let hint):
            return "input is not an apipe stream (bad magic at byte 0\(hint.isEmpty ? "" : "; \(hint)"))"
        case .unsupportedVersion(let major, let minor):
            return "unsupported stream version \(major).\(minor) at byte 8 (this reader knows version \(StreamHeader.majorVersion).x)"
        case .corrupt(let offset, let reason):
            return "corrupt stream at byte \(offset): \(reason)"
        case .interrupted(let offset):
            return "input ended at byte \(offset) without an end marker (upstream stopped early)"
        case .io(let operation, let errno):
            return "\(operation) failed: \(String(cString: strerror(errno)))"
        case .brokenPipe:
            return "output closed by the reader"
        case .terminalOutput:
            return "refusing to write a binary stream to a terminal; pipe it into another tool (| acat)"
        case .stopped(let signal, let offset):
            let name = signal == SIGTERM ? "SIGTERM" : signal == SIGINT ? "SIGINT" : "signal \(signal)"
            return "stopped by \(name) at byte \(offset), before the input ended"
        }
    }
}

#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif
