#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// A file the user named on the command line, opened and written in place as any Unix tool
/// does: `open(2)` with `O_CREAT | O_TRUNC`, never a temporary file renamed over the path.
///
/// So a symlink is followed, a FIFO is written, a device stays a device (`/dev/null`,
/// `/dev/full`). Renaming into place is only for files a tool names and owns itself.
public final class OutputFile {
    public let path: String
    private var fd: Int32

    /// Opens (creating or truncating) `path` for writing.
    public init(path: String) throws(OutputFileError) {
        let fd = open(path, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0o666)
        guard fd >= 0 else { throw .cannotCreate(path: path, errno: errno) }
        self.path = path
        self.fd = fd
    }

    deinit {
        if fd >= 0 { Glibc.close(fd) }
    }

    /// Writes all of `bytes`.
    public func write(_ bytes: UnsafeRawBufferPointer) throws(OutputFileError) {
        do {
            try SystemIO.writeAll(fd, bytes)
        } catch StreamError.io(_, let code) {
            throw .writeFailed(path: path, errno: code)
        } catch {
            // writeAll's other error is EPIPE (a FIFO whose reader left).
            throw .writeFailed(path: path, errno: EPIPE)
        }
    }

    /// Writes `text` as UTF-8.
    public func write(_ text: String) throws {
        try Array(text.utf8).withUnsafeBytes { try write($0) }
    }

    /// Closes the file; a failing close (a lost delayed write) is a write error.
    public func close() throws(OutputFileError) {
        guard fd >= 0 else { return }
        let status = Glibc.close(fd)
        fd = -1
        guard status == 0 || errno == EINTR else { throw .writeFailed(path: path, errno: errno) }
    }
}

/// An output file named by the user could not be opened (73) or written (74).
public enum OutputFileError: Error, Equatable, CustomStringConvertible, ToolFailure {
    case cannotCreate(path: String, errno: Int32)
    case writeFailed(path: String, errno: Int32)

    public var description: String {
        switch self {
        case .cannotCreate(let path, let code): "cannot create '\(path)': \(String(cString: strerror(code)))"
        case .writeFailed(let path, let code): "cannot write '\(path)': \(String(cString: strerror(code)))"
        }
    }

    public var exitStatus: ExitStatus {
        switch self {
        case .cannotCreate: .cannotCreate
        case .writeFailed: .ioError
        }
    }
}
