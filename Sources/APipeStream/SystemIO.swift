#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// The one place apipe calls read(2), write(2) and isatty(3): EINTR is retried, EPIPE becomes
/// `StreamError.brokenPipe`, every other failure a typed `StreamError.io`.
public enum SystemIO {
    /// Reads up to `count` bytes into `buffer`; returns 0 at end of input. Throws
    /// `StreamError.stopped` instead of waiting once a filter is asked to stop (`FilterSignals`).
    public static func read(_ fd: Int32, into buffer: UnsafeMutableRawPointer, count: Int) throws -> Int {
        while true {
            try FilterSignals.waitReadable(fd)
            let n = Glibc.read(fd, buffer, count)
            if n >= 0 { return n }
            if errno == EINTR { continue }
            throw StreamError.io(operation: "read", errno: errno)
        }
    }

    /// Writes all of `bytes`, looping over short writes.
    public static func writeAll(_ fd: Int32, _ bytes: UnsafeRawBufferPointer) throws {
        guard var base = bytes.baseAddress else { return }
        var left = bytes.count
        while left > 0 {
            let n = Glibc.write(fd, base, left)
            if n < 0 {
                if errno == EINTR { continue }
                if errno == EPIPE { throw StreamError.brokenPipe }
                throw StreamError.io(operation: "write", errno: errno)
            }
            left -= n
            base += n
        }
    }

    /// Whether `fd` is a terminal.
    public static func isTerminal(_ fd: Int32) -> Bool { isatty(fd) == 1 }

    /// Makes a closed reader show up as EPIPE instead of killing the process (exit 141).
    public static func ignoreBrokenPipeSignal() { signal(SIGPIPE, SIG_IGN) }
}
